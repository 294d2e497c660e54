/* SPDX-License-Identifier: Apache-2.0 */
/* Betweenness centrality (Brandes): for each source s, a forward
 * breadth-first pass gives every vertex its depth and its number of
 * shortest paths from s (sigma), and a backward pass over the levels in
 * reverse gives its dependency
 *   delta(v) = sum over successors w (depth(w) = depth(v) + 1, arc v -> w)
 *              of sigma(v) / sigma(w) * (1 + delta(w)).
 * A vertex's centrality is the sum of its dependencies over the run's
 * sources (the source itself gets none from its own run): one source per
 * run is the Gunrock/GAPBS benchmark convention, K sampled sources an
 * estimate, all sources the exact value (undirected pairs then count
 * twice, as in Brandes' paper). --normalize scales the sum to all n
 * sources (n / K) and divides by the (n - 1)(n - 2) ordered pairs of
 * other vertices: networkx's normalized betweenness, directed or not.
 *
 * Numbers: sigma is a double. Counts below 2^53 are integers held
 * exactly and their sums are exact in any order, so every device count,
 * both backends and the reference agree bit for bit; a count above 2^53 is
 * rounded (relative error below depth x 2^-53) and the validator then
 * allows 1e-12 relative. Dependencies and centralities are doubles (a
 * float sum over a hub's 10^5 successors would lose about 1e-5).
 *
 * The overflow rule: counts outgrow double on high-diameter graphs (a
 * 4096 x 4096 grid has C(8190, 4095) ~ 10^2464 shortest paths between
 * opposite corners), and even the moderate ratios the dependencies need
 * cannot be had by rescaling each level, since one level's counts span
 * 1 to 10^600. So a source runs in double first; the forward visit raises
 * a device flag when it expands a vertex with more than
 * GR_BC_LOG_THRESHOLD (1e288) paths, the host reads it once at the end of
 * the forward pass (all devices agree through gr_part_sum), and a source
 * that raised it runs again with every count kept as its natural
 * logarithm (gr/logspace.h): forward by log-add (a compare-and-swap loop
 * on the 64-bit pattern), backward with the successors' coefficients also
 * as logarithms,
 *   coef(w) = ln(1 + delta(w)) - ln sigma(w),
 *   acc(v)  = log-add of coef(w) over v's successors,
 *   delta(v) = exp(ln sigma(v) + acc(v))
 *            = sum of sigma(v) / sigma(w) x (1 + delta(w)),
 * so no intermediate leaves double's range (a coefficient 1/sigma of
 * 10^-2464 is a logarithm of -5,674). Between devices the forward and
 * backward sums combine with LOGADD instead of SUM (gr_iter.combine). Why
 * a flag at the threshold suffices: a vertex the forward pass does not
 * expand (no successor) sums at most in-degree (< 2^63) counts of at most
 * 1e288, so every count of a source run in double is finite and its
 * reciprocal a normal double. Why logarithms: a wide exponent is what is
 * missing, not digits; the log-add's rounding is one unit in the last
 * place of ln sigma (about 1e-12 relative on sigma at 10^2464), far
 * inside the centrality tolerance even summed over 8,190 levels, and a
 * double per vertex keeps every array, atomic and message as it is. The
 * linear path costs one compare per expanded edge and one 4-byte read per
 * source.
 *
 * Forward (iteration k, frontier = the vertices of depth k with their
 * final sigma): the load-balanced push advance over the CSR; the first
 * visitor of an unvisited vertex claims it (compare-and-swap on the depth,
 * k + 1) and emits it, and every visitor whose target has depth k + 1 adds
 * its sigma into the target's (an atomic double add). Each level's
 * vertices are appended to a stack (their ids, per level), which the
 * backward pass walks in reverse.
 *
 * Backward (level d from the deepest to 1): every vertex w of level d
 * turns the sum acc(w) of its successors' coefficients into
 *   delta(w) = sigma(w) * acc(w),   coef(w) = (1 + delta(w)) / sigma(w),
 * adds delta(w) to its centrality, and pushes coef(w) over its in-edges
 * (the CSC; an undirected graph's is its CSR) into the acc of every
 * in-neighbour of depth d - 1: a push with atomic double adds through the
 * load-balanced advance. Chosen over a pull (each vertex summing its
 * successors' coefficients over its out-edges, no atomics) because the
 * edge-balanced advance already spreads a hub's edges over many threads
 * (a pull gives a row to one thread or needs a kernel of its own), and
 * because its direction, into predecessors, is the exchange's direction
 * between devices: partial sums of proxies go to their owners, the same
 * SUM the forward pass uses, so no owner ever sends to proxy holders.
 *
 * One device, small levels (a deep graph's thousands): both passes run in
 * device-side loops, one launch for many levels. Forward: the advance's
 * levels kernel, its trail writing each level into the stack and the
 * overflow flag as its stop. Backward: levels the forward loop ran are
 * pulled (gr_bc_levels_args), one grid barrier per level; small levels
 * hold no hub to balance, so the pull's lack of atomics wins there.
 *
 * Between devices (one exchange per level, SUM of doubles):
 *   forward   a proxy that this device claimed sends its partial sigma
 *             (its sigma here, which only this device's visitors added
 *             to) to its owner, whose combine is guarded by depth
 *             (gr_iter.guard, stamp = the level's depth): a vertex
 *             unvisited there takes the depth and the sum, one claimed
 *             there at the same level adds the sum, one reached at an
 *             earlier level drops it (the sender's proxy did not know).
 *             The next frontier is then the level as it is, with no pass
 *             of its own. Depths stay exact at owners: every device
 *             works level by level, so a vertex is first reached at its
 *             depth somewhere and its owner learns it then. So a MIN on
 *             depth and a SUM on sigma need one exchange: the record
 *             carries the sum, the guard's stamp the depth.
 *   backward  when the forward pass ends the owners refresh their
 *             vertices' depths on every copy (gr_part_refresh), so an
 *             owned vertex pushes only into predecessors, proxies too,
 *             and a proxy's partial acc travels as it is to its owner,
 *             whose combine sums it into the vertex's acc (a predecessor
 *             there too). Proxies' sums stay behind until the next source
 *             empties them.
 * A vertex in a message is counted once per level (a per-level stamp on
 * proxies), and no device needs a proxy's sigma or delta. */
