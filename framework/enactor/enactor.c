/* SPDX-License-Identifier: Apache-2.0 */
/* One pthread per device, kept for the enactor's life so each keeps its
 * device current. The caller posts a command (init, run, extract, release);
 * every thread executes it and the caller waits for all. Inside a run the
 * threads meet at barriers that also carry the "someone failed" decision, so
 * all of them leave at the same barrier and nothing hangs. Between devices
 * the loop is: iterate, barrier, exchange (the comm layer's, with barriers
 * of its own), barrier, global stop test. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gr/enactor.h"
#include "gr/frontier.h"
#include "gr/log.h"
#include "gr/operators.h"
#include "gr/packed.h"
#include "gr/util.h"

enum gr__cmd { GR__CMD_NONE, GR__CMD_INIT, GR__CMD_RUN, GR__CMD_EXTRACT, GR__CMD_QUIT };

/* A barrier that snapshots the failure flag when the last thread arrives:
 * every thread of one generation reads the same decision. Waiters spin on
 * the generation for a while before they sleep: GPUs' threads meet at a
 * barrier several times per iteration, and waking a sleeping thread costs
 * tens of microseconds, as much as a small level's work. CPU devices, whose
 * worker threads need the cores, spin only briefly. */
typedef struct gr__barrier {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int n;
  unsigned arrived; /* atomic */
  unsigned gen;     /* atomic; bumped under mu */
  bool failed;      /* under mu */
  bool snap[2];
  double spin_s;    /* how long a waiter spins before sleeping */
} gr__barrier;

struct gr_sync {
  struct gr_enactor *e;
  int index;
  double waited_ms;
  uint64_t passed; /* barriers passed */
};

/* gr_part_*'s cells hold GR_PART_GATHER_VALUES words a device, the most
 * any of them posts. */
_Static_assert((int)GR_PART_SUM_DOUBLES <= (int)GR_PART_GATHER_VALUES, "gr_part_sum_double's doubles fit the cells");

typedef struct gr__slot {
  struct gr_enactor *e;
  int index;
  pthread_t thread;
  bool started;
  gr_device *dev;
  gr_part part;
  gr_workspace ws;
  bool ws_ready;
  void *slice;
  void *xlocal;          /* the exchange's per-device state */
  struct gr_sync sync;
  gr_device_run_stats rs; /* this run's time split and bytes */
  /* Two queues. One device: the input and the output, trading places
   * every iteration. Several: f[0] the input and, once the iterate is done
   * with it, the next frontier the exchange builds (owned vertices only);
   * f[1] the output (copies too), so each keeps the room its role takes.
   * Three that rotated through every role each ended with the largest
   * role's room (BC on 4 CPU devices of Kronecker 22: 26.1 MiB of queues
   * a device, 12.7 now). */
  gr_frontier f[2];
  int cur;
  gr_buffer dev_out[3]; /* offsets, indices, weights */
  gr_buffer dev_in[3];
  /* --compress packed: the CSR's and the CSC's packed lists on the device
   * (bytes, block offsets, group offsets) and the views the parts' CSRs
   * point at */
  gr_buffer dev_packed[2][3];
  gr_packed packed[2];
  /* --graph-memory host: the indices and weights of the CSR and the CSC in
   * mapped host memory (gr_device_host_mapped_alloc) */
  void *host_arrays[4];
  bool graph_on_host;
  gr_buffer dev_l2g;
  /* per iteration, read by all threads after a barrier */
  gr_eid out_size;
  gr_eid in_size;
  bool converged[2]; /* by iteration parity, as iter_edges */
  gr_eid pending[2];  /* gr_iter.pending, by iteration parity */
  bool told_all[2];   /* gr_exchange_step.told_all, by iteration parity */
  gr_eid tally[2][GR_ITER_TALLIES]; /* gr_iter.tally, by iteration parity */
  gr_eid next_edges[2]; /* out-edges of the next frontier, as the exchange measured them */
  gr_eid next_max_degree;
  gr_eid edges;
  /* This iteration's edges and bytes put on the wire, in the cell of the
   * iteration's parity: thread 0 reads them after the barrier that ends an
   * iteration while the others may already be writing the next one's. */
  gr_eid iter_edges[2];
  uint64_t iter_bytes[2];
  /* gr_part_sum, _min, _sum_double (bits) and _gather: two cells,
   * alternating (gr__part_post) */
  uint64_t cells[2][GR_PART_GATHER_VALUES];
  unsigned cell_calls;
  /* gr_iter.post: the words posted into cells[post_k] before the exchange,
   * whose barrier publishes them, and how many (by cell: a peer may read
   * its count while this device posts into the other cell); post_live
   * while gr_part_posted may read them (the primitive's arrived). */
  int post_n[2];
  unsigned post_k;
  bool post_live;
  double inner_ms; /* exchange steps inside iterate (gr_part_refresh), less their waiting */
  gr_status st;
} gr__slot;

struct gr_enactor {
  gr_enactor_config cfg;
  gr_prim_options opts;
  int n;
  gr__slot *slots;
  pthread_mutex_t mu;
  pthread_cond_t cv_cmd, cv_done;
  int cmd;
  unsigned cmd_gen;
  int done;
  gr__barrier bar;
  /* cfg.turns: held by the one device thread that works now */
  pthread_mutex_t turn;
  /* first failure */
  gr_status fail_st;
  int fail_dev;
  char fail_msg[1024];
  /* current command's arguments and outputs */
  const gr_run_args *args;
  gr_run_stats *stats;
  gr_result *result;
  double t0, t1;
};

static void gr__barrier_init(gr__barrier *b, int n, double spin_s) {
  memset(b, 0, sizeof *b);
  pthread_mutex_init(&b->mu, NULL);
  pthread_cond_init(&b->cv, NULL);
  b->n = n;
  b->spin_s = spin_s;
}

static void gr__barrier_fini(gr__barrier *b) {
  pthread_mutex_destroy(&b->mu);
  pthread_cond_destroy(&b->cv);
}

/* Records the calling thread's failure (the first one wins) so that the next
 * barrier tells everyone to stop. */
static void gr__fail(struct gr_enactor *e, int dev, gr_status st) {
  pthread_mutex_lock(&e->bar.mu);
  if (e->fail_st >= 0) {
    e->fail_st = st;
    e->fail_dev = dev;
    const char *msg = gr_error_message();
    /* Peers already waiting at a barrier are woken by this device's
     * arrival there; saying how many tells a failure that others waited
     * for from one that came first (and lets the tests show the former). */
    const unsigned waiting = __atomic_load_n(&e->bar.arrived, __ATOMIC_ACQUIRE);
    if (waiting)
      snprintf(e->fail_msg, sizeof e->fail_msg, "%s (%u other device%s waiting for it at a barrier)",
               msg && *msg ? msg : gr_status_string(st), waiting, waiting == 1 ? " was" : "s were");
    else
      snprintf(e->fail_msg, sizeof e->fail_msg, "%s", msg && *msg ? msg : gr_status_string(st));
  }
  e->bar.failed = true;
  pthread_mutex_unlock(&e->bar.mu);
  gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d failed: %s", dev, gr_status_string(st));
}

/* Returns true when the run must stop because some device failed. */
static bool gr__barrier_wait_raw(gr__barrier *b) {
  const unsigned gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) == (unsigned)b->n) {
    /* The last one in: nobody can arrive at the next barrier before the
     * generation moves, so the count is reset first. */
    pthread_mutex_lock(&b->mu);
    __atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);
    b->snap[gen & 1] = b->failed;
    __atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
  } else {
    bool passed = false;
    if (b->spin_s > 0) {
      const double until = gr_time_now() + b->spin_s;
      for (unsigned i = 1; !passed; i++) {
        passed = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) != gen;
        if (!passed && (i & 255u) == 0 && gr_time_now() > until) break;
      }
    }
    if (!passed) {
      pthread_mutex_lock(&b->mu);
      while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) pthread_cond_wait(&b->cv, &b->mu);
      pthread_mutex_unlock(&b->mu);
    }
  }
  /* Written before the generation moved (release), read after (acquire). */
  return b->snap[gen & 1];
}

/* Taking turns (gr_enactor_config.turns): a device gives up its turn only
 * at a barrier, with its stream drained, so that the time before counts
 * its own work in full and no kernel of it overlaps another device's. A
 * failure of the drain is recorded before the barrier, which all then
 * leave. Waiting for the turn counts as waiting. */
static void gr__turn_end(gr_sync *s) {
  struct gr_enactor *e = s->e;
  const gr_status st = gr_device_sync(e->slots[s->index].dev);
  if (st < 0) gr__fail(e, s->index, st);
  pthread_mutex_unlock(&e->turn);
}

bool gr_sync_wait(gr_sync *s) {
  const bool turns = s->e->cfg.turns;
  if (turns) gr__turn_end(s);
  double t = gr_time_now();
  bool stop = gr__barrier_wait_raw(&s->e->bar);
  if (turns) pthread_mutex_lock(&s->e->turn);
  s->waited_ms += (gr_time_now() - t) * 1e3;
  s->passed++;
  if (stop) gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d leaves at its barrier %llu: a device failed", s->index,
                   (unsigned long long)s->passed);
  return stop;
}

uint64_t gr_sync_count(const gr_sync *s) { return s->passed; }

void gr_sync_fail(gr_sync *s, gr_status st) { gr__fail(s->e, s->index, st); }

bool gr_sync_failed(gr_sync *s) {
  pthread_mutex_lock(&s->e->bar.mu);
  bool f = s->e->bar.failed;
  pthread_mutex_unlock(&s->e->bar.mu);
  return f;
}

double gr_sync_waited_ms(const gr_sync *s) { return s->waited_ms; }

