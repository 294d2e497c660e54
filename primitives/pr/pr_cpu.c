/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank's operators on the CPU backend: the portable definition. A
 * step's change and dangling rank are OpenMP sums. */
#include "gr/operators_cpu.h"
#include "pr/pr.h"

static GR_CPU_FOR_EACH(gr__pr_init_cpu, gr_pr_ctx, gr_pr_init_vertex)
static GR_CPU_FOR_EACH(gr__pr_publish_cpu, gr_pr_ctx, gr_pr_publish)
static GR_CPU_FOR_EACH(gr__pr_push_out_cpu, gr_pr_ctx, gr_pr_push_out)
static GR_CPU_ADVANCE_PUSH(gr__pr_push_cpu, gr_pr_ctx, gr_pr_push_visit)

/* Every owned vertex sums its in-edges' contributions, in row order. */
static gr_status gr__pr_pull_step_cpu(gr_device *dev, gr_workspace *ws, const gr_pr_plan *plan, gr_vid n,
                                      const gr_pr_ctx *c, double *l1, double *dangling) {
  GR_CHECK(gr__device_launch(dev, "gr__pr_pull_step_cpu", NULL));
  (void)ws;
  (void)plan;
  double a = 0, b = 0;
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) reduction(+ : a, b)
  for (gr_vid v = 0; v < n; v++)
    if (gr_pr_owned(c, v)) gr_pr_update(c, v, gr_pr_row_sum(c, v), &a, &b);
  *l1 = a;
  *dangling = b;
  return GR_SUCCESS;
}

/* Every owned vertex takes the sum pushed into it (and what peers sent). */
static gr_status gr__pr_push_step_cpu(gr_device *dev, gr_workspace *ws, gr_vid n, const gr_pr_ctx *c, double *l1,
                                      double *dangling) {
  GR_CHECK(gr__device_launch(dev, "gr__pr_push_step_cpu", NULL));
  (void)ws;
  double a = 0, b = 0;
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static, 4096) reduction(+ : a, b)
  for (gr_vid v = 0; v < n; v++)
    if (gr_pr_owned(c, v)) gr_pr_update(c, v, gr_pr_push_sum(c, v), &a, &b);
  *l1 = a;
  *dangling = b;
  return GR_SUCCESS;
}

static gr_status gr__pr_relabel_cpu(gr_device *dev, gr_vid *ids, const gr_vid *src, const gr_vid *position,
                                   gr_eid m) {
  GR_CHECK(gr__device_launch(dev, "gr__pr_relabel_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (gr_eid e = 0; e < m; e++) ids[e] = position[src[e]];
  return GR_SUCCESS;
}

static gr_status gr__pr_count_sources_cpu(gr_device *dev, uint32_t *fed, const gr_vid *src, gr_eid m) {
  GR_CHECK(gr__device_launch(dev, "gr__pr_count_sources_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (gr_eid e = 0; e < m; e++) __atomic_fetch_add(&fed[src[e]], 1u, __ATOMIC_RELAXED);
  return GR_SUCCESS;
}

const gr_pr_ops gr__pr_ops_cpu = {.init = gr__pr_init_cpu,
                                  .publish = gr__pr_publish_cpu,
                                  .pull_step = gr__pr_pull_step_cpu,
                                  .push_step = gr__pr_push_step_cpu,
                                  .push = gr__pr_push_cpu,
                                  .push_out = gr__pr_push_out_cpu,
                                  .relabel = gr__pr_relabel_cpu,
                                  .count_sources = gr__pr_count_sources_cpu};
