/* SPDX-License-Identifier: Apache-2.0 */
/* CC's operators on the CPU backend: the portable definition. */
#include "cc/cc.h"
#include "gr/operators_cpu.h"

#include <string.h>

static GR_CPU_FOR_EACH(gr__cc_init_cpu, gr_cc_ctx, gr_cc_init_vertex)
static GR_CPU_FOR_EACH(gr__cc_link_round_cpu, gr_cc_ctx, gr_cc_link_round)
static GR_CPU_FOR_EACH(gr__cc_compress_cpu, gr_cc_ctx, gr_cc_compress)
static GR_CPU_FOR_EACH(gr__cc_sample_cpu, gr_cc_ctx, gr_cc_sample)
static GR_CPU_FILTER(gr__cc_needs_rest_cpu, gr_cc_ctx, gr_cc_needs_rest)
static GR_CPU_ADVANCE_PUSH(gr__cc_link_arcs_cpu, gr_cc_ctx, gr_cc_link_arc)
static GR_CPU_FOR_EACH(gr__cc_lower_root_cpu, gr_cc_ctx, gr_cc_lower_root)
static GR_CPU_SPLIT(gr__cc_take_label_cpu, gr_cc_ctx, gr_cc_take_label)
static GR_CPU_SPLIT(gr__cc_take_first_cpu, gr_cc_ctx, gr_cc_take_first)
static GR_CPU_FOR_EACH(gr__cc_lookup_cpu, gr_cc_ctx, gr_cc_lookup)
static GR_CPU_FOR_EACH(gr__cc_vote_root_cpu, gr_cc_ctx, gr_cc_vote_root)
static GR_CPU_FOR_EACH(gr__cc_settle_cpu, gr_cc_ctx, gr_cc_settle)
static GR_CPU_FOR_EACH(gr__cc_copy_hot_cpu, gr_cc_ctx, gr_cc_copy_hot)

static gr_status gr__cc_vote_cpu(gr_device *dev, gr_workspace *ws, const gr_cc_ctx *c) {
  (void)dev;
  (void)ws;
  gr_svid roots[GR_CC_SAMPLES];
  memcpy(roots, c->samples, sizeof roots);
  c->samples[GR_CC_SAMPLES] = gr_cc_mode(roots, GR_CC_SAMPLES);
  return GR_SUCCESS;
}

static GR_CPU_SPLIT(gr__cc_pair_cpu, gr_cc_ctx, gr_cc_pair)
static GR_CPU_FOR_EACH(gr__cc_pack_cpu, gr_cc_ctx, gr_cc_pack)

/* The merge on one thread: a few devices' pairs of small graphs (CPU
 * devices), the table's steps in order. */
static gr_status gr__cc_merge_cpu(gr_device *dev, gr_workspace *ws, const gr_cc_merge_args *m) {
  (void)ws;
  GR_CHECK(gr__device_launch(dev, "gr__cc_merge_cpu", NULL));
  const gr_eid slots = (gr_eid)1 << m->bits;
  for (gr_eid i = 0; i < slots; i++) gr_cc_merge_init(m, i);
  for (gr_eid i = 0; i < 2 * m->n_pairs; i++) gr_cc_merge_insert(m, i);
  for (gr_eid i = 0; i < m->n_pairs; i++) gr_cc_merge_link(m, i);
  return GR_SUCCESS;
}

static gr_status gr__cc_merge_apply_cpu(gr_device *dev, gr_workspace *ws, const gr_split_args *a, const gr_cc_ctx *c) {
  (void)ws;
  GR_CHECK(gr__device_launch(dev, "gr__cc_merge_apply_cpu", NULL));
  if (c->hot_root >= 0) gr_cc_merge_apply(c, (gr_vid)c->hot_root);
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static, 4096)
  for (gr_eid i = 0; i < a->n_in; i++) gr_cc_merge_apply(c, gr_split_item(a->in, a->first, a->n_first, i));
  return GR_SUCCESS;
}

const gr_cc_ops gr__cc_ops_cpu = {.init = gr__cc_init_cpu,
                                  .link_round = gr__cc_link_round_cpu,
                                  .compress = gr__cc_compress_cpu,
                                  .sample = gr__cc_sample_cpu,
                                  .needs_rest = gr__cc_needs_rest_cpu,
                                  .link_arcs = gr__cc_link_arcs_cpu,
                                  .lower_root = gr__cc_lower_root_cpu,
                                  .take_label = gr__cc_take_label_cpu,
                                  .take_first = gr__cc_take_first_cpu,
                                  .lookup = gr__cc_lookup_cpu,
                                  .vote_root = gr__cc_vote_root_cpu,
                                  .settle = gr__cc_settle_cpu,
                                  .copy_hot = gr__cc_copy_hot_cpu,
                                  .vote = gr__cc_vote_cpu,
                                  .pair = gr__cc_pair_cpu,
                                  .pack = gr__cc_pack_cpu,
                                  .merge = gr__cc_merge_cpu,
                                  .merge_apply = gr__cc_merge_apply_cpu};