/* The cells behind gr_part_sum, _min, _sum_double and _gather: this
 * device's n words posted, then the barrier; every device's words are then
 * e->slots[d].cells[*k]. Two alternating cells: a thread can only reach
 * the call after next once every thread has read this one (it must pass
 * the next call's barrier first). */
static gr_status gr__part_post(gr_part *p, const uint64_t *local, int n, unsigned *k) {
  gr__slot *me = &p->sync->e->slots[p->sync->index];
  *k = me->cell_calls++ & 1u;
  for (int i = 0; i < n; i++) me->cells[*k][i] = local[i];
  return gr_sync_wait(p->sync) ? GR_ERR_ABORTED : GR_SUCCESS;
}

/* gr_iter.post, before the exchange: into the next cell (every device
 * takes one at every exchange, posting or not, so that the cells stay in
 * step with gr__part_post's), published by the exchange's barrier. */
static gr_status gr__post_at_exchange(gr__slot *s, const gr_iter *it) {
  const unsigned k = s->cell_calls++ & 1u;
  s->post_k = k;
  s->post_n[k] = 0;
  s->post_live = false;
  if (it->n_post < 0 || it->n_post > GR_PART_GATHER_VALUES)
    return gr_errorf(GR_ERR_INTERNAL, "iteration %d posts %d words at the exchange, at most %d", it->iteration,
                     it->n_post, GR_PART_GATHER_VALUES);
  for (int i = 0; i < it->n_post; i++) s->cells[k][i] = it->post[i];
  s->post_n[k] = it->n_post;
  return GR_SUCCESS;
}

gr_status gr_part_posted(gr_part *p, gr_eid *all) {
  if (!p->sync) return gr_errorf(GR_ERR_INTERNAL, "gr_part_posted: one device posts nothing");
  const struct gr_enactor *e = p->sync->e;
  const gr__slot *me = &e->slots[p->sync->index];
  const unsigned k = me->post_k;
  const int n = me->post_n[k];
  if (!me->post_live || n < 1)
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_posted: device %d posted no words at this iteration's exchange",
                     p->sync->index);
  for (int d = 0; d < e->n; d++) {
    if (e->slots[d].post_n[k] != n)
      return gr_errorf(GR_ERR_INTERNAL, "gr_part_posted: device %d posted %d words at the exchange, device %d %d",
                       p->sync->index, n, d, e->slots[d].post_n[k]);
    for (int i = 0; i < n; i++) all[(size_t)d * (size_t)n + (size_t)i] = e->slots[d].cells[k][i];
  }
  return GR_SUCCESS;
}

gr_status gr_iter_take_out_counts(gr_iter *it, gr_device *dev) {
  if (!it->out_counts) return GR_SUCCESS;
  gr_eid h[2] = {0, 0};
  GR_CHECK(gr_device_copy(dev, h, it->out_counts, sizeof h, GR_COPY_D2H));
  if (h[0] > it->out->size)
    return gr_errorf(GR_ERR_INTERNAL, "iteration %d: the advance output %llu vertices for a bound of %llu",
                     it->iteration, (unsigned long long)h[0], (unsigned long long)it->out->size);
  it->out->size = h[0];
  it->edges += h[1];
  it->out_counts = NULL;
  return GR_SUCCESS;
}

gr_status gr_part_sum(gr_part *p, gr_eid local, gr_eid *total) {
  if (!p->sync) {
    *total = local;
    return GR_SUCCESS;
  }
  unsigned k = 0;
  const uint64_t v = local;
  GR_CHECK(gr__part_post(p, &v, 1, &k));
  const struct gr_enactor *e = p->sync->e;
  gr_eid t = 0;
  for (int d = 0; d < e->n; d++) t += e->slots[d].cells[k][0];
  *total = t;
  return GR_SUCCESS;
}

/* As gr_part_sum, taking the smallest. */
gr_status gr_part_min(gr_part *p, gr_eid local, gr_eid *least) {
  if (!p->sync) {
    *least = local;
    return GR_SUCCESS;
  }
  unsigned k = 0;
  const uint64_t v = local;
  GR_CHECK(gr__part_post(p, &v, 1, &k));
  const struct gr_enactor *e = p->sync->e;
  gr_eid t = e->slots[0].cells[k][0];
  for (int d = 1; d < e->n; d++) t = e->slots[d].cells[k][0] < t ? e->slots[d].cells[k][0] : t;
  *least = t;
  return GR_SUCCESS;
}

/* As gr_part_sum for up to GR_PART_SUM_DOUBLES doubles at once (their bits
 * in the cells). The devices' values are added in device order, so every
 * device gets the same bits (a convergence test then decides alike
 * everywhere). */
gr_status gr_part_sum_double(gr_part *p, const double *local, double *total, int n) {
  if (n < 1 || n > GR_PART_SUM_DOUBLES)
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_sum_double takes 1 to %d values, got %d", GR_PART_SUM_DOUBLES, n);
  if (!p->sync) {
    for (int i = 0; i < n; i++) total[i] = local[i];
    return GR_SUCCESS;
  }
  uint64_t bits[GR_PART_SUM_DOUBLES];
  memcpy(bits, local, (size_t)n * sizeof *local);
  unsigned k = 0;
  GR_CHECK(gr__part_post(p, bits, n, &k));
  const struct gr_enactor *e = p->sync->e;
  for (int i = 0; i < n; i++) {
    double t = 0;
    for (int d = 0; d < e->n; d++) {
      double x;
      memcpy(&x, &e->slots[d].cells[k][i], sizeof x);
      t += x;
    }
    total[i] = t;
  }
  return GR_SUCCESS;
}

/* Every device's values, in device order. */
gr_status gr_part_gather(gr_part *p, const gr_eid *local, int n, gr_eid *all) {
  if (n < 1 || n > GR_PART_GATHER_VALUES)
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_gather takes 1 to %d values, got %d", GR_PART_GATHER_VALUES, n);
  if (!p->sync) {
    for (int i = 0; i < n; i++) all[i] = local[i];
    return GR_SUCCESS;
  }
  unsigned k = 0;
  GR_CHECK(gr__part_post(p, local, n, &k));
  const struct gr_enactor *e = p->sync->e;
  for (int d = 0; d < e->n; d++)
    for (int i = 0; i < n; i++) all[(size_t)d * (size_t)n + (size_t)i] = e->slots[d].cells[k][i];
  return GR_SUCCESS;
}

static gr_status gr__part_refresh(gr_part *p, const gr_refresh_args *a);

gr_status gr_part_refresh(gr_part *p, void *const *arrays, int n_arrays, int elem_bytes) {
  const gr_refresh_args a = {arrays, n_arrays, elem_bytes, NULL, NULL, 0, NULL, NULL};
  return gr__part_refresh(p, &a);
}

gr_status gr_part_refresh_some(gr_part *p, void *const *arrays, int n_arrays, int elem_bytes,
                               const gr_vid *const *changed, const gr_eid *n_changed, int n_lists,
                               const gr_vid **written, gr_eid *n_written) {
  if (written) *written = NULL;
  if (n_written) *n_written = 0;
  if (!written != !n_written)
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_refresh_some takes both of written and n_written, or neither");
  if (!changed || n_lists < 0 || (n_lists > 0 && !n_changed))
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_refresh_some takes lists of changed vertices");
  const gr_refresh_args a = {arrays, n_arrays, elem_bytes, changed, n_changed, n_lists, written, n_written};
  return gr__part_refresh(p, &a);
}

static gr_status gr__part_refresh(gr_part *p, const gr_refresh_args *ra) {
  if (!p->sync) return GR_SUCCESS;
  const int n_arrays = ra->n_arrays, elem_bytes = ra->elem_bytes;
  struct gr_enactor *e = p->sync->e;
  gr__slot *me = &e->slots[p->sync->index];
  if (n_arrays < 1 || n_arrays > GR_MAX_PAYLOADS || (elem_bytes != 4 && elem_bytes != 8))
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_refresh takes 1 to %d arrays of 4- or 8-byte entries, got %d of %d",
                     GR_MAX_PAYLOADS, n_arrays, elem_bytes);
  if (!e->cfg.exchange->refresh || !e->cfg.prim->refreshes_copies)
    return gr_errorf(GR_ERR_INTERNAL, "%s refreshes copies but %s", e->cfg.prim->name,
                     e->cfg.exchange->refresh ? "its spec does not set refreshes_copies" : "the exchange cannot");
  /* The refresh's own steps count as the exchange's (package, transfer,
   * combine), not as the iterate's compute. */
  const double t = gr_time_now(), w = p->sync->waited_ms;
  const gr_status st = e->cfg.exchange->refresh(me->xlocal, p, p->sync, ra, &me->rs);
  me->inner_ms += (gr_time_now() - t) * 1e3 - (p->sync->waited_ms - w);
  return st;
}

gr_status gr_part_allgather(gr_part *p, const void *mine, uint64_t bytes, gr_buffer *all, const char *what,
                            uint64_t *at) {
  if (!p->sync) {
    at[0] = 0;
    at[1] = bytes;
    if (!bytes) return GR_SUCCESS;
    GR_CHECK(gr_buffer_reserve(all, p->dev, (size_t)bytes, 0, &p->mem, 0, what));
    return gr_device_copy(p->dev, all->ptr, mine, (size_t)bytes, GR_COPY_D2D);
  }
  struct gr_enactor *e = p->sync->e;
  gr__slot *me = &e->slots[p->sync->index];
  if (!e->cfg.exchange->gather)
    return gr_errorf(GR_ERR_INTERNAL, "%s gathers device data but the exchange cannot", e->cfg.prim->name);
  /* Counted as the exchange's steps, as a refresh is. */
  const gr_gather_args a = {mine, bytes, all, what, at};
  const double t = gr_time_now(), w = p->sync->waited_ms;
  const gr_status st = e->cfg.exchange->gather(me->xlocal, p, p->sync, &a, &me->rs);
  me->inner_ms += (gr_time_now() - t) * 1e3 - (p->sync->waited_ms - w);
  return st;
}