#ifndef GR_BC_H
#define GR_BC_H

#include "gr/atomic.h"
#include "gr/logspace.h"
#include "gr/operators.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernels see. Arrays are per local vertex. */
typedef struct gr_bc_ctx {
  gr_svid *depth;   /* -1 unvisited; a proxy's is what this device claimed */
  double *sigma;    /* shortest paths from the source (owned: final once its level ran) */
  double *acc;      /* backward: the successors' coefficients summed so far */
  double *coef;     /* backward: (1 + delta) / sigma of owned vertices whose level ran */
  double *bc;       /* the centrality summed over the run's sources (owned vertices) */
  int32_t *mark;    /* between devices: per proxy, the stamp of the last level that emitted it
                     * (gr__bc_mark: under 1-hop proxies from the first copy on) */
  const uint8_t *owner;  /* part owning each local vertex; NULL: see owned_first */
  gr_vid owned_first;    /* duplicate-1-hop: owned vertices are [0, owned_first); 0: use owner */
  int me;
  gr_svid level;    /* forward: the frontier's depth; backward: the level being pushed from */
  int32_t stamp;    /* backward: this level's stamp */
  double scale;     /* the final scale (--normalize) */
  uint32_t *overflow; /* forward in double: raised (level + 1) when a count above GR_BC_LOG_THRESHOLD is expanded */
  double fill;      /* gr_bc_fill: the neutral sum of the mode (0, or ln 0 = -inf) */
} gr_bc_ctx;

/* Counts above this run again as logarithms (the overflow rule above):
 * below 2^1024 / 2^63, so a sum of any in-degree of them stays finite. */
#define GR_BC_LOG_THRESHOLD 1e288

