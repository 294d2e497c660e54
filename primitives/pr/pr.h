/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank: the stationary rank of every vertex under a random walk that
 * follows an out-edge with probability d (the damping: gr_prim_options
 * .damping, gr_run --damping; 0 <= d < 1, default GR_PR_DAMPING = 0.85)
 * and jumps to a uniformly random vertex otherwise; a dangling vertex (no
 * out-edges) hands its rank to every vertex alike. No source. Ranks sum
 * to 1.
 *
 * One iteration (power iteration) computes, for every vertex v,
 *   r'(v) = (1 - d) / n + d * (sum over in-edges (u, v) of r(u) / deg(u)
 *                              + D / n),
 * D being the rank of all dangling vertices, and stops when the L1 change
 * sum |r' - r| falls below the tolerance (default 1e-4, as GAPBS) or after
 * the iteration limit (default 100). Parallel and duplicate arcs count as
 * often as they occur; a self-loop is an arc like any other.
 *
 * The start is r(v) = deg(v) / m (m arcs; uniform 1/n when there are none):
 * every arc then carries the same contribution 1/m, which every device knows
 * without an exchange, so the first iteration needs nothing from peers. It
 * is the walk's stationary distribution on an undirected graph without the
 * jump; the answer does not depend on the start, and the reference starts
 * the same way.
 *
 * Numbers: ranks are 32-bit floats (what is stored, moved and read per
 * arc); the sum over a vertex's in-edges and the pushes into a vertex are
 * accumulated in double (a hub of 10^5 in-edges would lose about 1e-5 of
 * its rank to float rounding); the change and the dangling rank are
 * double sums over the devices (gr_part_sum_double), so every device
 * takes the same decision.
 *
 * Pull (the default): every vertex sums the contributions
 * r(u) / deg(u) of its in-neighbours over the CSC; a contribution is
 * written once per vertex and iteration (publish), read once per arc.
 * Push (--direction push): every vertex with out-edges adds its
 * contribution to each out-neighbour (atomic adds in double, through the
 * load-balanced advance); one iteration's sums become the next iteration's
 * ranks.
 *
 * Between devices the owner of a vertex computes its rank; what travels:
 *   pull   (either exchange): after publish, the owners refresh their
 *          contributions on every device holding a copy
 *          (gr_part_refresh: 4 bytes per copy, no ids);
 *   push   (--direction push): each proxy that received pushes here sends
 *          its partial sum to its owner (8-byte records, SUM). */
#ifndef GR_PR_H
#define GR_PR_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/packed.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GR_PR_DAMPING, the default damping, is in gr/primitive.h (the options'
 * initializer needs it). */
#define GR_PR_TOLERANCE 1e-4
enum { GR_PR_MAX_ITERATIONS = 100 };

/* What the kernels see. */
typedef struct gr_pr_ctx {
  float *rank;                /* per local vertex (owned ones meaningful) */
  float *contrib;             /* per local vertex: r(u) / deg(u); pull: proxies hold what owners sent */
  double *acc;                /* push: per local vertex, the contributions pushed into it */
  float *xfer;                /* push: proxies: their partial sums, sent; owned: what peers sent */
  const gr_eid *out_offsets;  /* local CSR: out-degrees of owned vertices */
  const gr_eid *in_offsets;   /* local CSC: in-edges of owned vertices */
  const gr_vid *in_indices;   /* NULL when the in-lists are packed */
  gr_packed in_packed;        /* --compress packed: the CSC's lists (bytes NULL otherwise), by value */
  const uint8_t *owner;       /* part owning each local vertex; NULL: see owned_first */
  gr_vid owned_first;         /* duplicate-1-hop: owned vertices are [0, owned_first); 0: use owner */
  int me;
  double base;                /* (1 - d) / n */
  double damping;
  double dangling_share;      /* d-less: D / n of the ranks being replaced */
  double inv_m;               /* 1 / m (m = arcs of all devices), 0 without arcs */
  double inv_n;
  bool first;                 /* the first iteration (push: sums from in-degrees) */
  double *sums;               /* device, 2 doubles: the L1 change and the new dangling rank */
} gr_pr_ctx;

