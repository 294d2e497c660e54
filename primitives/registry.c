/* SPDX-License-Identifier: Apache-2.0 */
/* The primitives gr knows, by name. Adding a primitive adds a line here. */
#include <string.h>

#include "_template/reach.h"
#include "bc/bc.h"
#include "bfs/bfs.h"
#include "cc/cc.h"
#include "dobfs/dobfs.h"
#include "pr/pr.h"
#include "registry.h"
#include "sssp/sssp.h"

static const gr_primitive *const gr__primitives[] = {&gr_bfs_primitive, &gr_dobfs_primitive, &gr_sssp_primitive,
                                                      &gr_cc_primitive,   &gr_pr_primitive,    &gr_bc_primitive,
                                                      &gr_reach_primitive, NULL};

const gr_primitive *const *gr_primitive_list(void) { return gr__primitives; }

const gr_primitive *gr_primitive_find(const char *name) {
  for (const gr_primitive *const *p = gr__primitives; *p; p++)
    if (!strcmp((*p)->name, name)) return *p;
  return NULL;
}
