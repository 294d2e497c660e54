/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange between devices, run by every device thread after its
 * iterate:
 *   1. package: one pass over the output frontier puts the owned vertices
 *      into the next frontier and every other one, with its payloads, into
 *      the message for its owner (selective) or the one message for all
 *      (broadcast); a uniform payload's message is also a bitmap, and the
 *      smaller form is published in the shared table; one read of the
 *      counters; barrier;
 *   2. the transport moves every package to its peer, enqueued on the
 *      compute stream;
 *   3. combine what arrived with the primitive's operator, enqueued behind
 *      the moves; changed vertices this device owns join the next frontier
 *      once; one read of the counters.
 * Per iteration that is two host waits and one barrier inside the exchange
 * (plus the enactor's barrier that ends the iteration). The end barrier
 * also orders the reuse of send buffers: a sender writes its packages again
 * only in the next iteration, after every receiver has drained its stream. */
#include <stdlib.h>
#include <string.h>

#include "comm_internal.h"
#include "gr/log.h"
#include "gr/util.h"

gr_status gr_comm_mode_parse(gr_comm_mode *out, const char *name) {
  if (name && !strcmp(name, "selective")) *out = GR_COMM_SELECTIVE;
  else if (name && !strcmp(name, "broadcast")) *out = GR_COMM_BROADCAST;
  else return gr_errorf(GR_ERR_INVALID_ARG, "--comm must be selective or broadcast, got '%s'", name ? name : "");
  return GR_SUCCESS;
}

const char *gr_comm_mode_name(gr_comm_mode m) {
  return m == GR_COMM_BROADCAST ? "broadcast" : m == GR_COMM_SELECTIVE ? "selective" : "?";
}

gr_status gr_comm_format_parse(gr_comm_format *out, const char *name) {
  if (name && !strcmp(name, "auto")) *out = GR_COMM_FORMAT_AUTO;
  else if (name && !strcmp(name, "list")) *out = GR_COMM_FORMAT_LIST;
  else if (name && !strcmp(name, "bitmap")) *out = GR_COMM_FORMAT_BITMAP;
  else return gr_errorf(GR_ERR_INVALID_ARG, "--comm-format must be auto, list or bitmap, got '%s'", name ? name : "");
  return GR_SUCCESS;
}

gr_status gr_transport_parse(gr_transport_kind *out, const char *name) {
  static const char *names[] = {"auto", "host", "p2p", "nccl"};
  for (int i = 0; i < 4; i++)
    if (name && !strcmp(name, names[i])) {
      *out = (gr_transport_kind)i;
      return GR_SUCCESS;
    }
  return gr_errorf(GR_ERR_INVALID_ARG, "--transport must be auto, host, p2p or nccl, got '%s'", name ? name : "");
}

const char *gr_transport_name(gr_transport_kind t) {
  static const char *names[] = {"auto", "host", "p2p", "nccl"};
  return (int)t >= 0 && (int)t < 4 ? names[t] : "?";
}

int gr_comm_have_nccl(void) {
#ifdef GR_HAVE_NCCL
  return 1;
#else
  return 0;
#endif
}

gr_status gr_comm_create(gr_comm **out, gr_backend backend, int n_devices, const gr_comm_options *o) {
  *out = NULL;
  if (n_devices < 1 || n_devices > GR_COMM_MAX_DEVICES)
    return gr_errorf(GR_ERR_INVALID_ARG, "%d devices asked for; gr exchanges between 1 and %d", n_devices,
                     GR_COMM_MAX_DEVICES);
  gr_transport_kind t = o->transport;
  if (t == GR_TRANSPORT_AUTO) t = backend == GR_BACKEND_CPU ? GR_TRANSPORT_HOST : GR_TRANSPORT_P2P;
  const gr__transport_ops *ops = NULL;
  if (backend == GR_BACKEND_CPU) {
    if (t != GR_TRANSPORT_HOST)
      return gr_errorf(GR_ERR_INVALID_ARG, "--transport %s needs GPUs; CPU devices use the host transport",
                       gr_transport_name(t));
    ops = &gr__transport_host;
  } else if (t == GR_TRANSPORT_HOST) {
    return gr_errorf(GR_ERR_INVALID_ARG, "--transport host is for CPU devices; GPUs use p2p or nccl");
  } else if (t == GR_TRANSPORT_P2P) {
#ifdef GR_HAVE_CUDA
    ops = &gr__transport_p2p;
#endif
  } else if (t == GR_TRANSPORT_NCCL) {
#ifdef GR_HAVE_NCCL
    ops = &gr__transport_nccl;
#else
    return gr_errorf(GR_ERR_UNSUPPORTED, "this build of gr has no NCCL transport (NCCL was not found at "
                                         "configure time); use --transport p2p");
#endif
  }
  if (!ops) return gr_errorf(GR_ERR_UNSUPPORTED, "this build of gr has no CUDA backend");
  gr_comm *c = NULL;
  GR_CHECK(gr_host_calloc((void **)&c, 1, sizeof *c, "communication state"));
  c->backend = backend;
  c->n = n_devices;
  c->mode = o->mode;
  c->format = o->format;
  c->transport = t;
  c->tops = ops;
  for (int i = 0; i < n_devices; i++) {
    c->gpu[i] = -1;
    if (backend == GR_BACKEND_CUDA) {
      gr_status st = GR_SUCCESS;
      if (o->gpus) c->gpu[i] = o->gpus[i];
      else st = gr_device_gpu_of(i, &c->gpu[i]);
      if (st < 0) {
        free(c);
        return st;
      }
    }
  }
  if (ops->create) {
    gr_status st = ops->create(c);
    if (st < 0) {
      free(c);
      return st;
    }
  }
  *out = c;
  return GR_SUCCESS;
}

void gr_comm_destroy(gr_comm **cp) {
  if (!cp || !*cp) return;
  gr_comm *c = *cp;
  if (c->tops && c->tops->destroy) c->tops->destroy(c);
  free(c);
  *cp = NULL;
}

gr_transport_kind gr_comm_transport(const gr_comm *c) { return c->transport; }
gr_comm_mode gr_comm_mode_of(const gr_comm *c) { return c->mode; }
void gr_comm_set_mode(gr_comm *c, gr_comm_mode m) { c->mode = m; }

/* ---- per device ---------------------------------------------------------- */

/* Whether the last refresh or all-gather left its second barrier to the
 * next step (gr__xlocal.open). */
typedef enum gr__open { GR__OPEN_NONE, GR__OPEN_REFRESH, GR__OPEN_GATHER } gr__open;

/* What one device keeps between iterations. Messages are per destination
 * (broadcast: one, read by every peer); a uniform payload's message has a
 * bitmap beside its list, and whichever is smaller travels. */
typedef struct gr__xlocal {
  gr_comm *c;
  int me, n;
  const gr_primitive *prim;
  void *slice; /* the primitive's state on this device (its `arriving`) */
  const gr_xk_ops *k;
  gr_payload pay;
  gr_xk_layout layout;
  bool uniform;          /* one value payload, the same per iteration: bitmaps allowed */
  gr_buffer owner;       /* part of each local vertex (bytes), where a kernel reads it */
  gr_buffer word_owner;  /* part of each whole word of 32 local ids, where each has one (gr_xk_word_owners) */
  /* Owner words (gr_part_owner_words), with word_owner: the parts' entries
   * per group of 32 words, and each part's whole words. */
  gr_buffer word_groups;
  uint64_t whole_words;
  uint64_t part_words[GR_COMM_MAX_DEVICES];
  gr_xk_ranges ranges;   /* the owner table as runs of local ids, where it is few (gr_xk_owner_ranges) */
  /* Local vertices each part owns: a selective list to part j holds each
   * of its output's vertices once, so never more records than held[j]. */
  uint64_t held[GR_COMM_MAX_DEVICES];
  gr_buffer convert;     /* owner-local ids (1-hop, selective) */
  gr_buffer g2l;         /* global-to-local ids (1-hop, broadcast) */
  gr_buffer l2g;         /* local-to-global ids (1-hop, broadcast) where the part has none on the device */
  const gr_vid *convert_d;
  gr_vid convert_first;  /* convert_d[0] is this local id's (gr_xk_package_args.convert_first) */
  /* Messages carry positions in the border lists (gr_xk_package_args
   * .positions): 1-hop selective exchange of a primitive that refreshes
   * copies, owners as runs, payloads never sent as bitmaps. */
  bool positions;
  const gr_vid *g2l_d;
  /* The vertices already in the next frontier: a bitmap of cull_bytes
   * behind the counters, in their buffer, so that one memset clears both
   * (one stream operation less each level). A step that settles what
   * arrives (gr_exchange_step.settled: BFS's and DOBFS's pushes between
   * devices) neither clears nor reads it (gr__culls). */
  uint32_t *cull;
  size_t cull_bytes;
  gr_buffer list[GR_COMM_MAX_DEVICES];
  gr_buffer bits[GR_COMM_MAX_DEVICES];
  gr_vid universe[GR_COMM_MAX_DEVICES]; /* id space of message j's bitmap */
  gr_buffer recv;
  gr_buffer counters; /* the counters (GR__CTR_BYTES), then the culling bitmap */
  unsigned long long *hc; /* pinned host mirror of the counters */
  /* The package set the counters in hc only (an output kept as the next
   * frontier): the receive uploads them, and clears the culling bitmap,
   * before the first combine that adds to the next frontier, if any. */
  bool counters_on_host;
  /* The value gr_part_route was given this iteration (the step's, of a
   * uniform payload), where it was called: the routed bitmaps' value, and
   * a step told to all may send its output as bare ids that take it
   * (gr__package_ids). It stays until the next iteration's call. */
  uint64_t step_value;
  bool step_value_set;
  /* This step's output, sent as bare ids (gr__package_ids): the first
   * combine puts its owned vertices in the next frontier (own_first). */
  const gr_vid *own_ids;
  uint64_t own_n;
  gr_device_marks *marks; /* around the moves (the report's transfer time) */
  /* GR_FAULT_TRANSPORT=DEVICE:K[:MS]: this device's K-th transfer fails
   * (read once at attach; <0 off), after MS milliseconds. */
  int64_t fault_countdown;
  int64_t fault_at;
  unsigned fault_delay_ms;
  uint64_t transfers;
  /* Owner -> copy (gr_part_refresh), for primitives that refresh copies:
   * the border lists, made at the first run's prepare. Per peer j, the
   * owned vertices whose entries go to j (bsend) and the copies here of
   * j's vertices (brecv), local ids in ascending global id, peer after
   * peer; entry k of one device's list to j is entry k of j's list from
   * it, so only values travel. */
  bool borders, borders_ready;
  gr_buffer bsend, brecv, rsend;
  /* gr_part_refresh_some: the changed owned vertices' bits, the selected
   * entries' ids (per peer, as the send buffer), and the copies written
   * here (rwritten_n of them so far in this refresh). */
  gr_buffer rmark, rids, rwritten;
  uint64_t rwritten_n;
  /* brecv holds the copies, then the owned vertices of bsend each once
   * (gr_borders: one list of the vertices a refresh moves, which a
   * primitive may pass over in one operator), from bowned_d on. Two
   * devices: that tail is bsend itself (bsend_d), which has no buffer of
   * its own then. */
  const gr_vid *bowned_d, *bsend_d;
  uint64_t n_bowned;
  /* Duplicate-1-hop proxies: the copies are the local ids from
   * copies_first on, owner after owner in the lists' order (gr_comm.lands),
   * so a whole refresh lands in land_array (land_eb bytes an entry) while
   * a refresh moves it, with no receive buffer and no scatter. */
  bool copies_lined;
  gr_vid copies_first;
  unsigned char *land_array;
  uint64_t land_eb;
  /* The copies' local ids on the host, from the border lists' first half
   * to their second (NULL under duplicate-all proxies: border_ids). */
  gr_vid *border_local;
  uint64_t send_begin[GR_COMM_MAX_DEVICES + 1], recv_begin[GR_COMM_MAX_DEVICES + 1];
  gr_vid *border_ids; /* host, while the lists are made */
  /* Routed outputs (gr_part_route), lent for the iteration that asked for
   * them: under duplicate-1-hop proxies a bitmap message per owner,
   * route_stride words apart; under duplicate-all proxies one bitmap of
   * global ids (route_one), every peer's message. */
  gr_buffer route;
  bool route_one;
  uint64_t route_stride;
  uint64_t route_words[GR_COMM_MAX_DEVICES]; /* words of bitmap j */
  bool route_lent;
  /* This step's claims go into the union (gr_exchange_step.claim_bits):
   * this device's, and the combines add each peer's as they read it. */
  bool claims_live;
  /* gr_part_peers: per copy, its owner and its id there (made at the first
   * call). */
  gr_buffer peer_owner, peer_convert;
  /* The table the current step publishes in (gr_comm.pkg; rpkg during a
   * refresh, gpkg during an all-gather) and the all-gather's send buffer. */
  gr__pkg (*tab)[GR_COMM_MAX_DEVICES];
  gr_buffer gsend;
  /* The last refresh or all-gather ended open (gr__direct): without the
   * drain and the barrier that would tell this device every peer is done
   * reading its packages. Every device calls the same steps, so all hold
   * the same value. Each kind of step has its own table, so what a slower
   * peer may still read is the send buffer: the next refresh after an
   * open refresh, or all-gather after an open all-gather, closes it first
   * (a drain and a barrier); the exchange after an open refresh drains at
   * its start and its barrier closes it; any refresh's or all-gather's
   * first barrier, which every device passes drained, closes whatever was
   * open before it. */
  gr__open open;
} gr__xlocal;

static const gr_xk_ops *gr__xk_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__xk_ops_cuda;
#endif
  (void)dev;
  return &gr__xk_ops_cpu;
}

static int gr__value_bytes(gr_value_type t) {
  return t == GR_VALUE_FLOAT ? (int)sizeof(float) : t == GR_VALUE_DOUBLE ? (int)sizeof(double) : (int)sizeof(gr_svid);
}

/* Grows a buffer whose contents go out as messages. NCCL's kernels read a
 * message in 16-byte pieces, past its last record when its size is not a
 * multiple of 16 (the bytes past it are not used): over NCCL such buffers
 * are zeroed when they grow, so that no byte read is uninitialized. */
static gr_status gr__reserve_send(const gr__xlocal *x, gr_buffer *b, gr_device *dev, size_t bytes, const gr_mem_policy *mem,
                                  const char *what) {
  const void *old = b->ptr;
  const size_t old_capacity = b->capacity;
  GR_CHECK(gr_buffer_reserve(b, dev, bytes, 0, mem, 0, what));
  if (x->c->transport == GR_TRANSPORT_NCCL && (b->ptr != old || b->capacity != old_capacity))
    GR_CHECK(gr_device_memset(dev, b->ptr, 0, b->capacity));
  return GR_SUCCESS;
}

static gr_status gr__upload(gr_buffer *b, gr_device *dev, const void *host, size_t bytes, const char *what) {
  GR_CHECK(gr_buffer_resize(b, dev, bytes ? bytes : 1, 0, what));
  return gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D);
}

/* The counters, then the words a primitive's `arriving` counts into
 * (read with them), before the culling bitmap in their buffer. */
#define GR__CTR_WORDS(n) ((size_t)gr_xk_counters(n) + GR_ARRIVING_COUNTS)
#define GR__CTR_BYTES(n) ((GR__CTR_WORDS(n) * sizeof(unsigned long long) + 255) & ~(size_t)255)

