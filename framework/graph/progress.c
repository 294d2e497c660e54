/* SPDX-License-Identifier: Apache-2.0 */
/* Load progress on stderr ("\rloading cnr-2000.mtx.gz: 42%"): only for loads
 * that last, only where asked or on a terminal, from the calling thread. */
#include <stdio.h>

#include "gr/util.h"
#include "graph_internal.h"

/* Loads shorter than this never print, so scripts and tests stay quiet. */
#define GR__PROGRESS_DELAY 1.0

void gr__progress_start(gr__progress *p, const char *label, int mode) {
  p->on = mode > 0 || (mode == 0 && gr_stderr_is_tty());
  p->shown = false;
  p->last = -1;
  p->t0 = gr_time_now();
  snprintf(p->label, sizeof p->label, "%s", label ? label : "graph");
}

void gr__progress_update(gr__progress *p, double fraction) {
  if (!p || !p->on) return;
  if (!p->shown && gr_time_now() - p->t0 < GR__PROGRESS_DELAY) return;
  int pct = (int)(fraction * 100.0);
  if (pct < 0) pct = 0;
  if (pct > 99) pct = 99;
  if (pct <= p->last) return;
  p->last = pct;
  p->shown = true;
  fprintf(stderr, "\rloading %s: %d%%", p->label, pct);
  fflush(stderr);
}

void gr__progress_end(gr__progress *p) {
  if (!p || !p->shown) return;
  fprintf(stderr, "\rloading %s: 100%% (%.1f s)\n", p->label, gr_time_now() - p->t0);
  p->shown = false;
}