gr_status gr_part_borders(gr_part *p, gr_borders *b) {
  memset(b, 0, sizeof *b);
  if (!p->sync) return GR_SUCCESS;
  struct gr_enactor *e = p->sync->e;
  if (!e->cfg.exchange->borders || !e->cfg.prim->refreshes_copies)
    return gr_errorf(GR_ERR_INTERNAL, "%s asks for border lists but %s", e->cfg.prim->name,
                     e->cfg.exchange->borders ? "its spec does not set refreshes_copies" : "the exchange has none");
  return e->cfg.exchange->borders(e->slots[p->sync->index].xlocal, p, b);
}

gr_status gr_part_route(gr_part *p, gr_eid bound, const void *value, int value_bytes, gr_route *r) {
  memset(r, 0, sizeof *r);
  if (!p->sync) return GR_SUCCESS;
  struct gr_enactor *e = p->sync->e;
  if (!e->cfg.exchange->route) return GR_SUCCESS;
  if (value_bytes != 4 && value_bytes != 8)
    return gr_errorf(GR_ERR_INTERNAL, "gr_part_route takes a 4- or 8-byte value, got %d", value_bytes);
  gr__slot *me = &e->slots[p->sync->index];
  /* Clearing the bitmaps is the exchange's part of the iteration. */
  const double t = gr_time_now();
  const gr_status st = e->cfg.exchange->route(me->xlocal, p, bound, value, value_bytes, r);
  const double ms = (gr_time_now() - t) * 1e3;
  me->inner_ms += ms;
  me->rs.package_ms += ms;
  return st;
}

gr_status gr_part_owner_words(gr_part *p, gr_owner_words *w) {
  memset(w, 0, sizeof *w);
  if (!p->sync) return GR_SUCCESS;
  struct gr_enactor *e = p->sync->e;
  if (!e->cfg.exchange->owner_words) return GR_SUCCESS;
  return e->cfg.exchange->owner_words(e->slots[p->sync->index].xlocal, p, w);
}

gr_owner_slots gr_owner_words_slots(const gr_owner_words *w) {
  gr_owner_slots s;
  memset(&s, 0, sizeof s);
  if (!w->groups) return s;
  s.groups = w->groups + w->me;
  s.stride = w->parts;
  s.words = w->words;
  s.tail = w->whole;
  return s;
}

gr_status gr_part_peers(gr_part *p, void *mine, gr_buffer *table, gr_peers *r) {
  enum { MAX_DEVICES = 64 };
  memset(r, 0, sizeof *r);
  /* The same on every device: all leave here, or none. */
  if (!p->sync || p->count > MAX_DEVICES) return GR_SUCCESS;
  struct gr_enactor *e = p->sync->e;
  gr_peers got;
  memset(&got, 0, sizeof got);
  bool reach = false;
  gr_status st = GR_SUCCESS;
  if (e->cfg.exchange->peers) st = e->cfg.exchange->peers(e->slots[p->sync->index].xlocal, p, &got, &reach);
  /* Every device takes part in both collectives, one that failed too
   * (saying it cannot reach, then that it has no table), so that all
   * decide alike and none waits for it: the table is used only where
   * every device made its own. */
  const gr_eid word[2] = {st == GR_SUCCESS && reach ? 1u : 0u, (gr_eid)(uintptr_t)mine};
  gr_eid all[2 * MAX_DEVICES];
  void *at[MAX_DEVICES];
  GR_CHECK(gr_part_gather(p, word, 2, all));
  bool every = true;
  for (int d = 0; d < p->count; d++) every = every && all[2 * d] == 1;
  if (!every) return st;
  for (int d = 0; d < p->count; d++) at[d] = (void *)(uintptr_t)all[2 * d + 1];
  st = gr_buffer_reserve(table, p->dev, (size_t)p->count * sizeof *at, 0, &p->mem, 0, "peers' arrays");
  if (st == GR_SUCCESS) st = gr_device_copy(p->dev, table->ptr, at, (size_t)p->count * sizeof *at, GR_COPY_H2D);
  gr_eid made = 0;
  GR_CHECK(gr_part_min(p, st == GR_SUCCESS ? 1u : 0u, &made));
  if (st != GR_SUCCESS || !made) return st;
  *r = got;
  r->at = (void *const *)table->ptr;
  return GR_SUCCESS;
}

/* Appends one iteration's figures to the run's statistics (thread 0). The
 * arrays double when full: a grid run has thousands of levels, and this is
 * inside the timed loop. */
static void gr__stats_level(gr_run_stats *rs, gr_eid frontier, gr_eid edges, double ms, char tag,
                            uint64_t bytes) {
  if (rs->frontier_len == rs->level_capacity) {
    const size_t n = rs->level_capacity ? 2 * (size_t)rs->level_capacity : 64;
    gr_eid *f = realloc(rs->frontier, sizeof *f * n);
    if (f) rs->frontier = f;
    gr_eid *ed = realloc(rs->level_edges, sizeof *ed * n);
    if (ed) rs->level_edges = ed;
    double *t = realloc(rs->level_ms, sizeof *t * n);
    if (t) rs->level_ms = t;
    char *g = realloc(rs->level_tag, n);
    if (g) rs->level_tag = g;
    uint64_t *by = realloc(rs->level_bytes, sizeof *by * n);
    if (by) rs->level_bytes = by;
    if (!f || !ed || !t || !g || !by) return; /* statistics only: keep what fits */
    rs->level_capacity = (int)n;
  }
  const int k = rs->frontier_len++;
  rs->frontier[k] = frontier;
  rs->level_edges[k] = edges;
  rs->level_ms[k] = ms;
  rs->level_tag[k] = tag;
  rs->level_bytes[k] = bytes;
}

/* Appends one iteration's entry to a device's timeline (statistics only:
 * an entry that cannot be stored is dropped). */
static void gr__timeline_add(gr_device_run_stats *rs, const gr_timeline_entry *t) {
  if (rs->timeline_len == rs->timeline_capacity) {
    const int n = rs->timeline_capacity ? 2 * rs->timeline_capacity : 64;
    gr_timeline_entry *x = realloc(rs->timeline, sizeof *x * (size_t)n);
    if (!x) return;
    rs->timeline = x;
    rs->timeline_capacity = n;
  }
  rs->timeline[rs->timeline_len++] = *t;
}

/* What a device did between two snapshots. */
typedef struct gr__snap {
  gr_device_activity act;
  gr_device_run_stats rs;
  double waited_ms;
  uint64_t barriers;
} gr__snap;

static gr__snap gr__snap_take(const gr__slot *s) {
  gr__snap x;
  x.act = gr_device_activity_get();
  x.rs = s->rs;
  x.waited_ms = s->sync.waited_ms;
  x.barriers = s->sync.passed;
  return x;
}

/* Where a part's CSR (CSC) h has its lists: NULL, in h; else the whole
 * graph's rows (a part built lazily, gr_subgraph.lists_out). */
static const gr_csr *gr__lists_of(const gr_subgraph *sub, const gr_csr *h) {
  if (!gr_subgraph_lists_deferred(sub)) return NULL;
  return h == &sub->out ? &sub->lists_out : &sub->lists_in;
}

/* Whether h's arcs carry weights, wherever its lists are. */
static bool gr__csr_weighted(const gr_csr *h, const gr_csr *lists) {
  return lists ? lists->weights != NULL : h->weights != NULL;
}

/* Room a device keeps beside the 1-hop ids' table (its context, the
 * allocator's rounding). */
#define GR__IDS_TABLE_HEADROOM ((size_t)64 << 20)

/* A 1-hop part's neighbour ids gathered from the graph as they are (runs of
 * rows copied whole) and made local ids on the device, through the part's
 * global-to-local table uploaded for the while: the host's conversion, one
 * random table read an arc, took 1.8-2.2 s of the set-up of CC, PageRank
 * and SSSP on 2 logical devices of Kronecker 27 (16-core host). Only where
 * the table (one gr_vid a vertex of the graph) is no larger than the ids
 * and the device has room for it (*done false otherwise: the host converts
 * them); decided before allocating, so that a failed allocation (an
 * injected one too) fails the upload as any other does. Unmapped ids are
 * counted into l->unmapped as the host's conversion counts them. */
static gr_status gr__put_ids_mapped(gr_device *dev, void *dst, const gr_subgraph *sub, gr_subgraph_lists *l,
                                    size_t bytes, bool *done) {
  *done = false;
  const size_t tb = (size_t)sub->n_global * sizeof(gr_vid);
  if (!sub->global_to_local || tb > bytes) return GR_SUCCESS;
  size_t free_b = 0, total_b = 0;
  GR_CHECK(gr_device_mem_info(dev, &free_b, &total_b));
  if (free_b < tb + GR__IDS_TABLE_HEADROOM) return GR_SUCCESS;
  gr_buffer table = {0}, bad = {0};
  gr_status st = GR_SUCCESS;
  GR_CHECK_GOTO(gr_buffer_resize(&bad, dev, sizeof(unsigned long long), 0, "1-hop ids' count (upload)"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&table, dev, tb, 0, "1-hop ids' table (upload)"), st, done);
  GR_CHECK_GOTO(gr_device_upload(dev, table.ptr, sub->global_to_local, tb), st, done);
  GR_CHECK_GOTO(gr_device_memset(dev, bad.ptr, 0, sizeof(unsigned long long)), st, done);
  const gr_vid *ids = l->ids;
  l->ids = NULL;
  st = gr_device_upload_fill(dev, dst, bytes, gr_subgraph_fill_lists, l);
  l->ids = ids;
  GR_CHECK_GOTO(st, st, done);
  GR_CHECK_GOTO(gr_ids_map(dev, (gr_vid *)dst, (gr_eid)(bytes / sizeof(gr_vid)), (const gr_vid *)table.ptr,
                           sub->n_global, l->n_ids, (unsigned long long *)bad.ptr),
                st, done);
  unsigned long long n_bad = 0;
  GR_CHECK_GOTO(gr_device_copy(dev, &n_bad, bad.ptr, sizeof n_bad, GR_COPY_D2H), st, done);
  if (l->unmapped) *l->unmapped += n_bad;
  *done = true;
done:
  gr_buffer_release(&table);
  gr_buffer_release(&bad);
  return st;
}

