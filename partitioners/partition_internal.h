/* SPDX-License-Identifier: Apache-2.0 */
/* What the partitioner files share and nothing outside partitioners/ sees:
 * the one-function interface each partitioner implements, and OpenMP
 * helpers. Adding a partitioner is one file with one such function plus a
 * line in partition.c's dispatch. */
#ifndef GR_PARTITION_INTERNAL_H
#define GR_PARTITION_INTERNAL_H

#include <stdint.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "partitioner.h"

/* OpenMP pragmas through a macro, so that a build without OpenMP neither
 * warns about unknown pragmas nor needs #ifdefs around every loop. */
#define GR__PART_PRAGMA(x) _Pragma(#x)
#ifdef GR_HAVE_OPENMP
#include <omp.h>
#define GR__PART_OMP(x) GR__PART_PRAGMA(omp x)
static inline int gr__part_thread_id(void) { return omp_get_thread_num(); }
static inline int gr__part_num_threads(void) { return omp_get_num_threads(); }
#else
#define GR__PART_OMP(x)
static inline int gr__part_thread_id(void) { return 0; }
static inline int gr__part_num_threads(void) { return 1; }
/* metis.c: the undirected simple graph METIS needs. Row v lists v's out-
 * and in-neighbours without v itself, sorted and unique; offsets has n + 1
 * entries. Both arrays malloc'd. */
gr_status gr__symmetric_adjacency(gr_eid **offsets, gr_vid **adj, gr_graph *g, int threads);

#endif

/* Threads for parallel loops: the option when positive, else all. */
int gr__part_threads(int requested);

/* Each partitioner fills owner[0 .. n) with parts in [0, o->parts). The
 * caller has checked the options (1 <= parts <= n when n > 0, bias_factor
 * >= 0, imbalance >= 1) and times the call. */
gr_status gr__partition_random(int32_t *owner, gr_graph *g, const gr_partition_options *o);
gr_status gr__partition_biased(int32_t *owner, gr_graph *g, const gr_partition_options *o);
gr_status gr__partition_metis(int32_t *owner, gr_graph *g, const gr_partition_options *o);
gr_status gr__partition_static(int32_t *owner, gr_graph *g, const gr_partition_options *o);
gr_status gr__partition_range(int32_t *owner, gr_graph *g, const gr_partition_options *o);

/* metis.c: the undirected simple graph METIS needs. Row v lists v's out-
 * and in-neighbours without v itself, sorted and unique; offsets has n + 1
 * entries. Both arrays malloc'd. */
gr_status gr__symmetric_adjacency(gr_eid **offsets, gr_vid **adj, gr_graph *g, int threads);

#endif
