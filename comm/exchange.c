/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange between devices, run by every device thread after its
 * iterate:
 *   1. split the output: owned vertices go to the next frontier, the rest is
 *      counted per peer (selective) or taken whole (broadcast);
 *   2. package it with the payloads, publish sizes and offsets in the shared
 *      table; barrier;
 *   3. the transport moves every package to its peer, into a receive buffer
 *      sized from the table (just enough);
 *   4. combine what arrived with the primitive's operator; changed vertices
 *      this device owns join the next frontier once.
 * The barrier of step 2 is the only point where devices wait for each other
 * inside the exchange (plus one more before a collective transport), so a
 * send buffer is never overwritten while a peer reads it: the enactor's
 * barrier after the exchange orders that. */
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
      gr_status st = gr_device_gpu_of(i, &c->gpu[i]);
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

/* ---- per device ---------------------------------------------------------- */

typedef struct gr__xlocal {
  gr_comm *c;
  int me, n;
  const gr_primitive *prim;
  const gr_xk_ops *k;
  gr_payload pay;
  gr_xk_layout layout;
  gr_buffer owner;       /* owner part of each local vertex */
  gr_buffer convert;     /* owner-local ids (1-hop, selective) */
  gr_buffer g2l;         /* global-to-local ids (1-hop, broadcast) */
  const gr_vid *convert_d;
  const gr_vid *g2l_d;
  gr_buffer cull;        /* vertices already in the next frontier */
  gr_buffer send, recv;
  gr_buffer decode;      /* a bitmap package unpacked into a list */
  gr_buffer counters;    /* [0] next, [1 + j] items for j, [1 + n + j] packing cursors (selective) or
                          * unpacking cursors (broadcast), [1 + 2n] distinct ids of a bitmap */
  unsigned long long *hc; /* host mirror of the counters */
} gr__xlocal;

static const gr_xk_ops *gr__xk_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__xk_ops_cuda;
#endif
  (void)dev;
  return &gr__xk_ops_cpu;
}

static size_t gr__value_bytes(gr_value_type t) {
  return t == GR_VALUE_FLOAT ? sizeof(float) : t == GR_VALUE_DOUBLE ? sizeof(double) : sizeof(gr_svid);
}

static gr_status gr__upload(gr_buffer *b, gr_device *dev, const void *host, size_t bytes, const char *what) {
  GR_CHECK(gr_buffer_resize(b, dev, bytes, 0, what));
  return gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D);
}

static void gr__detach(void *local, gr_part *p) {
  (void)p;
  gr__xlocal *x = local;
  if (!x) return;
  gr_buffer *bufs[] = {&x->owner, &x->convert, &x->g2l, &x->cull, &x->send, &x->recv, &x->decode, &x->counters};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) gr_buffer_release(bufs[i]);
  if (x->hc) gr_device_host_free(p->dev, x->hc);
  free(x);
}