/* One of h's arrays (its ids, or its weights), `bytes` long, into device
 * memory at dst or (to_host) into the mapped host memory at dst: copied
 * from h, or gathered from the graph where the part left its lists there
 * (an id without a local one refused). */
static gr_status gr__put_array(gr_device *dev, void *dst, bool to_host, const gr_subgraph *sub, const gr_csr *h,
                               bool weights, size_t bytes) {
  if (!gr__lists_of(sub, h)) {
    /* Only read (the fill's context is not const). */
    void *src = (void *)(uintptr_t)(weights ? (const void *)h->weights : (const void *)h->indices);
    if (!to_host) return gr_device_upload(dev, dst, src, bytes);
    gr_fill_parallel(0, dst, 0, bytes, gr_fill_copy, src);
    return GR_SUCCESS;
  }
  unsigned long long unmapped = 0;
  gr_subgraph_lists l = gr_subgraph_lists_of(sub, h != &sub->out, weights, &unmapped);
  if (to_host) {
    gr_fill_parallel(0, dst, 0, bytes, gr_subgraph_fill_lists, &l);
  } else {
    bool mapped = false;
    if (l.ids) GR_CHECK(gr__put_ids_mapped(dev, dst, sub, &l, bytes, &mapped));
    if (!mapped) GR_CHECK(gr_device_upload_fill(dev, dst, bytes, gr_subgraph_fill_lists, &l));
  }
  return gr_subgraph_unmapped_error(unmapped);
}

/* Puts a host CSR's packed lists (hp, encoded from it) onto the device:
 * the three arrays into pb, the view into dp, which d points at; d has no
 * plain ids. The blocks go into device memory, or into mapped host memory
 * (*host, freed by the slot) when on_host, where the kernels read them over
 * the host link in fewer bytes than the ids; the block index (1/16 byte an
 * edge) always stays on the device, since every read looks it up first. */
static gr_status gr__upload_packed(gr_device *dev, const gr_packed *hp, bool on_host, void **host, gr_buffer pb[3],
                                   gr_packed *dp, gr_csr *d, const char *what) {
  const size_t bb = hp->n_bytes, ob = ((size_t)hp->n_blocks + 1) * sizeof *hp->block_offsets,
               gb = (size_t)gr_packed_groups(hp->n_blocks) * sizeof *hp->group_offsets;
  void *blocks = NULL;
  if (on_host) {
    GR_CHECK(gr_device_host_mapped_alloc(dev, host, &blocks, bb + GR_PACK_PAD_BYTES, what));
    gr_fill_parallel(0, *host, 0, bb, gr_fill_copy, (void *)hp->bytes);
    memset((uint8_t *)*host + bb, 0, GR_PACK_PAD_BYTES);
  } else {
    GR_CHECK(gr_buffer_resize(&pb[0], dev, bb + GR_PACK_PAD_BYTES, 0, what));
    if (bb) GR_CHECK(gr_device_upload(dev, pb[0].ptr, hp->bytes, bb));
    GR_CHECK(gr_device_memset(dev, (uint8_t *)pb[0].ptr + bb, 0, GR_PACK_PAD_BYTES));
    blocks = pb[0].ptr;
  }
  GR_CHECK(gr_buffer_resize(&pb[1], dev, ob, 0, what));
  GR_CHECK(gr_buffer_resize(&pb[2], dev, gb, 0, what));
  GR_CHECK(gr_device_upload(dev, pb[1].ptr, hp->block_offsets, ob));
  GR_CHECK(gr_device_upload(dev, pb[2].ptr, hp->group_offsets, gb));
  *dp = *hp;
  dp->bytes = (uint8_t *)blocks;
  dp->block_offsets = (uint16_t *)pb[1].ptr;
  dp->group_offsets = (uint64_t *)pb[2].ptr;
  d->indices = NULL;
  d->packed = dp;
  return gr_device_sync(dev);
}

/* The rows of a part's CSR (or CSC) that its device holds: under 1-hop
 * proxies the owned vertices come first and a copy's row is empty (the
 * subgraph builder fills the owned rows only), so the device's offsets stop
 * after the owned rows, where the host's run on with the same total for
 * every copy. No operator reads a copy's row: an advance's input, a pull's
 * candidates and every primitive's own row reads are owned vertices (a
 * device of 4 on Kronecker 25: 8.5 M copies, 65 MiB of offsets). A part
 * that owns no vertex, or whose copies' rows hold arcs, keeps every row. */
static gr_vid gr__device_rows(const gr_subgraph *sub, const gr_csr *h) {
  const gr_vid k = sub->n_owned;
  if (sub->proxy != GR_PROXY_1HOP || k == 0 || k >= h->n || h->offsets[h->n] != h->offsets[k]) return h->n;
  return k;
}

/* Whether a device holds its part's global ids: where local ids are not
 * global, unless the primitive reads none on the device (an exchange that
 * sends global ids uploads its own). */
static bool gr__device_ids(const struct gr_enactor *e, const gr_subgraph *sub) {
  return sub->local_to_global && !e->cfg.prim->skips_global_ids;
}

/* Puts one host CSR onto the device, its first `rows` rows (every later
 * row empty); on_host: its indices and weights into mapped host memory
 * (host[0], host[1], freed by the slot), read by the kernels over the host
 * link, and only the offsets onto the device. With hp (--compress packed)
 * the ids go as packed lists instead (pb, dp; their blocks in host[0] when
 * on_host). Weights go where the part holds them: only a primitive that
 * reads them gets them (gr_subgraph_whole, gr_subgraphs_build). */
static gr_status gr__upload_csr(gr_device *dev, const gr_subgraph *sub, const gr_csr *h, gr_vid rows,
                                gr_buffer bufs[3], gr_csr *d, const char *what, bool on_host, void *host[2],
                                const gr_packed *hp, gr_buffer pb[3], gr_packed *dp) {
  const gr_csr *lists = gr__lists_of(sub, h);
  gr_csr z = {0};
  *d = z;
  d->n = rows;
  d->m = h->m;
  size_t ob = ((size_t)rows + 1) * sizeof(gr_eid), ib = (size_t)h->m * sizeof(gr_vid);
  GR_CHECK(gr_buffer_resize(&bufs[0], dev, ob, 0, what));
  GR_CHECK(gr_device_upload(dev, bufs[0].ptr, h->offsets, ob));
  d->offsets = (gr_eid *)bufs[0].ptr;
  const size_t wb = gr__csr_weighted(h, lists) ? (size_t)h->m * sizeof(gr_weight) : 0;
  if (lists && hp) return gr_errorf(GR_ERR_INTERNAL, "%s: lists left in the graph for the packed lists' encoder", what);
  if (hp) {
    GR_CHECK(gr__upload_packed(dev, hp, on_host, &host[0], pb, dp, d, what));
    ib = 0;
  }
  if (on_host) {
    /* Lists left in the graph go straight into the mapped memory. */
    void *mapped = NULL;
    if (ib) {
      GR_CHECK(gr_device_host_mapped_alloc(dev, &host[0], &mapped, ib, what));
      GR_CHECK(gr__put_array(dev, host[0], true, sub, h, false, ib));
      d->indices = (gr_vid *)mapped;
    }
    if (wb) {
      GR_CHECK(gr_device_host_mapped_alloc(dev, &host[1], &mapped, wb, what));
      GR_CHECK(gr__put_array(dev, host[1], true, sub, h, true, wb));
      d->weights = (gr_weight *)mapped;
    }
    return gr_device_sync(dev);
  }
  if (ib) {
    GR_CHECK(gr_buffer_resize(&bufs[1], dev, ib, 0, what));
    GR_CHECK(gr__put_array(dev, bufs[1].ptr, false, sub, h, false, ib));
    d->indices = (gr_vid *)bufs[1].ptr;
  }
  if (wb) {
    GR_CHECK(gr_buffer_resize(&bufs[2], dev, wb, 0, what));
    GR_CHECK(gr__put_array(dev, bufs[2].ptr, false, sub, h, true, wb));
    d->weights = (gr_weight *)bufs[2].ptr;
  }
  return gr_device_sync(dev);
}

/* Bytes of a host CSR once on a device (on_host: its offsets only, and
 * the block index of its packed lists where hp is given). */
static uint64_t gr__csr_bytes(const gr_subgraph *sub, const gr_csr *h, bool on_host, const gr_packed *hp) {
  const uint64_t offsets = ((uint64_t)gr__device_rows(sub, h) + 1) * sizeof(gr_eid);
  const uint64_t ids = hp ? gr_packed_get_sizes(hp).total : (uint64_t)h->m * sizeof(gr_vid);
  if (on_host) return offsets + (hp ? gr_packed_get_sizes(hp).index : 0);
  return offsets + ids + (gr__csr_weighted(h, gr__lists_of(sub, h)) ? (uint64_t)h->m * sizeof(gr_weight) : 0);
}

/* A part too large for its device fails here, before the uploads and the
 * runs, saying what it needs and what fits, rather than at whichever
 * allocation happens to run out (the primitive's state comes on top of the
 * graph's arrays, so passing this check is necessary, not sufficient). */