/* The flag, raised once (its first raiser sees it clear), holding the
 * raising level plus one: it is also the stop of the one-device forward
 * loop (gr_levels_raise). */
GR_HD void gr_bc_raise(const gr_bc_ctx *c, gr_svid level) { gr_levels_raise(c->overflow, (int)level); }

GR_HD bool gr_bc_owned(const gr_bc_ctx *c, gr_vid v) {
  if (c->owned_first) return v < c->owned_first;
  return !c->owner || c->owner[v] == c->me;
}

/* A proxy's stamp. Under 1-hop proxies the copies are the local ids from
 * owned_first on, and the stamps hold those alone (0.55 of a device's
 * local vertices on 4 devices of Kronecker 22); otherwise every local id
 * has one. */
GR_HD int32_t *gr__bc_mark(const gr_bc_ctx *c, gr_vid v) { return &c->mark[v - c->owned_first]; }

/* Forward (advance visit, u of depth level): claims an unvisited w for
 * level + 1 and emits it once; every shortest path through u adds u's
 * count. The claim comes before the add, so every visitor that reads
 * level + 1 adds, the claimer included. */
GR_HD bool gr_bc_forward_at(const gr_bc_ctx *c, gr_svid level, gr_vid u, gr_vid w) {
  const gr_svid next = level + 1;
  gr_svid d = gr_load_relaxed_svid(&c->depth[w]);
  bool claimed = false;
  if (d < 0) {
    claimed = gr_atomic_cas_svid(&c->depth[w], -1, next);
    d = claimed ? next : gr_load_relaxed_svid(&c->depth[w]);
  }
  if (d == next) {
    const double su = c->sigma[u];
    if (su > GR_BC_LOG_THRESHOLD) gr_bc_raise(c, level);
    gr_atomic_add_f64(&c->sigma[w], su);
  }
  return claimed;
}

/* The same with counts as logarithms (log-add). */
GR_HD bool gr_bc_forward_at_log(const gr_bc_ctx *c, gr_svid level, gr_vid u, gr_vid w) {
  const gr_svid next = level + 1;
  gr_svid d = gr_load_relaxed_svid(&c->depth[w]);
  bool claimed = false;
  if (d < 0) {
    claimed = gr_atomic_cas_svid(&c->depth[w], -1, next);
    d = claimed ? next : gr_load_relaxed_svid(&c->depth[w]);
  }
  if (d == next) gr_atomic_log_add_f64(&c->sigma[w], c->sigma[u]);
  return claimed;
}

/* The visits of the push advance (the level in the context) and of the
 * device-side levels loop (the level from the loop). */
GR_HD bool gr_bc_forward_visit(const gr_bc_ctx *c, gr_vid u, gr_vid w, gr_eid e) {
  (void)e;
  return gr_bc_forward_at(c, c->level, u, w);
}
GR_HD bool gr_bc_forward_visit_log(const gr_bc_ctx *c, gr_vid u, gr_vid w, gr_eid e) {
  (void)e;
  return gr_bc_forward_at_log(c, c->level, u, w);
}
GR_HD bool gr_bc_forward_level_visit(const gr_bc_ctx *c, int level, gr_vid u, gr_vid w, gr_eid e) {
  (void)e;
  return gr_bc_forward_at(c, (gr_svid)level, u, w);
}
GR_HD bool gr_bc_forward_level_visit_log(const gr_bc_ctx *c, int level, gr_vid u, gr_vid w, gr_eid e) {
  (void)e;
  return gr_bc_forward_at_log(c, (gr_svid)level, u, w);
}

/* Backward, for each vertex of the level: its dependency from the sum of
 * its successors' coefficients, added to its centrality, and its own
 * coefficient for its predecessors. */
GR_HD void gr_bc_backward_finish(const gr_bc_ctx *c, gr_vid w, double sum) {
  const double s = c->sigma[w];
  const double delta = s * sum;
  c->bc[w] += delta;
  c->coef[w] = (1.0 + delta) / s;
}

/* With logarithms: sigma(w) and the sum are logarithms, delta and the
 * centrality numbers; the coefficient is ln((1 + delta) / sigma). */