static gr_status gr__attach(void *shared, gr_part *p, const gr_primitive *prim, void *slice, void **local) {
  gr_comm *c = shared;
  gr_status st = GR_SUCCESS;
  gr__xlocal *x = NULL;
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
  x->me = p->index;
  x->n = p->count;
  x->prim = prim;
  x->k = gr__xk_ops(p->dev);
  GR_CHECK_GOTO(prim->payload(slice, p, &x->pay), st, fail);
  if (x->pay.n_values < 1 || x->pay.n_values > GR_MAX_PAYLOADS || x->pay.n_vertices < 0 ||
      x->pay.n_vertices > GR_MAX_PAYLOADS) {
    st = gr_errorf(GR_ERR_INTERNAL, "%s names %d value and %d vertex payloads", prim->name, x->pay.n_values,
                   x->pay.n_vertices);
    goto fail;
  }
  if ((prim->combine == GR_COMBINE_SUM || prim->combine == GR_COMBINE_OR) && x->pay.n_vertices > 0) {
    st = gr_errorf(GR_ERR_INTERNAL, "%s: SUM and OR combine carry no vertex payloads", prim->name);
    goto fail;
  }
  if (prim->combine == GR_COMBINE_OR && prim->value_type != GR_VALUE_SVID) {
    st = gr_errorf(GR_ERR_INTERNAL, "%s: OR combine needs integer values", prim->name);
    goto fail;
  }
  x->layout.n_values = x->pay.n_values;
  x->layout.value_bytes = (int)gr__value_bytes(prim->value_type);
  x->layout.n_vertices = x->pay.n_vertices;

  const size_t nl = sub->n_local;
  GR_CHECK_GOTO(gr__upload(&x->owner, p->dev, sub->owner, nl * sizeof(int32_t), "owner table"), st, fail);
  if (sub->proxy == GR_PROXY_1HOP) {
    if (c->mode == GR_COMM_SELECTIVE) {
      GR_CHECK_GOTO(gr__upload(&x->convert, p->dev, sub->owner_local, nl * sizeof(gr_vid), "owner-local ids"),
                    st, fail);
      x->convert_d = x->convert.ptr;
    } else {
      /* Broadcast with 1-hop proxies sends global ids, so each device
       * needs the global-to-local table (|V| ids): duplicate-all proxies
       * are the cheaper partner of broadcast. */
      x->convert_d = p->local_to_global;
      GR_CHECK_GOTO(gr__upload(&x->g2l, p->dev, sub->global_to_local, (size_t)sub->n_global * sizeof(gr_vid),
                               "global-to-local ids"),
                    st, fail);
      x->g2l_d = x->g2l.ptr;
    }
  }
  GR_CHECK_GOTO(gr_buffer_resize(&x->cull, p->dev, gr_bitmap_words(sub->n_local) * sizeof(uint32_t), 0,
                                 "exchange culling bitmap"),
                st, fail);
  const size_t nctr = 2 + 2 * (size_t)x->n;
  GR_CHECK_GOTO(gr_buffer_resize(&x->counters, p->dev, nctr * sizeof(unsigned long long), 0, "exchange counters"),
                st, fail);
  GR_CHECK_GOTO(gr_device_host_alloc(p->dev, (void **)&x->hc, nctr * sizeof(unsigned long long),
                                     "exchange counters"),
                st, fail);
  if (c->tops->attach) GR_CHECK_GOTO(c->tops->attach(c, x->me, p->dev), st, fail);
  GR_CHECK_GOTO(gr_device_sync(p->dev), st, fail);
  *local = x;
  return GR_SUCCESS;
fail:
  gr__detach(x, p);
  return st;
}

static gr_status gr__read_counters(gr__xlocal *x, gr_device *dev, int n) {
  return gr_device_copy(dev, x->hc, x->counters.ptr, (size_t)n * sizeof(unsigned long long), GR_COPY_D2H);
}