/* --graph-memory auto: host placement when the part and the run's state
 * (state_b: the primitive's estimate; 0 for a placement already chosen) do
 * not fit in device memory together (the caller then checks again with
 * host placement). */
static gr_status gr__check_fits(gr__slot *s, const gr_subgraph *sub, bool csc, gr_graph_memory mode,
                                const gr_packed hp[2], uint64_t state_b) {
  const bool on_host = mode == GR_GRAPH_MEMORY_HOST;
  const uint64_t out_b = gr__csr_bytes(sub, &sub->out, on_host, hp ? &hp[0] : NULL);
  const uint64_t in_b = csc ? gr__csr_bytes(sub, &sub->in, on_host, hp ? &hp[1] : NULL) : 0;
  const uint64_t ids_b = gr__device_ids(s->e, sub) ? (uint64_t)sub->n_local * sizeof(gr_vid) : 0;
  const uint64_t need = out_b + in_b + ids_b + state_b;
  size_t free_b = 0, total_b = 0;
  GR_CHECK(gr_device_mem_info(s->dev, &free_b, &total_b));
  if (need <= free_b) return GR_SUCCESS;
  if (mode == GR_GRAPH_MEMORY_AUTO) return GR_ERR_DEVICE_OOM; /* quiet: the caller tries host placement */
  const uint64_t arcs = (uint64_t)sub->out.m + (csc ? (uint64_t)sub->in.m : 0);
  const double per_arc = arcs ? (double)need / (double)arcs : (double)need;
  char nb[32], ob[32], ib[32], lb[32], fb[32], tb[32], parts[160];
  int k = snprintf(parts, sizeof parts, "CSR %s", gr_format_bytes(ob, sizeof ob, out_b));
  if (in_b) k += snprintf(parts + k, sizeof parts - (size_t)k, ", CSC %s", gr_format_bytes(ib, sizeof ib, in_b));
  if (ids_b) snprintf(parts + k, sizeof parts - (size_t)k, ", local ids %s", gr_format_bytes(lb, sizeof lb, ids_b));
  return gr_errorf(GR_ERR_DEVICE_OOM,
                   "device %d (%s): its part of the graph (%llu vertices, %llu arcs) needs at least %s of device "
                   "memory (%s), but the most that fits is %s (free of %s total), room for about %.0f%% of "
                   "those arcs; use more devices%s",
                   s->index, gr_device_name(s->dev), (unsigned long long)sub->n_local,
                   (unsigned long long)sub->out.m, gr_format_bytes(nb, sizeof nb, need), parts,
                   gr_format_bytes(fb, sizeof fb, free_b), gr_format_bytes(tb, sizeof tb, total_b),
                   arcs ? 100.0 * ((double)free_b / per_arc) / (double)arcs : 0.0,
                   on_host ? ", or a smaller graph (its arrays are in host memory already)"
                           : ", --graph-memory host (the arrays in host memory), or a smaller graph");
}

static gr_status gr__slot_init(gr__slot *s) {
  struct gr_enactor *e = s->e;
  const gr_subgraph *sub = e->cfg.subs[s->index];
  gr_device_options dopt = GR_DEVICE_OPTIONS_INIT;
  dopt.cpu_threads = e->cfg.cpu_threads;
  dopt.devices_in_run = e->n;
  if (e->cfg.gpus) dopt.gpu = e->cfg.gpus[s->index];
  dopt.memory_limit = e->opts.device_memory_limit;
  GR_CHECK(gr_device_create(&s->dev, e->cfg.backend, s->index, &dopt));
  GR_CHECK(gr_workspace_init(&s->ws, s->dev, &e->cfg.mem));
  s->ws.tune = e->opts.tune;
  s->ws_ready = true;
  gr_part *p = &s->part;
  p->index = s->index;
  p->count = e->n;
  p->dev = s->dev;
  p->sub = sub;
  p->ws = &s->ws;
  p->opts = &e->opts;
  p->mem = e->cfg.mem;
  p->global_view = e->n == 1 || e->cfg.broadcast;
  p->sync = e->n > 1 ? &s->sync : NULL;
  for (int i = 0; i < e->n; i++) p->m_global += e->cfg.subs[i]->out.m;
  const bool own_csc = e->cfg.prim->needs_in_edges && sub->in.offsets &&
                       !(sub->in.offsets == sub->out.offsets && sub->in.indices == sub->out.indices);
  if (e->cfg.prim->needs_in_edges && !sub->in.offsets)
    return gr_errorf(GR_ERR_INTERNAL, "%s needs in-edges but part %d has none", e->cfg.prim->name, s->index);
  /* --compress packed: the part's lists packed on the host (its CSC's
   * too), put on the device in place of the ids. */
  const bool pack = e->opts.compress == GR_COMPRESS_PACKED;
  gr_packed hp[2] = {GR_PACKED_INIT, GR_PACKED_INIT};
  gr_status st = GR_SUCCESS;
  if (pack) {
    if (!e->cfg.prim->reads_packed_lists)
      return gr_errorf(GR_ERR_INVALID_ARG,
                       "--compress packed: %s reads neighbour ids in kernels of its own that do not decode "
                       "packed lists (its reads_packed_lists is not set); use --compress none",
                       e->cfg.prim->name);
    /* The encoder reads the host's lists. */
    GR_CHECK_GOTO(gr_subgraph_materialize(e->cfg.subs[s->index]), st, done);
    GR_CHECK_GOTO(gr_packed_encode(&hp[0], &sub->out), st, done);
    if (own_csc) GR_CHECK_GOTO(gr_packed_encode(&hp[1], &sub->in), st, done);
    const uint64_t plain = ((uint64_t)sub->out.m + (own_csc ? (uint64_t)sub->in.m : 0)) * sizeof(gr_vid),
                   packed = gr_packed_get_sizes(&hp[0]).total + (own_csc ? gr_packed_get_sizes(&hp[1]).total : 0);
    char pb[32], ib[32];
    gr_log(GR_LOG_INFO, GR_SUBSYS_INIT, "device %d: neighbour ids packed into %s (as ids: %s)", s->index,
           gr_format_bytes(pb, sizeof pb, packed), gr_format_bytes(ib, sizeof ib, plain));
  }
  gr_graph_memory mode = e->opts.graph_memory;
  if (mode == GR_GRAPH_MEMORY_AUTO) {
    const uint64_t state_b =
        (uint64_t)sub->n_local * e->cfg.prim->state_bytes_per_vertex[e->n > 1 ? 1 : 0];
    const gr_status fit = gr__check_fits(s, sub, own_csc, GR_GRAPH_MEMORY_AUTO, pack ? hp : NULL, state_b);
    if (fit < 0 && fit != GR_ERR_DEVICE_OOM) {
      st = fit;
      goto done;
    }
    mode = fit == GR_SUCCESS ? GR_GRAPH_MEMORY_DEVICE : GR_GRAPH_MEMORY_HOST;
    char sb[32];
    gr_log(GR_LOG_INFO, GR_SUBSYS_INIT, "device %d: --graph-memory auto: %s (the run's state counted as %s)",
           s->index, mode == GR_GRAPH_MEMORY_DEVICE ? "device memory" : "host memory",
           gr_format_bytes(sb, sizeof sb, state_b));
  }
  GR_CHECK_GOTO(gr__check_fits(s, sub, own_csc, mode, pack ? hp : NULL, 0), st, done);
  s->graph_on_host = mode == GR_GRAPH_MEMORY_HOST;
  s->ws.graph_on_host = s->graph_on_host;
  if (s->graph_on_host)
    gr_log(GR_LOG_INFO, GR_SUBSYS_INIT, "device %d: graph arrays in host memory (zero-copy)%s", s->index,
           pack ? " (its lists packed there; their block index in device memory)" : "");
  GR_CHECK_GOTO(gr__upload_csr(s->dev, sub, &sub->out, gr__device_rows(sub, &sub->out), s->dev_out, &p->out,
                               "graph (CSR)", s->graph_on_host, &s->host_arrays[0], pack ? &hp[0] : NULL,
                               s->dev_packed[0], &s->packed[0]),
                st, done);
  if (e->cfg.prim->needs_in_edges) {
    /* An undirected graph's CSC is its CSR: one copy on the device. */
    if (!own_csc)
      p->in = p->out;
    else
      GR_CHECK_GOTO(gr__upload_csr(s->dev, sub, &sub->in, gr__device_rows(sub, &sub->in), s->dev_in, &p->in,
                                   "graph (CSC)", s->graph_on_host, &s->host_arrays[2], pack ? &hp[1] : NULL,
                                   s->dev_packed[1], &s->packed[1]),
                    st, done);
  }
done:
  gr_packed_free(&hp[0]);
  gr_packed_free(&hp[1]);
  if (st < 0) return st;
  if (gr__device_ids(e, sub)) {
    size_t bytes = (size_t)sub->n_local * sizeof(gr_vid);
    GR_CHECK(gr_buffer_resize(&s->dev_l2g, s->dev, bytes, 0, "local-to-global ids"));
    GR_CHECK(gr_device_copy(s->dev, s->dev_l2g.ptr, sub->local_to_global, bytes, GR_COPY_H2D));
    p->local_to_global = (const gr_vid *)s->dev_l2g.ptr;
  }
  for (int i = 0; i < 2; i++) gr_frontier_init(&s->f[i], sub->n_local);
  /* Between devices the input queue holds the next frontiers, owned
   * vertices each once: room for them all before the runs, so that no
   * exchange reallocates it inside one. */
  if (e->n > 1) GR_CHECK(gr_frontier_reserve(&s->f[0], s->dev, sub->n_owned ? sub->n_owned : 1, 0, &p->mem));
  s->sync.e = e;
  s->sync.index = s->index;
  if (e->n > 1)
    GR_CHECK(gr_host_calloc((void **)&s->rs.bytes_to, (size_t)e->n, sizeof *s->rs.bytes_to,
                            "exchange statistics"));
#ifdef GR_HAVE_CUDA
  /* The framework's kernels and the primitive's, loaded before the runs
   * (gr_device_preload). */
  if (gr_device_backend(s->dev) == GR_BACKEND_CUDA) {
    GR_CHECK(gr__operators_cuda_preload(s->dev));
    GR_CHECK(gr__frontier_cuda_preload(s->dev));
    if (e->cfg.prim->preload) GR_CHECK(e->cfg.prim->preload(s->dev));
  }
#endif
  GR_CHECK(e->cfg.prim->init(&s->slice, p));
  if (e->n > 1) GR_CHECK(e->cfg.exchange->attach(e->cfg.exchange_shared, p, e->cfg.prim, s->slice, &s->xlocal));
  return gr_device_sync(s->dev);
}