static void gr__detach(void *local, gr_part *p) {
  gr__xlocal *x = local;
  if (!x) return;
  gr_buffer *bufs[] = {&x->owner,    &x->word_owner, &x->word_groups, &x->convert,    &x->g2l,
                       &x->l2g,      &x->recv,       &x->counters,    &x->bsend,      &x->brecv,
                       &x->rsend,    &x->route,      &x->rmark,       &x->rids,       &x->rwritten,
                       &x->peer_owner, &x->peer_convert, &x->gsend};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) gr_buffer_release(bufs[i]);
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) {
    gr_buffer_release(&x->list[j]);
    gr_buffer_release(&x->bits[j]);
  }
  if (x->hc) gr_device_host_free(p->dev, x->hc);
  gr_device_marks_destroy(&x->marks);
  free(x->border_ids);
  free(x->border_local);
  free(x);
}

/* Messages this device sends: one per peer (selective) or one for all
 * (a broadcast: the mode, or a step that tells every device all its
 * outputs, gr_exchange_step.tell_all). */
static int gr__messages(const gr__xlocal *x, bool bcast) { return bcast ? 1 : x->n; }
static bool gr__message_used(const gr__xlocal *x, bool bcast, int j) { return bcast ? j == 0 : j != x->me; }

/* Whether operator op suits the primitive's values and payloads: the
 * spec's at attach, an iteration's own (gr_iter.combine) at its step. */
static gr_status gr__combine_suits(const gr__xlocal *x, gr_combine_op op) {
  const gr_primitive *prim = x->prim;
  const bool plain = op == GR_COMBINE_SUM || op == GR_COMBINE_OR || op == GR_COMBINE_LOGADD;
  if ((int)op < (int)GR_COMBINE_MIN || (int)op > (int)GR_COMBINE_LOGADD)
    return gr_errorf(GR_ERR_INTERNAL, "%s: combine operator %d is unknown", prim->name, (int)op);
  if (plain && x->pay.n_vertices > 0)
    return gr_errorf(GR_ERR_INTERNAL, "%s: SUM, OR and LOGADD combine carry no vertex payloads", prim->name);
  if (op == GR_COMBINE_OR && prim->value_type != GR_VALUE_SVID)
    return gr_errorf(GR_ERR_INTERNAL, "%s: OR combine needs integer values", prim->name);
  if (op == GR_COMBINE_LOGADD && prim->value_type == GR_VALUE_SVID)
    return gr_errorf(GR_ERR_INTERNAL, "%s: LOGADD combine needs floating-point values", prim->name);
  return GR_SUCCESS;
}

/* Whether a step's own values array and guard (gr_iter.values, guard)
 * suit it: one value payload, no vertex payloads, a guard only with a
 * SUM or LOGADD combine, and no bitmaps (their uniform value is the
 * payload's, and a guard's stamp is checked per record). */
static gr_status gr__step_suits(const gr__xlocal *x, const gr_exchange_step *s, gr_combine_op op) {
  const char *name = x->prim->name;
  if ((s->values || s->guard) && (x->pay.n_values != 1 || x->pay.n_vertices != 0))
    return gr_errorf(GR_ERR_INTERNAL, "%s: a step's own values or guard need one value payload and no vertex payloads",
                     name);
  if (s->guard && op != GR_COMBINE_SUM && op != GR_COMBINE_LOGADD)
    return gr_errorf(GR_ERR_INTERNAL, "%s: a guarded combine sums (SUM or LOGADD)", name);
  if (s->guard && (x->uniform || s->routed || s->or_bits))
    return gr_errorf(GR_ERR_INTERNAL, "%s: a guarded combine takes lists of records only", name);
  if (s->guard && s->stamp < 0) return gr_errorf(GR_ERR_INTERNAL, "%s: a guard's stamp is negative", name);
  /* A settled vertex is one no value of the step can lower: MIN over one
   * value payload, whose winner carries nothing else. */
  if (s->settled && (op != GR_COMBINE_MIN || x->pay.n_values != 1 || x->pay.n_vertices != 0 || s->guard))
    return gr_errorf(GR_ERR_INTERNAL, "%s: settled vertices need a MIN combine of one value payload, unguarded", name);
  if (s->settle_copies_bare && !s->settled)
    return gr_errorf(GR_ERR_INTERNAL, "%s: bare copies need settled vertices", name);
  /* Ties join where a MIN of one value payload carries nothing to pick a
   * winner's by. */
  if (s->min_ties && (op != GR_COMBINE_MIN || x->pay.n_values != 1 || x->pay.n_vertices != 0 || s->guard || s->settled))
    return gr_errorf(GR_ERR_INTERNAL, "%s: ties join under a MIN combine of one value payload, unguarded and unsettled",
                     name);
  return GR_SUCCESS;
}

/* The payload a step's messages are read from and combined into. */
static gr_payload gr__step_payload(const gr__xlocal *x, const gr_exchange_step *s) {
  gr_payload pay = x->pay;
  if (s->values) pay.values[0] = s->values;
  return pay;
}

static gr_status gr__attach(void *shared, gr_part *p, const gr_primitive *prim, void *slice, void **local) {
  gr_comm *c = shared;
  gr_status st = GR_SUCCESS;
  gr__xlocal *x = NULL;
  uint8_t *owner8 = NULL, *words8 = NULL;
  gr_word_group *groups = NULL;
  const gr_subgraph *sub = p->sub;
  *local = NULL;
  if (!c || c->n != p->count)
    return gr_errorf(GR_ERR_INTERNAL, "exchange set up for %d devices used by a run on %d", c ? c->n : 0,
                     p->count);
  if (!prim->payload)
    return gr_errorf(GR_ERR_UNSUPPORTED, "%s does not name its payloads; it runs on one device only",
                     prim->name);
  if (!sub->owner)
    return gr_errorf(GR_ERR_INTERNAL, "part %d has no owner table", p->index);
  GR_CHECK(gr_host_calloc((void **)&x, 1, sizeof *x, "exchange state"));
  x->c = c;
  x->tab = c->pkg;
  x->me = p->index;
  x->n = p->count;
  x->prim = prim;
  x->slice = slice;
  x->k = gr__xk_ops(p->dev);
  x->borders = prim->refreshes_copies;
  x->fault_countdown = gr__fault_hook("GR_FAULT_TRANSPORT", x->me, &x->fault_delay_ms);
  x->fault_at = x->fault_countdown;
  GR_CHECK_GOTO(prim->payload(slice, p, &x->pay), st, fail);
  if (x->pay.n_values < 1 || x->pay.n_values > GR_MAX_PAYLOADS || x->pay.n_vertices < 0 ||
      x->pay.n_vertices > GR_MAX_PAYLOADS) {
    st = gr_errorf(GR_ERR_INTERNAL, "%s names %d value and %d vertex payloads", prim->name, x->pay.n_values,
                   x->pay.n_vertices);
    goto fail;
  }
  GR_CHECK_GOTO(gr__combine_suits(x, prim->combine), st, fail);
  /* Loaded before any move is in flight (exchange_kernels.h says why). */
  if (x->k->load) GR_CHECK_GOTO(x->k->load(p->dev, prim->value_type), st, fail);
  x->layout = gr_xk_layout_make(x->pay.n_values, gr__value_bytes(prim->value_type), x->pay.n_vertices);
  x->uniform = x->pay.uniform && x->pay.n_values == 1 && x->pay.n_vertices == 0 && c->format != GR_COMM_FORMAT_LIST;

  const size_t nl = sub->n_local;
  /* Owners as bytes: 32 devices at most, and a quarter of the memory of a
   * table that every device holds for all its vertices. */
  GR_CHECK_GOTO(gr_host_alloc((void **)&owner8, nl ? nl : 1, "owner table"), st, fail);
  for (size_t v = 0; v < nl; v++) {
    owner8[v] = (uint8_t)sub->owner[v];
    x->held[owner8[v]]++;
  }
  /* Duplicate-1-hop proxies: the owned vertices, then the copies grouped
   * by owner (the subgraph's layout), as runs the package scans. */
  gr_xk_owner_ranges(owner8, nl, &x->ranges);
  /* The table on the device only where a kernel reads it: a package whose
   * owners are not a few runs, routed outputs (uniform payloads under
   * selective exchange), the combines of broadcast and of steps told to
   * all (duplicate-all proxies). Selective exchange between 1-hop parts
   * with any other payload (SSSP, CC, PageRank, BC) reads the runs alone:
   * a byte a local vertex less (16 MiB a device on 4 devices of Kronecker
   * 25). */
  if (sub->proxy != GR_PROXY_1HOP || x->ranges.n == 0 || c->mode != GR_COMM_SELECTIVE || x->uniform)
    GR_CHECK_GOTO(gr__upload(&x->owner, p->dev, owner8, nl, "owner table"), st, fail);
  /* Read only by bitmaps of local ids that are global ids (routed claims
   * and steps told to all, duplicate-all proxies): no table elsewhere. */
  if (sub->proxy == GR_PROXY_ALL) GR_CHECK_GOTO(gr_xk_word_owners(owner8, nl, &words8), st, fail);
  if (words8) {
    GR_CHECK_GOTO(gr__upload(&x->word_owner, p->dev, words8, nl / 32 ? nl / 32 : 1, "owner table by words"), st,
                  fail);
    /* The owner words' groups (a pull's finds between devices: DOBFS's):
     * 8 bytes a part per 1,024 ids. */
    GR_CHECK_GOTO(gr_xk_word_groups(words8, nl / 32, x->n, &groups, x->part_words), st, fail);
    if (groups) {
      GR_CHECK_GOTO(gr__upload(&x->word_groups, p->dev, groups,
                               (nl / 32 + 31) / 32 * (size_t)x->n * sizeof(gr_word_group), "owner words"),
                    st, fail);
      x->whole_words = nl / 32;
    }
  }
  free(groups);
  groups = NULL;
  free(words8);
  words8 = NULL;
  free(owner8);
  owner8 = NULL;
  if (sub->proxy == GR_PROXY_1HOP) {
    x->positions = c->mode == GR_COMM_SELECTIVE && x->borders && x->ranges.n > 0 && !x->uniform;
    if (x->positions) {
      /* A copy goes to its owner as its position in the border list
       * between them, which the owner holds anyway: no table of the
       * copies' ids on their owners (4 bytes a copy: 41 MiB a device of 4
       * on Kronecker 25). */
    } else if (c->mode == GR_COMM_SELECTIVE) {
      /* Read for the copies alone (an owned vertex's id is its own: the
       * owned ones come first), so the table starts at the first copy:
       * 4 bytes an owned vertex less (on 4 devices of Kronecker 22, 4.2 of
       * a device's 8.7 MB). */
      const size_t first = sub->n_owned;
      GR_CHECK_GOTO(gr__upload(&x->convert, p->dev, sub->owner_local + first, (nl - first) * sizeof(gr_vid),
                               "owner-local ids"),
                    st, fail);
      x->convert_d = x->convert.ptr;
      x->convert_first = (gr_vid)first;
    } else {
      /* Broadcast with 1-hop proxies sends global ids, so each device
       * needs the global-to-local table (|V| ids): duplicate-all proxies
       * are the cheaper partner of broadcast. */
      if (p->local_to_global) {
        x->convert_d = p->local_to_global;
      } else {
        /* A primitive that reads no global ids (skips_global_ids) leaves
         * the part's on the host: the exchange's own copy. */
        GR_CHECK_GOTO(gr__upload(&x->l2g, p->dev, sub->local_to_global, nl * sizeof(gr_vid), "local-to-global ids"),
                      st, fail);
        x->convert_d = x->l2g.ptr;
      }
      GR_CHECK_GOTO(gr__upload(&x->g2l, p->dev, sub->global_to_local, (size_t)sub->n_global * sizeof(gr_vid),
                               "global-to-local ids"),
                    st, fail);
      x->g2l_d = x->g2l.ptr;
    }
  }
  c->n_owned[x->me] = sub->n_owned;
  const size_t nctr = GR__CTR_WORDS(x->n);
  x->cull_bytes = gr_bitmap_words(sub->n_local) * sizeof(uint32_t);
  GR_CHECK_GOTO(gr_buffer_resize(&x->counters, p->dev, GR__CTR_BYTES(x->n) + x->cull_bytes, 0,
                                 "exchange counters and culling bitmap"),
                st, fail);
  x->cull = (uint32_t *)((unsigned char *)x->counters.ptr + GR__CTR_BYTES(x->n));
  GR_CHECK_GOTO(gr_device_host_alloc(p->dev, (void **)&x->hc, nctr * sizeof(unsigned long long),
                                     "exchange counters"),
                st, fail);
  GR_CHECK_GOTO(gr_device_marks_create(&x->marks, p->dev, 2), st, fail);
  if (c->tops->attach) GR_CHECK_GOTO(c->tops->attach(c, x->me, p->dev), st, fail);
  GR_CHECK_GOTO(gr_device_sync(p->dev), st, fail);
  *local = x;
  return GR_SUCCESS;
fail:
  free(owner8);
  free(words8);
  free(groups);
  gr__detach(x, p);
  return st;
}

gr_status gr_xk_word_owners(const uint8_t *owner, uint64_t n, uint8_t **out) {
  *out = NULL;
  const uint64_t words = n / 32;
  if (!words) return GR_SUCCESS;
  /* Eight owner bytes at a time against the word's first, repeated. */
  for (uint64_t k = 0; k < words; k++) {
    const uint8_t *o = owner + k * 32;
    const uint64_t rep = 0x0101010101010101ull * o[0];
    for (int i = 0; i < 32; i += 8) {
      uint64_t x;
      memcpy(&x, o + i, sizeof x);
      if (x != rep) return GR_SUCCESS;
    }
  }
  uint8_t *t = NULL;
  GR_CHECK(gr_host_alloc((void **)&t, (size_t)words, "owner table by words"));
  for (uint64_t k = 0; k < words; k++) t[k] = owner[k * 32];
  *out = t;
  return GR_SUCCESS;
}

gr_status gr_xk_word_groups(const uint8_t *word_owner, uint64_t words, int parts, gr_word_group **out,
                            uint64_t *part_words) {
  *out = NULL;
  for (int o = 0; o < parts; o++) part_words[o] = 0;
  if (!words || parts < 1 || parts > GR_COMM_MAX_DEVICES) return GR_SUCCESS;
  const uint64_t groups = (words + 31) / 32;
  gr_word_group *t = NULL;
  GR_CHECK(gr_host_calloc((void **)&t, (size_t)(groups * (uint64_t)parts), sizeof *t, "owner words"));
  uint64_t count[GR_COMM_MAX_DEVICES] = {0};
  for (uint64_t g = 0; g < groups; g++) {
    gr_word_group *e = t + g * (uint64_t)parts;
    for (int o = 0; o < parts; o++) e[o].base = (uint32_t)count[o];
    const uint64_t end = (g + 1) * 32 < words ? (g + 1) * 32 : words;
    for (uint64_t w = g * 32; w < end; w++) {
      const int o = word_owner[w];
      /* A slot counts to 2^32 - 1 (n below 2^37 ids); past it, and for an
       * owner beyond the parts, the bitmaps stay whole. */
      if (o >= parts || count[o] == UINT32_MAX) {
        free(t);
        return GR_SUCCESS;
      }
      e[o].mask |= 1u << (w - g * 32);
      count[o]++;
    }
  }
  for (int o = 0; o < parts; o++) part_words[o] = count[o];
  *out = t;
  return GR_SUCCESS;
}

void gr_xk_owner_ranges(const uint8_t *owner, uint64_t n, gr_xk_ranges *out) {
  memset(out, 0, sizeof *out);
  int runs = 0;
  for (uint64_t v = 0; v < n; v++) {
    if (runs && owner[v] == out->part[runs - 1]) continue;
    if (runs == GR_XK_RANGES_MAX) {
      memset(out, 0, sizeof *out);
      return;
    }
    if (runs) out->end[runs - 1] = (gr_vid)v;
    out->part[runs++] = owner[v];
  }
  if (runs) out->end[runs - 1] = (gr_vid)n;
  out->n = runs;
}

