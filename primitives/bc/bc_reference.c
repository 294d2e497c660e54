/* SPDX-License-Identifier: Apache-2.0 */
/* BC on the host: Brandes in double (the levels in order give the depths
 * and path counts; the dependencies are summed over each vertex's
 * out-edges in the reverse of that order), a validator that holds a run to
 * it, and the edge count for TEPS. As many sources as the host has threads
 * or more run one source per thread at a time, each the serial algorithm;
 * fewer (a validated run's one source) run one after another, each level
 * over all the threads: a serial pass over a graph of billions of arcs
 * takes minutes. Both give the same depths, the same counts (sums of the
 * same integers: exact below 2^53, above it rounded in the order the
 * threads add them) and each dependency summed in its row's order, so
 * they answer alike (within rounding where counts pass 2^53). A source whose
 * counts outgrow double (the primitive's rule: an expanded count above
 * GR_BC_LOG_THRESHOLD) runs again with counts in long double: x86-64's
 * 80-bit long double reaches 1.19e4932 (a 4096 x 4096 grid needs 10^2464;
 * an 8192 x 8192 grid, C(16382, 8191) ~ 10^4930, is about the end), and a
 * count beyond it, or a platform whose long double is no wider than
 * double, fails with a message rather than answering. An independent
 * check of the primitive's logarithms, not the same arithmetic. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc/bc.h"
#include "gr/util.h"

/* One source's arrays. */
typedef struct gr__bc_work {
  gr_svid *depth;
  double *sigma, *delta;
  gr_vid *order;
  long double *wide; /* counts of a source that outgrew double (allocated when one does) */
  bool last_wide;    /* the last source's counts are in `wide` */
} gr__bc_work;

static void gr__bc_work_free(gr__bc_work *w) {
  free(w->depth);
  free(w->sigma);
  free(w->delta);
  free(w->order);
  free(w->wide);
  memset(w, 0, sizeof *w);
}

/* Why a source has no reference (negative, as gr__bc_source returns). */
enum { GR__BC_NO_ROOM = -1, GR__BC_TOO_WIDE = -2, GR__BC_NO_LONG_DOUBLE = -3 };

static gr_status gr__bc_source_error(int why, gr_vid source, gr_vid n) {
  switch (why) {
    case GR__BC_NO_ROOM:
      return gr_errorf(GR_ERR_HOST_OOM,
                       "bc reference: no room for the level lists or long double counts of %llu vertices",
                       (unsigned long long)n);
    case GR__BC_TOO_WIDE:
      return gr_errorf(GR_ERR_UNSUPPORTED,
                       "bc reference: source %llu has more shortest paths to some vertex than long double holds "
                       "(%Lg); no reference for this graph",
                       (unsigned long long)source, LDBL_MAX);
    default:
      return gr_errorf(GR_ERR_UNSUPPORTED,
                       "bc reference: source %llu has more than %g shortest paths to some vertex and long double is "
                       "no wider than double here; no reference for this graph",
                       (unsigned long long)source, GR_BC_LOG_THRESHOLD);
  }
}

static gr_status gr__bc_work_alloc(gr__bc_work *w, gr_vid n) {
  memset(w, 0, sizeof *w);
  const size_t k = n ? (size_t)n : 1;
  gr_status st = gr_host_alloc((void **)&w->depth, k * sizeof *w->depth, "bc reference");
  if (st >= 0) st = gr_host_alloc((void **)&w->sigma, k * sizeof *w->sigma, "bc reference");
  if (st >= 0) st = gr_host_alloc((void **)&w->delta, k * sizeof *w->delta, "bc reference");
  if (st >= 0) st = gr_host_alloc((void **)&w->order, k * sizeof *w->order, "bc reference");
  if (st < 0) gr__bc_work_free(w);
  return st;
}

/* The source again with counts in long double (depths as the double pass
 * left them): the counts, then each vertex's dependency added into bc. */