static void gr__slot_release(gr__slot *s) {
  struct gr_enactor *e = s->e;
  /* Nothing queued may outlive the buffers freed below. */
  if (s->dev) gr_device_sync(s->dev);
  if (s->xlocal) e->cfg.exchange->detach(s->xlocal, &s->part);
  s->xlocal = NULL;
  if (s->slice && e->cfg.prim->release) e->cfg.prim->release(s->slice, &s->part);
  s->slice = NULL;
  for (int i = 0; i < 2; i++) gr_frontier_release(&s->f[i]);
  free(s->rs.bytes_to);
  s->rs.bytes_to = NULL;
  free(s->rs.timeline);
  s->rs.timeline = NULL;
  s->rs.timeline_len = s->rs.timeline_capacity = 0;
  for (int i = 0; i < 3; i++) {
    gr_buffer_release(&s->dev_out[i]);
    gr_buffer_release(&s->dev_in[i]);
    gr_buffer_release(&s->dev_packed[0][i]);
    gr_buffer_release(&s->dev_packed[1][i]);
  }
  gr_buffer_release(&s->dev_l2g);
  for (int i = 0; i < 4; i++) {
    if (s->host_arrays[i] && s->dev) gr_device_host_free(s->dev, s->host_arrays[i]);
    s->host_arrays[i] = NULL;
  }
  if (s->part.host_stage && s->dev) gr_device_host_free(s->dev, s->part.host_stage);
  s->part.host_stage = NULL;
  s->part.host_stage_bytes = 0;
  if (s->ws_ready) gr_workspace_release(&s->ws);
  s->ws_ready = false;
  if (s->dev) gr_device_sync(s->dev);
}

/* The bulk-synchronous loop on one device. Every thread passes the same
 * barriers in the same order whether or not it failed. */
static void gr__slot_loop(gr__slot *s) {
  struct gr_enactor *e = s->e;
  const gr_primitive *prim = e->cfg.prim;
  const bool multi = e->n > 1;
  gr_status st = GR_SUCCESS;
  s->edges = 0;
  s->cur = 0;
  s->f[0].size = s->f[1].size = 0;
  uint64_t *bytes_to = s->rs.bytes_to;
  gr_timeline_entry *timeline = s->rs.timeline;
  const int timeline_capacity = s->rs.timeline_capacity;
  memset(&s->rs, 0, sizeof s->rs);
  s->rs.bytes_to = bytes_to;
  s->rs.timeline = timeline;
  s->rs.timeline_capacity = timeline_capacity;
  if (bytes_to) memset(bytes_to, 0, sizeof *bytes_to * (size_t)e->n);
  s->sync.waited_ms = 0;
  st = prim->reset(s->slice, &s->part, e->args, &s->f[0]);
  /* A reset may sum over the devices (gr_part_sum): one that saw another
   * device fail there left with every device at that barrier. */
  if (st == GR_ERR_ABORTED) return;
  if (st >= 0) st = gr_device_sync(s->dev);
  if (st < 0) gr__fail(e, s->index, st);
  s->in_size = s->f[0].size;
  if (gr_sync_wait(&s->sync)) return;
  if (multi && e->cfg.exchange->prepare) {
    st = e->cfg.exchange->prepare(s->xlocal, &s->part, &s->sync);
    if (st < 0) gr__fail(e, s->index, st);
    if (gr_sync_wait(&s->sync)) return;
  }
  /* Profilers see the run from here to its end (gr_device_run_mark): every
   * device's reset and preparation completed before the barrier above. */
  gr_device_run_mark(s->dev, true);
  if (s->index == 0) e->t0 = gr_time_now();
  const double t_run = gr_time_now();
  s->sync.waited_ms = 0; /* the traversal's waiting only */
  const gr__snap run0 = gr__snap_take(s);

  gr_eid global_in = 0, global_in_edges = 0;
  bool measured = false, told_all = false;
  gr_eid last_tally[GR_ITER_TALLIES] = {0}, last_pending = 0;
  for (int i = 0; i < e->n; i++) global_in += e->slots[i].in_size;
  int max_iter = e->opts.max_iterations;
  s->cell_calls = 0;
  for (int iter = 0;; iter++) {
    const double t_iter = gr_time_now();
    const gr__snap it0 = gr__snap_take(s);
    /* Bytes sent in this iteration: by the exchange, and by any exchange
     * the primitive asks for inside its iterate (gr_part_refresh). */
    uint64_t sent_before = 0;
    for (int j = 0; j < e->n && bytes_to; j++) sent_before += bytes_to[j];
    const gr_eid level_in = global_in;
    /* f[cur] is the input, f[cur ^ 1] the output; between devices the
     * exchange turns the output into the next frontier in the input's
     * queue (cur stays 0), which nothing reads once the iterate returned. */
    gr_frontier *in = &s->f[s->cur], *out = &s->f[s->cur ^ 1];
    gr_iter it;
    memset(&it, 0, sizeof it);
    it.iteration = iter;
    it.in = in;
    it.out = out;
    it.global_in = global_in;
    it.last_told_all = told_all;
    memcpy(it.last_tally, last_tally, sizeof last_tally);
    it.last_pending = last_pending;
    if (!multi) it.max_levels = max_iter > 0 ? max_iter - iter : 0;
    if (measured) {
      it.in_measured = true;
      it.in_edges = s->next_edges[(iter - 1) & 1];
      it.in_max_degree = s->next_max_degree;
      it.global_in_edges = global_in_edges;
    }
    it.out->size = 0;
    double t = gr_time_now();
    const double w = s->sync.waited_ms, inner = s->inner_ms;
    /* Each device's iterations as they start and end: a run that stops
     * making progress shows where each device is (GR_DEBUG=TRACE,
     * GR_DEBUG_SUBSYS=PRIM), which a stack read alone does not. */
    gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "device %d: iteration %d: %llu items in", s->index, iter,
           (unsigned long long)in->size);
    st = prim->iterate(s->slice, &s->part, &it);
    if (st >= 0)
      gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "device %d: iteration %d: %s%llu items out, %llu edges, %d levels", s->index,
             iter, it.out_counts ? "at most " : "", (unsigned long long)out->size, (unsigned long long)it.edges,
             it.levels > 0 ? it.levels : 1);
    else
      gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "device %d: iteration %d: ended with %s", s->index, iter,
             gr_status_string(st));
    /* Barriers inside iterate (gr_part_sum) count as waiting, not compute. */
    s->rs.compute_ms += (gr_time_now() - t) * 1e3 - (s->sync.waited_ms - w) - (s->inner_ms - inner);
    /* A device that saw another fail inside iterate (gr_part_sum) leaves
     * at that barrier, as every other thread does at the same one. A
     * device whose iterate failed goes on to the exchange's barrier (the
     * first one after iterate), where every device leaves. */
    if (st == GR_ERR_ABORTED) return;
    bool failed = st < 0;
    if (failed) gr__fail(e, s->index, st);
    s->edges += it.edges;
    const int cell = iter & 1;
    s->iter_edges[cell] = it.edges;
    s->iter_bytes[cell] = 0;
    const int levels = it.levels > 0 ? it.levels : 1;
    iter += levels - 1;
    s->converged[cell] = prim->converged ? prim->converged(s->slice, &s->part, &it) : false;
    if (multi) {
      /* A device whose iterate failed takes its cell too (its words go
       * unread: every device leaves at the exchange's barrier). */
      const gr_status sp = gr__post_at_exchange(s, &it);
      if (sp < 0 && !failed) {
        gr__fail(e, s->index, sp);
        failed = true;
      }
      gr_frontier *next = in;
      next->size = 0;
      gr_exchange_step x;
      memset(&x, 0, sizeof x);
      x.iteration = iter;
      x.out = out;
      x.next = next;
      x.sync = &s->sync;
      x.stats = &s->rs;
      x.skip = failed;
      x.combine_set = it.combine_set;
      x.combine = it.combine;
      x.values = it.values;
      x.guard = it.guard;
      x.stamp = it.stamp;
      x.out_owned = it.out_owned;
      x.out_edges = it.out_edges;
      x.out_max_degree = it.out_max_degree;
      x.routed = it.routed;
      x.out_counts = it.out_counts;
      x.claim_bits = it.claim_bits;
      x.tell_all = it.tell_all;
      x.or_bits = it.or_bits;
      x.or_union = it.or_union;
      x.or_words = it.or_words;
      x.or_bits_whole = it.or_bits_whole;
      x.or_kept = it.or_kept;
      x.or_also = it.or_also;
      x.or_packed = it.or_packed;
      x.settled = it.settled;
      x.settle_copies_bare = it.settle_copies_bare;
      x.min_ties = it.min_ties;
      const uint64_t passed = s->sync.passed;
      st = e->cfg.exchange->exchange(s->xlocal, &s->part, &x);
      /* The posted words are read past a barrier: the exchange's (every
       * device runs the same exchange, so all take this one alike). */
      if (st >= 0 && s->sync.passed == passed && gr_sync_wait(&s->sync)) return;
      s->post_live = st >= 0;
      uint64_t sent_after = 0;
      for (int j = 0; j < e->n && bytes_to; j++) sent_after += bytes_to[j];
      s->iter_bytes[cell] = sent_after - sent_before;
      if (st == GR_ERR_ABORTED) return;
      if (st < 0) gr__fail(e, s->index, st);
      s->out_size = next->size;
      /* The advance's edges, read with the package's counters
       * (gr_iter.out_counts). */
      s->edges += x.out_visited;
      s->iter_edges[cell] += x.out_visited;
      s->next_edges[cell] = x.next_edges;
      s->next_max_degree = x.next_max_degree;
      s->told_all[cell] = x.told_all;
      it.arriving_ran = x.arriving_ran;
      memcpy(it.arriving_counts, x.arriving_counts, sizeof it.arriving_counts);
      if (prim->arrived && st >= 0 && !failed) {
        /* What arrived, counted before the barrier that sums the counts. */
        const double ta = gr_time_now();
        const double wa = s->sync.waited_ms;
        st = prim->arrived(s->slice, &s->part, &it, next);
        s->rs.compute_ms += (gr_time_now() - ta) * 1e3 - (s->sync.waited_ms - wa);
        if (st < 0) gr__fail(e, s->index, st);
      }
      s->post_live = false;
    } else {
      s->out_size = out->size;
      s->cur ^= 1;
    }
    /* As iterate and arrived left it (arrived may decide from the words
     * posted at the exchange). */
    s->pending[cell] = it.pending;
    /* The tallies as iterate and arrived left them (arrived runs after
     * the exchange, before this barrier). */
    memcpy(s->tally[cell], it.tally, sizeof it.tally);
    if (gr_sync_wait(&s->sync)) return;
    global_in = 0;
    global_in_edges = 0;
    memset(last_tally, 0, sizeof last_tally);
    measured = multi && !prim->skips_in_edges;
    told_all = multi;
    gr_eid global_pending = 0;
    bool all_converged = prim->converged != NULL;
    gr_eid level_edges = 0;
    uint64_t level_bytes = 0;
    for (int i = 0; i < e->n; i++) {
      global_in += e->slots[i].out_size;
      level_edges += e->slots[i].iter_edges[cell];
      level_bytes += e->slots[i].iter_bytes[cell];
      all_converged = all_converged && e->slots[i].converged[cell];
      global_pending += e->slots[i].pending[cell];
      global_in_edges += e->slots[i].next_edges[cell];
      told_all = told_all && e->slots[i].told_all[cell];
      for (int k = 0; k < GR_ITER_TALLIES; k++) last_tally[k] += e->slots[i].tally[cell][k];
    }
    last_pending = global_pending;
    if (s->index == 0 && e->stats) {
      /* Levels one device-side loop ran at once: the first carries the
       * loop's edges and time, the others are tagged 'L'. */
      gr__stats_level(e->stats, level_in, level_edges, (gr_time_now() - t_iter) * 1e3, it.tag, level_bytes);
      for (int l = 1; l < levels; l++) gr__stats_level(e->stats, it.level_sizes[l - 1], 0, 0.0, 'L', 0);
    }
    if (s->index == 0) e->stats->iterations = iter + 1;
    if (e->cfg.timeline) {
      const gr__snap it1 = gr__snap_take(s);
      gr_timeline_entry te;
      memset(&te, 0, sizeof te);
      te.iteration = iter - (levels - 1);
      te.compute_ms = it1.rs.compute_ms - it0.rs.compute_ms;
      te.package_ms = it1.rs.package_ms - it0.rs.package_ms;
      te.transfer_ms = it1.rs.transfer_ms - it0.rs.transfer_ms;
      te.combine_ms = it1.rs.combine_ms - it0.rs.combine_ms;
      te.wait_ms = it1.waited_ms - it0.waited_ms;
      te.work_ms = (gr_time_now() - t_iter) * 1e3 - te.wait_ms;
      te.launches = (uint32_t)(it1.act.launches - it0.act.launches);
      te.waits = (uint32_t)(it1.act.waits - it0.act.waits);
      te.copies = (uint32_t)(it1.act.copies - it0.act.copies);
      te.memsets = (uint32_t)(it1.act.memsets - it0.act.memsets);
      te.allocations = (uint32_t)(it1.act.allocations - it0.act.allocations);
      te.barriers = (uint32_t)(it1.barriers - it0.barriers);
      te.bytes = s->iter_bytes[cell];
      te.bytes_in = it1.rs.bytes_received - it0.rs.bytes_received;
      gr__timeline_add(&s->rs, &te);
    }
    if ((global_in == 0 && global_pending == 0) || all_converged) break;
    if (max_iter > 0 && iter + 1 >= max_iter) {
      if (s->index == 0) e->stats->status = GR_ITERATION_LIMIT;
      break;
    }
  }
  st = gr_device_sync(s->dev);
  if (st < 0) gr__fail(e, s->index, st);
  if (gr_sync_wait(&s->sync)) return;
  if (s->index == 0) e->t1 = gr_time_now();
  s->rs.wait_ms = s->sync.waited_ms;
  s->rs.work_ms = (gr_time_now() - t_run) * 1e3 - s->rs.wait_ms;
  gr_device_run_mark(s->dev, false);
  const gr__snap run1 = gr__snap_take(s);
  s->rs.launches = run1.act.launches - run0.act.launches;
  s->rs.waits = run1.act.waits - run0.act.waits;
  s->rs.allocations = run1.act.allocations - run0.act.allocations;
  s->rs.barriers = run1.barriers - run0.barriers;
}