/* Steps 1 and 2: split, package, publish. */
static gr_status gr__package(gr__xlocal *x, gr_part *p, gr_exchange_step *s) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  const gr_vid nl = p->sub->n_local;
  const bool bcast = c->mode == GR_COMM_BROADCAST;
  const gr_eid n_out = s->out->size;
  if (gr_frontier_capacity(s->next) < nl) GR_CHECK(gr_frontier_reserve(s->next, dev, nl, 0, &p->mem));
  GR_CHECK(gr_device_memset(dev, x->cull.ptr, 0, x->cull.size));
  GR_CHECK(gr_device_memset(dev, x->counters.ptr, 0, x->counters.size));
  gr_xk_split_args sa = {gr_frontier_items(s->out), n_out, x->owner.ptr, me, !bcast, gr_frontier_items(s->next),
                         gr_frontier_capacity(s->next), x->cull.ptr, x->counters.ptr};
  if (n_out) GR_CHECK(x->k->split(dev, &sa));
  GR_CHECK(gr__read_counters(x, dev, 1 + n));
  if (x->hc[0] > gr_frontier_capacity(s->next))
    return gr_errorf(GR_ERR_INTERNAL, "exchange split: %llu owned vertices for a frontier of %llu",
                     x->hc[0], (unsigned long long)gr_frontier_capacity(s->next));
  s->next->size = (gr_eid)x->hc[0];

  uint64_t items[GR_COMM_MAX_DEVICES] = {0}, off[GR_COMM_MAX_DEVICES] = {0}, bytes[GR_COMM_MAX_DEVICES] = {0};
  uint64_t total = 0;
  /* A uniform payload may travel as one value and a bitmap of the global
   * id space, when that is smaller than the list (or when asked to). */
  const gr_vid universe = p->sub->n_global;
  const bool bits = bcast && n_out && x->pay.uniform && x->layout.n_values == 1 && x->layout.n_vertices == 0 &&
                    c->format != GR_COMM_FORMAT_LIST &&
                    (c->format == GR_COMM_FORMAT_BITMAP ||
                     gr_xk_bitmap_bytes(universe) < gr_xk_message_bytes(&x->layout, n_out));
  if (bcast) {
    const uint64_t b = !n_out ? 0 : bits ? gr_xk_bitmap_bytes(universe) : gr_xk_message_bytes(&x->layout, n_out);
    for (int j = 0; j < n; j++)
      if (j != me) {
        items[j] = n_out;
        bytes[j] = b;
      }
    total = b;
  } else {
    for (int j = 0; j < n; j++) {
      if (j == me || !x->hc[1 + j]) continue;
      items[j] = x->hc[1 + j];
      off[j] = total;
      bytes[j] = gr_xk_message_bytes(&x->layout, items[j]);
      total += bytes[j];
    }
  }
  if (total && bits) {
    GR_CHECK(gr_buffer_reserve(&x->send, dev, total, 0, &p->mem, 0, "exchange send buffer"));
    GR_CHECK(gr_device_memset(dev, x->send.ptr, 0, total));
    unsigned long long *distinct = (unsigned long long *)x->counters.ptr + 1 + 2 * n;
    gr_xk_pack_bits_args ba = {gr_frontier_items(s->out), n_out, x->convert_d, x->pay.values[0],
                               x->layout.value_bytes, x->send.ptr, distinct};
    GR_CHECK(x->k->pack_bits(dev, &ba));
    /* Receivers unpack exactly the distinct ids (the read also waits for
     * the package, which peers read once they pass the barrier). */
    GR_CHECK(gr__read_counters(x, dev, 2 + 2 * n));
    for (int j = 0; j < n; j++)
      if (j != me) items[j] = x->hc[1 + 2 * n];
  } else if (total) {
    GR_CHECK(gr_buffer_reserve(&x->send, dev, total, 0, &p->mem, 0, "exchange send buffer"));
    gr_xk_pack_args pa;
    memset(&pa, 0, sizeof pa);
    pa.out = gr_frontier_items(s->out);
    pa.n_out = n_out;
    pa.owner = bcast ? NULL : x->owner.ptr;
    pa.me = me;
    pa.convert = x->convert_d;
    pa.pay = x->pay;
    pa.layout = x->layout;
    for (int j = 0; j < n; j++) {
      pa.msg[j] = (unsigned char *)x->send.ptr + off[j];
      pa.msg_count[j] = items[j];
    }
    if (bcast) {
      pa.msg[0] = x->send.ptr;
      pa.msg_count[0] = n_out;
    }
    pa.cursor = (unsigned long long *)x->counters.ptr + 1 + n;
    GR_CHECK(x->k->pack(dev, &pa));
    /* Peers read the packages once they pass the barrier. */
    GR_CHECK(gr_device_sync(dev));
  }
  c->send_ptr[me] = x->send.ptr;
  c->pkg_bitmap[me] = bits;
  for (int j = 0; j < n; j++) {
    c->pkg_items[me][j] = items[j];
    c->pkg_bytes[me][j] = bytes[j];
    c->pkg_offset[me][j] = off[j];
    s->stats->items_sent += items[j];
  }
  return GR_SUCCESS;
}

