/* SPDX-License-Identifier: Apache-2.0 */
/* Host graphs: COO edge lists as read or generated, and the CSR (out-edges)
 * and CSC (in-edges) every device builds from, with 64-bit offsets. Readers
 * for Matrix Market (.mtx, .mtx.gz), plain/SNAP edge lists and gr's own
 * checksummed binary CSR format, which doubles as the load cache. */
#ifndef GR_GRAPH_H
#define GR_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "gr/status.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A compressed sparse row view: rows 0..n-1, row r's neighbours are
 * indices[offsets[r] .. offsets[r+1]). For a CSC the rows are destinations
 * and the indices sources. */
struct gr_packed;
typedef struct gr_csr {
  gr_vid n;
  gr_eid m;
  gr_eid *offsets;    /* n + 1 */
  gr_vid *indices;    /* m; NULL on a device whose lists are packed */
  gr_weight *weights; /* m, or NULL */
  /* On a device with --compress packed: the ids as packed lists (packed.h),
   * read through the framework's operators; NULL otherwise. */
  const struct gr_packed *packed;
} gr_csr;

/* Edge list as read or generated. Vertex ids are dense (0..n-1); where the
 * input had sparse ids, orig_ids maps them back. */
typedef struct gr_coo {
  uint64_t n;
  uint64_t m;
  uint64_t capacity;
  gr_vid *src;
  gr_vid *dst;
  gr_weight *w;       /* NULL when the input has no weights */
  bool symmetric;     /* each entry stands for an undirected edge */
  int id_base;        /* ids in the input start at 0 or 1 */
  uint64_t *orig_ids; /* n entries, or NULL when id = dense id + id_base */
} gr_coo;
#define GR_COO_INIT {0, 0, 0, NULL, NULL, NULL, false, 0, NULL}

gr_status gr_coo_reserve(gr_coo *c, uint64_t edges, bool weights);
gr_status gr_coo_push(gr_coo *c, gr_vid s, gr_vid d, gr_weight w);
void gr_coo_free(gr_coo *c);

typedef enum gr_file_format {
  GR_FORMAT_AUTO = 0,     /* by name: .mtx[.gz], .grb, else edge list */
  GR_FORMAT_MTX = 1,
  GR_FORMAT_EDGELIST = 2,
  GR_FORMAT_BINARY = 3
} gr_file_format;

typedef enum gr_weight_kind {
  GR_WEIGHTS_FILE = 0,   /* as the file has them (none for pattern files) */
  GR_WEIGHTS_NONE = 1,   /* drop them */
  GR_WEIGHTS_RANDOM = 2  /* uniform in [lo, hi], integers when both are */
} gr_weight_kind;

typedef struct gr_weight_spec {
  gr_weight_kind kind;
  double lo, hi;
  bool integer;
} gr_weight_spec;
#define GR_WEIGHT_SPEC_INIT {GR_WEIGHTS_FILE, 0.0, 0.0, false}
/* Parses "file", "none" or "random:LO:HI". */
gr_status gr_weight_spec_parse(gr_weight_spec *out, const char *text);

/* Self-loop and duplicate handling: GR_CLEAN_DEFAULT removes them for
 * undirected graphs and keeps them for directed ones. */
typedef enum gr_clean_mode {
  GR_CLEAN_DEFAULT = 0,
  GR_CLEAN_KEEP = 1,
  GR_CLEAN_REMOVE = 2
} gr_clean_mode;

typedef struct gr_load_options {
  bool undirected;          /* symmetrize (symmetric files are undirected) */
  gr_clean_mode self_loops;
  gr_clean_mode duplicates;
  gr_weight_spec weights;
  uint64_t seed;            /* random weights */
  gr_file_format format;
  bool use_cache;           /* read/write the binary cache */
  const char *cache_dir;    /* NULL: beside the input when writable */
  int progress;             /* 0 when stderr is a terminal, 1 always, -1 never */
  int threads;              /* 0: all host threads */
  bool build_csc;           /* build in-edges now (else on first use) */
} gr_load_options;
#define GR_LOAD_OPTIONS_INIT                                                  \
  {false, GR_CLEAN_DEFAULT, GR_CLEAN_DEFAULT, GR_WEIGHT_SPEC_INIT, 1,          \
   GR_FORMAT_AUTO, true, NULL, 0, 0, false}

typedef struct gr_graph gr_graph;

/* Reads a graph file. Bad input is GR_ERR_BAD_INPUT with a message naming
 * the file, the line and the problem; a missing file or a directory is
 * GR_ERR_IO; sizes beyond the build's vertex range GR_ERR_TOO_LARGE; a graph
 * that cannot fit in host memory GR_ERR_HOST_OOM saying how much it needs. */