/* A command that can pass barriers (a run; an extract, which may sum
 * figures over the devices) holds the turn (cfg.turns) from its start to
 * its end except at barriers, where gr_sync_wait gives it up and takes it
 * again: a thread that passed a barrier without holding it would come
 * back holding the turn and never give it up. */
static void gr__turn_take(gr__slot *s) {
  if (s->e->cfg.turns) pthread_mutex_lock(&s->e->turn);
}

static void gr__turn_give(gr__slot *s) {
  struct gr_enactor *e = s->e;
  if (!e->cfg.turns) return;
  const gr_status st = gr_device_sync(s->dev);
  if (st < 0) gr__fail(e, s->index, st);
  pthread_mutex_unlock(&e->turn);
}

static void gr__slot_run(gr__slot *s) {
  gr__turn_take(s);
  gr__slot_loop(s);
  gr__turn_give(s);
}

static void gr__slot_extract(gr__slot *s) {
  gr__turn_take(s);
  gr_status st = s->e->cfg.prim->extract(s->slice, &s->part, s->e->result);
  if (st < 0) gr__fail(s->e, s->index, st);
  gr__turn_give(s);
}

static void *gr__slot_main(void *arg) {
  gr__slot *s = arg;
  struct gr_enactor *e = s->e;
  unsigned seen = 0;
  for (;;) {
    pthread_mutex_lock(&e->mu);
    while (e->cmd_gen == seen) pthread_cond_wait(&e->cv_cmd, &e->mu);
    seen = e->cmd_gen;
    int cmd = e->cmd;
    pthread_mutex_unlock(&e->mu);

    gr_error_clear();
    if (s->dev) {
      gr_status st = gr_device_activate(s->dev);
      if (st < 0) gr__fail(e, s->index, st);
    }
    switch (cmd) {
      case GR__CMD_INIT: {
        gr_status st = gr__slot_init(s);
        if (st < 0) gr__fail(e, s->index, st);
        break;
      }
      case GR__CMD_RUN: {
        gr__slot_run(s);
        /* A device that left its run at a barrier (another one failed)
         * may have left work on its stream that reads a peer's buffers
         * (an or-round past its barrier, gr_iter.or_kept): drained before
         * the command ends, so that no peer frees or writes them under it
         * (a run that ended drained it already, so only a failed one
         * pays for this). */
        const gr_status st = s->dev && gr_sync_failed(&s->sync) ? gr_device_sync(s->dev) : GR_SUCCESS;
        if (st < 0) gr__fail(e, s->index, st);
        break;
      }
      case GR__CMD_EXTRACT:
        gr__slot_extract(s);
        break;
      case GR__CMD_QUIT:
        gr__slot_release(s);
        gr_device_destroy(&s->dev);
        break;
      default:
        break;
    }
    pthread_mutex_lock(&e->mu);
    e->done++;
    pthread_cond_broadcast(&e->cv_done);
    pthread_mutex_unlock(&e->mu);
    if (cmd == GR__CMD_QUIT) return NULL;
  }
}

/* Posts a command to every thread and waits until all have done it. */
static gr_status gr__command(struct gr_enactor *e, int cmd) {
  e->fail_st = GR_SUCCESS;
  e->fail_dev = -1;
  e->fail_msg[0] = '\0';
  e->bar.failed = false;
  pthread_mutex_lock(&e->mu);
  e->cmd = cmd;
  e->done = 0;
  e->cmd_gen++;
  pthread_cond_broadcast(&e->cv_cmd);
  while (e->done < e->n) pthread_cond_wait(&e->cv_done, &e->mu);
  pthread_mutex_unlock(&e->mu);
  if (e->fail_st < 0) {
    gr_error_restore(e->fail_st, "");
    /* Messages from the device layer already name their device. */
    if (!strncmp(e->fail_msg, "device ", 7)) return gr_errorf(e->fail_st, "%s", e->fail_msg);
    return gr_errorf(e->fail_st, "device %d: %s", e->fail_dev, e->fail_msg);
  }
  return GR_SUCCESS;
}