/* Step 4: combine every arriving package, then the followers. */
static gr_status gr__combine(gr__xlocal *x, gr_part *p, gr_exchange_step *s, const gr__xfer *t) {
  gr_comm *c = x->c;
  gr_device *dev = p->dev;
  const int n = x->n, me = x->me;
  const bool bcast = c->mode == GR_COMM_BROADCAST;
  gr_xk_combine_args a;
  memset(&a, 0, sizeof a);
  a.g2l = x->g2l_d;
  a.owner = bcast ? x->owner.ptr : NULL;
  a.me = me;
  a.pay = x->pay;
  a.layout = x->layout;
  a.type = x->prim->value_type;
  a.op = x->prim->combine;
  a.cull = x->cull.ptr;
  a.next = gr_frontier_items(s->next);
  a.next_capacity = gr_frontier_capacity(s->next);
  a.count_next = x->counters.ptr;
  const bool followers = (a.op == GR_COMBINE_MIN || a.op == GR_COMBINE_MAX) &&
                         (x->layout.n_values > 1 || x->layout.n_vertices > 0);
  bool any = false;
  for (int pass = 1; pass <= (followers ? 2 : 1); pass++) {
    a.pass = pass;
    for (int j = 0; j < n; j++) {
      const uint64_t cnt = c->pkg_items[j][me];
      if (j == me || !cnt) continue;
      a.msg = (const unsigned char *)t->recv->ptr + t->recv_offset[j];
      a.count = cnt;
      if (c->pkg_bitmap[j]) {
        /* Unpacked into a list (ids in any order, the value each), then
         * combined as one; the decode buffer is reused peer after peer
         * (same stream). */
        GR_CHECK(gr_buffer_reserve(&x->decode, dev, gr_xk_message_bytes(&x->layout, cnt), 0, &p->mem, 0,
                                   "exchange bitmap decode"));
        /* Peer j's own cursor (zeroed with the counters; broadcast packing
         * uses none), checked against the count once every peer is in. */
        unsigned long long *cursor = (unsigned long long *)x->counters.ptr + 1 + n + j;
        gr_xk_unpack_bits_args ua = {a.msg, p->sub->n_global, x->layout, x->decode.ptr, cnt, cursor};
        GR_CHECK(x->k->unpack_bits(dev, &ua));
        a.msg = x->decode.ptr;
      }
      if (pass == 1) s->stats->items_received += cnt;
      GR_CHECK(x->k->combine(dev, &a));
      any = true;
    }
  }
  if (any) {
    GR_CHECK(gr__read_counters(x, dev, 1 + 2 * n));
    for (int j = 0; j < n; j++)
      if (j != me && c->pkg_items[j][me] && c->pkg_bitmap[j] && x->hc[1 + n + j] != c->pkg_items[j][me])
        return gr_errorf(GR_ERR_INTERNAL, "exchange: device %d's bitmap package held %llu vertices, %llu announced", j,
                         x->hc[1 + n + j], (unsigned long long)c->pkg_items[j][me]);
    if (x->hc[0] > gr_frontier_capacity(s->next))
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: %llu vertices for a frontier of %llu", x->hc[0],
                       (unsigned long long)gr_frontier_capacity(s->next));
    s->next->size = (gr_eid)x->hc[0];
  }
  return GR_SUCCESS;
}

static gr_status gr__exchange(void *local, gr_part *p, gr_exchange_step *s) {
  gr__xlocal *x = local;
  gr_comm *c = x->c;
  const int n = x->n, me = x->me;
  double t0 = gr_time_now();
  gr_status st = gr__package(x, p, s);
  if (st < 0) gr_sync_fail(s->sync, st);
  double t1 = gr_time_now();
  s->stats->package_ms += (t1 - t0) * 1e3;
  if (gr_sync_wait(s->sync)) return GR_ERR_ABORTED;

  gr__xfer t;
  memset(&t, 0, sizeof t);
  t.me = me;
  t.n = n;
  t.dev = p->dev;
  t.send = &x->send;
  t.broadcast = c->mode == GR_COMM_BROADCAST;
  t.recv = &x->recv;
  t.sync = s->sync;
  t.mem = &p->mem;
  for (int j = 0; j < n; j++) {
    t.out_bytes[j] = c->pkg_bytes[me][j];
    t.out_offset[j] = c->pkg_offset[me][j];
    t.in_bytes[j] = c->pkg_bytes[j][me];
    uint64_t b = c->pkg_bytes[j][j == 0 ? (n > 1 ? 1 : 0) : 0];
    if (b > t.max_bytes) t.max_bytes = b;
  }
  double t2 = gr_time_now();
  st = c->tops->prepare(c, &t);
  if (c->transport == GR_TRANSPORT_NCCL) {
    /* A collective must start on every device or on none. */
    if (st < 0) gr_sync_fail(s->sync, st);
    double tw = gr_time_now();
    if (gr_sync_wait(s->sync)) return GR_ERR_ABORTED;
    t2 += gr_time_now() - tw;
  }
  if (st >= 0) st = c->tops->move(c, &t);
  double t3 = gr_time_now();
  s->stats->transfer_ms += (t3 - t2) * 1e3;
  for (int j = 0; j < n; j++) s->stats->bytes_to[j] += t.moved_to[j];
  if (st >= 0) st = gr__combine(x, p, s, &t);
  s->stats->combine_ms += (gr_time_now() - t3) * 1e3;
  return st;
}

const gr_exchange_ops gr_comm_exchange_ops = {gr__attach, gr__exchange, gr__detach};