/* Part j's owner words (gr_part_owner_words): its whole words, and the
 * last, partial word where the ids are no multiple of 32. */
static uint64_t gr__owner_count(const gr__xlocal *x, const gr_part *p, int j) {
  return x->part_words[j] + (p->sub->n_local % 32 ? 1u : 0u);
}

/* The id space of message j's bitmap: global ids under broadcast and
 * duplicate-all proxies, the owner's own ids under duplicate-1-hop
 * selective exchange (known once every device has attached). */
static gr_vid gr__universe(const gr__xlocal *x, const gr_part *p, int j) {
  if (x->c->mode == GR_COMM_SELECTIVE && p->sub->proxy == GR_PROXY_1HOP) return x->c->n_owned[j];
  return p->sub->n_global;
}

/* Records a list buffer holds such that the message, padded to 8 bytes,
 * still lies inside it (copies read the padding too). */
static uint64_t gr__list_room(const gr_buffer *b, uint64_t record_bytes) {
  return (uint64_t)(b->capacity & ~(size_t)7) / record_bytes;
}

/* Whether the step dedupes the next frontier with the culling bitmap.
 * Not where it settles what arrives (gr_exchange_step.settled): every
 * vertex of the output has its settled bit, set by the claim that output
 * it (each vertex once), so the combine drops the peers' records for it,
 * and lets through one record of any other vertex, the one that sets its
 * bit. There the bitmap was a 4 MB clear a push level on Kronecker 25
 * and a bit to test and set for every vertex joining the next frontier. */
static bool gr__culls(const gr_exchange_step *s) { return s->settled == NULL; }

/* Reads the first n counters into the host mirror (waits for the stream). */
static gr_status gr__read_counters(gr__xlocal *x, gr_device *dev, int n) {
  return gr_device_copy(dev, x->hc, x->counters.ptr, (size_t)n * sizeof(unsigned long long), GR_COPY_D2H);
}

/* Step 1 when the iterate routed its outputs (gr_iter.routed). This
 * device's vertices in its bitmap become the next frontier (the bitmap is
 * the cull bitmap too, so that no combine adds them again, unless the
 * step settles what arrives: gr__culls); the messages
 * get their value and their ids counted; one read of the counters; the
 * non-empty ones are published as they are. Under duplicate-all proxies
 * the one bitmap goes to every peer, whose combine (given the owner table)
 * learns the depths of the vertices it does not own as well: no device
 * claims again at the next level what a peer claimed at this one; and it
 * starts the step's union of claims where the iterate lent one
 * (gr_iter.claim_bits), which the combines complete. */
static gr_status gr__package_routed(gr__xlocal *x, gr_part *p, gr_exchange_step *s) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  if (!x->route_lent || c->mode != GR_COMM_SELECTIVE || s->out->size)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d routed its outputs %s", me,
                     !x->route_lent ? "without bitmaps lent for them"
                     : s->out->size ? "and output some too"
                                    : "under broadcast exchange");
  x->route_lent = false;
  const int own = x->route_one ? 0 : me;
  uint32_t *base = x->route.ptr;
  const uint32_t *mine = base + (uint64_t)own * x->route_stride + 2;
  const size_t mb = (size_t)x->route_words[own] * sizeof(uint32_t);
  if (mb > x->cull_bytes)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: a routed bitmap of %zu bytes for %zu local ones", mb,
                     x->cull_bytes);
  const int nctr = gr_xk_counters(n);
  unsigned long long *ctr = x->counters.ptr;
  /* The counters cleared; the compact below writes this device's bitmap
   * over the culling bitmap's front as it reads it, and what lies past it
   * (a bitmap of fewer words than the local ids take) is cleared here,
   * where the step culls at all. */
  const bool cull = gr__culls(s);
  GR_CHECK(gr_device_memset(dev, ctr, 0, GR__CTR_BYTES(n)));
  if (cull && x->cull_bytes > mb)
    GR_CHECK(gr_device_memset(dev, (unsigned char *)x->cull + mb, 0, x->cull_bytes - mb));
  /* The claims' union starts as this device's (gr_iter.claim_bits), also
   * written by the compact; the peers' messages are or'ed in as they are
   * combined. */
  const bool claims = s->claim_bits && x->route_one && mb;
  if (claims) x->claims_live = true;
  /* This device's claims it owns take the step's value here: the push set
   * their bits only, or with no visited bits stored the same value itself
   * (gr_part_route). */
  const gr_xk_compact_args ca = {mine,
                                 x->route_words[own],
                                 x->route_one ? x->owner.ptr : NULL,
                                 me,
                                 gr_frontier_items(s->next),
                                 gr_frontier_capacity(s->next),
                                 p->out.offsets,
                                 ctr,
                                 gr__step_payload(x, s).values[0],
                                 x->layout.value_bytes,
                                 x->step_value,
                                 x->route_one ? x->word_owner.ptr : NULL,
                                 /* One bitmap for every peer: this pass seals it too. */
                                 x->route_one ? base : NULL,
                                 x->route_one ? &ctr[GR_XK_PEER + n] : NULL,
                                 {cull ? x->cull : NULL, claims ? s->claim_bits : NULL}};
  GR_CHECK(x->k->compact(dev, &ca));
  for (int j = 0; j < n && !x->route_one; j++) {
    if (j == me) continue;
    GR_CHECK(x->k->seal(dev, base + (uint64_t)j * x->route_stride, x->route_words[j], x->step_value,
                        &ctr[GR_XK_PEER + n + j]));
  }
  GR_CHECK(gr__read_counters(x, dev, nctr));
  if (x->hc[GR_XK_NEXT] > gr_frontier_capacity(s->next))
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: %llu owned vertices routed for a frontier of %llu",
                     x->hc[GR_XK_NEXT], (unsigned long long)gr_frontier_capacity(s->next));
  s->next->size = (gr_eid)x->hc[GR_XK_NEXT];
  for (int j = 0; j < n; j++) {
    if (j == me) continue;
    const int k = x->route_one ? 0 : j;
    const uint64_t ids = x->hc[GR_XK_PEER + n + k];
    if (!ids) continue;
    const gr_vid u = x->route_one ? p->sub->n_global : gr__universe(x, p, j);
    const gr__pkg m = {(const unsigned char *)(base + (uint64_t)k * x->route_stride), gr_xk_bitmap_bytes(u),
                       gr_xk_bitmap_bytes(u), ids, GR_XK_BITMAP, u, x->route_one, false, 0};
    c->pkg[me][j] = m;
    s->stats->items_sent += ids;
  }
  c->recv_capacity[me] = x->recv.capacity;
  return GR_SUCCESS;
}

/* gr_part_route: bitmaps, when they are smaller than the list the package
 * pass would send (or the format asks for them). The previous iteration's
 * messages were read by every peer before the barrier that ended it, so
 * the buffer is free to clear. */
static gr_status gr__route(void *local, gr_part *p, gr_eid bound, const void *value, int value_bytes, gr_route *r) {
  gr__xlocal *x = local;
  const gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  memset(r, 0, sizeof *r);
  x->route_lent = false;
  if (c->mode != GR_COMM_SELECTIVE || !x->uniform || n < 2) return GR_SUCCESS;
  if (value_bytes != x->layout.value_bytes)
    return gr_errorf(GR_ERR_INTERNAL, "%s routes %d-byte values; its payload has %d", x->prim->name, value_bytes,
                     x->layout.value_bytes);
  x->step_value = 0;
  memcpy(&x->step_value, value, (size_t)value_bytes);
  x->step_value_set = true;
  /* Duplicate-all proxies: one bitmap of global ids (local ids are global),
   * sent to every peer. 1-hop: one per owner in its own ids, this
   * device's (its owned vertices come first among its local ids) staying
   * here. */
  x->route_one = p->sub->proxy == GR_PROXY_ALL;
  const int slots = x->route_one ? 1 : n;
  uint64_t stride = 0, bitmaps = 0;
  for (int j = 0; j < slots; j++) {
    const gr_vid u = x->route_one ? p->sub->n_global : gr__universe(x, p, j);
    const uint64_t bb = gr_xk_bitmap_bytes(u);
    x->route_words[j] = ((uint64_t)u + 31u) / 32u;
    bitmaps += x->route_one ? (uint64_t)(n - 1) * bb : j != me ? bb : 0;
    if (bb / 4 > stride) stride = bb / 4;
  }
  if (c->format != GR_COMM_FORMAT_BITMAP && gr_xk_list_bytes(&x->layout, bound) <= bitmaps) return GR_SUCCESS;
  /* 16 bytes past the last message: NCCL reads messages in 16-byte pieces. */
  const size_t bytes = (size_t)(stride * (uint64_t)slots * 4u + 16u);
  GR_CHECK(gr__reserve_send(x, &x->route, p->dev, bytes, &p->mem, "routed bitmaps"));
  GR_CHECK(gr_device_memset(p->dev, x->route.ptr, 0, bytes));
  x->route_stride = stride;
  x->route_lent = true;
  r->owner = x->route_one ? NULL : x->owner.ptr;
  r->convert = x->route_one ? NULL : x->convert_d;
  r->convert_first = x->convert_first;
  r->words = x->route.ptr;
  r->stride = stride;
  r->me = me;
  return GR_SUCCESS;
}

/* The output's size and the edges its advance visited, where the advance
 * left them on the device (gr_exchange_step.out_counts): checked against
 * the bound the output's size stood for, and taken. */
static gr_status gr__take_out_counts(gr__xlocal *x, gr_exchange_step *s, uint64_t size, uint64_t edges) {
  if (size > s->out->size)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d's advance output %llu vertices for a bound of %llu",
                     x->me, (unsigned long long)size, (unsigned long long)s->out->size);
  s->out->size = (gr_eid)size;
  s->out_visited = (gr_eid)edges;
  s->out_counts = NULL;
  return GR_SUCCESS;
}

/* The output's size and edges where its advance left them on the device
 * (gr_exchange_step.out_counts), read (a wait) and taken. */
static gr_status gr__read_out_counts(gr__xlocal *x, gr_device *dev, gr_exchange_step *s) {
  gr_eid h[2] = {0, 0};
  GR_CHECK(gr_device_copy(dev, h, s->out_counts, sizeof h, GR_COPY_D2H));
  return gr__take_out_counts(x, s, h[0], h[1]);
}

/* Whether a message of n_out records over a bitmap of `universe` ids
 * takes a bitmap beside its list: a uniform payload's, where the format
 * asks for bitmaps or the list could be larger. */
static bool gr__with_bits(const gr__xlocal *x, gr_eid n_out, gr_vid universe) {
  return x->uniform && (x->c->format == GR_COMM_FORMAT_BITMAP ||
                        gr_xk_list_bytes(&x->layout, n_out) > gr_xk_bitmap_bytes(universe));
}

/* Whether a step's output may go to its peers as bare ids (GR_XK_IDS):
 * a step told to all (every peer gets every vertex, global ids) whose
 * value gr_part_route named, settled (the output's vertices have their
 * bits: gr__culls), with no union of claims to set, one value payload,
 * and not over NCCL (which reads a message in 16-byte pieces past its
 * end, where the output's queue is not kept initialized) nor where the
 * format asks for bitmaps. */
static bool gr__ids_suit(const gr__xlocal *x, const gr_part *p, const gr_exchange_step *s) {
  const gr_comm *c = x->c;
  return s->tell_all && c->mode == GR_COMM_SELECTIVE && p->sub->proxy == GR_PROXY_ALL && !x->g2l_d && s->settled &&
         !s->claim_bits && x->uniform && x->layout.n_values == 1 && x->layout.n_vertices == 0 &&
         c->transport != GR_TRANSPORT_NCCL && c->format != GR_COMM_FORMAT_BITMAP;
}

/* A step's output as bare ids: the package its peers read, and what the
 * own output's combine matches the peers' against (gr__take_more reads
 * its format, mixed and value). Mixed: ids of every owner. */
static gr__pkg gr__ids_pkg(const gr_vid *ids, uint64_t n, uint64_t value) {
  const uint64_t bytes = n * sizeof(gr_vid);
  return (gr__pkg){(const unsigned char *)ids, gr_xk_align8(bytes), bytes, n, GR_XK_IDS, 0, true, false, value};
}

/* A step told to all sends its output list itself to every peer, as bare
 * ids that take the step's value (GR_XK_IDS), where they take no more
 * bytes than a bitmap of every id: no package pass writes records of it
 * (id and value, twice the bytes) and the owned ones into the next
 * frontier. The first combine (gr__enqueue) does the latter, in the same
 * launch as the peers' ids: on 4 devices of Kronecker 25 DOBFS's package
 * passes took 35 us a run on each device (one H100), a launch of a few
 * microseconds at each of its small push levels. The output's size is
 * read first where the advance left it on the device. *sent false: the
 * list is longer than the bitmap (its size now known), and the package
 * pass goes on. */
static gr_status gr__package_ids(gr__xlocal *x, gr_part *p, gr_exchange_step *s, bool *sent) {
  gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  *sent = false;
  if (s->out_counts) GR_CHECK(gr__read_out_counts(x, p->dev, s));
  const uint64_t n_out = s->out->size, bytes = n_out * sizeof(gr_vid);
  if (bytes > gr_xk_bitmap_bytes(p->sub->n_global)) return GR_SUCCESS;
  *sent = true;
  /* The counters start at zero and go down with the first combine. */
  for (int k = 0; k < gr_xk_counters(n); k++) x->hc[k] = 0;
  x->counters_on_host = true;
  s->next->size = 0;
  x->own_ids = gr_frontier_items(s->out);
  x->own_n = n_out;
  if (n_out) {
    /* Read by peers until the iteration's last barrier, as a package's
     * lists are: nothing writes the output before the next iteration. */
    const gr__pkg m = gr__ids_pkg(x->own_ids, n_out, x->step_value);
    for (int q = 0; q < n; q++)
      if (q != me) {
        c->pkg[me][q] = m;
        s->stats->items_sent += n_out;
      }
  }
  c->recv_capacity[me] = x->recv.capacity;
  return GR_SUCCESS;
}

/* Step 1: one pass puts owned outputs into the next frontier and the rest
 * into messages; the counters come back in one read. A list that
 * overflowed grows and the pass repeats (rare: a list grows by the memory
 * policy, and a uniform message's list never needs more than its bitmap).
 * An output whose size its advance left on the device (out_counts) is
 * read to that size by the pass, which brings the size back with the
 * counters: the advance and the package run with no host round trip
 * between them. */