GR_HD bool gr_pr_owned(const gr_pr_ctx *c, gr_vid v) {
  if (c->owned_first) return v < c->owned_first;
  return !c->owner || c->owner[v] == c->me;
}

GR_HD gr_eid gr_pr_out_degree(const gr_pr_ctx *c, gr_vid v) { return c->out_offsets[v + 1] - c->out_offsets[v]; }

/* A vertex's contribution to each of its out-neighbours. */
GR_HD float gr_pr_contribution(float rank, gr_eid degree) {
  return degree ? (float)((double)rank / (double)degree) : 0.0f;
}

/* For each local vertex, at the start of a run: the starting rank
 * deg(v) / m (uniform without arcs) and every arc's contribution 1/m;
 * proxies' slots start empty. */
GR_HD void gr_pr_init_vertex(const gr_pr_ctx *c, gr_vid v) {
  const bool own = gr_pr_owned(c, v);
  if (c->inv_m > 0) c->rank[v] = own ? (float)((double)gr_pr_out_degree(c, v) * c->inv_m) : 0.0f;
  else c->rank[v] = own ? (float)c->inv_n : 0.0f;
  c->contrib[v] = (float)c->inv_m;
  if (c->xfer) c->xfer[v] = 0.0f;
}

/* The rank a vertex takes from the sum of its in-neighbours'
 * contributions; adds the change from `old` to *l1 and, for a dangling
 * vertex, the new rank to *dangling. */
GR_HD float gr_pr_next_rank(const gr_pr_ctx *c, double sum, float old, bool is_dangling, double *l1,
                            double *dangling) {
  const float r = (float)(c->base + c->damping * (sum + c->dangling_share));
  const double change = (double)r - (double)old;
  *l1 += change < 0 ? -change : change;
  if (is_dangling) *dangling += r;
  return r;
}

/* v's new rank from the sum of its in-neighbours' contributions (see
 * gr_pr_next_rank). */
GR_HD void gr_pr_update(const gr_pr_ctx *c, gr_vid v, double sum, double *l1, double *dangling) {
  c->rank[v] = gr_pr_next_rank(c, sum, c->rank[v], gr_pr_out_degree(c, v) == 0, l1, dangling);
}

/* Pull: the sum of the contributions arriving over v's in-edges (the ids
 * plain, or decoded along the row). */
GR_HD double gr_pr_row_sum(const gr_pr_ctx *c, gr_vid v) {
  const gr_eid b = c->in_offsets[v], end = c->in_offsets[v + 1];
  double s = 0;
  if (!c->in_packed.bytes) {
    for (gr_eid k = b; k < end; k++) s += (double)c->contrib[c->in_indices[k]];
    return s;
  }
  if (b == end) return 0;
  gr_packed_walk w;
  s = (double)c->contrib[gr_packed_walk_start(&w, &c->in_packed, b, v)];
  for (gr_eid k = b + 1; k < end; k++) s += (double)c->contrib[gr_packed_walk_next(&w, &c->in_packed, k)];
  return s;
}

/* For each local vertex, after the ranks changed: an owned vertex's
 * contribution for the next iteration; a proxy's slot cleared (between
 * devices the pull reads only copies its owners refresh next). */
GR_HD void gr_pr_publish(const gr_pr_ctx *c, gr_vid v) {
  c->contrib[v] = gr_pr_owned(c, v) ? gr_pr_contribution(c->rank[v], gr_pr_out_degree(c, v)) : 0.0f;
}

/* Push: the sum that v's new rank is made of (and v's slot for peers'
 * partial sums emptied for the next exchange). The first iteration's sums
 * are known from the in-degrees (every contribution is 1/m). */
