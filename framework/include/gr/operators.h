/* SPDX-License-Identifier: Apache-2.0 */
/* The three frontier operators, as argument blocks shared by both backends.
 * A primitive instantiates them for its per-element functions: with the
 * GR_CPU_* macros of operators_cpu.h in its _cpu.c file and with the
 * templates of operators/cuda/operators.cuh in its _cuda.cu file.
 *
 *  advance push: for each frontier vertex u and out-edge (u, v, e):
 *                if visit(u, v, e) then v joins the output.
 *  advance pull: for each wanted vertex v (unvisited), over in-edges (u, v, e)
 *                with u in the frontier bitmap: the first visit(u, v, e) that
 *                succeeds puts v in the output and stops v's scan; wanted
 *                vertices not found may go to a second output.
 *  filter:       keeps the elements with keep(v), once each when a culling
 *                bitmap is given; without an input list, the ids [0, n).
 *  split:        sends each element to one of two outputs or to neither, by
 *                the class klass(v) gives it (0, 1, anything else: neither).
 *  for each:     op(v) on every frontier element or every vertex.
 *  bitmap:       bit v of a bitmap = pred(v), for every v in [0, n). */
#ifndef GR_OPERATORS_H
#define GR_OPERATORS_H

#include <string.h>

#include "gr/graph.h"
#include "gr/owner_words.h"
#include "gr/types.h"
#include "gr/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gr_advance_push_args {
  const gr_csr *g;      /* device-resident CSR */
  const gr_vid *in;     /* input queue */
  gr_eid n_in;
  gr_vid *out;          /* output queue */
  gr_eid out_capacity;
  gr_eid n_out;         /* result: items written */
  gr_eid edges;         /* result: edges visited */
  /* Optional: count the output's out-degrees over these offsets while
   * emitting it (the next level's edges and largest degree, without a pass
   * of their own). */
  const gr_eid *next_offsets;
  gr_eid out_edges, out_max_degree; /* results, when next_offsets is set */
  /* Optional: what the caller knows of the input (from the previous
   * level's out_edges/out_max_degree), so variants chosen per level need
   * no measuring pass. */
  bool in_known;
  gr_eid in_edges, in_max_degree;
  /* The visit may accept a vertex more than once (no atomic claim): cull
   * duplicates on the way out, best effort. The caller guarantees room:
   * out_capacity >= the input's edges. */
  bool idempotent;
  /* Optional, between devices: the results stay in device memory for the
   * next pass on the device's stream to read there (the exchange's
   * package), with no host round trip between the two. Where the advance
   * honours it (it ran, on an input that was not empty), `counts` points
   * at four words in the workspace's counters (ids written, edges
   * visited, the output's out-degrees summed and their largest: the
   * results below, in that order), valid until the workspace's next
   * operator; n_out is then out_capacity (a bound, the output's room) and
   * edges, out_edges and out_max_degree are 0. Otherwise counts is NULL
   * and the results are as always. */
  bool counts_later;
  const gr_eid *counts;
} gr_advance_push_args;

/* Several push levels in one device-side loop, for small frontiers (CUDA:
 * one cooperative launch; GR_CPU_ADVANCE_LEVELS is the portable definition,
 * for primitives that take the same path on both backends). Level l visits
 * with visit(level = first_level + l, u, v, e). queue[0] holds the input;
 * the loop goes on while the frontier is non-empty, has at most
 * max_vertices vertices and max_edges out-edges, no vertex of degree above
 * max_degree, and fewer than max_levels levels were run. */
typedef struct gr_advance_levels_args {
  const gr_csr *g;
  gr_vid *queue[2];          /* ping-pong queues of `capacity` items */
  gr_eid capacity;
  gr_eid n_in;
  int first_level;
  int max_levels;            /* > 0 */
  gr_eid max_vertices, max_edges, max_degree;
  gr_eid *level_sizes;       /* device, max_levels entries: input size of each level run */
  /* Optional (NULL: none): each level's input appended here, level after
   * level (trail_capacity items; the loop stops before a level that would
   * not fit), for primitives that walk the levels again (bc). */
  gr_vid *trail;
  gr_eid trail_capacity;
  /* Optional (NULL: none): a device flag the visits raise with
   * gr_levels_raise; the loop ends after the level that raised it (a flag
   * raised before the loop: at once, 0 levels). Holding the raising level
   * lets every block of a GPU loop take the same decision after a barrier
   * while faster blocks may already raise it in the next level. */
  const uint32_t *stop;
  /* results */
  int levels;                /* levels run; 0 when the input did not fit */
  int out_queue;             /* the queue holding the frontier left */
  gr_eid n_out;
  gr_eid edges;              /* edges visited */
  gr_eid out_edges, out_max_degree; /* of the frontier left */
} gr_advance_levels_args;

/* The arguments BFS, SSSP and BC give a levels call alike: the input
 * queue `in` of n_in items and its partner `out`, both of `capacity`
 * items; at most max_levels levels, fewer where `limit` (the iteration's
 * level limit; 0: none) is smaller; the loop's limits from the tuning;
 * every other field zero (no trail, no stop flag, no level sizes). */
