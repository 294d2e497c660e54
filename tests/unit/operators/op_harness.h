/* SPDX-License-Identifier: Apache-2.0 */
/* Runs one operator on one device from host inputs and brings the results
 * back, so the same case can be checked on the CPU against a serial loop and
 * on a GPU against the CPU. */
#ifndef GR_OP_HARNESS_H
#define GR_OP_HARNESS_H

#include <stdbool.h>

#include "gr/device.h"
#include "gr/graph.h"
#include "test_ops.h"

typedef struct op_result {
  gr_vid *out;     /* sorted */
  gr_eid n_out;
  gr_svid *label;  /* per vertex */
  gr_svid *pred;
  uint32_t *marks;
  gr_eid edges;
  gr_eid out_edges, out_max_degree; /* the output's degrees (advances) */
  gr_vid *remaining;                /* pull: wanted and not found, sorted */
  gr_eid n_remaining;
  int levels;                       /* levels: levels run and their input sizes */
  gr_eid *level_sizes;
  gr_vid *trail;                    /* levels with a trail: each level's input, level after level */
  gr_eid n_trail;
  gr_eid counted[2];                /* split: each class's items counted (past the capacity: op_set_count_past) */
  bool overran;                     /* split: an output's word past its capacity was written */
  bool later_read;                  /* split, op_set_split_later: the pass waited for the device or gave n_out */
} op_result;

void op_result_free(op_result *r);
/* Whether two splits' results hold the same items in each class (both
 * sorted by op_run_split*). */
bool op_same_split(const op_result *a, const op_result *b);
/* Whether a split whose outputs may be too small (count_past, or counts
 * left on the device) counted want0 and want1 items, wrote min(want,
 * capacity) of each and nothing past, and wrote only class 0 (an id that
 * `modulus` divides) into its first output. */
bool op_split_filled(const op_result *r, gr_eid want0, gr_eid want1, gr_eid cap0, gr_eid cap1, gr_vid modulus);
/* The operator variants the next op_run_* calls use (gr_tuning_parse
 * text; NULL or "" = the defaults). */
void op_set_tuning(const char *text);
/* Whether the next op_run_* calls put the graph's lists on the device
 * packed (gr/packed.h) rather than as ids. */
void op_set_packed(bool packed);
/* Whether the next op_run_split* calls count past a too-small output
 * (gr_split_args.count_past): out and remaining then hold what was written,
 * counted what the pass counted. */
void op_set_count_past(bool count_past);
/* Whether the next op_run_split* calls leave the input's size on the
 * device under a bound `slack` items larger (gr_split_args.n_in_at; ids of
 * every class lie past the size, which the pass must not take) and the
 * counts there (counts_at, zeroed words); the results are read from there
 * as the caller of such a pass does. */
void op_set_split_later(bool later, gr_eid slack);
/* Whether op_run_push tells the push its input's edges and largest degree
 * (gr_advance_push_args.in_known, as between devices), from the host CSR. */
void op_set_known(bool known);
/* The vertex whose claim raises the levels' stop flag. */
void op_set_stop_at(gr_vid v);
/* The candidates the next op_run_pull calls take, in this order
 * (gr_advance_pull_args.candidates; NULL: every vertex, in id order). The
 * array must outlive those calls. */
void op_set_pull_candidates(const gr_vid *cand, gr_eid n);
/* Labels start at -1 except the frontier's (0); outputs get label 1. */
gr_status op_run_push(const test_ops *ops, gr_device *dev, const gr_csr *g, const gr_vid *frontier,
                      gr_eid nf, op_result *r);
gr_status op_run_pull(const test_ops *ops, gr_device *dev, const gr_csr *in_edges,
                      const gr_vid *frontier, gr_eid nf, op_result *r);
/* filter with test_keep over in[0..n), or over the ids [0, n) when in is
 * NULL; r->out sorted. */
gr_status op_run_filter(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                        gr_vid modulus, bool cull, op_result *r);
/* split with test_klass: class 0 in r->out, class 1 in r->remaining (both
 * sorted); outputs of the given capacities. */
gr_status op_run_split(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                       gr_vid modulus, gr_eid cap0, gr_eid cap1, op_result *r);
/* The same over the ids [first, first + n_first), then in[0, n - n_first)
 * (in NULL: every item from the range, n == n_first). */
gr_status op_run_split_range(const test_ops *ops, gr_device *dev, gr_vid universe, gr_vid first, gr_eid n_first,
                             const gr_vid *in, gr_eid n, gr_vid modulus, gr_eid cap0, gr_eid cap1, op_result *r);
/* Levels from a frontier (labels 0) with the given limits: labels are
 * depths; r->out is the frontier left (sorted). limits->trail_capacity > 0
 * asks for a trail of that capacity (r->trail, as written); limits->stop
 * non-NULL (any pointer) for a stop flag raised when op_set_stop_at's
 * vertex is claimed. */
gr_status op_run_levels(const test_ops *ops, gr_device *dev, const gr_csr *g, const gr_vid *frontier, gr_eid nf,
                        const gr_advance_levels_args *limits, op_result *r);
gr_status op_run_for_each(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in,
                          gr_eid n, op_result *r);
/* The same, in NULL meaning the ids [first, first + n). */
gr_status op_run_for_each_from(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                               gr_vid first, op_result *r);
/* A kernel that decodes every edge of a device CSR with packed lists into
 * out (device, m ids), in one of its lane patterns. */
typedef gr_status (*op_decode_fn)(gr_device *dev, const gr_csr *g, int pattern, gr_vid *out);
/* g's lists packed onto dev and decoded by `decode`; the ids into out
 * (host, m entries). */
gr_status op_run_decode(gr_device *dev, const gr_csr *g, op_decode_fn decode, int pattern, gr_vid *out);
/* Frontier conversions: queue -> bitmap -> queue (sorted). */
gr_status op_run_roundtrip(gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n, op_result *r);
/* gr_bitmap_or over `words` words of random bits (from seed), placed 0
 * and 1 words into their device buffers (1: not 16-byte aligned), a guard
 * word past each: GR_SUCCESS where every word came out the union and the
 * guard untouched, GR_ERR_INTERNAL naming the first word that did not. */
gr_status op_check_bitmap_or(gr_device *dev, size_t words, uint64_t seed);
/* gr_ids_map over n random ids through a random table of n_table entries
 * (some at or past limit, some GR_NO_VERTEX, some ids past the table)
 * against the host's: each id, nothing past the last, the bad ones counted
 * onto what the count held. */
gr_status op_check_ids_map(gr_device *dev, gr_eid n, gr_vid n_table, gr_vid limit, uint64_t seed);



/* A random directed graph on n vertices with m arcs plus a hub (vertex 0)
 * pointing at half of all vertices, as CSR and CSC (host, malloc'd). */
gr_status op_random_graph(gr_csr *out, gr_csr *in, gr_vid n, gr_eid m, uint64_t seed);
void op_graph_free(gr_csr *c);
/* Random distinct vertices (sorted), k of n. */
gr_vid *op_random_set(gr_vid n, gr_eid k, uint64_t seed);
/* Puts v[0..n) in a random order (Fisher-Yates, gr_rand64 of seed). */
void op_shuffle(gr_vid *v, gr_eid n, uint64_t seed);
#endif
