/* SPDX-License-Identifier: Apache-2.0 */
/* BC's operators on the CPU backend: the portable definition. */
#include "bc/bc.h"
#include "gr/operators_cpu.h"

static GR_CPU_ADVANCE_PUSH(gr__bc_forward_cpu, gr_bc_ctx, gr_bc_forward_visit)
static GR_CPU_FOR_EACH(gr__bc_forward_publish_cpu, gr_bc_ctx, gr_bc_forward_publish)
static GR_CPU_FILTER(gr__bc_forward_merge_cpu, gr_bc_ctx, gr_bc_forward_merge)
static GR_CPU_FOR_EACH(gr__bc_backward_compute_cpu, gr_bc_ctx, gr_bc_backward_compute)
static GR_CPU_ADVANCE_PUSH(gr__bc_backward_cpu, gr_bc_ctx, gr_bc_backward_visit)
static GR_CPU_FOR_EACH(gr__bc_backward_publish_cpu, gr_bc_ctx, gr_bc_backward_publish)
static GR_CPU_FOR_EACH(gr__bc_backward_merge_cpu, gr_bc_ctx, gr_bc_backward_merge)
static GR_CPU_FOR_EACH(gr__bc_scale_cpu, gr_bc_ctx, gr_bc_scale)

const gr_bc_ops gr__bc_ops_cpu = {.forward = gr__bc_forward_cpu,
                                  .forward_publish = gr__bc_forward_publish_cpu,
                                  .forward_merge = gr__bc_forward_merge_cpu,
                                  .backward_compute = gr__bc_backward_compute_cpu,
                                  .backward = gr__bc_backward_cpu,
                                  .backward_publish = gr__bc_backward_publish_cpu,
                                  .backward_merge = gr__bc_backward_merge_cpu,
                                  .scale = gr__bc_scale_cpu};