GR_HD void gr_bc_backward_finish_log(const gr_bc_ctx *c, gr_vid w, double sum) {
  const double ls = c->sigma[w];
  const double delta = exp(ls + sum);
  c->bc[w] += delta;
  c->coef[w] = log1p(delta) - ls;
}

/* The same from the sum the level above pushed into acc (emptied for the
 * next source). */
GR_HD void gr_bc_backward_compute(const gr_bc_ctx *c, gr_vid w) {
  const double sum = c->acc[w];
  c->acc[w] = 0.0;
  gr_bc_backward_finish(c, w, sum);
}
GR_HD void gr_bc_backward_compute_log(const gr_bc_ctx *c, gr_vid w) {
  const double sum = c->acc[w];
  c->acc[w] = GR_LOG_ZERO;
  gr_bc_backward_finish_log(c, w, sum);
}

/* The backward levels loop (one device, levels the forward pass ran in
 * its own loop, so small ones): a pull instead of the push, one grid
 * barrier per level and no atomics. Vertex v of level d sums the
 * coefficients of its successors, the out-neighbours of depth d + 1,
 * whose level ran before the barrier. */
GR_HD bool gr_bc_is_successor(const gr_bc_ctx *c, gr_svid d, gr_vid w) { return c->depth[w] == d + 1; }

/* Backward (advance visit over the CSC, w of depth level, v an
 * in-neighbour): a predecessor (depth level - 1) takes w's coefficient; a
 * proxy is emitted once per level, to travel. Between devices the owners
 * refresh their vertices' depths on every copy when the forward pass ends
 * (until then a proxy's depth here is only an upper bound), so proxies
 * are told apart by depth as owned vertices are. */
GR_HD bool gr_bc_backward_visit(const gr_bc_ctx *c, gr_vid w, gr_vid v, gr_eid e) {
  (void)e;
  if (c->depth[v] != c->level - 1) return false;
  gr_atomic_add_f64(&c->acc[v], c->coef[w]);
  return !gr_bc_owned(c, v) && gr_atomic_exch_i32(gr__bc_mark(c, v), c->stamp) != c->stamp;
}

GR_HD bool gr_bc_backward_visit_log(const gr_bc_ctx *c, gr_vid w, gr_vid v, gr_eid e) {
  (void)e;
  if (c->depth[v] != c->level - 1) return false;
  gr_atomic_log_add_f64(&c->acc[v], c->coef[w]);
  return !gr_bc_owned(c, v) && gr_atomic_exch_i32(gr__bc_mark(c, v), c->stamp) != c->stamp;
}

/* Every local vertex, when a source changes mode: its count and its
 * successors' sum start at the mode's zero (ln 0 is -inf, which no byte
 * pattern gives). */
GR_HD void gr_bc_fill(const gr_bc_ctx *c, gr_vid v) {
  c->sigma[v] = c->fill;
  c->acc[v] = c->fill;
}

/* --normalize, at the end of a run. */
GR_HD void gr_bc_scale(const gr_bc_ctx *c, gr_vid v) { c->bc[v] *= c->scale; }

/* The operator instantiations of one backend; the passes' come twice,
 * indexed by mode (GR_BC_LINEAR, GR_BC_LOG), so that the double path's
 * kernels hold none of the logarithms' code (registers, occupancy). */
enum { GR_BC_LINEAR = 0, GR_BC_LOG = 1 };
/* The backward levels loop: levels hi down to lo (hi >= lo >= 1) of the
 * forward pass's stack, pulling over the out-edges. */
typedef struct gr_bc_levels_args {
  const gr_csr *g;            /* device CSR: successors are out-neighbours */
  const gr_vid *stack;        /* the levels' vertices, level after level */
  const gr_eid *level_start;  /* device: level k is stack[level_start[k], level_start[k + 1]) */
  int hi, lo;
  /* Level hi's sums are already in acc (pushed by level hi + 1, or 0 at
   * the deepest level): taken from there rather than pulled. */
  bool acc_ready;
  gr_eid edges;               /* result: out-edges examined */
} gr_bc_levels_args;