GR_HD double gr_pr_push_sum(const gr_pr_ctx *c, gr_vid v) {
  if (c->first) return (double)(c->in_offsets[v + 1] - c->in_offsets[v]) * c->inv_m;
  const double s = c->acc[v] + (double)c->xfer[v];
  c->xfer[v] = 0.0f;
  return s;
}

/* Push (advance visit): u's contribution into v. Never emits. */
GR_HD bool gr_pr_push_visit(const gr_pr_ctx *c, gr_vid u, gr_vid v, gr_eid e) {
  (void)e;
  gr_atomic_add_f64(&c->acc[v], (double)c->contrib[u]);
  return false;
}

/* Push between devices, for each proxy that received pushes: its partial
 * sum, to be sent to its owner. */
GR_HD void gr_pr_push_out(const gr_pr_ctx *c, gr_vid v) { c->xfer[v] = (float)c->acc[v]; }

/* How the pull's in-edges are spread over GPU thread blocks (built on the
 * host from the CSC, for CUDA devices only): tiles of at most GR_PR_TILE
 * in-edges, each either a run of consecutive rows (at most GR_PR_TILE_ROWS
 * rows, none heavier than GR_PR_TILE) or one chunk of GR_PR_TILE in-edges
 * of a heavy row, whose chunks' sums meet in heavy_sum. A block gathers a
 * whole tile's contributions into shared memory, every load of the tile in
 * flight at once (the next tile's ids too), then sums its rows from there
 * (docs/performance.md: the row-by-row kernels this replaced waited on
 * dependent loads per row; 2.0 -> 1.2 ms per iteration on Kronecker 22).
 *
 * Relabelled (--tune relabel): the pull reads a copy of the in-edge ids in
 * which each source is replaced by its position in `order` (vertices by
 * the number of in-edges they feed, most first), and gathers from the
 * contributions laid out in that order (copied from contrib at the start
 * of each step, after the exchange filled the proxies' slots). The few
 * thousand hubs that most in-edges read then share cache lines and stay in
 * each SM's L1; positions at or past `hot` are read past L1 so that the
 * long tail does not push the hubs out. Each block first copies the
 * contributions of the first `hub` positions into its shared memory (at
 * most what a block may hold beside the tile) and reads those from there:
 * the gathers are bound by L2 sectors (about one per in-edge), and the
 * hubs' share of them goes (Kronecker 22: 1.13 -> 0.96 ms per iteration
 * with 4,096 positions; docs/performance.md). */
enum { GR_PR_TILE = 4096, GR_PR_TILE_ROWS = 1024 };
/* tile_hi of a chunk tile: this bit and the chunk's index in its row
 * (tile_lo is the heavy row's index in `heavy`). */
#define GR_PR_CHUNK_TILE ((gr_vid)1 << (sizeof(gr_vid) * 8 - 1))
typedef struct gr_pr_plan {
  gr_buffer tile_lo, tile_hi; /* gr_vid per tile: rows [lo, hi), or a chunk */
  gr_eid n_tiles;
  gr_buffer heavy;       /* gr_vid rows of more than GR_PR_TILE in-edges */
  gr_eid n_heavy;
  gr_buffer heavy_sum;   /* double per heavy row */
  gr_vid n_rows;         /* rows of the CSC (local vertices) */
  bool relabelled;
  gr_buffer order;       /* gr_vid per position: the vertex ranked there */
  gr_buffer ids;         /* gr_vid per in-edge: its source's position */
  gr_buffer sorted;      /* float per position: this step's contributions */
  gr_eid hot;            /* positions below it are gathered through L1 */
  gr_eid hub;            /* positions below it from each block's shared copy */
} gr_pr_plan;

/* The tiles of a CSC (see gr_pr_plan): their count, and with lo/hi (room
 * for the count) the tiles, chunks of heavy rows first; heavy (room for
 * the heavy rows) receives the heavy rows and *n_heavy their count. */
