/* SPDX-License-Identifier: Apache-2.0 */
/* BC's operators on the CPU backend: the portable definition. */
#include "bc/bc.h"
#include "gr/operators_cpu.h"

static GR_CPU_ADVANCE_PUSH(gr__bc_forward_cpu, gr_bc_ctx, gr_bc_forward_visit)
static GR_CPU_ADVANCE_PUSH(gr__bc_forward_log_cpu, gr_bc_ctx, gr_bc_forward_visit_log)
static GR_CPU_FOR_EACH(gr__bc_backward_compute_cpu, gr_bc_ctx, gr_bc_backward_compute)
static GR_CPU_FOR_EACH(gr__bc_backward_compute_log_cpu, gr_bc_ctx, gr_bc_backward_compute_log)
static GR_CPU_ADVANCE_PUSH(gr__bc_backward_cpu, gr_bc_ctx, gr_bc_backward_visit)
static GR_CPU_ADVANCE_PUSH(gr__bc_backward_log_cpu, gr_bc_ctx, gr_bc_backward_visit_log)
static GR_CPU_ADVANCE_LEVELS(gr__bc_forward_levels_cpu, gr_bc_ctx, gr_bc_forward_level_visit)
static GR_CPU_ADVANCE_LEVELS(gr__bc_forward_levels_log_cpu, gr_bc_ctx, gr_bc_forward_level_visit_log)
static GR_CPU_FOR_EACH(gr__bc_scale_cpu, gr_bc_ctx, gr_bc_scale)
static GR_CPU_FOR_EACH(gr__bc_fill_cpu, gr_bc_ctx, gr_bc_fill)

/* The backward levels loop (gr_bc_levels_args): level after level, each
 * vertex's successors' coefficients pulled over its out-edges. The CPU
 * saves nothing by it, but taking it here keeps both backends on the same
 * path and tests it. */
static gr_status gr__bc_backward_levels(gr_device *dev, gr_bc_levels_args *a, const gr_bc_ctx *c, bool log) {
  GR_CHECK(gr__device_launch(dev, log ? "gr__bc_backward_levels_log_cpu" : "gr__bc_backward_levels_cpu", NULL));
  const gr_eid *off = a->g->offsets;
  const int nt = gr_device_cpu_threads(dev);
  const double zero = log ? GR_LOG_ZERO : 0.0;
  uint64_t edges = 0;
  for (int d = a->hi; d >= a->lo; d--) {
    const gr_eid begin = a->level_start[d], end = a->level_start[d + 1];
    const bool take = a->acc_ready && d == a->hi;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) reduction(+ : edges)
    for (gr_eid i = begin; i < end; i++) {
      const gr_vid v = a->stack[i];
      double sum = zero;
      if (take) {
        sum = c->acc[v];
        c->acc[v] = zero;
      } else {
        gr_packed_walk pw = {NULL, 0, 0, 0};
        for (gr_eid k = off[v]; k < off[v + 1]; k++) {
          const gr_vid w = gr__cpu_neighbour(a->g, &pw, v, off[v], k);
          if (gr_bc_is_successor(c, (gr_svid)d, w)) sum = log ? gr_log_add(sum, c->coef[w]) : sum + c->coef[w];
        }
        edges += off[v + 1] - off[v];
      }
      if (log) gr_bc_backward_finish_log(c, v, sum);
      else gr_bc_backward_finish(c, v, sum);
    }
  }
  a->edges = (gr_eid)edges;
  return GR_SUCCESS;
}
static gr_status gr__bc_backward_levels_cpu(gr_device *dev, gr_workspace *ws, gr_bc_levels_args *a,
                                            const gr_bc_ctx *c) {
  (void)ws;
  return gr__bc_backward_levels(dev, a, c, false);
}
static gr_status gr__bc_backward_levels_log_cpu(gr_device *dev, gr_workspace *ws, gr_bc_levels_args *a,
                                                const gr_bc_ctx *c) {
  (void)ws;
  return gr__bc_backward_levels(dev, a, c, true);
}

const gr_bc_ops gr__bc_ops_cpu = {.forward = {gr__bc_forward_cpu, gr__bc_forward_log_cpu},
                                  .forward_levels = {gr__bc_forward_levels_cpu, gr__bc_forward_levels_log_cpu},
                                  .backward_levels = {gr__bc_backward_levels_cpu, gr__bc_backward_levels_log_cpu},
                                  .backward_compute = {gr__bc_backward_compute_cpu, gr__bc_backward_compute_log_cpu},
                                  .backward = {gr__bc_backward_cpu, gr__bc_backward_log_cpu},
                                  .scale = gr__bc_scale_cpu,
                                  .fill = gr__bc_fill_cpu};