static gr_status gr__package(gr__xlocal *x, gr_part *p, gr_exchange_step *s) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const bool mode_bcast = c->mode == GR_COMM_BROADCAST;
  const bool bcast = mode_bcast || s->tell_all;
  const int n = x->n, me = x->me, n_msg = gr__messages(x, bcast);
  gr_eid n_out = s->out->size;
  const uint64_t rb = (uint64_t)x->layout.record_bytes;
  /* Withdraw the last iteration's packages before a send buffer can move
   * (a reserve below frees the old one): should this package fail after
   * it, the table must not point into freed memory. Peers read the table
   * only after this iteration's barrier, when it is published again. */
  for (int j = 0; j < n; j++) {
    const gr__pkg z = {NULL, 0, 0, 0, GR_XK_LIST, 0, false, false, 0};
    c->pkg[me][j] = z;
  }
  x->counters_on_host = false;
  const bool value_set = x->step_value_set;
  x->step_value_set = false;
  x->own_ids = NULL;
  x->own_n = 0;
  /* Only owned vertices join the next frontier. */
  const gr_eid own = p->sub->n_owned ? p->sub->n_owned : 1;
  if (gr_frontier_capacity(s->next) < own) GR_CHECK(gr_frontier_reserve(s->next, dev, own, 0, &p->mem));
  if (s->tell_all && (mode_bcast || p->sub->proxy != GR_PROXY_ALL || s->out_owned))
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d tells all its outputs %s", me,
                     mode_bcast ? "under broadcast exchange (it always does)"
                     : s->out_owned ? "and keeps them as its next frontier"
                                    : "without duplicate-all proxies (its peers' ids differ)");
  if (s->or_bits && (!s->out_owned || bcast || s->routed || (!s->or_union && !s->or_also)))
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d ors bitmaps %s", me,
                     !s->or_union && !s->or_also ? "with nowhere to put the union"
                                                 : "with outputs not all its own, or under broadcast");
  if (s->out_counts && (s->routed || s->out_owned || s->or_bits))
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d's output size is on the device, with an output %s", me,
                     s->routed ? "routed" : s->out_owned ? "kept as its next frontier" : "or'ed");
  if (s->routed) return gr__package_routed(x, p, s);
  if (s->out_counts) {
    /* A message that may take a bitmap chooses its forms from the
     * output's size (a list always; a bitmap beside it where the list
     * could be larger): where the bound leaves that open, the size is
     * read first, as before. */
    bool bits_too = false;
    for (int j = 0; j < n_msg; j++)
      if (gr__message_used(x, bcast, j) && gr__with_bits(x, n_out, gr__universe(x, p, j))) bits_too = true;
    if (bits_too) {
      GR_CHECK(gr__read_out_counts(x, dev, s));
      n_out = s->out->size;
    }
  }
  /* A step told to all as lists (or a bitmap) adds to the union of
   * claims this device's output, every vertex of it (global ids:
   * duplicate-all proxies), which the package pass sets as it reads the
   * output (no pass of its own); the combines add the peers'. The bits set
   * before stay (gr_iter.claim_bits: the lender clears them): a 4 MB
   * memset a push level a device on Kronecker 25 was a fixed cost of every
   * level, the first ones pushing a handful of vertices. */
  if (s->claim_bits && s->tell_all) x->claims_live = true;
  if (s->out_owned && !bcast) {
    /* The output is the next frontier as it is (gr_iter.out_owned): no
     * pass, no message, and the counters start where the combine of what
     * peers send goes on from. A broadcast sends every output vertex to
     * every peer: the package pass runs. */
    if (n_out > gr_frontier_capacity(s->next))
      return gr_errorf(GR_ERR_INTERNAL, "exchange package: %llu owned vertices for a frontier of %llu",
                       (unsigned long long)n_out, (unsigned long long)gr_frontier_capacity(s->next));
    if (n_out) {
      /* The output's queue becomes the next frontier's, and the next's
       * (empty) the output's: no copy (DOBFS's pulls, Kronecker 25 on two
       * devices: 23-29 MB a pull). The next frontier keeps room for every
       * owned vertex, should a peer's list be combined after the output;
       * where the output's queue has less, it grows keeping the output
       * (a first run). Peers read the output (below) in the next
       * frontier's queue until the iteration's last barrier, where nothing
       * writes it. */
      gr_buffer q = s->out->queue;
      s->out->queue = s->next->queue;
      s->next->queue = q;
      s->out->size = 0;
      if (gr_frontier_capacity(s->next) < own) {
        s->next->queue.size = (size_t)n_out * sizeof(gr_vid);
        GR_CHECK(gr_frontier_reserve(s->next, dev, own, 1, &p->mem));
      }
    }
    const int nctr = gr_xk_counters(n);
    for (int k = 0; k < nctr; k++) x->hc[k] = 0;
    x->hc[GR_XK_NEXT] = n_out;
    x->hc[GR_XK_NEXT_EDGES] = s->out_edges;
    x->hc[GR_XK_NEXT_MAXDEG] = s->out_max_degree;
    /* Uploaded (with the culling bitmap cleared) only if a peer's message
     * is combined into the next frontier: DOBFS's pulls between devices
     * receive or'ed bitmaps alone, and skip both. */
    x->counters_on_host = true;
    s->next->size = n_out;
    if (s->or_bits && s->or_words) {
      /* The bitmap goes to every peer as it is; the union is this
       * device's bits or'ed with the peers' as they arrive (gr__enqueue:
       * peers read or_bits meanwhile, and nothing here writes it). Where
       * the output's ids take an eighth of the bitmap's
       * bytes or less, they go instead (the same vertices: out_owned lists
       * each bit once), and none at all when it is empty: a pull that
       * found few vertices no longer moves |V|/8 bytes to every peer
       * (DOBFS, Kronecker 27 on four devices: 16.7 MB to each of three
       * peers a pull, 0.17 ms of copies, for a level that found 13
       * vertices). The output is read by peers until the iteration's last
       * barrier, as or_bits is, and is whole when or_bits is (the iterate
       * wrote both). Not over NCCL, which reads a message in 16-byte pieces
       * past its end: the output's bytes there are not kept initialized. */
      /* Owner words (gr_exchange_step.or_packed): this device's words
       * alone, 1/N of the bitmap's bytes, go as they are. */
      if (s->or_packed && !x->word_groups.ptr)
        return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d ors owner words it has no groups for", me);
      const uint64_t words = s->or_packed ? gr__owner_count(x, p, me) : s->or_words;
      const uint64_t bytes = words * sizeof(uint32_t);
      const uint64_t id_bytes = (uint64_t)n_out * sizeof(gr_vid);
      const bool ids = c->transport != GR_TRANSPORT_NCCL && id_bytes <= bytes / 8;
      for (int j = 0; j < n; j++)
        if (j != me) {
          const gr__pkg m = ids ? (gr__pkg){(const unsigned char *)gr_frontier_items(s->next), gr_xk_align8(id_bytes),
                                            id_bytes, (uint64_t)n_out, GR_XK_OR_IDS, 0, false, false, 0}
                                : (gr__pkg){(const unsigned char *)s->or_bits, gr_xk_align8(bytes), bytes, words,
                                            GR_XK_OR, 0, false, false, 0};
          c->pkg[me][j] = m;
        }
      /* Peers copy the bitmap out of this device once past the barrier,
       * on their own streams: it must be whole by then. The other
       * packages are, because their pass ends with a read of the counters
       * (a refresh's: gr__direct drains the stream before its barrier);
       * this one is written by the iterate's kernels, so the stream is
       * drained here unless the iterate says it drained it after its last
       * write (gr_iter.or_bits_whole). Without it a peer read half-set bits
       * and missed vertices (DOBFS, 4 devices on 2 GPUs, 1 run in 15 under
       * load, when a pass after the pull's read set the bits). */
      if (!s->or_bits_whole) GR_CHECK(gr_device_sync(dev));
    }
    c->recv_capacity[me] = x->recv.capacity;
    return GR_SUCCESS;
  }
  if (n_out == 0 && !s->out_counts) {
    /* Nothing to send: the counters are zero, set on the host (uploaded,
     * with the culling bitmap cleared, only before a combine that adds to
     * the next frontier, as for an output kept as it is), with no pass and
     * no read. */
    for (int k = 0; k < gr_xk_counters(n); k++) x->hc[k] = 0;
    x->counters_on_host = true;
    s->next->size = 0;
    c->recv_capacity[me] = x->recv.capacity;
    return GR_SUCCESS;
  }
  if (value_set && gr__ids_suit(x, p, s)) {
    bool sent = false;
    GR_CHECK(gr__package_ids(x, p, s, &sent));
    if (sent) return GR_SUCCESS;
    n_out = s->out->size;
  }
  gr_xk_package_args a;
  memset(&a, 0, sizeof a);
  a.out = gr_frontier_items(s->out);
  a.n_out = n_out;
  a.owner = x->owner.ptr;
  a.ranges = x->ranges;
  a.me = me;
  a.parts = n;
  a.broadcast = bcast;
  a.convert = x->convert_d;
  a.convert_first = x->convert_first;
  a.positions = x->positions && !bcast;
  a.pay = gr__step_payload(x, s);
  a.layout = x->layout;
  a.next = gr_frontier_items(s->next);
  a.next_capacity = gr_frontier_capacity(s->next);
  const bool cull = gr__culls(s);
  a.cull = cull ? x->cull : NULL;
  a.settled = s->settled;
  a.deg = x->prim->skips_in_edges ? NULL : p->out.offsets;
  a.counters = x->counters.ptr;
  a.counts = s->out_counts;
  /* The step's claims (set up above): the output's ids, set by the pass
   * that reads them. */
  a.claims = s->claim_bits && s->tell_all ? s->claim_bits : NULL;
  /* Which forms each message takes: a list always; a bitmap beside it when
   * the payload is uniform and n_out records could be larger than the
   * bitmap, whose list then never needs more room than the bitmap takes. */
  bool with_bits[GR_COMM_MAX_DEVICES] = {false};
  /* Positions with one value: dense messages (GR_XK_DENSE, a bit and a
   * value slot a border-list entry) where the output's records would take
   * more bytes than every peer's dense message, so that a send list never
   * needs more room than those (BC's widest level sends nearly every copy:
   * 16-byte records against 8 bytes and a bit). */
  bool dense = false;
  if (x->positions && !bcast && x->layout.n_values == 1 && x->layout.n_vertices == 0 && n_out) {
    if (!x->borders_ready)
      return gr_errorf(GR_ERR_INTERNAL, "exchange package: device %d sends positions before its border lists", me);
    uint64_t db = 0;
    for (int j = 0; j < n; j++)
      if (j != me) db += gr_xk_dense_bytes((gr_vid)(x->recv_begin[j + 1] - x->recv_begin[j]), x->layout.value_bytes);
    dense = (uint64_t)n_out * rb > db;
  }
  for (int j = 0; j < n_msg; j++) {
    if (!gr__message_used(x, bcast, j) || !n_out) continue;
    if (dense) {
      const gr_vid k = (gr_vid)(x->recv_begin[j + 1] - x->recv_begin[j]);
      if (!k) continue; /* no copy of j's vertices here: nothing for j */
      const uint64_t db = gr_xk_dense_bytes(k, x->layout.value_bytes);
      if (x->list[j].capacity < db)
        GR_CHECK(gr__reserve_send(x, &x->list[j], dev, (size_t)db, &p->mem, "exchange send list"));
      /* Zeroed whole: the bits, and the slots that no position sets (the
       * message moves them all). */
      GR_CHECK(gr_device_memset(dev, x->list[j].ptr, 0, (size_t)db));
      a.dense[j] = x->list[j].ptr;
      a.dense_universe[j] = k;
      continue;
    }
    x->universe[j] = gr__universe(x, p, j);
    const uint64_t bb = gr_xk_bitmap_bytes(x->universe[j]);
    with_bits[j] = gr__with_bits(x, n_out, x->universe[j]);
    uint64_t want = n_out;
    if (with_bits[j]) {
      want = c->format == GR_COMM_FORMAT_BITMAP ? 0 : bb / rb;
      if (want > n_out) want = n_out;
      GR_CHECK(gr__reserve_send(x, &x->bits[j], dev, (size_t)bb, &p->mem, "exchange bitmap"));
      a.bits[j] = x->bits[j].ptr;
    }
    /* A selective list starts at an even share of the output over the
     * peers (or what it held before): a peer's records are the output's
     * copies it owns, at most the output less what this device owns, so
     * an even share holds them under a random partition; the retry below
     * covers a skewed one, and lists keep their room from run to run. */
    const uint64_t have = gr__list_room(&x->list[j], rb);
    const uint64_t share = bcast ? want : n_out / (uint64_t)(n > 1 ? n - 1 : 1) + 1024;
    uint64_t first = want < share ? want : share;
    /* A uniform message's list never holds more than its bitmap's worth
     * (past it the bitmap goes): room for that at once, so that a later
     * level or run that claims more does not reallocate inside the timed
     * loop (a reallocation waits for the device: 0.1-0.5 ms on an H200,
     * in 3 or 4 of 8 BFS and DOBFS runs on Kronecker 25). */
    if (x->uniform && want && bb / rb > first) first = bb / rb;
    /* No more than the local vertices j owns either (an output holds
     * each vertex once): the share counts the output's own vertices too,
     * which stay (BC on 4 CPU devices of Kronecker 22: three lists of 7.2
     * MB a device where 6.6 MB hold every copy each peer owns here). */
    if (!bcast && first > x->held[j]) first = x->held[j] ? x->held[j] : 1;
    if (have < first)
      GR_CHECK(gr__reserve_send(x, &x->list[j], dev, (size_t)gr_xk_list_bytes(&x->layout, first), &p->mem,
                                "exchange send list"));
    if (want) {
      a.list[j] = x->list[j].ptr;
      a.list_capacity[j] = gr__list_room(&x->list[j], rb);
      if (with_bits[j] && a.list_capacity[j] > want) a.list_capacity[j] = want;
    }
  }
  for (int attempt = 0;; attempt++) {
    GR_CHECK(gr_device_memset(dev, x->counters.ptr, 0, GR__CTR_BYTES(n) + (cull ? x->cull_bytes : 0)));
    for (int j = 0; j < n_msg; j++)
      if (a.bits[j]) GR_CHECK(gr_device_memset(dev, a.bits[j], 0, (size_t)gr_xk_bitmap_bytes(x->universe[j])));
    GR_CHECK(x->k->package(dev, &a));
    GR_CHECK(gr__read_counters(x, dev, a.counts ? gr_xk_counters(n) : GR_XK_PEER + 2 * n));
    bool again = false;
    for (int j = 0; j < n_msg; j++) {
      const uint64_t cnt = x->hc[GR_XK_PEER + j];
      if (!a.list[j] || cnt <= a.list_capacity[j]) continue;
      /* A uniform message whose list outgrew its bitmap sends the bitmap. */
      if (with_bits[j]) {
        a.list[j] = NULL;
        continue;
      }
      if (attempt > 0)
        return gr_errorf(GR_ERR_INTERNAL, "exchange package: message %d needed %llu records after growing to %llu",
                         j, (unsigned long long)cnt, (unsigned long long)a.list_capacity[j]);
      GR_CHECK(gr__reserve_send(x, &x->list[j], dev, (size_t)gr_xk_list_bytes(&x->layout, cnt), &p->mem,
                                "exchange send list"));
      a.list[j] = x->list[j].ptr;
      a.list_capacity[j] = gr__list_room(&x->list[j], rb);
      again = true;
    }
    if (!again) break;
  }
  if (a.counts) {
    const int k = gr_xk_out_counter(n);
    GR_CHECK(gr__take_out_counts(x, s, x->hc[k], x->hc[k + 1]));
  }
  if (x->hc[GR_XK_NEXT] > gr_frontier_capacity(s->next))
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: %llu owned vertices for a frontier of %llu",
                     x->hc[GR_XK_NEXT], (unsigned long long)gr_frontier_capacity(s->next));
  s->next->size = (gr_eid)x->hc[GR_XK_NEXT];

  /* Publish the smaller form of each message (the table was emptied on
   * entry). */
  for (int j = 0; j < n_msg; j++) {
    if (!gr__message_used(x, bcast, j)) continue;
    /* A step's broadcast under selective exchange: the receivers keep
     * vertices they do not own out of their next frontiers (the owner
     * table), as under the broadcast mode. */
    gr__pkg m = {NULL, 0, 0, 0, GR_XK_LIST, 0, s->tell_all, false, 0};
    const uint64_t cnt = x->hc[GR_XK_PEER + j], distinct = x->hc[GR_XK_PEER + n + j];
    const uint64_t lb = gr_xk_list_bytes(&x->layout, cnt);
    if (a.dense[j]) {
      if (cnt) {
        const uint64_t db = gr_xk_dense_bytes(a.dense_universe[j], x->layout.value_bytes);
        m.ptr = a.dense[j];
        m.bytes = gr_xk_align8(db);
        m.copy = db;
        m.items = cnt;
        m.format = GR_XK_DENSE;
        m.universe = a.dense_universe[j];
      }
    } else if (a.bits[j] && distinct && (!a.list[j] || gr_xk_bitmap_bytes(x->universe[j]) < lb)) {
      m.ptr = a.bits[j];
      m.bytes = gr_xk_bitmap_bytes(x->universe[j]);
      m.copy = m.bytes;
      m.items = distinct;
      m.format = GR_XK_BITMAP;
      m.universe = x->universe[j];
    } else if (cnt) {
      /* Peers copy the padded message: it must lie inside the buffer. */
      if (!a.list[j] || cnt > a.list_capacity[j] || lb > x->list[j].capacity)
        return gr_errorf(GR_ERR_INTERNAL, "exchange package: message %d of %llu records (%llu bytes) in a list of %llu",
                         j, (unsigned long long)cnt, (unsigned long long)lb, (unsigned long long)x->list[j].capacity);
      m.ptr = a.list[j];
      m.bytes = lb;
      m.items = cnt;
      /* Peers copy the records only: 4-byte records leave 4 bytes after an
       * odd count that were never written. The padded size keeps the next
       * message in a receive buffer 8-byte aligned. */
      m.copy = cnt * (uint64_t)x->layout.record_bytes;
    }
    if (bcast) {
      for (int q = 0; q < n; q++)
        if (q != me) c->pkg[me][q] = m;
    } else {
      c->pkg[me][j] = m;
    }
  }
  for (int j = 0; j < n; j++) s->stats->items_sent += c->pkg[me][j].items;
  c->recv_capacity[me] = x->recv.capacity;
  return GR_SUCCESS;
}