static inline void gr_advance_levels_init(gr_advance_levels_args *a, const gr_csr *g, gr_vid *in, gr_eid n_in,
                                          gr_vid *out, gr_eid capacity, int first_level, int max_levels, int limit,
                                          const gr_tuning *t) {
  memset(a, 0, sizeof *a);
  a->g = g;
  a->queue[0] = in;
  a->queue[1] = out;
  a->capacity = capacity;
  a->n_in = n_in;
  a->first_level = first_level;
  a->max_levels = limit > 0 && limit < max_levels ? limit : max_levels;
  a->max_vertices = t->small_vertices;
  a->max_edges = t->small_edges;
  a->max_degree = t->small_degree;
}

typedef struct gr_advance_pull_args {
  const gr_csr *g;                /* device-resident CSC: row v = in-edges */
  const uint32_t *frontier_bits;  /* input frontier as a bitmap */
  const gr_vid *candidates;       /* vertices to consider; NULL = all rows */
  gr_eid n_candidates;
  gr_vid *out;
  gr_eid out_capacity;
  gr_eid n_out;                   /* result */
  gr_eid edges;                   /* result: in-edges examined */
  /* Optional, as for push: the output's out-degrees over these offsets. */
  const gr_eid *next_offsets;
  gr_eid out_edges, out_max_degree;
  /* Optional: the candidates still wanted and not found (the next pull's
   * candidates, with no filter pass of their own). May not alias
   * candidates. */
  gr_vid *remaining;
  gr_eid remaining_capacity;
  gr_eid n_remaining; /* result */
  /* Optional: each vertex found also gets its bit set in this bitmap (the
   * caller clears it), e.g. to send a pull's finds to other devices. A
   * GPU warp sets the bits its finds share a word with in one atomic. */
  uint32_t *found_bits;
  /* Optional, with found_bits (groups NULL: none): found_bits holds the
   * words of this part's own ids alone (gr/owner_words.h), a find's word at
   * its slot there. Every candidate is the part's own. */
  gr_owner_slots found_slots;
} gr_advance_pull_args;

typedef struct gr_filter_args {
  const gr_vid *in;      /* NULL: every id in [0, n_in) (e.g. a list of the
                          * vertices with some property, built from scratch) */
  gr_eid n_in;
  gr_vid *out;           /* may not alias in */
  gr_eid out_capacity;
  uint32_t *cull_bits;   /* NULL: no uniquifying; else a cleared bitmap */
  gr_eid n_out;          /* result */
} gr_filter_args;

/* Two outputs of one pass (e.g. a near bucket and a far pile): each keeps
 * its own counter, so out[1] may point into a list that is being appended
 * to (its capacity then counts only the room left). */
typedef struct gr_split_args {
  const gr_vid *in;      /* NULL: every id in [first, first + n_in) */
  gr_eid n_in;
  gr_vid *out[2];        /* may not alias in or each other */
  gr_eid out_capacity[2];
  gr_eid n_out[2];       /* result */
  /* The first n_first items are the ids [first, first + n_first), the
   * rest in[0, n_in - n_first): a range and a list in one pass (a device's
   * copies under duplicate-1-hop proxies, then a list of owned ids). */
  gr_vid first;
  gr_eid n_first;
  /* An output may be too small: n_out then counts every item of its class,
   * only the first out_capacity written (the caller grows it and runs the
   * pass again), where otherwise the pass fails. */
  bool count_past;
  /* Optional, for work enqueued before its input's size is read
   * (gr_primitive.arriving): the size lies in device memory at *n_in_at,
   * at most n_in (a bound the launch is sized by), and the two classes'
   * counts are added to counts_at[0] and [1] (device memory the caller
   * zeroed: on a GPU they are the outputs' write cursors) instead of being
   * read back, so the pass waits for nothing:
   * n_out stays zero, and the caller checks the counts against the
   * capacities once it read them (an output writes no further than its
   * capacity, as with count_past). NULL: n_in, and n_out as above. */
  const gr_eid *n_in_at;
  gr_eid *counts_at;
} gr_split_args;

typedef struct gr_bitmap_args {
  gr_vid n;        /* ids [0, n) */
  uint32_t *bits;  /* gr_bitmap_words(n) words, all written */
  bool keep;       /* or the predicate's bits into the words instead (set bits stay set) */
} gr_bitmap_args;

typedef struct gr_for_each_args {
  const gr_vid *in;  /* NULL: every id in [first, first + n) */
  gr_eid n;
  gr_vid first;
} gr_for_each_args;

/* Item i of a split's input (gr_split_args.first and n_first). */
GR_HD gr_vid gr_split_item(const gr_vid *in, gr_vid first, gr_eid n_first, gr_eid i) {
  return !in || i < n_first ? (gr_vid)(first + i) : in[i - n_first];
}

#ifdef GR_HAVE_CUDA
/* Loads operators.cu's kernels on the device's GPU (gr_device_preload;
 * the templates' instances belong to the primitives' files). */
gr_status gr__operators_cuda_preload(gr_device *dev);
#endif

#ifdef __cplusplus
}
#endif

#endif