static int gr__bc_source_wide(const gr_csr *c, gr_vid s, gr__bc_work *w, size_t tail, double *bc) {
  if (LDBL_MAX_EXP <= DBL_MAX_EXP) return GR__BC_NO_LONG_DOUBLE;
  if (!w->wide && !(w->wide = malloc((c->n ? (size_t)c->n : 1) * sizeof *w->wide))) return GR__BC_NO_ROOM;
  long double *sigma = w->wide;
  for (size_t i = 0; i < tail; i++) sigma[w->order[i]] = 0.0L;
  sigma[s] = 1.0L;
  for (size_t i = 0; i < tail; i++) {
    const gr_vid u = w->order[i];
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
      const gr_vid v = c->indices[k];
      if (w->depth[v] == w->depth[u] + 1) sigma[v] += sigma[u];
    }
    if (isinf(sigma[u])) return GR__BC_TOO_WIDE;
  }
  for (size_t i = tail; i-- > 0;) {
    const gr_vid v = w->order[i];
    long double sum = 0.0L;
    for (gr_eid k = c->offsets[v]; k < c->offsets[v + 1]; k++) {
      const gr_vid x = c->indices[k];
      if (w->depth[x] == w->depth[v] + 1) sum += sigma[v] / sigma[x] * (1.0L + (long double)w->delta[x]);
    }
    w->delta[v] = (double)sum;
    if (v != s) bc[v] += (double)sum;
  }
  w->last_wide = true;
  return GR_SUCCESS;
}

/* v's dependency: its successors' shares summed over its row, in the
 * row's order (both passes below, so they sum alike). */
static double gr__bc_dependency(const gr_csr *c, const gr__bc_work *w, gr_vid v) {
  double sum = 0.0;
  for (gr_eid k = c->offsets[v]; k < c->offsets[v + 1]; k++) {
    const gr_vid x = c->indices[k];
    if (w->depth[x] == w->depth[v] + 1) sum += w->sigma[v] / w->sigma[x] * (1.0 + w->delta[x]);
  }
  return sum;
}

/* Every vertex unreached, on `threads` threads. */
static void gr__bc_work_reset(gr__bc_work *w, gr_vid n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (gr_vid v = 0; v < n; v++) {
    w->depth[v] = -1;
    w->sigma[v] = 0.0;
    w->delta[v] = 0.0;
  }
  w->last_wide = false;
}

/* Brandes from s: depths, path counts, and each vertex's dependency added
 * into bc (the source's own excluded). Returns the number of levels, or
 * (negative) why the source has no reference. */
static int gr__bc_source(const gr_csr *c, gr_vid s, gr__bc_work *w, double *bc) {
  gr__bc_work_reset(w, c->n, 1);
  size_t head = 0, tail = 0;
  bool outgrown = false;
  w->depth[s] = 0;
  w->sigma[s] = 1.0;
  w->order[tail++] = s;
  while (head < tail) {
    const gr_vid u = w->order[head++];
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
      const gr_vid v = c->indices[k];
      if (w->depth[v] < 0) {
        w->depth[v] = w->depth[u] + 1;
        w->order[tail++] = v;
      }
      if (w->depth[v] == w->depth[u] + 1) {
        /* The primitive's rule: an expanded count above the threshold. */
        outgrown |= w->sigma[u] > GR_BC_LOG_THRESHOLD;
        w->sigma[v] += w->sigma[u];
      }
    }
  }
  const int levels = (int)(w->depth[w->order[tail - 1]] + 1);
  if (outgrown) {
    const int st = gr__bc_source_wide(c, s, w, tail, bc);
    return st < 0 ? st : levels;
  }
  /* Reverse order: every successor's dependency is final before its
   * predecessors read it. */
  for (size_t i = tail; i-- > 0;) {
    const gr_vid v = w->order[i];
    const double sum = gr__bc_dependency(c, w, v);
    w->delta[v] = sum;
    if (v != s) bc[v] += sum;
  }
  return levels;
}

/* Brandes from s as gr__bc_source, each level over `threads` threads: a
 * level's vertices claim their successors with a compare-and-swap on the
 * depth and add their counts into them atomically (w->order holds the
 * levels one after another, each in the order its vertices were claimed);
 * then, deepest level first, each vertex sums its successors' shares over
 * its row, as the serial pass does. Returns what gr__bc_source returns. */
enum { GR__BC_TEAM_MIN = 256 };