/* Whether device i takes peer j's package of the table straight into the
 * array a refresh names (gr__xfer.land): a whole list of one array's
 * values, on a device whose copies are contiguous in the lists' order. */
static bool gr__lands(const gr_comm *c, gr__pkg (*tab)[GR_COMM_MAX_DEVICES], int j, int i) {
  const gr__pkg *m = &tab[j][i];
  return j != i && m->whole && m->items && c->lands[i];
}

bool gr__comm_any_recv_grows(const gr_comm *c, gr__pkg (*tab)[GR_COMM_MAX_DEVICES]) {
  for (int i = 0; i < c->n; i++) {
    uint64_t total = 0;
    for (int j = 0; j < c->n; j++)
      if (j != i && !gr__lands(c, tab, j, i)) total += tab[j][i].bytes;
    if (total > c->recv_capacity[i]) return true;
  }
  return false;
}

/* This device's transfer of one exchange step. */
static void gr__xfer_init(gr__xlocal *x, gr_part *p, gr_sync *sync, gr__xfer *t) {
  memset(t, 0, sizeof *t);
  t->me = x->me;
  t->n = x->n;
  t->dev = p->dev;
  t->recv = &x->recv;
  t->sync = sync;
  t->mem = &p->mem;
  t->pkg = x->tab;
  /* Read past the barrier that published the packages (a refresh's). */
  for (int j = 0; j < x->n && x->land_array; j++)
    if (gr__lands(x->c, x->tab, j, x->me))
      t->land[j] = x->land_array + ((uint64_t)x->copies_first + x->recv_begin[j]) * x->land_eb;
}

/* gr__xfer_init, past the barrier that published the packages. A
 * collective transport starts without another barrier unless a device must
 * allocate first: an allocation is the one step here that can fail, and a
 * device that fails before posting its part must not leave peers inside a
 * call that waits for it. Every device reads the same table, so all take
 * the same path. *waited: seconds at that barrier. GR_ERR_ABORTED when a
 * device failed (all leave there). */
static gr_status gr__xfer_start(gr__xlocal *x, gr_part *p, gr_sync *sync, gr__xfer *t, double *waited) {
  gr__xfer_init(x, p, sync, t);
  *waited = 0;
  if (x->c->transport != GR_TRANSPORT_NCCL || !gr__comm_any_recv_grows(x->c, x->tab)) return GR_SUCCESS;
  const gr_status st = gr__transport_reserve_packed(x->c, t);
  if (st < 0) gr_sync_fail(sync, st);
  const double tw = gr_time_now();
  if (gr_sync_wait(sync)) return GR_ERR_ABORTED;
  *waited = gr_time_now() - tw;
  return GR_SUCCESS;
}

/* The transport's moves of one exchange (the exchange's own, a refresh's,
 * an or of bitmaps). Every move passes here, so GR_FAULT_TRANSPORT proves
 * the same end for host copies, peer copies and NCCL whichever step it
 * hits: this device never posts its part (NCCL peers waiting for it must
 * give up), records the failure and leaves with the others at the next
 * barrier. */
static gr_status gr__move(gr__xlocal *x, gr__xfer *t) {
  gr_comm *c = x->c;
  x->transfers++;
  if (x->fault_countdown > 0 && --x->fault_countdown == 0) {
    gr__fault_delay(x->fault_delay_ms);
    return gr_errorf(c->transport == GR_TRANSPORT_NCCL ? GR_ERR_NCCL
                     : c->transport == GR_TRANSPORT_P2P ? GR_ERR_CUDA
                                                        : GR_ERR_INTERNAL,
                     "device %d: exchange %llu: the %s transport failed to move the packages [injected by "
                     "GR_FAULT_TRANSPORT=%d:%lld]",
                     x->me, (unsigned long long)x->transfers, gr_transport_name(c->transport), x->me,
                     (long long)x->fault_at);
  }
  return c->tops->move(c, t);
}

/* Whether a move enqueues anything on this device's stream: a collective
 * transport's always; otherwise only a peer's package that is copied rather
 * than read where it lies. The marks around a move (two events recorded,
 * two queries and a read) are paid only then: a push level between devices
 * reads its peers' ids in place, and a device of 2 paid 16 records, 16
 * queries and 8 reads a DOBFS run on Kronecker 25 for spans that held one
 * copy (one H100, docs/performance.md). */
static bool gr__moves(const gr__xlocal *x, const gr__xfer *t) {
  const gr_comm *c = x->c;
  if (c->tops->wait) return true;
  for (int j = 0; j < x->n; j++)
    if (j != x->me && t->pkg[j][x->me].copy && !t->in_place[j]) return true;
  return false;
}

/* The marks around a move, where it enqueues anything (gr__moves): mark 0
 * before it, mark 1 after; none otherwise, and the span reads 0. */
static gr_status gr__marked_move(gr__xlocal *x, gr__xfer *t) {
  const bool moves = gr__moves(x, t);
  if (moves) GR_CHECK(gr_device_mark(x->marks, 0));
  else gr_device_marks_clear(x->marks);
  GR_CHECK(gr__move(x, t));
  return moves ? gr_device_mark(x->marks, 1) : GR_SUCCESS;
}

static gr_status gr__close(gr__xlocal *x, gr_part *p, gr_sync *sync);

/* Steps 2 and 3: the moves and the combines, enqueued one after another on
 * the compute stream, then one read of the counters. */
static gr_status gr__enqueue(gr__xlocal *x, gr_part *p, gr_exchange_step *s, gr__xfer *t, bool *any);

/* The operator of this step: the iteration's own, or the spec's. */
static gr_combine_op gr__step_op(const gr__xlocal *x, const gr_exchange_step *s) {
  return s->combine_set ? s->combine : x->prim->combine;
}

static gr_status gr__receive(gr__xlocal *x, gr_part *p, gr_exchange_step *s, gr__xfer *t) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  bool any = false;
  /* Which packages arrived, and which of them the combines read where
   * they lie (the move leaves those). */
  bool copied = false;
  for (int j = 0; j < n; j++) {
    const gr__pkg *m = &c->pkg[j][me];
    copied = copied || (j != me && m->copy);
    const bool once = m->format == GR_XK_OR || m->format == GR_XK_OR_IDS;
    t->in_place[j] =
        j != me && m->copy && c->tops->reads_in_place && c->tops->reads_in_place(c, me, j, m->copy, once);
  }
  gr_status st = gr__enqueue(x, p, s, t, &any);
  if (st < 0) {
    /* Copies may be queued that read peers' buffers (freed once every
     * device leaves the run), or a collective that waits for peers: the
     * failure is recorded first, so that a transport waiting on peers
     * gives up, then the stream is drained before this device leaves. */
    gr_sync_fail(t->sync, st);
    if (c->tops->wait) c->tops->wait(c, t);
    else gr_device_sync(dev);
    return st;
  }
  if (c->tops->wait) GR_CHECK(c->tops->wait(c, t));
  /* Nothing arrived (no copy into this device, no combine): the counters
   * are the package's, read already, and no copy or kernel of this
   * device's reads a peer's buffer, so there is nothing to wait for before
   * the barrier (a collective transport's wait above covers what it sent).
   * A package read in place is read until this read returns: its sender
   * writes it again only past the iteration's last barrier. */
  if (x->counters_on_host) {
    /* No combine ran: the counters are the package's, in hc already; a
     * copy or an in-place read still ends before the barrier, unless what
     * arrived was bitmaps to or alone that their senders keep
     * (gr_iter.or_kept): a sender writes its bitmap again only past a
     * later barrier before which this device drains its stream (DOBFS's
     * pulls: one wait a pull level less, for the or-round's launch and
     * pass). A sender's ids (GR_XK_OR_IDS) are its next frontier, which
     * the next iteration's package or combine may write: read to the end
     * before the barrier. */
    x->counters_on_host = false;
    bool kept = s->or_kept && s->or_bits && !any;
    for (int j = 0; j < n && kept; j++) {
      const gr__pkg *m = &c->pkg[j][me];
      kept = j == me || !m->copy || m->format == GR_XK_OR;
    }
    if (copied && !c->tops->wait && !kept) GR_CHECK(gr_device_sync(dev));
  } else if (any || copied || c->tops->wait) {
    int words = gr_xk_counters(n);
    gr_eid bound = 0;
    if (any && !s->skip && x->prim->arriving) {
      /* The primitive's first pass over the next frontier goes on the
       * stream behind the combines, reading its size there, and its
       * counts come back with this read (gr_primitive.arriving). The
       * combines add to the package's own outputs at most what arrived
       * (checked once read). */
      bound = (gr_eid)x->hc[GR_XK_NEXT];
      for (int j = 0; j < n; j++)
        if (j != me) bound += c->pkg[j][me].items;
      if (bound > gr_frontier_capacity(s->next)) bound = gr_frontier_capacity(s->next);
      unsigned long long *ctr = x->counters.ptr;
      gr_arriving ar = {gr_frontier_items(s->next), (const gr_eid *)&ctr[GR_XK_NEXT], bound,
                        (gr_eid *)&ctr[gr_xk_counters(n)], false};
      st = x->prim->arriving(x->slice, p, &ar);
      if (st < 0) {
        gr_sync_fail(t->sync, st);
        gr_device_sync(dev);
        return st;
      }
      if (ar.ran) words = (int)GR__CTR_WORDS(n);
      s->arriving_ran = ar.ran;
    }
    GR_CHECK(gr__read_counters(x, dev, words));
    if (s->arriving_ran) {
      if (x->hc[GR_XK_NEXT] > bound)
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d's combines counted %llu vertices for %s of %llu, "
                         "which its primitive's arriving read them to", me, (unsigned long long)x->hc[GR_XK_NEXT],
                         bound == gr_frontier_capacity(s->next) ? "a next frontier" : "a bound",
                         (unsigned long long)bound);
      for (int k = 0; k < GR_ARRIVING_COUNTS; k++) s->arriving_counts[k] = (gr_eid)x->hc[gr_xk_counters(n) + k];
    }
  }
  t->moved_ms = gr_device_marks_ms(x->marks, 0, 1);
  s->stats->transfer_ms += t->moved_ms;
  if (any) {
    for (int j = 0; j < n; j++) {
      const gr__pkg *m = &c->pkg[j][me];
      if (j != me && m->items && m->format == GR_XK_BITMAP && x->hc[GR_XK_PEER + 2 * n + j] != m->items)
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d's bitmap package held %llu vertices, %llu announced",
                         j, x->hc[GR_XK_PEER + 2 * n + j], (unsigned long long)m->items);
    }
  }
  if (x->hc[GR_XK_NEXT] > gr_frontier_capacity(s->next))
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: %llu vertices for a frontier of %llu", x->hc[GR_XK_NEXT],
                     (unsigned long long)gr_frontier_capacity(s->next));
  for (int j = 0; j < n; j++)
    if (j != me) s->stats->bytes_received += c->pkg[j][me].copy;
  s->next->size = (gr_eid)x->hc[GR_XK_NEXT];
  s->next_edges = (gr_eid)x->hc[GR_XK_NEXT_EDGES];
  s->next_max_degree = (gr_eid)x->hc[GR_XK_NEXT_MAXDEG];
  return GR_SUCCESS;
}

/* Where peer j's package is read: where it lies, or where the move put it. */
static const unsigned char *gr__arrived(const gr__xfer *t, const gr__pkg *m, int j) {
  return t->in_place[j] ? m->ptr : (const unsigned char *)t->recv->ptr + t->recv_offset[j];
}

/* An or-round's union (gr_iter.or_bits): this device's bits or'ed with
 * every peer's bitmap in one pass (GR_XK_OR_MAX bitmaps a pass), written
 * into or_union (where lent) and or'ed into or_also, then the ids that
 * peers sent in place of their bitmaps set in both. Written whole
 * whatever arrived: a peer that found nothing sent nothing. */
/* Adds one list to a mark's lists, marking those gathered so far first
 * where they are as many as one pass takes. */
static gr_status gr__mark_add(gr__xlocal *x, gr_device *dev, gr_xk_mark_args *mk, const gr_vid *ids, uint64_t n) {
  if (mk->lists == GR_XK_MARK_MAX) {
    GR_CHECK(x->k->mark(dev, mk));
    mk->lists = 0;
  }
  mk->ids[mk->lists] = ids;
  mk->n[mk->lists++] = n;
  return GR_SUCCESS;
}

/* The union from owner words (gr_exchange_step.or_packed): each word read
 * from its owner's words, this device's from or_bits, a peer's where its
 * package arrived (none where it sent ids, set afterwards, or nothing). */
static gr_status gr__or_owned(gr__xlocal *x, gr_part *p, gr_exchange_step *s, const gr__xfer *t) {
  gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  const bool tail = p->sub->n_local % 32 != 0;
  if (!x->word_groups.ptr || s->or_words != x->whole_words + (tail ? 1 : 0))
    return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d ors owner words into a union of %llu words (%s)", me,
                     (unsigned long long)s->or_words, x->word_groups.ptr ? "not its ids'" : "with no groups");
  gr_xk_or_owned_args o;
  memset(&o, 0, sizeof o);
  o.dst = s->or_union;
  o.also = s->or_also;
  o.word_owner = x->word_owner.ptr;
  o.groups = x->word_groups.ptr;
  o.words = x->whole_words;
  o.tail = tail;
  o.parts = n;
  for (int j = 0; j < n; j++) {
    o.part_words[j] = x->part_words[j];
    if (j == me) {
      o.from[j] = s->or_bits;
      continue;
    }
    const gr__pkg *m = &c->pkg[j][me];
    if (!m->items || m->format != GR_XK_OR) continue;
    if (m->items != gr__owner_count(x, p, j))
      return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent %llu owner words; it has %llu", j,
                       (unsigned long long)m->items, (unsigned long long)gr__owner_count(x, p, j));
    o.from[j] = (const uint32_t *)gr__arrived(t, m, j);
  }
  return x->k->or_owned(p->dev, &o);
}

/* The union of whole bitmaps: this device's or'ed with every peer's that
 * arrived (GR_XK_OR_MAX a pass). */