gr_eid gr_pr_tiles(const gr_csr *in, gr_vid *lo, gr_vid *hi, gr_vid *heavy, gr_eid *n_heavy);

/* How a plan relabels: never, always, or where the in-edges are skewed
 * (the top 1% of vertices feed at least GR_PR_SKEWED_PERCENT% of them:
 * measured, relabelling gains 4-8% on Kronecker 22 and loses 1% on
 * uniform 22 and 12% on the grid, whose sources have no hubs to share). */
typedef enum gr_pr_relabel { GR_PR_RELABEL_OFF = 0, GR_PR_RELABEL_ON = 1, GR_PR_RELABEL_SKEWED = 2 } gr_pr_relabel;
enum { GR_PR_SKEWED_PERCENT = 20 };

/* Builds the plan of a CSC whose host copy is `in` (its n local vertices,
 * the sources its ids name), on dev, its tiles over in's first `rows` rows
 * (the rows the device holds: a part's owned vertices, its copies' rows
 * being empty and absent on the device; rows <= in->n, every later row
 * empty); unless `relabel` is off, with `dev_indices` (the device copy of
 * in's ids), also the relabelled copy (GR_ERR_DEVICE_OOM, the plan
 * released, when it does not fit); release frees its buffers. */
gr_status gr_pr_plan_build(gr_pr_plan *pl, gr_device *dev, const gr_csr *in, gr_vid rows, const gr_csr *out,
                           const gr_vid *dev_indices, gr_pr_relabel relabel, gr_eid hot, gr_eid hub);
void gr_pr_plan_release(gr_pr_plan *pl);

/* Ranks the n vertices of a CSC by how many of its in-edges they feed,
 * most first, ties by id (a counting sort; counts past 2^16 tie): order[i]
 * is the vertex at position i, position[v] the inverse; *top_fed (when not
 * NULL) the in-edges the first 1% of positions (at least one) feed. `out`,
 * when not NULL, is in's transpose (the same arcs by source: a whole
 * graph's CSR beside its CSC, or in itself for an undirected graph), whose
 * row lengths are the counts. Without it the entries of in are counted,
 * one atomic increment at a random address each (Kronecker 25 on 2 cores:
 * 3.1 s, against 0.2-0.4 s for the whole order from a transpose): every
 * entry when `sample` is 1, else the entries e with e % sample == 0, each
 * counting `sample` (an estimate: the order only decides which sources sit
 * together and which stay in shared memory, never a rank). */
gr_status gr_pr_order(const gr_csr *in, const gr_csr *out, unsigned sample, gr_vid *order, gr_vid *position,
                      gr_eid *top_fed);
/* The same order from counts already made: fed[v] in-edges fed by each of
 * the n vertices. */
gr_status gr_pr_order_fed(gr_vid n, const gr_eid *fed, gr_vid *order, gr_vid *position, gr_eid *top_fed);
/* A part's in-edges (no transpose: its sources include copies) are counted
 * on the device (gr_pr_ops.count_sources), in pieces of at most `piece`
 * arcs (0 or past 2^32 - 1: 2^32 - 1) whose counts each fit 32 bits, summed
 * into fed (n = in->n entries) on the host; *counted false where the
 * backend has no count. */
gr_status gr_pr_count_fed(gr_device *dev, const gr_csr *in, const gr_vid *dev_indices, gr_eid piece, gr_eid *fed,
                          bool *counted);
/* Where the device cannot count (no backend today: a deferred part, whose
 * in-lists stay in the graph until the upload, is refused there), on the
 * host, one in GR_PR_ORDER_SAMPLE from GR_PR_ORDER_SAMPLE_FROM in-edges on:
 * the host's count of every in-edge took most of PageRank's 8-10 s setup
 * on each of 2 H200s for Kronecker 27 (2.1 G in-edges a part); the hubs
 * feed thousands each and keep their places, the tail's order blurs. */