static int gr__bc_source_levels(const gr_csr *c, gr_vid s, gr__bc_work *w, double *bc, int threads) {
  gr_svid *depth = w->depth;
  double *sigma = w->sigma;
  gr_vid *order = w->order;
  gr__bc_work_reset(w, c->n, threads);
  depth[s] = 0;
  sigma[s] = 1.0;
  order[0] = s;
  size_t *starts = NULL, levels = 0, room = 0;
  size_t lo = 0, hi = 1;
  int outgrown = 0;
  while (lo < hi) {
    if (levels + 2 > room) {
      room = room ? 2 * room : 64;
      size_t *more = realloc(starts, room * sizeof *starts);
      if (!more) {
        free(starts);
        return GR__BC_NO_ROOM;
      }
      starts = more;
    }
    starts[levels++] = lo;
    const gr_svid next = depth[order[lo]] + 1;
    size_t tail = hi;
    /* A small level is not worth waking the threads (a long path has as
     * many levels as vertices). */
    const int team = hi - lo >= GR__BC_TEAM_MIN ? threads : 1;
#pragma omp parallel num_threads(team)
    {
      /* Claimed vertices gather in a small buffer and go to the level's
       * end in blocks, one atomic add per block. */
      enum { GR__BC_BLOCK = 256 };
      gr_vid buf[GR__BC_BLOCK];
      int held = 0, grown = 0;
#pragma omp for schedule(dynamic, 64)
      for (size_t i = lo; i < hi; i++) {
        const gr_vid u = order[i];
        const double su = sigma[u];
        for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
          const gr_vid v = c->indices[k];
          gr_svid dv = __atomic_load_n(&depth[v], __ATOMIC_RELAXED);
          if (dv < 0) {
            gr_svid unset = -1;
            if (__atomic_compare_exchange_n(&depth[v], &unset, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
              dv = next;
              buf[held++] = v;
              if (held == GR__BC_BLOCK) {
                const size_t at = __atomic_fetch_add(&tail, (size_t)held, __ATOMIC_RELAXED);
                memcpy(order + at, buf, (size_t)held * sizeof *buf);
                held = 0;
              }
            } else {
              dv = unset;
            }
          }
          if (dv == next) {
            /* The primitive's rule: an expanded count above the threshold. */
            grown |= su > GR_BC_LOG_THRESHOLD;
#pragma omp atomic update
            sigma[v] += su;
          }
        }
      }
      if (held) {
        const size_t at = __atomic_fetch_add(&tail, (size_t)held, __ATOMIC_RELAXED);
        memcpy(order + at, buf, (size_t)held * sizeof *buf);
      }
      if (grown) __atomic_store_n(&outgrown, 1, __ATOMIC_RELAXED);
    }
    lo = hi;
    hi = tail;
  }
  starts[levels] = hi;
  if (outgrown) {
    free(starts);
    const int st = gr__bc_source_wide(c, s, w, hi, bc);
    return st < 0 ? st : (int)levels;
  }
  for (size_t l = levels; l-- > 0;) {
    const int team = starts[l + 1] - starts[l] >= GR__BC_TEAM_MIN ? threads : 1;
#pragma omp parallel for num_threads(team) schedule(dynamic, 64)
    for (size_t i = starts[l]; i < starts[l + 1]; i++) {
      const gr_vid v = order[i];
      const double sum = gr__bc_dependency(c, w, v);
      w->delta[v] = sum;
      if (v != s) bc[v] += sum;
    }
  }
  free(starts);
  return (int)levels;
}