static gr_status gr__or_whole(gr__xlocal *x, gr_part *p, gr_exchange_step *s, const gr__xfer *t) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  gr_xk_or_args o;
  memset(&o, 0, sizeof o);
  o.dst = s->or_union;
  o.base = s->or_bits;
  o.words = s->or_words;
  o.also = s->or_also;
  for (int j = 0; j < n; j++) {
    const gr__pkg *m = &c->pkg[j][me];
    if (j == me || !m->items || m->format != GR_XK_OR) continue;
    if (m->items != s->or_words)
      return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent %llu words to or into a bitmap of %llu words here",
                       j, (unsigned long long)m->items, (unsigned long long)s->or_words);
    if (o.n_src == GR_XK_OR_MAX) {
      /* The next pass goes on from the union so far: or_union, or where
       * there is none or_also, which holds it too. */
      GR_CHECK(x->k->or_union(dev, &o));
      o.base = o.dst ? o.dst : o.also;
      o.n_src = 0;
    }
    o.src[o.n_src++] = (const uint32_t *)gr__arrived(t, m, j);
  }
  return x->k->or_union(dev, &o);
}

static gr_status gr__or_round(gr__xlocal *x, gr_part *p, gr_exchange_step *s, const gr__xfer *t) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  if ((!s->or_union && !s->or_also) || !s->or_words)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d ors bitmaps with nowhere to put the union", me);
  for (int j = 0; j < n; j++) {
    const gr__pkg *m = &c->pkg[j][me];
    if (j != me && m->items && m->format == GR_XK_OR_IDS && m->items > (uint64_t)s->or_words * 32)
      return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent %llu ids to set in a bitmap of %llu words here", j,
                       (unsigned long long)m->items, (unsigned long long)s->or_words);
  }
  GR_CHECK(s->or_packed ? gr__or_owned(x, p, s, t) : gr__or_whole(x, p, s, t));
  /* The ids peers sent, into the union and or_also at once. */
  gr_xk_mark_args mk;
  memset(&mk, 0, sizeof mk);
  mk.bits[0] = s->or_union ? s->or_union : s->or_also;
  mk.bits[1] = s->or_union ? s->or_also : NULL;
  for (int j = 0; j < n; j++) {
    const gr__pkg *m = &c->pkg[j][me];
    if (j == me || !m->items || m->format != GR_XK_OR_IDS) continue;
    GR_CHECK(gr__mark_add(x, dev, &mk, (const gr_vid *)gr__arrived(t, m, j), m->items));
  }
  if (mk.lists) GR_CHECK(x->k->mark(dev, &mk));
  return GR_SUCCESS;
}

/* The counters the package left on the host (gr__xlocal.counters_on_host)
 * go to the device before the first combine, with the words an
 * `arriving` counts into zeroed, and the culling bitmap cleared where the
 * step culls. */
static gr_status gr__counters_down(gr__xlocal *x, gr_device *dev, bool cull) {
  if (!x->counters_on_host) return GR_SUCCESS;
  const int n = x->n;
  for (size_t k = (size_t)gr_xk_counters(n); k < GR__CTR_WORDS(n); k++) x->hc[k] = 0;
  GR_CHECK(gr_device_copy(dev, x->counters.ptr, x->hc, GR__CTR_WORDS(n) * sizeof(unsigned long long), GR_COPY_H2D));
  if (cull) GR_CHECK(gr_device_memset(dev, x->cull, 0, x->cull_bytes));
  x->counters_on_host = false;
  return GR_SUCCESS;
}

/* The messages after peer `from`'s that one pass combines beside a
 * message like `m` (its format, mixed or not, value of bare ids, universe
 * of a bitmap), up to GR_XK_MORE_MAX: into a's more lists, marked taken
 * so that no later pass starts from them (and counted received at pass
 * 1). A pass 2 takes again what its first message's pass 1 took. */
static void gr__take_more(gr__xlocal *x, const gr__xfer *t, const gr__pkg *m, int from, int pass,
                          gr_exchange_step *s, gr_xk_combine_args *a, bool *taken) {
  const gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  a->n_more = 0;
  for (int k = from + 1; k < n && a->n_more < GR_XK_MORE_MAX; k++) {
    const gr__pkg *o = &c->pkg[k][me];
    if (k == me || !o->items || o->format != m->format || o->mixed != m->mixed) continue;
    if (m->format == GR_XK_IDS && o->value != m->value) continue;
    if (m->format == GR_XK_BITMAP && o->universe != m->universe) continue;
    a->more_msg[a->n_more] = gr__arrived(t, o, k);
    a->more_found[a->n_more] = GR_XK_PEER + 2 * n + k;
    a->more_count[a->n_more] = o->items;
    a->n_more++;
    taken[k] = true;
    if (pass == 1) s->stats->items_received += o->items;
  }
}

/* This device's output sent as bare ids (gr__package_ids): its owned
 * vertices go to the next frontier in one launch with every peer's ids of
 * the step that fit beside them (GR_XK_MORE_MAX; the others go in the
 * passes after it). */
static gr_status gr__combine_own_ids(gr__xlocal *x, gr_part *p, gr_exchange_step *s, const gr__xfer *t,
                                     gr_xk_combine_args *a, bool *taken, bool cull, bool *any) {
  GR_CHECK(gr__counters_down(x, p->dev, cull));
  a->pass = 1;
  a->format = GR_XK_IDS;
  a->own_first = true;
  a->msg = (const unsigned char *)x->own_ids;
  a->count = x->own_n;
  a->value = x->step_value;
  a->universe = 0;
  a->owner = x->owner.ptr;
  a->word_owner = x->word_owner.ptr;
  a->claims = NULL;
  /* The peers' bare ids of this step's value (a peer's of another value,
   * which no step sends, would go in a pass of its own below). */
  const gr__pkg own = gr__ids_pkg(x->own_ids, x->own_n, x->step_value);
  gr__take_more(x, t, &own, -1, 1, s, a, taken);
  if (a->count || a->n_more) {
    GR_CHECK(x->k->combine(p->dev, a));
    *any = true;
  }
  a->own_first = false;
  x->own_ids = NULL;
  x->own_n = 0;
  return GR_SUCCESS;
}

/* The moves, then the combines (pass 1 over every message, pass 2 for the
 * followers), all enqueued on the compute stream. */
static gr_status gr__enqueue(gr__xlocal *x, gr_part *p, gr_exchange_step *s, gr__xfer *t, bool *any) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  GR_CHECK(gr__marked_move(x, t));
  gr_xk_combine_args a;
  memset(&a, 0, sizeof a);
  a.g2l = x->g2l_d;
  const bool bcast = c->mode == GR_COMM_BROADCAST;
  a.me = me;
  a.pay = gr__step_payload(x, s);
  a.layout = x->layout;
  a.type = x->prim->value_type;
  a.op = gr__step_op(x, s);
  a.guard = s->guard;
  a.stamp = s->stamp;
  const bool cull = gr__culls(s);
  a.cull = cull ? x->cull : NULL;
  a.settled = s->settled;
  a.settle_copies_bare = s->settle_copies_bare;
  a.min_ties = s->min_ties;
  a.next = gr_frontier_items(s->next);
  a.next_capacity = gr_frontier_capacity(s->next);
  a.deg = x->prim->skips_in_edges ? NULL : p->out.offsets;
  a.counters = x->counters.ptr;
  const bool followers = (a.op == GR_COMBINE_MIN || a.op == GR_COMBINE_MAX) &&
                         (x->layout.n_values > 1 || x->layout.n_vertices > 0);
  if (s->or_bits) GR_CHECK(gr__or_round(x, p, s, t));
  /* Bitmaps that a pass took together with an earlier one (a.n_more). */
  bool taken[GR_COMM_MAX_DEVICES] = {false};
  if (x->own_ids) GR_CHECK(gr__combine_own_ids(x, p, s, t, &a, taken, cull, any));
  for (int pass = 1; pass <= (followers ? 2 : 1); pass++) {
    a.pass = pass;
    for (int j = 0; j < n; j++) {
      const gr__pkg *m = &c->pkg[j][me];
      if (j == me || !m->items || taken[j]) continue;
      /* Into the union, with no combine (gr__or_round, above): a step
       * that ors nothing here has no union to put them in. */
      if (m->format == GR_XK_OR || m->format == GR_XK_OR_IDS) {
        if (!s->or_bits)
          return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent bits to or into a union; device %d ors none", j,
                           me);
        continue;
      }
      if (s->guard && m->format != GR_XK_LIST && m->format != GR_XK_DENSE)
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent a bitmap to a guarded combine", j);
      GR_CHECK(gr__counters_down(x, dev, cull));
      a.msg = gr__arrived(t, m, j);
      /* Positions in the border list to j: its entries are the ids here. */
      if (x->positions && !bcast) {
        if (!x->borders_ready)
          return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d received positions before its border lists", me);
        if (m->format != GR_XK_LIST && m->format != GR_XK_DENSE)
          return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent positions as a bitmap", j);
        if (m->format == GR_XK_DENSE && m->universe != x->send_begin[j + 1] - x->send_begin[j])
          return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent %llu positions for a border list of %llu", j,
                           (unsigned long long)m->universe,
                           (unsigned long long)(x->send_begin[j + 1] - x->send_begin[j]));
        a.g2l = x->bsend_d + x->send_begin[j];
      } else if (m->format == GR_XK_DENSE) {
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent a dense message to a device without positions", j);
      }
      a.format = m->format;
      a.count = m->items;
      a.universe = m->universe;
      a.found = GR_XK_PEER + 2 * n + j;
      /* A selective message holds vertices owned here, except a routed
       * bitmap under duplicate-all proxies (every claim of its sender):
       * the table keeps the others out of the next frontier while their
       * values are combined. */
      a.owner = bcast || m->mixed ? x->owner.ptr : NULL;
      a.word_owner = a.owner ? x->word_owner.ptr : NULL;
      if (pass == 1) s->stats->items_received += m->items;
      /* A peer's claims, all of them (its routed bitmap of global ids, or
       * its output told to all), go into this device's union of the step's
       * claims as the combine reads them. */
      const bool claims = pass == 1 && m->mixed && x->claims_live;
      const uint64_t words = m->format == GR_XK_BITMAP ? ((uint64_t)m->universe + 31u) / 32u : 0;
      if (claims && words > gr_bitmap_words(p->sub->n_local))
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d sent a bitmap of %llu words for a union of %llu here",
                         j, (unsigned long long)words, (unsigned long long)gr_bitmap_words(p->sub->n_local));
      a.claims = claims ? s->claim_bits : NULL;
      /* The other peers' bitmaps of the same kind go in the same pass: one
       * read and write of the settled and claimed words, not one per peer
       * (DOBFS's and BFS's routed levels send every device's claims to
       * every peer: 3 passes a device on 4 devices, 7 on 8). Their lists
       * go in one launch (gr_xk_combine_args.more_count): a selective step
       * sends a list from every peer, and each launch of its own paid its
       * start and tail (3 a level on 4 devices). Lists of positions go one
       * by one (each names entries of its own sender's border list); 1-hop
       * proxies' global ids share one map. */
      a.value = m->value;
      const bool bits = m->format == GR_XK_BITMAP && !a.g2l;
      const bool lists = (m->format == GR_XK_LIST || m->format == GR_XK_IDS) && a.op != GR_COMBINE_REPLACE &&
                         a.g2l == x->g2l_d;
      a.n_more = 0;
      if (bits || lists) gr__take_more(x, t, m, j, pass, s, &a, taken);
      GR_CHECK(x->k->combine(dev, &a));
      *any = true;
    }
  }
  return GR_SUCCESS;
}

static gr_status gr__exchange(void *local, gr_part *p, gr_exchange_step *s) {
  gr__xlocal *x = local;
  const int n = x->n;
  const double t0 = gr_time_now();
  const gr_combine_op op = gr__step_op(x, s);
  /* A refresh left open: drained here, this device's copies out of its
   * peers' send buffers are done, and past this step's barrier, which
   * every device passes so drained, every peer's are (the refresh's table
   * is not this step's). */
  const bool closes = x->open == GR__OPEN_REFRESH;
  gr_status st = closes ? gr_device_sync(p->dev) : GR_SUCCESS;
  if (st >= 0 && !s->skip) st = gr__combine_suits(x, op);
  if (st >= 0 && !s->skip) st = gr__step_suits(x, s, op);
  /* Before the package, which may move a routed level's claims into the
   * next frontier: what it sends decides. */
  if (x->c->mode == GR_COMM_BROADCAST) s->told_all = true;
  else if (s->routed) s->told_all = x->route_one;
  else s->told_all = s->tell_all || s->out->size == 0;
  x->claims_live = false;
  const bool size_later = s->out_counts != NULL;
  if (st >= 0 && !s->skip) st = gr__package(x, p, s);
  /* An output whose size the package read on the device: what it sent
   * decides now. */
  if (st >= 0 && !s->skip && size_later && x->c->mode != GR_COMM_BROADCAST)
    s->told_all = s->tell_all || s->out->size == 0;
  if (st < 0) gr_sync_fail(s->sync, st);
  s->stats->package_ms += (gr_time_now() - t0) * 1e3;
  /* The one barrier inside the exchange: every package is published (or
   * some device failed, in its iterate or its package, and all leave). */
  if (gr_sync_wait(s->sync)) return GR_ERR_ABORTED;
  if (closes) x->open = GR__OPEN_NONE;

  const double t1 = gr_time_now();
  double waited = 0;
  gr__xfer t;
  if (gr__xfer_start(x, p, s->sync, &t, &waited) < 0) return GR_ERR_ABORTED;
  st = gr__receive(x, p, s, &t);
  for (int j = 0; j < n; j++) s->stats->bytes_to[j] += t.moved_to[j];
  /* The moves ran on the device between two marks; the rest of this
   * phase's wall time (enqueueing, combining, the read) is the combine's. */
  const double moved = st < 0 ? 0.0 : t.moved_ms;
  s->stats->combine_ms += (gr_time_now() - t1 - waited) * 1e3 - moved;
  return st;
}

/* ---- owner -> copy ---------------------------------------------------------- */

/* This device's copies of other devices' vertices, grouped by owner in
 * ascending global id: their local ids (uploaded into brecv) and their ids
 * on their owners (x->border_ids, published for the owners). Under 1-hop
 * proxies they are the proxies, already so grouped; under duplicate-all
 * proxies the vertices of other devices that the owned rows reach (CSR,
 * and the CSC where it is its own). */
