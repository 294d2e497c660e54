/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP's operators on the CPU backend: the portable definition. */
#include <math.h>

#include "gr/operators_cpu.h"
#include "sssp/sssp.h"

static GR_CPU_ADVANCE_PUSH(gr__sssp_relax_cpu, gr_sssp_ctx, gr_sssp_relax)
static GR_CPU_ADVANCE_LEVELS(gr__sssp_relax_levels_cpu, gr_sssp_ctx, gr_sssp_relax_level)
static GR_CPU_SPLIT(gr__sssp_split_input_cpu, gr_sssp_ctx, gr_sssp_classify_input)
static GR_CPU_SPLIT(gr__sssp_split_pile_cpu, gr_sssp_ctx, gr_sssp_classify_pile)
static GR_CPU_FOR_EACH(gr__sssp_init_cpu, gr_sssp_ctx, gr_sssp_init_vertex)
static GR_CPU_FOR_EACH(gr__sssp_publish_cpu, gr_sssp_ctx, gr_sssp_publish)
static GR_CPU_FOR_EACH(gr__sssp_absorb_cpu, gr_sssp_ctx, gr_sssp_absorb)

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

/* The levels loop costs the CPU nothing it would save, but running it
 * here keeps the two backends on the same path (and tests it). */
const gr_sssp_ops gr__sssp_ops_cpu = {.relax = gr__sssp_relax_cpu,
                                      .split_input = gr__sssp_split_input_cpu,
                                      .split_pile = gr__sssp_split_pile_cpu,
                                      .init = gr__sssp_init_cpu,
                                      .publish = gr__sssp_publish_cpu,
                                      .absorb = gr__sssp_absorb_cpu,
                                      .relax_levels = gr__sssp_relax_levels_cpu,
                                      .pile_min = gr__sssp_pile_min_cpu};
