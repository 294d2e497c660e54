/* SPDX-License-Identifier: Apache-2.0 */
/* BFS's operators on the CPU backend: the portable definition. */
#include "bfs/bfs.h"
#include "gr/operators_cpu.h"

static GR_CPU_ADVANCE_PUSH(gr__bfs_push_cpu, gr_bfs_ctx, gr_bfs_visit)
static GR_CPU_ADVANCE_PULL(gr__bfs_pull_cpu, gr_bfs_ctx, gr_bfs_unvisited, gr_bfs_pull_visit)
static GR_CPU_ADVANCE_PUSH(gr__bfs_push_idem_cpu, gr_bfs_ctx, gr_bfs_visit_idem)
static GR_CPU_BITMAP(gr__bfs_visited_cpu, gr_bfs_ctx, gr_bfs_reached)

const gr_bfs_ops gr__bfs_ops_cpu = {gr__bfs_push_cpu, gr__bfs_pull_cpu, NULL, gr__bfs_push_idem_cpu,
                                     gr__bfs_visited_cpu};
