/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank on the host: power iteration in double from the same start with
 * the same stop rule as the primitive, and a validator that holds a run to
 * the double iteration with as many iterations. Sums over all vertices go
 * in fixed blocks, so the reference does not depend on the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/util.h"
#include "pr/pr.h"

enum { GR__PR_BLOCKS = 1024 };

typedef struct gr__pr_power {
  const gr_csr *out, *in;
  gr_vid n;
  double d;                /* damping */
  double *x, *y, *contrib; /* ranks, next ranks, contributions */
  double dangling;         /* D of x */
  double part[2][GR__PR_BLOCKS];
} gr__pr_power;

static void gr__pr_power_free(gr__pr_power *p) {
  free(p->x);
  free(p->y);
  free(p->contrib);
  p->x = p->y = p->contrib = NULL;
}

static gr_eid gr__pr_deg(const gr_csr *c, gr_vid v) { return c->offsets[v + 1] - c->offsets[v]; }

/* The sums of the blocks' parts, in block order. */
static double gr__pr_total(const double *part) {
  double t = 0;
  for (int b = 0; b < GR__PR_BLOCKS; b++) t += part[b];
  return t;
}

static gr_status gr__pr_power_start(gr__pr_power *p, gr_graph *g, double d) {
  memset(p, 0, sizeof *p);
  p->d = d;
  p->out = gr_graph_out(g);
  GR_CHECK(gr_graph_in(g, &p->in));
  const gr_vid n = p->n = p->out->n;
  const size_t bytes = (n ? (size_t)n : 1) * sizeof(double);
  gr_status st = gr_host_alloc((void **)&p->x, bytes, "pr reference ranks");
  if (st >= 0) st = gr_host_alloc((void **)&p->y, bytes, "pr reference ranks");
  if (st >= 0) st = gr_host_alloc((void **)&p->contrib, bytes, "pr reference contributions");
  if (st < 0) {
    gr__pr_power_free(p);
    return st;
  }
  const gr_eid m = p->out->m;
#pragma omp parallel for schedule(static)
  for (gr_vid v = 0; v < n; v++) p->x[v] = m ? (double)gr__pr_deg(p->out, v) / (double)m : 1.0 / (double)n;
  /* Dangling vertices start at 0, or (without arcs) every vertex is one
   * and they hold everything. */
  p->dangling = m ? 0.0 : 1.0;
  return GR_SUCCESS;
}

/* One iteration; returns its L1 change. */
static double gr__pr_power_step(gr__pr_power *p) {
  const gr_vid n = p->n;
  const double d = p->d, base = (1.0 - d) / (double)n, share = p->dangling / (double)n;
#pragma omp parallel for schedule(static)
  for (gr_vid u = 0; u < n; u++) {
    const gr_eid k = gr__pr_deg(p->out, u);
    p->contrib[u] = k ? p->x[u] / (double)k : 0.0;
  }
  const uint64_t step = ((uint64_t)n + GR__PR_BLOCKS - 1) / GR__PR_BLOCKS;
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < GR__PR_BLOCKS; b++) {
    double l1 = 0, dangling = 0;
    const uint64_t lo = (uint64_t)b * step, hi = lo + step < n ? lo + step : n;
    for (uint64_t v = lo; v < hi; v++) {
      double s = 0;
      for (gr_eid e = p->in->offsets[v]; e < p->in->offsets[v + 1]; e++) s += p->contrib[p->in->indices[e]];
      p->y[v] = base + d * (s + share);
      l1 += fabs(p->y[v] - p->x[v]);
      if (!gr__pr_deg(p->out, (gr_vid)v)) dangling += p->y[v];
    }
    p->part[0][b] = l1;
    p->part[1][b] = dangling;
  }
  double *t = p->x;
  p->x = p->y;
  p->y = t;
  p->dangling = gr__pr_total(p->part[1]);
  return gr__pr_total(p->part[0]);
}

gr_status gr_pr_power(gr_graph *g, double d, int iterations, double *rank, double *l1) {
  gr__pr_power p;
  GR_CHECK(gr__pr_power_start(&p, g, d));
  for (int i = 0; i < iterations; i++) l1[i] = gr__pr_power_step(&p);
  memcpy(rank, p.x, (size_t)p.n * sizeof(double));
  gr__pr_power_free(&p);
  return GR_SUCCESS;
}