typedef struct gr_bc_ops {
  gr_status (*forward[2])(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_bc_ctx *);
  /* One device, small levels: the forward pass's device-side loop (the
   * advance's, with a trail into the stack and the overflow flag as its
   * stop in double) and the backward one. */
  gr_status (*forward_levels[2])(gr_device *, gr_workspace *, gr_advance_levels_args *, const gr_bc_ctx *);
  gr_status (*backward_levels[2])(gr_device *, gr_workspace *, gr_bc_levels_args *, const gr_bc_ctx *);
  gr_status (*backward_compute[2])(gr_device *, gr_workspace *, gr_for_each_args *, const gr_bc_ctx *);
  gr_status (*backward[2])(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_bc_ctx *);
  gr_status (*scale)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_bc_ctx *);
  gr_status (*fill)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_bc_ctx *);
} gr_bc_ops;

extern const gr_bc_ops gr__bc_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_bc_ops gr__bc_ops_cuda;
/* Loads bc_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__bc_cuda_preload(gr_device *dev);
#endif
const gr_bc_ops *gr__bc_ops(const gr_device *dev);

extern const gr_primitive gr_bc_primitive;

/* The sources of a run: a->sources, or the one a->source. */
static inline gr_vid gr_bc_source_count(const gr_run_args *a) { return a->sources ? a->n_sources : 1; }
static inline gr_vid gr_bc_source(const gr_run_args *a, gr_vid i) { return a->sources ? a->sources[i] : a->source; }

/* The --normalize factor: (n / sources) / ((n - 1)(n - 2)), or 1 for
 * n <= 2 (no pair of other vertices). */
double gr_bc_normalizer(gr_vid n, gr_vid sources);

/* Serial Brandes in double over the run's sources, one after another; a
 * source whose counts outgrow double (the overflow rule) again in long
 * double (GR_ERR_UNSUPPORTED where long double is too narrow too): values
 * the centralities (scaled under --normalize), aux "depth" and "sigma" the
 * last source's depths (-1 unreached) and path counts (0 unreached), as
 * natural logarithms (-inf unreached) when that source outgrew double;
 * extra "sources", "levels" (the last source's depths 0..levels-1),
 * "log_sources" (sources that outgrew double) and "sigma_log" (1: the aux
 * counts are logarithms). The primitive's extract reports the same, but
 * for runs under --tune bc-counts=log, where every source runs as
 * logarithms (the validator compares counts either way). */
gr_status gr_bc_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref);

/* Tolerances: a centrality within GR_BC_REL_TOL (relative) or
 * GR_BC_ABS_TOL (absolute, near zero) of the reference's; a path count
 * above 2^53 within GR_BC_SIGMA_REL_TOL; a count held as a logarithm (by
 * the run or the reference) within GR_BC_LOG_SIGMA_TOL of the other's
 * logarithm, i.e. the count within 1e-6 relative, the centralities'
 * tolerance (the log-adds' rounding, about 1e-12 per level at 10^2464,
 * stays below 1e-8 over a 4096 x 4096 grid's 8,190 levels). */
#define GR_BC_REL_TOL 1e-6
#define GR_BC_ABS_TOL 1e-9
#define GR_BC_SIGMA_REL_TOL 1e-12
#define GR_BC_LOG_SIGMA_TOL 1e-6

/* Accepts every correct answer: n finite centralities of at least 0, each
 * within the tolerance of the reference's (computed here when ref is
 * NULL); depths equal to the reference's and path counts equal (or, above
 * 2^53, within GR_BC_SIGMA_REL_TOL); the source at depth 0 with one path.
 * Counts are read as logarithms where the result's (or the reference's)
 * extra "sigma_log" says so, and then compared as logarithms. */
gr_status gr_bc_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref);
/* Input edges with a reached endpoint (the last source's depths) times the
 * sources: exact for one source; for several, as if each reached what the
 * last one did (every source of a connected undirected graph does). */
gr_eid gr_bc_traversed_edges(gr_graph *g, const gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