static gr_status gr__borders_mine(gr__xlocal *x, gr_part *p) {
  const gr_subgraph *sub = p->sub;
  const int n = x->n;
  const uint64_t nl = sub->n_local;
  gr_status st = GR_SUCCESS;
  uint8_t *mark = NULL;
  gr_vid *local = NULL;
  uint64_t *begin = x->c->border_begin[x->me];
  uint64_t total = 0;
  if (sub->peer_begin) {
    const uint64_t lo = sub->peer_begin[0];
    total = (uint64_t)sub->peer_begin[n] - lo;
    for (int i = 0; i <= n; i++) begin[i] = (uint64_t)sub->peer_begin[i] - lo;
    GR_CHECK_GOTO(gr_host_alloc((void **)&local, (total ? total : 1) * sizeof *local, "border lists"), st, done);
    GR_CHECK_GOTO(gr_host_alloc((void **)&x->border_ids, (total ? total : 1) * sizeof *x->border_ids, "border lists"),
                  st, done);
    x->copies_lined = true;
    x->copies_first = (gr_vid)lo;
    for (uint64_t k = 0; k < total; k++) {
      local[k] = (gr_vid)(lo + k);
      x->border_ids[k] = sub->owner_local[lo + k];
    }
  } else {
    if (gr_subgraph_lists_deferred(sub))
      return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d's border lists need its part's lists, left in the graph",
                       x->me);
    GR_CHECK_GOTO(gr_host_calloc((void **)&mark, nl ? nl : 1, 1, "border marks"), st, done);
    const gr_csr *in = sub->in.offsets && sub->in.indices != sub->out.indices ? &sub->in : NULL;
#pragma omp parallel for schedule(dynamic, 1024)
    for (uint64_t u = 0; u < nl; u++) {
      if (sub->owner[u] != x->me) continue;
      for (int dir = 0; dir < 2; dir++) {
        const gr_csr *c = dir ? in : &sub->out;
        if (!c) continue;
        for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
          const gr_vid w = c->indices[e];
          /* Byte stores of the same value: no thread needs another's. */
          if (sub->owner[w] != x->me) __atomic_store_n(&mark[w], 1, __ATOMIC_RELAXED);
        }
      }
    }
    uint64_t count[GR_COMM_MAX_DEVICES] = {0};
    for (uint64_t v = 0; v < nl; v++) count[sub->owner[v]] += mark[v];
    for (int i = 0; i < n; i++) {
      begin[i] = total;
      total += count[i];
    }
    begin[n] = total;
    GR_CHECK_GOTO(gr_host_alloc((void **)&local, (total ? total : 1) * sizeof *local, "border lists"), st, done);
    uint64_t at[GR_COMM_MAX_DEVICES];
    memcpy(at, begin, sizeof at);
    for (uint64_t v = 0; v < nl; v++)
      if (mark[v]) local[at[sub->owner[v]]++] = (gr_vid)v;
    x->border_ids = local; /* duplicate-all: local ids are the owners' ids */
    local = NULL;
  }
  memcpy(x->recv_begin, begin, (size_t)(n + 1) * sizeof *begin);
  x->c->lands[x->me] = x->copies_lined;
  /* Uploaded with the owned list (gr__borders_theirs). */
  x->border_local = local;
  local = NULL;
  x->c->border_ids[x->me] = x->border_ids;
done:
  free(mark);
  free(local);
  return st;
}

/* This device's lists to its peers: peer j's copies of its vertices, in
 * the ids j published (its own local ids), uploaded into bsend. */
static gr_status gr__borders_theirs(gr__xlocal *x, gr_part *p) {
  const gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  gr_vid *ids = NULL;
  uint64_t total = 0;
  for (int j = 0; j < n; j++) {
    x->send_begin[j] = total;
    if (j != me) total += c->border_begin[j][me + 1] - c->border_begin[j][me];
  }
  x->send_begin[n] = total;
  GR_CHECK(gr_host_alloc((void **)&ids, (total ? total : 1) * sizeof *ids, "border lists"));
  for (int j = 0; j < n; j++)
    if (j != me)
      memcpy(ids + x->send_begin[j], c->border_ids[j] + c->border_begin[j][me],
             (x->send_begin[j + 1] - x->send_begin[j]) * sizeof *ids);
  gr_status st = GR_SUCCESS;
  uint64_t k = total;
  if (n > 2) {
    /* Per peer, with the vertices that several peers copy on several
     * lists; the joint list below holds each once. */
    st = gr__upload(&x->bsend, p->dev, ids, total * sizeof *ids, "border lists (owned)");
    uint8_t *seen = NULL;
    if (st >= 0) st = gr_host_calloc((void **)&seen, p->sub->n_local ? p->sub->n_local : 1, 1, "border marks");
    k = 0;
    for (uint64_t i = 0; i < total && st >= 0; i++)
      if (!seen[ids[i]]) {
        seen[ids[i]] = 1;
        ids[k++] = ids[i];
      }
    free(seen);
  }
  /* The copies, then the owned vertices each once, in one buffer; copies
   * that are a range of ids (copies_lined) are not listed. */
  const uint64_t nc = x->copies_lined ? 0 : x->recv_begin[n];
  const gr_vid *copies = x->border_local ? x->border_local : x->border_ids;
  if (st >= 0)
    st = gr_buffer_resize(&x->brecv, p->dev, (size_t)(nc + k ? nc + k : 1) * sizeof(gr_vid), 0,
                          x->copies_lined ? "border lists (owned, each once)" : "border lists (copies, then owned)");
  if (st >= 0 && nc) st = gr_device_upload(p->dev, x->brecv.ptr, copies, (size_t)nc * sizeof(gr_vid));
  if (st >= 0 && k) st = gr_device_upload(p->dev, (gr_vid *)x->brecv.ptr + nc, ids, (size_t)k * sizeof(gr_vid));
  if (st >= 0) {
    x->bowned_d = (const gr_vid *)x->brecv.ptr + nc;
    x->n_bowned = k;
    x->bsend_d = n > 2 ? (const gr_vid *)x->bsend.ptr : x->bowned_d;
  }
  free(ids);
  return st;
}

/* Both lists, between barriers that every device passes (prepare is
 * called by all of them): publish, read the peers', then let go of the
 * host copies once no peer reads them. */
static gr_status gr__borders_make(gr__xlocal *x, gr_part *p, gr_sync *sync) {
  const double t0 = gr_time_now();
  gr_status st = gr__borders_mine(x, p);
  if (st < 0) gr_sync_fail(sync, st);
  if (gr_sync_wait(sync)) return GR_ERR_ABORTED;
  st = gr__borders_theirs(x, p);
  if (st >= 0) st = gr_device_sync(p->dev);
  if (st < 0) gr_sync_fail(sync, st);
  if (gr_sync_wait(sync)) return GR_ERR_ABORTED;
  x->c->border_ids[x->me] = NULL;
  free(x->border_ids);
  x->border_ids = NULL;
  free(x->border_local);
  x->border_local = NULL;
  x->borders_ready = true;
  gr_log(GR_LOG_INFO, GR_SUBSYS_COMM, "device %d: border lists made in %.3f s (%llu entries out, %llu in)", x->me,
         gr_time_now() - t0, (unsigned long long)x->send_begin[x->n], (unsigned long long)x->recv_begin[x->n]);
  return GR_SUCCESS;
}

/* What a device does with the message peer j sent it (in x->recv at msg)
 * in an exchange between the devices' own buffers (gr__direct). */
typedef gr_status (*gr__apply_fn)(gr__xlocal *x, gr_part *p, int j, const unsigned char *msg, const void *arg);

/* Closes what the last step left open (gr__xlocal.open): this device
 * drained, then a barrier that every device passes here (all hold the
 * same x->open). */
static gr_status gr__close(gr__xlocal *x, gr_part *p, gr_sync *sync) {
  x->open = GR__OPEN_NONE;
  const gr_status st = gr_device_sync(p->dev);
  if (st < 0) gr_sync_fail(sync, st);
  return gr_sync_wait(sync) ? GR_ERR_ABORTED : st;
}

/* The moves of an exchange whose packages are the devices' own buffers,
 * published in the table x->tab before the call (st < 0: this device
 * failed on the way), then `apply` (when given) for every message that
 * arrived, with the same barriers and failure handling as the exchange:
 * one after the packages are ready, one once every device has drained its
 * stream (no device writes a buffer a peer may still read, or publishes
 * again). `arrived` (when given) receives, per peer, where its message
 * lies in x->recv (UINT64_MAX: none), read before the table may change.
 * `open` (not GR__OPEN_NONE; peer copies and host copies, never NCCL,
 * whose calls pair with peers' and give up on a failed one): the second
 * barrier and the drain before it are left to the next step that reuses
 * what this one sent (gr__xlocal.open), and the moves go unmarked (their
 * time stays in the combine's: reading the marks would wait for them).
 * In CC's merge a refresh is followed by an all-gather and that by the
 * exchange: each publishes in a table of its own and sends from buffers
 * of its own, so neither closing barrier is passed at all. */
static gr_status gr__direct(gr__xlocal *x, gr_part *p, gr_sync *sync, gr_device_run_stats *stats, gr_status st,
                            double t0, gr__apply_fn apply, const void *arg, uint64_t *arrived, gr__open open) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  /* Peers copy out of the packages once past the barrier. */
  if (st >= 0) st = gr_device_sync(dev);
  c->recv_capacity[me] = x->recv.capacity;
  if (st < 0) gr_sync_fail(sync, st);
  stats->package_ms += (gr_time_now() - t0) * 1e3;
  if (gr_sync_wait(sync)) return GR_ERR_ABORTED;
  /* Every device drained before that barrier: nothing an earlier step
   * left open is read any more. */
  x->open = GR__OPEN_NONE;

  const double t1 = gr_time_now();
  double waited = 0;
  gr__xfer t;
  if (gr__xfer_start(x, p, sync, &t, &waited) < 0) return GR_ERR_ABORTED;
  const bool close = open == GR__OPEN_NONE;
  if (close) {
    st = gr__marked_move(x, &t);
  } else {
    gr_device_marks_clear(x->marks); /* the span reads 0 */
    st = gr__move(x, &t);
  }
  for (int j = 0; j < n; j++) {
    const bool sent = j != me && x->tab[j][me].items && st >= 0;
    if (arrived) arrived[j] = sent && !t.land[j] ? t.recv_offset[j] : UINT64_MAX;
    /* A package that landed in place is applied with no message (NULL). */
    if (sent && apply)
      st = apply(x, p, j, t.land[j] ? NULL : (const unsigned char *)x->recv.ptr + t.recv_offset[j], arg);
  }
  if (st < 0) gr_sync_fail(sync, st);
  /* Drained before leaving (a failed device too: its stream may hold copies
   * out of peers' buffers; every device leaves at the next barrier); NCCL
   * gives up when a peer failed. Left open, a device that did not fail
   * leaves its copies running. */
  if (close || st < 0) {
    const gr_status sw = c->tops->wait ? c->tops->wait(c, &t) : gr_device_sync(dev);
    if (st >= 0 && sw < 0) {
      st = sw;
      gr_sync_fail(sync, st);
    }
  }
  if (st >= 0) {
    for (int j = 0; j < n; j++) {
      stats->bytes_to[j] += t.moved_to[j];
      if (j != me) stats->bytes_received += x->tab[j][me].copy;
    }
    const double moved = gr_device_marks_ms(x->marks, 0, 1);
    stats->transfer_ms += moved;
    stats->combine_ms += (gr_time_now() - t1 - waited) * 1e3 - moved;
  }
  if (!close) {
    if (st >= 0) x->open = open;
    return st;
  }
  if (gr_sync_wait(sync)) return GR_ERR_ABORTED;
  return st;
}

static void gr__withdraw(gr__xlocal *x) {
  for (int j = 0; j < x->n; j++) {
    const gr__pkg z = {NULL, 0, 0, 0, GR_XK_LIST, 0, false, false, 0};
    x->tab[x->me][j] = z;
  }
}

/* Refresh: peer j's message holds its list's entries of every array, array
 * after array, written into the copies here. */
static gr_status gr__refresh_apply(gr__xlocal *x, gr_part *p, int j, const unsigned char *msg, const void *arg) {
  const gr_refresh_args *a = arg;
  const uint64_t k = x->recv_begin[j + 1] - x->recv_begin[j], eb = (uint64_t)a->elem_bytes;
  if (x->tab[j][x->me].items != k)
    return gr_errorf(GR_ERR_INTERNAL, "refresh: device %d sent %llu entries for the %llu copies device %d holds", j,
                     (unsigned long long)x->tab[j][x->me].items, (unsigned long long)k, x->me);
  if (!msg) return GR_SUCCESS; /* landed in the copies' slots */
  for (int q = 0; q < a->n_arrays; q++) {
    const unsigned char *vals = msg + (uint64_t)q * k * eb;
    if (x->copies_lined)
      GR_CHECK(gr_device_copy(p->dev, (unsigned char *)a->arrays[q] + ((uint64_t)x->copies_first + x->recv_begin[j]) * eb,
                              vals, k * eb, GR_COPY_D2D));
    else
      GR_CHECK(x->k->scatter(p->dev, a->arrays[q], vals, (const gr_vid *)x->brecv.ptr + x->recv_begin[j], k,
                             a->elem_bytes));
  }
  return GR_SUCCESS;
}

/* A sparse refresh's message from peer j: k (position, values) records as
 * a list of positions in the border list between j and this device, padded
 * to 8 bytes, then each array's values. */
static uint64_t gr__some_bytes(uint64_t k, uint64_t na, uint64_t eb) {
  return gr_xk_align8(k * sizeof(gr_vid)) + k * na * eb;
}

/* Sparse refresh: the copies at peer j's positions are looked up (their
 * local ids go to rwritten, where the caller reads them), then written. */
static gr_status gr__refresh_some_apply(gr__xlocal *x, gr_part *p, int j, const unsigned char *msg, const void *arg) {
  const gr_refresh_args *a = arg;
  const gr__pkg *m = &x->tab[j][x->me];
  const uint64_t c = m->items, eb = (uint64_t)a->elem_bytes;
  const uint64_t k = x->recv_begin[j + 1] - x->recv_begin[j];
  /* NULL: the copies are the ids from `base` on (copies_lined). */
  const gr_vid *copies = x->copies_lined ? NULL : (const gr_vid *)x->brecv.ptr + x->recv_begin[j];
  const gr_vid base = (gr_vid)(x->copies_first + x->recv_begin[j]);
  if (c > k || (m->format != GR_XK_SPARSE && c != k))
    return gr_errorf(GR_ERR_INTERNAL, "refresh: device %d sent %llu entries for the %llu copies device %d holds", j,
                     (unsigned long long)c, (unsigned long long)k, x->me);
  if (x->rwritten_n == 0) {
    /* The first message of this refresh: room for every one (the table
     * holds still between the barriers). */
    uint64_t all = 0;
    for (int q = 0; q < x->n; q++)
      if (q != x->me) all += x->tab[q][x->me].items;
    GR_CHECK(gr_buffer_reserve(&x->rwritten, p->dev, (size_t)(all ? all : 1) * sizeof(gr_vid), 0, &p->mem, 0,
                               "refresh copies written"));
  }
  gr_vid *ids = (gr_vid *)x->rwritten.ptr + x->rwritten_n;
  const unsigned char *vals = msg;
  if (m->format == GR_XK_SPARSE) {
    if (copies)
      GR_CHECK(x->k->gather(p->dev, ids, copies, (const gr_vid *)msg, c, (int)sizeof(gr_vid)));
    else
      GR_CHECK(x->k->offset(p->dev, ids, (const gr_vid *)msg, c, base));
    vals = msg + gr_xk_align8(c * sizeof(gr_vid));
  } else {
    /* Every copy's values, in list order (most of them changed). */
    if (copies)
      GR_CHECK(gr_device_copy(p->dev, ids, copies, (size_t)c * sizeof(gr_vid), GR_COPY_D2D));
    else
      GR_CHECK(x->k->offset(p->dev, ids, NULL, c, base));
    if (!msg) {
      x->rwritten_n += c; /* the values landed in the copies' slots */
      return GR_SUCCESS;
    }
  }
  for (int q = 0; q < a->n_arrays; q++)
    GR_CHECK(x->k->scatter(p->dev, a->arrays[q], vals + (uint64_t)q * c * eb, ids, c, a->elem_bytes));
  x->rwritten_n += c;
  return GR_SUCCESS;
}

/* The owned vertices in a->changed that peers copy, each peer's as
 * gr__some_bytes records: their bits, per peer the positions of the
 * marked vertices in its border list (one read of the counts), then
 * their values. */