gr_status gr_enactor_create(gr_enactor **out, const gr_enactor_config *cfg) {
  *out = NULL;
  if (!cfg->prim || cfg->n_devices < 1 || !cfg->subs)
    return gr_errorf(GR_ERR_INVALID_ARG, "enactor needs a primitive, parts and at least one device");
  if (cfg->n_devices > 1 && !cfg->exchange)
    return gr_errorf(GR_ERR_INVALID_ARG, "a run on %d devices needs an exchange between them",
                     cfg->n_devices);
  int have = 0;
  GR_CHECK(gr_device_count(cfg->backend, &have));
  if (cfg->backend == GR_BACKEND_CUDA && cfg->n_devices > have && !cfg->gpus)
    return gr_errorf(GR_ERR_NO_DEVICE, "%d GPU%s asked for, but %d exist%s", cfg->n_devices,
                     cfg->n_devices == 1 ? " was" : "s were", have, have == 1 ? "s" : "");
  struct gr_enactor *e = NULL;
  gr_status st = gr_host_calloc((void **)&e, 1, sizeof *e, "enactor");
  if (st < 0) return st;
  e->cfg = *cfg;
  if (cfg->opts) e->opts = *cfg->opts;
  e->n = cfg->n_devices;
  e->fail_dev = -1;
  pthread_mutex_init(&e->mu, NULL);
  pthread_mutex_init(&e->turn, NULL);
  pthread_cond_init(&e->cv_cmd, NULL);
  pthread_cond_init(&e->cv_done, NULL);
  /* GPUs' threads spin up to 200 us at a barrier before sleeping; CPU
   * devices' threads leave the cores to their workers. */
  gr__barrier_init(&e->bar, e->n, cfg->backend == GR_BACKEND_CUDA && e->n > 1 ? 200e-6 : 2e-6);
  GR_CHECK_GOTO(gr_host_calloc((void **)&e->slots, (size_t)e->n, sizeof *e->slots, "device slots"),
                st, fail);
  for (int i = 0; i < e->n; i++) {
    e->slots[i].e = e;
    e->slots[i].index = i;
    int rc = pthread_create(&e->slots[i].thread, NULL, gr__slot_main, &e->slots[i]);
    if (rc) {
      st = gr_errorf(GR_ERR_PTHREAD, "cannot start the thread of device %d: %s", i, strerror(rc));
      goto fail;
    }
    e->slots[i].started = true;
  }
  GR_CHECK_GOTO(gr__command(e, GR__CMD_INIT), st, fail);
  *out = e;
  return GR_SUCCESS;
fail:
  gr_enactor_destroy(&e);
  return st;
}

gr_status gr_enactor_run(gr_enactor *e, const gr_run_args *args, gr_run_stats *stats) {
  gr_run_stats z = {0};
  *stats = z;
  e->args = args;
  e->stats = stats;
  e->t0 = e->t1 = 0;
  gr_status st = gr__command(e, GR__CMD_RUN);
  if (st < 0) return st;
  stats->ms = (e->t1 - e->t0) * 1e3;
  for (int i = 0; i < e->n; i++) stats->edges += e->slots[i].edges;
  GR_CHECK(gr_host_calloc((void **)&stats->devices, (size_t)e->n, sizeof *stats->devices,
                          "run statistics"));
  stats->n_devices = e->n;
  for (int i = 0; i < e->n; i++) {
    gr_device_run_stats *d = &stats->devices[i];
    *d = e->slots[i].rs;
    d->bytes_to = NULL;
    d->timeline = NULL;
    d->timeline_len = d->timeline_capacity = 0;
    if (e->slots[i].rs.timeline_len) {
      const size_t tb = sizeof *d->timeline * (size_t)e->slots[i].rs.timeline_len;
      GR_CHECK(gr_host_alloc((void **)&d->timeline, tb, "run timeline"));
      memcpy(d->timeline, e->slots[i].rs.timeline, tb);
      d->timeline_len = d->timeline_capacity = e->slots[i].rs.timeline_len;
    }
    if (e->slots[i].rs.bytes_to) {
      GR_CHECK(gr_host_calloc((void **)&d->bytes_to, (size_t)e->n, sizeof *d->bytes_to,
                              "run statistics"));
      memcpy(d->bytes_to, e->slots[i].rs.bytes_to, sizeof *d->bytes_to * (size_t)e->n);
    }
  }
  return GR_SUCCESS;
}

static gr_status gr__extract(gr_enactor *e, gr_result *r, bool reuse) {
  gr_vid n = e->cfg.subs[0]->n_global;
  const gr_primitive *p = e->cfg.prim;
  const bool preds = e->opts.mark_pred && p->n_vertex_assoc > 0;
  GR_CHECK(reuse ? gr_result_reuse(r, n, p->value_type, preds) : gr_result_alloc(r, n, p->value_type, preds));
  e->result = r;
  r->values_are_ids = false;
  gr_status st = gr_result_aux(r, &p->aux);
  if (st >= 0) st = gr__command(e, GR__CMD_EXTRACT);
  if (st >= 0 && p->finish) st = p->finish(r);
  if (st < 0) gr_result_free(r);
  return st;
}

gr_status gr_enactor_extract(gr_enactor *e, gr_result *r) { return gr__extract(e, r, false); }
gr_status gr_enactor_extract_reuse(gr_enactor *e, gr_result *r) { return gr__extract(e, r, true); }

int gr_enactor_device_count(const gr_enactor *e) { return e->n; }

void gr_enactor_device_report(const gr_enactor *e, int device, gr_device_report *rep) {
  memset(rep, 0, sizeof *rep);
  const gr_device *d = e->slots[device].dev;
  if (!d) return;
  snprintf(rep->name, sizeof rep->name, "%s", gr_device_name(d));
  gr_device_mem_stats m = gr_device_mem_stats_get(d);
  rep->peak_bytes = m.peak_bytes;
  rep->allocations = m.allocations;
  rep->reallocations = m.reallocations;
  rep->l2_bytes = gr_device_l2_bytes(d);
  rep->memory_bandwidth = gr_device_memory_bandwidth(d);
  const gr__slot *s = &e->slots[device];
  if (s->graph_on_host) {
    const gr_subgraph *sub = e->cfg.subs[device];
    const bool packed = e->opts.compress == GR_COMPRESS_PACKED;
    uint64_t b = 0;
    /* The CSR's ids (or packed blocks) and weights, and the CSC's where it
     * is its own. */
    for (int k = 0; k < 2; k++) {
      const gr_csr *c = k ? &sub->in : &sub->out;
      if (k && !s->host_arrays[2] && !s->host_arrays[3]) continue;
      b += packed ? (uint64_t)s->packed[k].n_bytes : (uint64_t)c->m * sizeof(gr_vid);
      if (gr__csr_weighted(c, gr__lists_of(sub, c))) b += (uint64_t)c->m * sizeof(gr_weight);
    }
    rep->host_graph_bytes = b;
  }
}

gr_status gr_graph_memory_parse(gr_graph_memory *out, const char *name) {
  if (name && !strcmp(name, "auto")) *out = GR_GRAPH_MEMORY_AUTO;
  else if (name && !strcmp(name, "device")) *out = GR_GRAPH_MEMORY_DEVICE;
  else if (name && !strcmp(name, "host")) *out = GR_GRAPH_MEMORY_HOST;
  else return gr_errorf(GR_ERR_INVALID_ARG, "graph memory '%s': expected auto, device or host", name ? name : "");
  return GR_SUCCESS;
}

const char *gr_graph_memory_name(gr_graph_memory m) {
  return m == GR_GRAPH_MEMORY_DEVICE ? "device" : m == GR_GRAPH_MEMORY_HOST ? "host" : "auto";
}

gr_status gr_compress_parse(gr_compress *out, const char *name) {
  if (name && !strcmp(name, "none")) *out = GR_COMPRESS_NONE;
  else if (name && !strcmp(name, "packed")) *out = GR_COMPRESS_PACKED;
  else return gr_errorf(GR_ERR_INVALID_ARG, "compress '%s': expected none or packed", name ? name : "");
  return GR_SUCCESS;
}

const char *gr_compress_name(gr_compress c) { return c == GR_COMPRESS_PACKED ? "packed" : "none"; }

void gr_enactor_destroy(gr_enactor **ep) {
  if (!ep || !*ep) return;
  struct gr_enactor *e = *ep;
  bool any = false;
  for (int i = 0; i < e->n && e->slots; i++) any = any || e->slots[i].started;
  if (any) {
    /* Threads that never started cannot take a command: count them done. */
    pthread_mutex_lock(&e->mu);
    e->cmd = GR__CMD_QUIT;
    e->done = 0;
    for (int i = 0; i < e->n; i++)
      if (!e->slots[i].started) e->done++;
    e->cmd_gen++;
    pthread_cond_broadcast(&e->cv_cmd);
    while (e->done < e->n) pthread_cond_wait(&e->cv_done, &e->mu);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < e->n; i++)
      if (e->slots[i].started) pthread_join(e->slots[i].thread, NULL);
  }
  free(e->slots);
  gr__barrier_fini(&e->bar);
  pthread_mutex_destroy(&e->mu);
  pthread_mutex_destroy(&e->turn);
  pthread_cond_destroy(&e->cv_cmd);
  pthread_cond_destroy(&e->cv_done);
  free(e);
  *ep = NULL;
}

void gr_run_stats_free(gr_run_stats *s) {
  free(s->frontier);
  free(s->level_edges);
  free(s->level_ms);
  free(s->level_tag);
  free(s->level_bytes);
  s->level_edges = NULL;
  s->level_ms = NULL;
  s->level_tag = NULL;
  s->level_bytes = NULL;
  s->frontier = NULL;
  s->frontier_len = 0;
  s->level_capacity = 0;
  for (int i = 0; i < s->n_devices && s->devices; i++) {
    free(s->devices[i].bytes_to);
    free(s->devices[i].timeline);
  }
  free(s->devices);
  s->devices = NULL;
  s->n_devices = 0;
}
