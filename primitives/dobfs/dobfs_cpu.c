/* SPDX-License-Identifier: Apache-2.0 */
/* DOBFS's pull helpers on the CPU backend: the portable definition. */
#include "dobfs/dobfs.h"
#include "gr/operators_cpu.h"

static GR_CPU_BITMAP(gr__dobfs_bits_cpu, gr_dobfs_ctx, gr_dobfs_in_frontier)

const gr_dobfs_ops gr__dobfs_ops_cpu = {gr__dobfs_bits_cpu};