static gr_status gr__refresh_some_package(gr__xlocal *x, gr_part *p, const gr_refresh_args *a) {
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  const uint64_t eb = (uint64_t)a->elem_bytes, na = (uint64_t)a->n_arrays;
  gr_eid total = 0;
  for (int l = 0; l < a->n_lists; l++) total += a->n_changed[l];
  const size_t words = gr_bitmap_words(p->sub->n_local ? p->sub->n_local : 1);
  GR_CHECK(gr_buffer_reserve(&x->rmark, dev, words * sizeof(uint32_t), 0, &p->mem, 0, "refresh changed bits"));
  GR_CHECK(gr_device_memset(dev, x->rmark.ptr, 0, words * sizeof(uint32_t)));
  gr_xk_mark_args mk;
  memset(&mk, 0, sizeof mk);
  mk.bits[0] = x->rmark.ptr;
  for (int l = 0; l < a->n_lists; l++)
    if (a->n_changed[l]) GR_CHECK(gr__mark_add(x, dev, &mk, a->changed[l], a->n_changed[l]));
  if (mk.lists) GR_CHECK(x->k->mark(dev, &mk));
  /* Per peer at most its list's length and at most every changed vertex. */
  uint64_t cap[GR_COMM_MAX_DEVICES] = {0}, at[GR_COMM_MAX_DEVICES + 1] = {0}, ids_at[GR_COMM_MAX_DEVICES + 1] = {0};
  for (int j = 0; j < n; j++) {
    const uint64_t k = x->send_begin[j + 1] - x->send_begin[j];
    cap[j] = j == me ? 0 : k < total ? k : total;
    at[j + 1] = at[j] + gr__some_bytes(cap[j], na, eb);
    ids_at[j + 1] = ids_at[j] + cap[j];
  }
  GR_CHECK(gr__reserve_send(x, &x->rsend, dev, (size_t)(at[n] ? at[n] : 8), &p->mem, "refresh send buffer"));
  GR_CHECK(gr_buffer_reserve(&x->rids, dev, (size_t)(ids_at[n] ? ids_at[n] : 1) * sizeof(gr_vid), 0, &p->mem, 0,
                             "refresh selected ids"));
  GR_CHECK(gr_device_memset(dev, x->counters.ptr, 0, (size_t)n * sizeof(unsigned long long)));
  unsigned long long *counters = x->counters.ptr;
  for (int j = 0; j < n; j++)
    if (cap[j])
      GR_CHECK(x->k->select(dev, x->rmark.ptr, x->bsend_d + x->send_begin[j],
                            x->send_begin[j + 1] - x->send_begin[j],
                            (gr_vid *)((unsigned char *)x->rsend.ptr + at[j]), (gr_vid *)x->rids.ptr + ids_at[j],
                            cap[j], counters + j));
  GR_CHECK(gr__read_counters(x, dev, n));
  for (int j = 0; j < n; j++) {
    const uint64_t c = x->hc[j];
    if (!cap[j] || !c) continue;
    if (c > cap[j])
      return gr_errorf(GR_ERR_INTERNAL, "refresh: device %d selected %llu entries for device %d, at most %llu", me,
                       (unsigned long long)c, j, (unsigned long long)cap[j]);
    unsigned char *msg = (unsigned char *)x->rsend.ptr + at[j];
    const uint64_t k = x->send_begin[j + 1] - x->send_begin[j];
    if (gr__some_bytes(c, na, eb) >= k * na * eb) {
      /* Records would take more bytes than every entry's values (most
       * changed): the values of the whole list, as gr_part_refresh sends
       * them (they fit: c records take more room). */
      for (uint64_t q = 0; q < na; q++)
        GR_CHECK(x->k->gather(dev, msg + q * k * eb, a->arrays[q], x->bsend_d + x->send_begin[j], k,
                              a->elem_bytes));
      const gr__pkg m = {msg, gr_xk_align8(k * na * eb), k * na * eb, k, GR_XK_LIST, 0, false, na == 1, 0};
      x->tab[me][j] = m;
      continue;
    }
    unsigned char *vals = msg + gr_xk_align8(c * sizeof(gr_vid));
    for (uint64_t q = 0; q < na; q++)
      GR_CHECK(x->k->gather(dev, vals + q * c * eb, a->arrays[q], (const gr_vid *)x->rids.ptr + ids_at[j], c,
                            a->elem_bytes));
    const uint64_t bytes = gr__some_bytes(c, na, eb);
    const gr__pkg m = {msg, gr_xk_align8(bytes), bytes, c, GR_XK_SPARSE, 0, false, false, 0};
    x->tab[me][j] = m;
  }
  return GR_SUCCESS;
}

static gr_status gr__refresh_step(gr__xlocal *x, gr_part *p, gr_sync *sync, const gr_refresh_args *a,
                                  gr_device_run_stats *stats, double t0) {
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  const uint64_t eb = (uint64_t)a->elem_bytes, na = (uint64_t)a->n_arrays;
  const gr__open open = x->c->transport == GR_TRANSPORT_NCCL ? GR__OPEN_NONE : GR__OPEN_REFRESH;
  gr__withdraw(x);
  gr_status st = x->borders_ready ? GR_SUCCESS
                                  : gr_errorf(GR_ERR_INTERNAL, "device %d: copies refreshed without border lists", me);
  /* Whole packages of one array land where this device's copies are
   * (gr__xfer_init), past the barrier that publishes them. */
  x->land_array = na == 1 ? a->arrays[0] : NULL;
  x->land_eb = eb;
  if (a->changed) {
    x->rwritten_n = 0;
    if (st >= 0) st = gr__refresh_some_package(x, p, a);
    st = gr__direct(x, p, sync, stats, st, t0, gr__refresh_some_apply, a, NULL, open);
    x->land_array = NULL;
    if (st >= 0 && a->written) {
      *a->written = x->rwritten.ptr;
      *a->n_written = x->rwritten_n;
    }
    return st;
  }
  if (st >= 0)
    st = gr__reserve_send(x, &x->rsend, dev, (size_t)(x->send_begin[n] * na * eb), &p->mem, "refresh send buffer");
  for (int j = 0; j < n && st >= 0; j++) {
    const uint64_t k = x->send_begin[j + 1] - x->send_begin[j];
    if (j == me || !k) continue;
    unsigned char *msg = (unsigned char *)x->rsend.ptr + x->send_begin[j] * na * eb;
    for (uint64_t q = 0; q < na && st >= 0; q++)
      st = x->k->gather(dev, msg + q * k * eb, a->arrays[q], x->bsend_d + x->send_begin[j], k,
                        a->elem_bytes);
    const gr__pkg m = {msg, gr_xk_align8(k * na * eb), k * na * eb, k, GR_XK_LIST, 0, false, na == 1, 0};
    x->tab[me][j] = m;
  }
  st = gr__direct(x, p, sync, stats, st, t0, gr__refresh_apply, a, NULL, open);
  x->land_array = NULL;
  return st;
}

/* The start of a refresh or an all-gather (`kind`, a GR__OPEN_ value):
 * the last step of its kind, if it left its send buffer and table open,
 * is closed first (a slower peer may still read them), and the step
 * publishes in `tab`, its kind's own (the exchange after it may publish
 * in the exchange's before a slower peer is done with this one's). */
static gr_status gr__begin(gr__xlocal *x, gr_part *p, gr_sync *sync, gr__open kind,
                           gr__pkg (*tab)[GR_COMM_MAX_DEVICES]) {
  if (x->open == kind) GR_CHECK(gr__close(x, p, sync));
  x->tab = tab;
  return GR_SUCCESS;
}

static gr_status gr__refresh(void *local, gr_part *p, gr_sync *sync, const gr_refresh_args *a,
                             gr_device_run_stats *stats) {
  gr__xlocal *x = local;
  const double t0 = gr_time_now();
  GR_CHECK(gr__begin(x, p, sync, GR__OPEN_REFRESH, x->c->rpkg));
  const gr_status st = gr__refresh_step(x, p, sync, a, stats, t0);
  x->tab = x->c->pkg;
  return st;
}

/* All-gather (gr_part_allgather): each device's bytes go whole to every
 * peer, which copies them into `all` at their device's place. */
typedef struct gr__gather_ctx {
  const gr_gather_args *a;
  bool placed; /* `all` reserved, at[] set and this device's own bytes copied */
} gr__gather_ctx;

/* Past the barrier that published the packages (the table holds still
 * until the next one), or with no peer's bytes to place. */
static gr_status gr__gather_place(gr__xlocal *x, gr_part *p, gr__gather_ctx *g, bool peers) {
  if (g->placed) return GR_SUCCESS;
  const gr_gather_args *a = g->a;
  a->at[0] = 0;
  for (int d = 0; d < x->n; d++)
    a->at[d + 1] = a->at[d] + (d == x->me ? a->bytes : peers ? x->tab[d][x->me].copy : 0);
  if (a->at[x->n])
    GR_CHECK(gr_buffer_reserve(a->all, p->dev, (size_t)a->at[x->n], 0, &p->mem, 0, a->what));
  if (a->bytes)
    GR_CHECK(gr_device_copy(p->dev, (unsigned char *)a->all->ptr + a->at[x->me], a->mine, (size_t)a->bytes,
                            GR_COPY_D2D));
  g->placed = true;
  return GR_SUCCESS;
}

static gr_status gr__gather_apply(gr__xlocal *x, gr_part *p, int j, const unsigned char *msg, const void *arg) {
  gr__gather_ctx *g = (gr__gather_ctx *)arg;
  if (!msg) return gr_errorf(GR_ERR_INTERNAL, "gather: device %d's bytes landed outside the receive buffer", j);
  GR_CHECK(gr__gather_place(x, p, g, true));
  return gr_device_copy(p->dev, (unsigned char *)g->a->all->ptr + g->a->at[j], msg,
                        (size_t)x->tab[j][x->me].copy, GR_COPY_D2D);
}

static gr_status gr__gather(void *local, gr_part *p, gr_sync *sync, const gr_gather_args *a,
                            gr_device_run_stats *stats) {
  gr__xlocal *x = local;
  const double t0 = gr_time_now();
  GR_CHECK(gr__begin(x, p, sync, GR__OPEN_GATHER, x->c->gpkg));
  const gr__open open = x->c->transport == GR_TRANSPORT_NCCL ? GR__OPEN_NONE : GR__OPEN_GATHER;
  gr__withdraw(x);
  x->land_array = NULL;
  gr_status st = GR_SUCCESS;
  const void *send = a->mine;
  if (a->bytes && open != GR__OPEN_NONE) {
    /* Left open, the bytes peers read must outlive the call: a copy in the
     * exchange's own buffer, which only the next all-gather writes (the
     * caller may reuse `mine` at once: CC's merge puts its table there). */
    st = gr__reserve_send(x, &x->gsend, p->dev, (size_t)a->bytes, &p->mem, "all-gather send buffer");
    if (st >= 0) st = gr_device_copy(p->dev, x->gsend.ptr, a->mine, (size_t)a->bytes, GR_COPY_D2D);
    send = x->gsend.ptr;
  }
  if (a->bytes && st >= 0)
    for (int j = 0; j < x->n; j++) {
      if (j == x->me) continue;
      const gr__pkg m = {send, gr_xk_align8(a->bytes), a->bytes, (a->bytes + 7) / 8, GR_XK_LIST, 0, false, false, 0};
      x->tab[x->me][j] = m;
    }
  gr__gather_ctx g = {a, false};
  st = gr__direct(x, p, sync, stats, st, t0, gr__gather_apply, &g, NULL, open);
  /* No peer sent anything: only this device's own bytes. */
  if (st >= 0) st = gr__gather_place(x, p, &g, false);
  x->tab = x->c->pkg;
  return st;
}

static gr_status gr__borders(void *local, gr_part *p, gr_borders *b) {
  (void)p;
  gr__xlocal *x = local;
  if (!x->borders_ready)
    return gr_errorf(GR_ERR_INTERNAL, "device %d: border lists asked for before they were made", x->me);
  b->copies = x->copies_lined ? NULL : x->brecv.ptr;
  b->copies_first = x->copies_lined ? x->copies_first : 0;
  b->n_copies = x->recv_begin[x->n];
  b->owned = x->bowned_d;
  b->n_owned = x->n_bowned;
  return GR_SUCCESS;
}

static gr_status gr__prepare(void *local, gr_part *p, gr_sync *sync) {
  gr__xlocal *x = local;
  /* The last run ended drained, past a barrier: nothing is left open. */
  x->open = GR__OPEN_NONE;
  if (x->borders && !x->borders_ready) GR_CHECK(gr__borders_make(x, p, sync));
  if (!x->c->tops->prepare) return GR_SUCCESS;
  /* The scratch below is sent as it is (its bytes do not matter), and NCCL
   * reads messages in 16-byte pieces: zeroed, none of them is read unset. */
  GR_CHECK(gr_device_memset(p->dev, x->counters.ptr, 0, GR__CTR_BYTES(x->n)));
  gr__xfer t;
  gr__xfer_init(x, p, sync, &t);
  /* The counters are free between exchanges and hold 8 bytes per device. */
  return x->c->tops->prepare(x->c, &t, x->counters.ptr);
}

/* gr_part_peers: where the transport says this device's kernels write
 * every peer's memory with atomics that hold against the peer's own
 * (CPU devices; under the peer-to-peer transport, logical devices of one
 * GPU and GPUs with peer access and native peer atomics; never NCCL). The
 * copies' owners and ids there come from the subgraph, 5 bytes a copy. */
static gr_status gr__peers(void *local, gr_part *p, gr_peers *r, bool *reach) {
  gr__xlocal *x = local;
  const gr_comm *c = x->c;
  const gr_subgraph *sub = p->sub;
  *reach = false;
  if (x->n < 2 || c->mode != GR_COMM_SELECTIVE || sub->proxy != GR_PROXY_1HOP || !c->tops->writes_peer)
    return GR_SUCCESS;
  for (int j = 0; j < x->n; j++)
    if (j != x->me && !c->tops->writes_peer(c, x->me, j)) return GR_SUCCESS;
  if (!sub->owner || !sub->owner_local)
    return gr_errorf(GR_ERR_INTERNAL, "part %d has no owner tables for its peers' arrays", p->index);
  const gr_vid first = (gr_vid)sub->n_owned;
  const size_t nc = (size_t)(sub->n_local - first);
  if (nc && !x->peer_owner.ptr) {
    uint8_t *o8 = NULL;
    GR_CHECK(gr_host_alloc((void **)&o8, nc, "copies' owners"));
    for (size_t k = 0; k < nc; k++) o8[k] = (uint8_t)sub->owner[first + k];
    gr_status st = gr__upload(&x->peer_owner, p->dev, o8, nc, "copies' owners");
    free(o8);
    if (st == GR_SUCCESS)
      st = gr__upload(&x->peer_convert, p->dev, sub->owner_local + first, nc * sizeof(gr_vid),
                      "copies' ids on their owners");
    if (st != GR_SUCCESS) {
      /* Both tables or neither: a later call makes them again. */
      gr_buffer_release(&x->peer_owner);
      gr_buffer_release(&x->peer_convert);
      return st;
    }
  }
  r->owner = nc ? x->peer_owner.ptr : NULL;
  r->convert = nc ? x->peer_convert.ptr : NULL;
  r->first = first;
  r->me = x->me;
  *reach = true;
  return GR_SUCCESS;
}

static gr_status gr__owner_words(void *local, gr_part *p, gr_owner_words *w) {
  const gr__xlocal *x = local;
  memset(w, 0, sizeof *w);
  if (!x || !x->word_groups.ptr) return GR_SUCCESS;
  w->groups = x->word_groups.ptr;
  w->words = x->whole_words;
  w->whole = x->part_words[x->me];
  w->count = gr__owner_count(x, p, x->me);
  w->parts = x->n;
  w->me = x->me;
  return GR_SUCCESS;
}

const gr_exchange_ops gr_comm_exchange_ops = {gr__attach, gr__exchange, gr__detach,      gr__prepare, gr__refresh,
                                              gr__route,  gr__borders,  gr__gather,      gr__peers,   gr__owner_words};
