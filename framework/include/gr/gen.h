/* SPDX-License-Identifier: Apache-2.0 */
/* Seeded graph generators: Kronecker/R-MAT (Graph500 parameters by default),
 * uniform random, 2D and 3D grids. The same seed gives the same graph for any
 * thread count: every edge's random bits come from (seed, edge index). */
#ifndef GR_GEN_H
#define GR_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "gr/graph.h"
#include "gr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gr_gen_kind {
  GR_GEN_KRONECKER = 0,
  GR_GEN_UNIFORM = 1,
  GR_GEN_GRID2D = 2,
  GR_GEN_GRID3D = 3
} gr_gen_kind;

typedef struct gr_gen_spec {
  gr_gen_kind kind;
  int scale;            /* kron, uniform: n = 2^scale */
  double edge_factor;   /* kron, uniform: edges = edge_factor * n */
  double a, b, c;       /* kron quadrant probabilities; d = 1 - a - b - c */
  uint64_t dims[3];     /* grids */
  uint64_t seed;
  bool permute;         /* kron: scramble vertex labels (Graph500) */
  bool directed;        /* keep generated edges as arcs */
} gr_gen_spec;

/* Parses a generator spec:
 *   kron:SCALE[:EF][,a=A,b=B,c=C][,seed=S][,permute=0|1][,directed]
 *   rmat:...      (same as kron)
 *   uniform:SCALE[:EF][,seed=S][,directed]
 *   grid2d:ROWSxCOLS          grid3d:XxYxZ
 * Errors name the offending part. */
gr_status gr_gen_parse(gr_gen_spec *out, const char *text);
/* Canonical text of a spec ("kron:22:16,a=0.57,b=0.19,c=0.19,seed=1"). */
void gr_gen_format(const gr_gen_spec *spec, char *buf, size_t len);
/* Generates the edge list (symmetric unless spec->directed). */
gr_status gr_gen_coo(gr_coo *out, const gr_gen_spec *spec, int threads);
/* Generates and builds the graph (self-loops and duplicates handled as the
 * load options say). */
gr_status gr_gen_graph(gr_graph **out, const gr_gen_spec *spec,
                       const gr_load_options *options);

#ifdef __cplusplus
}
#endif

#endif