enum { GR_PR_ORDER_SAMPLE = 8 };
#define GR_PR_ORDER_SAMPLE_FROM ((gr_eid)1 << 26)

/* The operator instantiations of one backend. The steps return the
 * iteration's L1 change and dangling rank (this device's part) on the host. */
typedef struct gr_pr_ops {
  gr_status (*init)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_pr_ctx *);
  gr_status (*publish)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_pr_ctx *);
  gr_status (*pull_step)(gr_device *, gr_workspace *, const gr_pr_plan *, gr_vid n, const gr_pr_ctx *, double *l1,
                         double *dangling);
  gr_status (*push_step)(gr_device *, gr_workspace *, gr_vid n, const gr_pr_ctx *, double *l1, double *dangling);
  gr_status (*push)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_pr_ctx *);
  gr_status (*push_out)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_pr_ctx *);
  /* ids[e] = position[src[e]] for the m in-edges (the relabelled copy). */
  gr_status (*relabel)(gr_device *, gr_vid *ids, const gr_vid *src, const gr_vid *position, gr_eid m);
  /* fed[src[e]] += 1 for the m in-edges (fed zeroed by the caller; m below
   * 2^32, so no count overflows): the in-edges each source feeds. */
  gr_status (*count_sources)(gr_device *, uint32_t *fed, const gr_vid *src, gr_eid m);
} gr_pr_ops;

extern const gr_pr_ops gr__pr_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_pr_ops gr__pr_ops_cuda;
/* Loads pr_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__pr_cuda_preload(gr_device *dev);
#endif
const gr_pr_ops *gr__pr_ops(const gr_device *dev);

extern const gr_primitive gr_pr_primitive;

/* The tolerance and iteration limit in effect (the defaults for 0). */
double gr_pr_tolerance(const gr_prim_options *o);
int gr_pr_max_iterations(const gr_prim_options *o);

/* GR_SUCCESS when o's damping is in [0, 1), else GR_ERR_INVALID_ARG with a
 * message naming the value: at 1 the jump that makes the ranks unique is
 * gone (and the power iteration need not converge); past it, or below 0,
 * or NaN, the "ranks" are not a distribution. */
gr_status gr_pr_check_damping(const gr_prim_options *o);

/* Checks the options (a tolerance that is a positive number, a damping in
 * [0, 1)) and sets the iteration limit to pr's default when none was
 * given. */
gr_status gr_pr_prepare(gr_graph *g, gr_prim_options *o);

/* Plain serial reference: power iteration in double from the same start
 * with the same damping and stop rule; ref->extra holds the iterations and
 * the L1 change of each. */
gr_status gr_pr_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref);

/* Power iteration in double with damping d (0 <= d < 1, unchecked) for
 * exactly `iterations` iterations: the ranks (n doubles) and each
 * iteration's L1 change (iterations entries). */
gr_status gr_pr_power(gr_graph *g, double d, int iterations, double *rank, double *l1);

/* The relative difference allowed between a rank and the reference's. */
#define GR_PR_REL_TOL 1e-5
/* How far a float L1 change may sit from the double one (the ranks'
 * rounding summed over all vertices): a stop within this of the tolerance
 * may fall one iteration either way. */
#define GR_PR_L1_SLACK 4e-6

/* Accepts every correct answer: n finite positive ranks summing to 1
 * (within 1e-5); the iterations the run reports (r->extra "iterations")
 * stop where the double iteration's L1 change first falls below the
 * tolerance, or one iteration either way where that change is within
 * GR_PR_L1_SLACK of it, or at the iteration limit; every rank within
 * GR_PR_REL_TOL of the double iteration's after as many iterations. */
gr_status gr_pr_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref);
/* Input edges times iterations (each iteration reads every arc). */
gr_eid gr_pr_traversed_edges(gr_graph *g, const gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