gr_status gr_graph_load(gr_graph **out, const char *path,
                        const gr_load_options *options);
/* Builds the CSR from an edge list (consumed: *coo is freed). */
gr_status gr_graph_from_coo(gr_graph **out, gr_coo *coo,
                            const gr_load_options *options);
/* Drops the handle's reference: the graph goes once no problem holds it. */
void gr_graph_destroy(gr_graph **g);
/* Library-internal: a reference a problem holds (gr_problem_create), and
 * its release (gr_problem_destroy); the last release frees the graph. */
void gr__graph_hold(gr_graph *g);
void gr__graph_release(gr_graph *g);

/* Writes the graph: Matrix Market (symmetric lower triangle for undirected
 * graphs, with weights when it has them) or the binary CSR format. */
gr_status gr_graph_save_mtx(const gr_graph *g, const char *path);
gr_status gr_graph_save_binary(const gr_graph *g, const char *path);

const gr_csr *gr_graph_out(const gr_graph *g);
/* In-edges (CSC). For undirected graphs the same arrays as out. Built on
 * first call for directed graphs, so the graph is not const here. */
gr_status gr_graph_in(gr_graph *g, const gr_csr **out);
gr_vid gr_graph_num_vertices(const gr_graph *g);
/* Arcs stored in the CSR (an undirected edge counts twice). */
gr_eid gr_graph_num_arcs(const gr_graph *g);
/* Edges as the user counts them: arcs for directed graphs; undirected edges
 * (a self-loop once) for undirected ones. */
gr_eid gr_graph_num_edges(const gr_graph *g);
/* Self-loop arcs stored (each stored once, also in undirected graphs). */
gr_eid gr_graph_num_self_loops(const gr_graph *g);
/* The edges a search from the reached vertices walks, as the user counts
 * them (gr_graph_num_edges): a reached vertex's out-arcs on a directed
 * graph; on an undirected one each edge with a reached end once. Reached:
 * depth[v] >= 0, or dist[v] finite. On an undirected graph without
 * self-loops an edge with one reached end has both (a search reaches
 * every neighbour), so the count is half the reached vertices' degrees,
 * from the offsets alone; with self-loops every arc's id is read. */
gr_eid gr_graph_edges_reached(const gr_graph *g, const gr_svid *depth);
gr_eid gr_graph_edges_reached_float(const gr_graph *g, const float *dist);
bool gr_graph_is_directed(const gr_graph *g);
bool gr_graph_has_weights(const gr_graph *g);

/* What a weighted search needs to know of the weights before it starts:
 * their sum, the least positive one, the rows with arcs, and the first row
 * holding a weight that is negative, infinite or NaN (n when none). The
 * sum adds each row's weights in order, rows in GR_WEIGHT_SUMMARY_BLOCKS
 * fixed blocks and the blocks in order: the same double on any thread
 * count. */
enum { GR_WEIGHT_SUMMARY_BLOCKS = 1024 };
typedef struct gr_weight_summary {
  double sum;
  gr_weight least_positive; /* +inf when no weight is positive */
  uint64_t rows_with_arcs;
  gr_vid first_bad_row;
} gr_weight_summary;
/* One pass over c's weights on `threads` threads (0: all).
 * GR_ERR_INVALID_ARG where c has arcs and no weights. */
gr_status gr_csr_weight_summary(const gr_csr *c, int threads, gr_weight_summary *out);
/* The graph's out-arcs' summary: generated weights come with theirs,
 * others are summed once, at the first call, and kept (the graph is not
 * const here, as for gr_graph_in). GR_ERR_INVALID_ARG without weights. */
gr_status gr_graph_weight_summary(gr_graph *g, gr_weight_summary *out);
static inline gr_eid gr_csr_degree(const gr_csr *c, gr_vid v) {
  return c->offsets[v + 1] - c->offsets[v];
}

/* Vertex ids as in the input: 1-based for Matrix Market, the original
 * (sparse) ids for edge lists, 0-based for generated graphs. */
uint64_t gr_graph_original_id(const gr_graph *g, gr_vid v);
/* Finds the dense vertex of an input id; GR_ERR_INVALID_ARG when absent. */
gr_status gr_graph_find_vertex(const gr_graph *g, uint64_t original_id,
                               gr_vid *out);
/* Where the graph came from ("karate.mtx", "kron:22:16"). */
const char *gr_graph_name(const gr_graph *g);
/* Whether the last load came from the binary cache. */
bool gr_graph_from_cache(const gr_graph *g);
/* Seconds the load took. */
double gr_graph_load_seconds(const gr_graph *g);

#ifdef __cplusplus
}
#endif

#endif