gr_status gr_bc_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref) {
  const gr_csr *c = gr_graph_out(g);
  const gr_vid n = c->n;
  const gr_vid k = gr_bc_source_count(a);
  if (k == 0) return gr_errorf(GR_ERR_INVALID_ARG, "bc needs at least one source");
  for (gr_vid i = 0; i < k; i++)
    if (gr_bc_source(a, i) >= n)
      return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)gr_bc_source(a, i),
                       (unsigned long long)n - 1);
  GR_CHECK(gr_result_alloc(ref, n, GR_VALUE_DOUBLE, false));
  gr_status st = gr_result_aux(ref, &gr_bc_primitive.aux);
  double *bc = ref->values;
  memset(bc, 0, (size_t)n * sizeof *bc);
  /* At least a source per thread: a source per thread at a time; fewer:
   * one source at a time over all the threads. */
  const int host = gr_host_threads();
  const int threads = host > 1 && k >= (gr_vid)host ? host : 1;
  double *parts = NULL, *sink = NULL;
  gr_vid wide_sources = 0;
  gr__bc_work w;
  memset(&w, 0, sizeof w);
  if (st >= 0 && threads > 1) {
    /* Each thread sums its sources into its own array; the arrays are
     * added in thread order. */
    st = gr_host_calloc((void **)&parts, (size_t)threads * (n ? (size_t)n : 1), sizeof *parts, "bc reference sums");
    int failed = 0, why = 0;
    gr_vid why_source = 0;
    if (st >= 0) {
#pragma omp parallel num_threads(threads)
      {
        gr__bc_work tw;
        double *mine = parts + (size_t)gr_host_thread_id() * n;
        if (gr__bc_work_alloc(&tw, n) < 0) {
          __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
        } else {
#pragma omp for schedule(dynamic, 1)
          for (gr_vid i = 0; i < k; i++) {
            if (__atomic_load_n(&why, __ATOMIC_RELAXED)) continue;
            const int r = gr__bc_source(c, gr_bc_source(a, i), &tw, mine);
            if (r < 0) {
#pragma omp critical(gr_bc_reference_failure)
              if (!why) {
                why = r;
                why_source = gr_bc_source(a, i);
              }
            } else if (tw.last_wide) {
              __atomic_fetch_add(&wide_sources, 1, __ATOMIC_RELAXED);
            }
          }
          gr__bc_work_free(&tw);
        }
      }
      for (int t = 0; t < threads && !failed && !why; t++)
        for (gr_vid v = 0; v < n; v++) bc[v] += parts[(size_t)t * n + v];
      if (failed) st = gr_errorf(GR_ERR_HOST_OOM, "bc reference: no room for a thread's arrays");
      else if (why) st = gr__bc_source_error(why, why_source, n);
    }
  }
  if (st >= 0) st = gr__bc_work_alloc(&w, n);
  if (st >= 0 && threads > 1) st = gr_host_calloc((void **)&sink, n ? (size_t)n : 1, sizeof *sink, "bc reference");
  if (st < 0) {
    free(parts);
    gr__bc_work_free(&w);
    gr_result_free(ref);
    return st;
  }
  int levels = 0;
  if (threads > 1) {
    /* The last source once more for its depths and counts (its
     * dependencies, already summed, go to a throwaway array). */
    levels = gr__bc_source_levels(c, gr_bc_source(a, k - 1), &w, sink, host);
  } else {
    for (gr_vid i = 0; i < k && levels >= 0; i++) {
      levels = gr__bc_source_levels(c, gr_bc_source(a, i), &w, bc, host);
      if (levels < 0) st = gr__bc_source_error(levels, gr_bc_source(a, i), n);
      else wide_sources += w.last_wide;
    }
  }
  if (levels < 0 && st >= 0) st = gr__bc_source_error(levels, gr_bc_source(a, k - 1), n);
  free(parts);
  free(sink);
  if (st < 0) {
    gr__bc_work_free(&w);
    gr_result_free(ref);
    return st;
  }
  /* The last source's counts as the primitive reports them: ln sigma
   * (ln 0 = -inf where unreached) when they outgrew double. */
  gr_svid *depth = ref->aux_values[0];
  double *sigma = ref->aux_values[1];
  for (gr_vid v = 0; v < n; v++) {
    depth[v] = w.depth[v];
    sigma[v] = !w.last_wide ? w.sigma[v] : depth[v] < 0 ? GR_LOG_ZERO : (double)logl(w.wide[v]);
  }
  const bool last_wide = w.last_wide;
  gr__bc_work_free(&w);
  if (o && o->normalize) {
    const double f = gr_bc_normalizer(n, k);
    for (gr_vid v = 0; v < n; v++) bc[v] *= f;
  }
  ref->extra.n_numbers = 4;
  ref->extra.number_names[0] = "sources";
  ref->extra.numbers[0] = (double)k;
  ref->extra.number_names[1] = "levels";
  ref->extra.numbers[1] = levels;
  ref->extra.number_names[2] = "log_sources";
  ref->extra.numbers[2] = (double)wide_sources;
  ref->extra.number_names[3] = "sigma_log";
  ref->extra.numbers[3] = last_wide ? 1.0 : 0.0;
  return GR_SUCCESS;
}

static bool gr__bc_close(double x, double ref, double rel, double abs_tol) {
  const double d = fabs(x - ref);
  return d <= rel * fabs(ref) || d <= abs_tol;
}

/* A named number of a result's extra figures, or `otherwise`. */
static double gr__bc_extra(const gr_result *r, const char *name, double otherwise) {
  for (int i = 0; i < r->extra.n_numbers && i < GR_EXTRA_MAX; i++)
    if (r->extra.number_names[i] && !strcmp(r->extra.number_names[i], name)) return r->extra.numbers[i];
  return otherwise;
}

