/* SPDX-License-Identifier: Apache-2.0 */
/* Sums of non-negative numbers kept as their natural logarithms (-inf
 * stands for 0), for counts beyond the exponent range of a double (bc's
 * shortest-path counts on high-diameter graphs reach 10^2464 where double
 * stops at 10^308; a logarithm of such a count is about 5,700). A sum is
 * taken from its larger term, ln(e^a + e^b) = max + log1p(e^(min - max)),
 * so nothing overflows or underflows on the way; its rounding is about one
 * unit in the last place of the logarithm, i.e. a relative error of about
 * |ln x| x 2^-53 on the number. Usable from GR_HD per-element functions. */
#ifndef GR_LOGSPACE_H
#define GR_LOGSPACE_H

#include <math.h>

#include "gr/atomic.h"

/* ln 0: the neutral element of the log-add. */
#define GR_LOG_ZERO (-INFINITY)

GR_HD double gr_log_add(double a, double b) {
  const double hi = a > b ? a : b, lo = a > b ? b : a;
  if (lo == -INFINITY) return hi; /* also keeps -inf + -inf at -inf, not NaN */
  return hi + log1p(exp(lo - hi));
}

GR_HD float gr_log_add_f32(float a, float b) {
  const float hi = a > b ? a : b, lo = a > b ? b : a;
  if (lo == -INFINITY) return hi;
  return hi + log1pf(expf(lo - hi));
}

/* *p = ln(e^*p + e^x), race-free among threads: a compare-and-swap loop
 * on the 64-bit pattern (there is no hardware log-add; a lost race
 * recomputes from the value that won). Adding ln 0 does nothing, and a
 * term too small to move the sum's last bit skips the swap. */
GR_HD void gr_atomic_log_add_f64(double *p, double x) {
  if (x == -INFINITY) return;
  union {
    double d;
    uint64_t u;
  } cur, next;
  cur.u = gr_load_relaxed_u64((const uint64_t *)p);
  for (;;) {
    next.d = gr_log_add(cur.d, x);
    if (next.u == cur.u) return;
    const uint64_t seen = gr_atomic_cas_u64((uint64_t *)p, cur.u, next.u);
    if (seen == cur.u) return;
    cur.u = seen;
  }
}

#endif
