/* SPDX-License-Identifier: Apache-2.0 */
/* Reach's operators on the CPU backend: the portable definition. */
#include "_template/reach.h"
#include "gr/operators_cpu.h"

static GR_CPU_ADVANCE_PUSH(gr__reach_push_cpu, gr_reach_ctx, gr_reach_visit)

const gr_reach_ops gr__reach_ops_cpu = {gr__reach_push_cpu};
