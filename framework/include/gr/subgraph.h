/* SPDX-License-Identifier: Apache-2.0 */
/* One device's share of the graph: its owned vertices with their out-edges
 * (and in-edges where a primitive pulls), plus proxies for remote vertices.
 * With duplicate-all proxies local ids are global ids; with duplicate-1-hop
 * the owned vertices come first, then remote neighbours grouped by owner.
 * The partitioners build these; a one-device run uses the whole graph. */
#ifndef GR_SUBGRAPH_H
#define GR_SUBGRAPH_H

#include <stdbool.h>

#include "gr/graph.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gr_proxy_mode { GR_PROXY_ALL = 0, GR_PROXY_1HOP = 1 } gr_proxy_mode;
typedef enum gr_comm_mode { GR_COMM_SELECTIVE = 0, GR_COMM_BROADCAST = 1 } gr_comm_mode;

typedef struct gr_subgraph {
  int part;               /* this device's index */
  int n_parts;
  gr_proxy_mode proxy;
  gr_vid n_global;        /* vertices of the whole graph */
  gr_vid n_local;         /* local ids are 0..n_local-1 */
  gr_vid n_owned;         /* vertices this part owns */
  gr_csr out;             /* local CSR (rows of non-owned vertices are empty) */
  gr_csr in;              /* local CSC, when built (in.offsets NULL otherwise) */
  gr_vid *local_to_global; /* n_local entries; NULL when local ids are global */
  gr_vid *global_to_local; /* n_global entries (GR_NO_VERTEX: not here); NULL
                              when local ids are global */
  int32_t *owner;         /* part owning each local vertex; NULL when all are owned */
  gr_vid *owner_local;    /* the vertex's id on its owner (1-hop); NULL otherwise */
  gr_vid *peer_begin;     /* 1-hop: n_parts + 1 entries; the proxies owned by
                             part j are local ids [peer_begin[j],
                             peer_begin[j+1]) (empty for this part); NULL
                             when local ids are global */
  bool owns_arrays;       /* false when out/in alias the host graph's arrays */
  /* A part whose lists stay in the whole graph until they are uploaded
   * (gr_subgraphs_build_lazy): out.indices and out.weights (in's too) are
   * NULL, and lists_out (lists_in) is the whole graph's CSR (CSC), whose
   * rows of owned vertices are the part's rows (duplicate-all: the same
   * row ids; 1-hop: local row i is row local_to_global[i], its ids to be
   * converted through global_to_local); gr_subgraph_fill_lists gathers
   * them, gr_subgraph_materialize builds the part's arrays.
   * lists_out.offsets NULL: the lists are in out and in. */
  gr_csr lists_out;
  gr_csr lists_in;
} gr_subgraph;

/* The whole graph as the single part of a one-device run (arrays aliased,
 * in-edges when needs_in, the weights when needs_weights: the devices
 * receive what a part holds, so a primitive that reads no weights gets
 * none, as from gr_subgraphs_build). */
gr_status gr_subgraph_whole(gr_subgraph **out, gr_graph *g, bool needs_in, bool needs_weights);
void gr_subgraph_destroy(gr_subgraph **s);

/* Whether s's lists are still in the whole graph (lists_out). */
static inline bool gr_subgraph_lists_deferred(const gr_subgraph *s) { return s->lists_out.offsets != NULL; }
/* What gr_subgraph_fill_lists gathers: one array of a deferred part's CSR
 * (CSC), its neighbour ids or (weights) its arcs' weights. */
typedef struct gr_subgraph_lists {
  const gr_csr *part;  /* the part's rows: offsets */
  const gr_csr *whole; /* the graph's rows the part's are (lists_out or lists_in) */
  bool weights;
  const gr_vid *rows;  /* part row i is the graph's row rows[i] (1-hop); NULL: row i */
  const gr_vid *ids;   /* neighbour ids become ids[id] (1-hop: local ids); NULL: kept */
  gr_vid n_ids;        /* ... an id at or past it has no local id: stored as 0, and counted */
  unsigned long long *unmapped; /* ... here (atomically) */
} gr_subgraph_lists;
/* The gathering of s's out-lists (in: its in-lists), their ids or weights;
 * ids without a local id counted in *unmapped. */
gr_subgraph_lists gr_subgraph_lists_of(const gr_subgraph *s, bool in, bool weights, unsigned long long *unmapped);
/* Writes bytes [off, off + len) of the part's array (ctx: a
 * gr_subgraph_lists) to `to`, copying runs of consecutive rows at once (a
 * gr_fill_fn for gr_device_upload_fill; off and len multiples of the
 * element's size). */
void gr_subgraph_fill_lists(void *ctx, void *to, size_t off, size_t len);
/* Elements [first, first + count) of one of s's arrays (its out-lists, in:
 * in-lists; their ids or weights) for a reader on the host: a pointer into
 * the part's array where it has one, else the piece gathered from the
 * graph into buf (count elements' room; ids without a local id read as
 * 0, the upload having refused them). NULL where s has no such array. */
const void *gr_subgraph_piece(const gr_subgraph *s, bool in, bool weights, gr_eid first, gr_eid count, void *buf);
/* Visits s's array (as gr_subgraph_piece) in pieces of at most 2^20
 * elements over the host's threads, each from the part's array or gathered
 * into a buffer of the visiting thread's: visit(ctx, piece, first, count);
 * a visit that returns true leaves the pieces not yet begun unvisited.
 * GR_ERR_HOST_OOM where a thread had no room for its buffer (some pieces
 * then unvisited), GR_ERR_INTERNAL where s has no such array. */
typedef bool (*gr_piece_fn)(void *ctx, const void *piece, gr_eid first, gr_eid count);
gr_status gr_subgraph_for_pieces(const gr_subgraph *s, bool in, bool weights, gr_piece_fn visit, void *ctx);
/* GR_ERR_BAD_INPUT for `unmapped` neighbours without a local id (an
 * undirected graph missing reverse arcs), GR_SUCCESS for none. */
gr_status gr_subgraph_unmapped_error(unsigned long long unmapped);
/* Builds a deferred part's arrays in host memory (for a reader of the
 * host's lists: packed lists, lists in host memory); nothing for a part
 * that has them. */
gr_status gr_subgraph_materialize(gr_subgraph *s);

static inline gr_vid gr_subgraph_global(const gr_subgraph *s, gr_vid local) {
  return s->local_to_global ? s->local_to_global[local] : local;
}
/* The local id of a global vertex; false when this part does not hold it. */
static inline bool gr_subgraph_local(const gr_subgraph *s, gr_vid global, gr_vid *local) {
  if (global >= s->n_global) return false;
  gr_vid l = s->global_to_local ? s->global_to_local[global] : global;
  if (l == GR_NO_VERTEX || l >= s->n_local) return false;
  *local = l;
  return true;
}
static inline bool gr_subgraph_owns(const gr_subgraph *s, gr_vid local) {
  return s->owner ? s->owner[local] == s->part : true;
}

#ifdef __cplusplus
}
#endif

#endif