gr_status gr_pr_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref) {
  (void)a;
  const double tol = gr_pr_tolerance(o);
  const int limit = gr_pr_max_iterations(o);
  gr__pr_power p;
  double *series = NULL;
  /* The reference is called without prepare too (tests, gr_problem's
   * validation): a bad damping is refused here as well. */
  GR_CHECK(gr_pr_check_damping(o));
  GR_CHECK(gr__pr_power_start(&p, g, o->damping));
  gr_status st = gr_host_alloc((void **)&series, (size_t)limit * sizeof(double), "pr reference changes");
  int k = 0;
  while (st >= 0 && k < limit) {
    series[k] = gr__pr_power_step(&p);
    if (series[k++] < tol) break;
  }
  if (st >= 0) st = gr_result_alloc(ref, p.n, GR_VALUE_DOUBLE, false);
  if (st >= 0) {
    memcpy(ref->values, p.x, (size_t)p.n * sizeof(double));
    ref->extra.n_numbers = 1;
    ref->extra.number_names[0] = "iterations";
    ref->extra.numbers[0] = (double)k;
    ref->extra.n_series = 1;
    ref->extra.series_names[0] = "change";
    ref->extra.series[0] = series;
    ref->extra.series_len = k;
    series = NULL;
  }
  free(series);
  gr__pr_power_free(&p);
  return st;
}

/* A named number of a result's extra figures. */
static bool gr__pr_number(const gr_result *r, const char *name, double *out) {
  for (int i = 0; i < r->extra.n_numbers && i < GR_EXTRA_MAX; i++)
    if (!strcmp(r->extra.number_names[i], name)) {
      *out = r->extra.numbers[i];
      return true;
    }
  return false;
}

gr_status gr_pr_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref) {
  (void)a;
  GR_CHECK(gr_pr_check_damping(o));
  const gr_vid n = gr_graph_num_vertices(g);
  if (r->n != n || r->type != GR_VALUE_FLOAT)
    return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices of type %d; the graph has %llu, type %d",
                     (unsigned long long)r->n, (int)r->type, (unsigned long long)n, (int)GR_VALUE_FLOAT);
  const float *x = r->values;
  double sum = 0;
  gr_vid bad = n;
#pragma omp parallel for schedule(static) reduction(+ : sum) reduction(min : bad)
  for (gr_vid v = 0; v < n; v++) {
    if (!(x[v] > 0) || !isfinite(x[v])) bad = v < bad ? v : bad;
    sum += x[v];
  }
  if (bad < n)
    return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has rank %g; every rank is a positive number",
                     (unsigned long long)gr_graph_original_id(g, bad), (double)x[bad]);
  if (fabs(sum - 1.0) > 1e-5) return gr_errorf(GR_ERR_VALIDATION, "the ranks sum to %.9g, not 1", sum);
  double kd = 0;
  if (!gr__pr_number(r, "iterations", &kd) || !(kd >= 1) || kd != floor(kd))
    return gr_errorf(GR_ERR_VALIDATION, "the result does not say how many iterations it ran");
  const int k = (int)kd, limit = gr_pr_max_iterations(o);
  const double tol = gr_pr_tolerance(o);
  if (k > limit) return gr_errorf(GR_ERR_VALIDATION, "the run took %d iterations; the limit is %d", k, limit);

  /* The double iteration after k iterations: the reference's own when it
   * stopped there too, else computed here. */
  double rk = 0;
  const bool same = ref && ref->type == GR_VALUE_DOUBLE && ref->n == n && gr__pr_number(ref, "iterations", &rk) &&
                    (int)rk == k && ref->extra.n_series > 0 && ref->extra.series_len >= k;
  double *want = NULL, *l1 = NULL;
  gr_status st = GR_SUCCESS;
  if (!same) {
    GR_CHECK_GOTO(gr_host_alloc((void **)&want, (n ? (size_t)n : 1) * sizeof *want, "pr validation ranks"), st, done);
    GR_CHECK_GOTO(gr_host_alloc((void **)&l1, (size_t)k * sizeof *l1, "pr validation changes"), st, done);
    GR_CHECK_GOTO(gr_pr_power(g, o->damping, k, want, l1), st, done);
  }
  const double *w = same ? ref->values : want;
  const double *e = same ? ref->extra.series[0] : l1;
  /* The stop: not before the change fell below the tolerance, and not
   * after (up to the slack of float ranks), unless at the limit. */
  for (int j = 0; j + 1 < k; j++)
    if (e[j] < tol - GR_PR_L1_SLACK) {
      st = gr_errorf(GR_ERR_VALIDATION, "the run went on for %d iterations, but the change fell to %.3g (below the "
                     "tolerance %g) at iteration %d", k, e[j], tol, j + 1);
      goto done;
    }
  if (k < limit && e[k - 1] >= tol + GR_PR_L1_SLACK) {
    st = gr_errorf(GR_ERR_VALIDATION, "the run stopped after %d iterations at a change of %.3g, above the tolerance %g",
                   k, e[k - 1], tol);
    goto done;
  }
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (gr_vid v = 0; v < n; v++)
    if (fabs((double)x[v] - w[v]) > GR_PR_REL_TOL * w[v]) bad = v < bad ? v : bad;
  if (bad < n)
    st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has rank %.9g; the double iteration gives %.9g after %d iterations "
                   "(relative tolerance %g)", (unsigned long long)gr_graph_original_id(g, bad), (double)x[bad], w[bad], k,
                   GR_PR_REL_TOL);
done:
  free(want);
  free(l1);
  return st;
}
