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
static GR_CPU_FOR_EACH(gr__cc_compress_best_cpu, gr_cc_ctx, gr_cc_compress_best)
static GR_CPU_FOR_EACH(gr__cc_lower_root_cpu, gr_cc_ctx, gr_cc_lower_root)
static GR_CPU_SPLIT(gr__cc_take_label_cpu, gr_cc_ctx, gr_cc_take_label)
static GR_CPU_SPLIT(gr__cc_cold_cpu, gr_cc_ctx, gr_cc_cold)
static GR_CPU_FOR_EACH(gr__cc_lookup_cpu, gr_cc_ctx, gr_cc_lookup)
static GR_CPU_FOR_EACH(gr__cc_settle_cpu, gr_cc_ctx, gr_cc_settle)

static gr_status gr__cc_vote_cpu(gr_device *dev, gr_workspace *ws, const gr_cc_ctx *c) {
  (void)dev;
  (void)ws;
  gr_svid roots[GR_CC_SAMPLES];
  memcpy(roots, c->samples, sizeof roots);
  c->samples[GR_CC_SAMPLES] = gr_cc_mode(roots, GR_CC_SAMPLES);
  return GR_SUCCESS;
}

const gr_cc_ops gr__cc_ops_cpu = {.init = gr__cc_init_cpu,
                                  .link_round = gr__cc_link_round_cpu,
                                  .compress = gr__cc_compress_cpu,
                                  .sample = gr__cc_sample_cpu,
                                  .needs_rest = gr__cc_needs_rest_cpu,
                                  .link_arcs = gr__cc_link_arcs_cpu,
                                  .compress_best = gr__cc_compress_best_cpu,
                                  .lower_root = gr__cc_lower_root_cpu,
                                  .take_label = gr__cc_take_label_cpu,
                                  .cold = gr__cc_cold_cpu,
                                  .lookup = gr__cc_lookup_cpu,
                                  .settle = gr__cc_settle_cpu,
                                  .vote = gr__cc_vote_cpu};