/* One count against the reference's, each as a number (log = false) or
 * as its natural logarithm. Both numbers: exact below 2^53, else within
 * GR_BC_SIGMA_REL_TOL. Otherwise (the run or the reference outgrew
 * double) compared as logarithms within GR_BC_LOG_SIGMA_TOL, 0 (ln 0 =
 * -inf) only equal to 0. */
static bool gr__bc_sigma_ok(double x, bool x_log, double ref, bool ref_log) {
  if (!x_log && !ref_log)
    return ref < 9007199254740992.0 ? x == ref : gr__bc_close(x, ref, GR_BC_SIGMA_REL_TOL, 0.0);
  const double lx = x_log ? x : log(x), lr = ref_log ? ref : log(ref);
  if (isinf(lx) || isinf(lr) || isnan(lx) || isnan(lr)) return lx == lr;
  return fabs(lx - lr) <= GR_BC_LOG_SIGMA_TOL;
}

gr_status gr_bc_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref) {
  const gr_vid n = gr_graph_num_vertices(g);
  if (r->n != n || r->type != GR_VALUE_DOUBLE)
    return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices of type %d; the graph has %llu, type %d",
                     (unsigned long long)r->n, (int)r->type, (unsigned long long)n, (int)GR_VALUE_DOUBLE);
  gr_result own = GR_RESULT_INIT;
  if (!ref) {
    GR_CHECK(gr_bc_reference(g, a, o, &own));
    ref = &own;
  }
  gr_status st = GR_SUCCESS;
  const double *x = r->values, *y = ref->values;
  gr_vid bad = n;
  int why = 0;
  for (gr_vid v = 0; v < n && !why; v++) {
    if (!isfinite(x[v]) || x[v] < 0) why = 1;
    else if (!gr__bc_close(x[v], y[v], GR_BC_REL_TOL, GR_BC_ABS_TOL)) why = 2;
    if (why) bad = v;
  }
  const bool have_aux = r->aux.n == 2 && r->aux_values[0] && r->aux_values[1];
  const gr_svid *depth = have_aux ? r->aux_values[0] : NULL, *rdepth = ref->aux_values[0];
  const double *sigma = have_aux ? r->aux_values[1] : NULL, *rsigma = ref->aux_values[1];
  if (!why && !have_aux) why = 3;
  const bool log_r = gr__bc_extra(r, "sigma_log", 0.0) != 0.0, log_ref = gr__bc_extra(ref, "sigma_log", 0.0) != 0.0;
  for (gr_vid v = 0; v < n && !why; v++) {
    if (depth[v] != rdepth[v]) why = 4;
    else if (!gr__bc_sigma_ok(sigma[v], log_r, rsigma[v], log_ref)) why = log_r || log_ref ? 6 : 5;
    if (why) bad = v;
  }
  const unsigned long long id = bad < n ? (unsigned long long)gr_graph_original_id(g, bad) : 0;
  switch (why) {
    case 0:
      break;
    case 1:
      st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has centrality %.17g, not a finite number of at least 0", id,
                     x[bad]);
      break;
    case 2:
      st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has centrality %.17g; the reference gives %.17g", id, x[bad],
                     y[bad]);
      break;
    case 3:
      st = gr_errorf(GR_ERR_VALIDATION, "the result carries no depths and path counts");
      break;
    case 4:
      st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has depth %lld from the last source; the reference gives %lld", id,
                     (long long)depth[bad], (long long)rdepth[bad]);
      break;
    case 5:
      st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has %.17g shortest paths from the last source; the reference "
                     "counts %.17g", id, sigma[bad], rsigma[bad]);
      break;
    default:
      st = gr_errorf(GR_ERR_VALIDATION, "vertex %llu has %s%.17g shortest paths from the last source; the reference "
                     "counts %s%.17g", id, log_r ? "e^" : "", sigma[bad], log_ref ? "e^" : "", rsigma[bad]);
      break;
  }
  gr_result_free(&own);
  return st;
}

gr_eid gr_bc_traversed_edges(gr_graph *g, const gr_result *r) {
  if (r->aux.n < 1 || !r->aux_values[0]) return gr_graph_num_edges(g);
  /* The last source's depths: its two passes walk those edges. */
  const gr_eid total = gr_graph_edges_reached(g, r->aux_values[0]);
  double sources = 1;
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], "sources") && r->extra.numbers[i] >= 1) sources = r->extra.numbers[i];
  return total * (gr_eid)sources;
}
