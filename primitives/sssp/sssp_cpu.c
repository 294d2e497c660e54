/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP's operators on the CPU backend: the portable definition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/operators_cpu.h"
#include "sssp/sssp.h"

static GR_CPU_ADVANCE_PUSH(gr__sssp_relax_cpu, gr_sssp_ctx, gr_sssp_relax)
static GR_CPU_ADVANCE_LEVELS(gr__sssp_relax_levels_cpu, gr_sssp_ctx, gr_sssp_relax_level)
static GR_CPU_SPLIT(gr__sssp_split_input_cpu, gr_sssp_ctx, gr_sssp_classify_input)
static GR_CPU_SPLIT(gr__sssp_split_pile_cpu, gr_sssp_ctx, gr_sssp_classify_pile)
static GR_CPU_FOR_EACH(gr__sssp_init_cpu, gr_sssp_ctx, gr_sssp_init_vertex)
static GR_CPU_FOR_EACH(gr__sssp_publish_cpu, gr_sssp_ctx, gr_sssp_publish)
static GR_CPU_FOR_EACH(gr__sssp_absorb_cpu, gr_sssp_ctx, gr_sssp_absorb)
static GR_CPU_FILTER(gr__sssp_take_heavy_cpu, gr_sssp_ctx, gr_sssp_take_heavy)
static GR_CPU_FOR_EACH(gr__sssp_map_ids_cpu, gr_sssp_ctx, gr_sssp_map_id)

/* Rows in place, light arcs first: a row's light arcs move forward in
 * order while its heavy ones wait in the thread's buffer, then follow. */
static gr_status gr__sssp_split_rows_cpu(gr_device *dev, const gr_csr *g, gr_vid rows, float heavy, gr_eid *split,
                                         const gr_eid *host_offsets, gr_vid *tmp_ids, gr_weight *tmp_weights,
                                         gr_eid tmp_arcs) {
  (void)host_offsets;
  (void)tmp_ids;
  (void)tmp_weights;
  (void)tmp_arcs;
  GR_CHECK(gr__device_launch(dev, "gr__sssp_split_rows_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  int failed = 0;
#pragma omp parallel num_threads(nt)
  {
    gr_vid *ids = NULL;
    gr_weight *ws = NULL;
    gr_eid room = 0;
#pragma omp for schedule(dynamic, 1024)
    for (gr_vid u = 0; u < rows; u++) {
      const gr_eid b = g->offsets[u], end = g->offsets[u + 1];
      gr_eid light = b, kept = 0;
      if (end - b > room) {
        gr_vid *ni = realloc(ids, (size_t)(end - b) * sizeof *ids);
        gr_weight *nw = ni ? realloc(ws, (size_t)(end - b) * sizeof *ws) : NULL;
        if (ni) ids = ni;
        if (nw) ws = nw;
        if (!ni || !nw) {
          __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
          continue;
        }
        room = end - b;
      }
      for (gr_eid e = b; e < end; e++) {
        const gr_vid v = g->indices[e];
        const gr_weight w = g->weights[e];
        if (w < heavy) {
          g->indices[light] = v;
          g->weights[light++] = w;
        } else {
          ids[kept] = v;
          ws[kept++] = w;
        }
      }
      if (kept) {
        memcpy(g->indices + light, ids, (size_t)kept * sizeof *ids);
        memcpy(g->weights + light, ws, (size_t)kept * sizeof *ws);
      }
      split[2 * (size_t)u] = b;
      split[2 * (size_t)u + 1] = light;
    }
    free(ids);
    free(ws);
  }
  if (failed) return gr_errorf(GR_ERR_HOST_OOM, "sssp: no host memory to reorder a row's arcs");
  split[2 * (size_t)rows] = g->offsets[rows];
  return GR_SUCCESS;
}

static gr_status gr__sssp_pile_min_cpu(gr_device *dev, gr_workspace *ws, const gr_vid *pile, gr_eid n,
                                       const gr_sssp_ctx *c, float *least) {
  GR_CHECK(gr__device_launch(dev, "gr__sssp_pile_min_cpu", NULL));
  (void)ws;
  float m = INFINITY;
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static, 4096) reduction(min : m)
  for (gr_eid i = 0; i < n; i++) {
    const float k = gr_sssp_pile_key(c, pile[i]);
    if (k < m) m = k;
  }
  *least = m;
  return GR_SUCCESS;
}

/* The host's passes are complete as they return: the two in turn. */
static gr_status gr__sssp_take_heavy_least_cpu(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_vid *pile,
                                               gr_eid n, const gr_sssp_ctx *c, float *least) {
  GR_CHECK(gr__sssp_take_heavy_cpu(dev, ws, a, c));
  return gr__sssp_pile_min_cpu(dev, ws, pile, n, c, least);
}

/* The levels loop costs the CPU nothing it would save, but running it
 * here keeps the two backends on the same path (and tests it). */
const gr_sssp_ops gr__sssp_ops_cpu = {.relax = gr__sssp_relax_cpu,
                                      .split_input = gr__sssp_split_input_cpu,
                                      .split_pile = gr__sssp_split_pile_cpu,
                                      .init = gr__sssp_init_cpu,
                                      .publish = gr__sssp_publish_cpu,
                                      .absorb = gr__sssp_absorb_cpu,
                                      .relax_levels = gr__sssp_relax_levels_cpu,
                                      .pile_min = gr__sssp_pile_min_cpu,
                                      .take_heavy = gr__sssp_take_heavy_cpu,
                                      .take_heavy_least = gr__sssp_take_heavy_least_cpu,
                                      .map_ids = gr__sssp_map_ids_cpu,
                                      .split_rows = gr__sssp_split_rows_cpu};
