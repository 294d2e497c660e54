/* SPDX-License-Identifier: Apache-2.0 */
/* CPU instantiations of the test functions. */
#include "gr/operators_cpu.h"
#include "test_ops.h"

static GR_CPU_ADVANCE_PUSH(push_cpu, test_ctx, test_visit)
static GR_CPU_ADVANCE_PULL(pull_cpu, test_ctx, test_wanted, test_pull_visit)
static GR_CPU_FILTER(filter_cpu, test_ctx, test_keep)
static GR_CPU_FOR_EACH(for_each_cpu, test_ctx, test_mark)
static GR_CPU_SPLIT(split_cpu, test_ctx, test_klass)
static GR_CPU_ADVANCE_LEVELS(levels_cpu, test_ctx, test_level_visit)

const test_ops test_ops_cpu = {push_cpu, pull_cpu, filter_cpu, for_each_cpu, split_cpu, levels_cpu};
