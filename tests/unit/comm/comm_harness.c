/* SPDX-License-Identifier: Apache-2.0 */
/* Runs the exchange's per-element work and multi-device BFS for the tests
 * (see comm_harness.h). Device memory is reached only through gr_device_copy,
 * so the same code serves CPU and CUDA devices. */
#include "comm_harness.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "gr/buffer.h"
#include "gr/frontier.h"
#include "gr/gen.h"
#include "gr/util.h"
#include "subgraph_builder.h"

/* ---- items and messages -------------------------------------------------- */

static int cmp_item(const void *a, const void *b) {
  const xh_item *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return memcmp(x, y, sizeof *x);
}

void xh_sort_items(xh_item *it, uint64_t n) {
  if (n) qsort(it, (size_t)n, sizeof *it, cmp_item);
}

int xh_value_bytes(gr_value_type t) {
  return t == GR_VALUE_FLOAT    ? (int)sizeof(float)
         : t == GR_VALUE_DOUBLE ? (int)sizeof(double)
                                : (int)sizeof(gr_svid);
}

uint64_t xh_value_bits(gr_value_type t, double x) {
  uint64_t b = 0;
  if (t == GR_VALUE_FLOAT) {
    float f = (float)x;
    memcpy(&b, &f, sizeof f);
  } else if (t == GR_VALUE_DOUBLE) {
    memcpy(&b, &x, sizeof x);
  } else {
    gr_svid s = (gr_svid)x;
    memcpy(&b, &s, sizeof s);
  }
  return b;
}

double xh_value_of(gr_value_type t, uint64_t bits) {
  if (t == GR_VALUE_FLOAT) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
  }
  if (t == GR_VALUE_DOUBLE) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  gr_svid s;
  memcpy(&s, &bits, sizeof s);
  return (double)s;
}

unsigned char *xh_message_build(const gr_xk_layout *l, const xh_item *items, uint64_t count) {
  size_t bytes = (size_t)gr_xk_list_bytes(l, count);
  unsigned char *m = calloc(bytes ? bytes : 1, 1);
  if (!m) return NULL;
  const size_t vb = (size_t)l->value_bytes;
  for (uint64_t i = 0; i < count; i++) {
    unsigned char *rec = m + i * (uint64_t)l->record_bytes;
    const gr_vid id = (gr_vid)items[i].id;
    memcpy(rec, &id, sizeof id);
    for (int k = 0; k < l->n_values; k++) memcpy(rec + l->value_offset + k * vb, &items[i].val[k], vb);
    for (int k = 0; k < l->n_vertices; k++) {
      const gr_svid x = (gr_svid)items[i].vtx[k];
      memcpy(rec + l->vertex_offset + k * sizeof(gr_svid), &x, sizeof x);
    }
  }
  return m;
}

xh_item *xh_message_items(const gr_xk_layout *l, const unsigned char *m, uint64_t count) {
  xh_item *it = calloc(count ? (size_t)count : 1, sizeof *it);
  if (!it) return NULL;
  const size_t vb = (size_t)l->value_bytes;
  for (uint64_t i = 0; i < count; i++) {
    const unsigned char *rec = m + i * (uint64_t)l->record_bytes;
    gr_vid id;
    memcpy(&id, rec, sizeof id);
    it[i].id = id;
    for (int k = 0; k < l->n_values; k++) memcpy(&it[i].val[k], rec + l->value_offset + k * vb, vb);
    for (int k = 0; k < l->n_vertices; k++) {
      gr_svid x;
      memcpy(&x, rec + l->vertex_offset + k * sizeof(gr_svid), sizeof x);
      it[i].vtx[k] = x;
    }
  }
  return it;
}

unsigned char *xh_bitmap_build(gr_vid universe, uint64_t value_bits, int value_bytes, const gr_vid *ids, uint64_t n) {
  unsigned char *m = calloc((size_t)gr_xk_bitmap_bytes(universe), 1);
  if (!m) return NULL;
  memcpy(m, &value_bits, (size_t)value_bytes);
  uint32_t *w = (uint32_t *)(m + 8);
  for (uint64_t i = 0; i < n; i++) w[ids[i] >> 5] |= 1u << (ids[i] & 31u);
  return m;
}

gr_vid *xh_bitmap_ids(const unsigned char *m, gr_vid universe, int value_bytes, uint64_t *n, uint64_t *value_bits) {
  *n = 0;
  *value_bits = 0;
  memcpy(value_bits, m, (size_t)value_bytes);
  gr_vid *ids = malloc(((size_t)universe + 1) * sizeof *ids);
  if (!ids) return NULL;
  const uint32_t *w = (const uint32_t *)(m + 8);
  for (gr_vid v = 0; v < universe; v++)
    if ((w[v >> 5] >> (v & 31u)) & 1u) ids[(*n)++] = v;
  return ids;
}

/* ---- host state ---------------------------------------------------------- */

bool xh_state_alloc(xh_state *s, gr_vid n, gr_value_type type, int n_values, int n_vertices) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->type = type;
  s->layout = gr_xk_layout_make(n_values, xh_value_bytes(type), n_vertices);
  bool ok = true;
  for (int k = 0; k < n_values; k++) ok = ok && (s->values[k] = calloc(n ? n : 1, (size_t)s->layout.value_bytes));
  for (int k = 0; k < n_vertices; k++) ok = ok && (s->vertices[k] = calloc(n ? n : 1, sizeof(gr_svid)));
  if (!ok) xh_state_free(s);
  return ok;
}

bool xh_state_copy(xh_state *d, const xh_state *s) {
  if (!xh_state_alloc(d, s->n, s->type, s->layout.n_values, s->layout.n_vertices)) return false;
  for (int k = 0; k < s->layout.n_values; k++)
    memcpy(d->values[k], s->values[k], (size_t)s->n * s->layout.value_bytes);
  for (int k = 0; k < s->layout.n_vertices; k++)
    memcpy(d->vertices[k], s->vertices[k], (size_t)s->n * sizeof(gr_svid));
  return true;
}

void xh_state_free(xh_state *s) {
  for (int k = 0; k < GR_MAX_PAYLOADS; k++) {
    free(s->values[k]);
    free(s->vertices[k]);
  }
  memset(s, 0, sizeof *s);
}

uint64_t xh_state_get(const xh_state *s, int k, gr_vid v) {
  uint64_t b = 0;
  const size_t vb = (size_t)s->layout.value_bytes;
  memcpy(&b, (const unsigned char *)s->values[k] + v * vb, vb);
  return b;
}

void xh_state_set(xh_state *s, int k, gr_vid v, uint64_t bits) {
  const size_t vb = (size_t)s->layout.value_bytes;
  memcpy((unsigned char *)s->values[k] + v * vb, &bits, vb);
}

/* One random value suited to op. */
static uint64_t random_value(gr_value_type t, gr_combine_op op, uint64_t r) {
  if (op == GR_COMBINE_OR) return xh_value_bits(t, (double)(r % 256));
  if (op == GR_COMBINE_SUM) {
    /* Quarters in [-4, 4), one in four zero: sums stay exact. */
    if (r % 4 == 0) return xh_value_bits(t, 0.0);
    return xh_value_bits(t, ((double)((r >> 3) % 32) - 16.0) / 4.0);
  }
  if (t == GR_VALUE_SVID) {
    /* Depth-like: -1 (no value) one time in five, else 0..19 (ties). */
    if (r % 5 == 0) return xh_value_bits(t, -1.0);
    return xh_value_bits(t, (double)((r >> 3) % 20));
  }
  return xh_value_bits(t, ((double)((r >> 3) % 40) - 20.0) / 2.0);
}

void xh_state_random(xh_state *s, gr_combine_op op, uint64_t seed) {
  uint64_t c = 0;
  for (gr_vid v = 0; v < s->n; v++) {
    for (int k = 0; k < s->layout.n_values; k++)
      xh_state_set(s, k, v, random_value(s->type, op, gr_rand64(seed, 1, c++)));
    for (int k = 0; k < s->layout.n_vertices; k++)
      s->vertices[k][v] = (gr_svid)(gr_rand64(seed, 2, c++) % 1000) - 1;
  }
}

gr_vid *xh_vertices_random(gr_vid n, gr_eid count, uint64_t seed) {
  gr_vid *all = malloc((size_t)(n ? n : 1) * sizeof *all);
  if (!all) return NULL;
  for (gr_vid v = 0; v < n; v++) all[v] = v;
  for (gr_eid i = 0; i < count && i < n; i++) {
    gr_vid j = (gr_vid)(i + gr_rand64(seed, 3, i) % (n - i));
    gr_vid t = all[i];
    all[i] = all[j];
    all[j] = t;
  }
  return all;
}

xh_item *xh_items_random(const xh_state *shape, gr_combine_op op, gr_vid id_range, uint64_t count, uint64_t seed) {
  gr_vid *ids = xh_vertices_random(id_range, count, seed);
  xh_item *it = calloc(count ? (size_t)count : 1, sizeof *it);
  if (!ids || !it) {
    free(ids);
    free(it);
    return NULL;
  }
  uint64_t c = 0;
  for (uint64_t i = 0; i < count; i++) {
    it[i].id = ids[i];
    for (int k = 0; k < shape->layout.n_values; k++)
      it[i].val[k] = random_value(shape->type, op, gr_rand64(seed, 4, c++));
    for (int k = 0; k < shape->layout.n_vertices; k++) it[i].vtx[k] = (int64_t)(gr_rand64(seed, 5, c++) % 1000);
  }
  free(ids);
  return it;
}

int32_t *xh_owner_random(gr_vid n, int parts, uint64_t seed) {
  int32_t *o = malloc((size_t)(n ? n : 1) * sizeof *o);
  if (!o) return NULL;
  for (gr_vid v = 0; v < n; v++) o[v] = (int32_t)(gr_rand64(seed, 6, v) % (uint64_t)parts);
  return o;
}

int32_t *xh_owner_runs(gr_vid n, int parts, int me, uint64_t seed) {
  int32_t *o = malloc((size_t)(n ? n : 1) * sizeof *o);
  if (!o) return NULL;
  const int last = me == parts - 1 ? parts - 2 : parts - 1; /* the last part of copies: the rest */
  gr_vid v = 0;
  for (; v < n / 3; v++) o[v] = me;
  for (int j = 0; j < parts; j++) {
    if (j == me) continue;
    /* Part j's copies: a random share of what is left, none for one part
     * in five; the last part's, the rest. */
    const gr_vid left = n - v;
    gr_vid take = left;
    if (j != last)
      take = gr_rand64(seed, 7, (uint64_t)j) % 5 == 0 ? 0 : (gr_vid)(gr_rand64(seed, 8, (uint64_t)j) % (left / 2 + 1));
    for (gr_vid k = 0; k < take; k++) o[v++] = j;
  }
  return o;
}

int xh_combine_kinds(xh_combine_kind *out) {
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  const gr_combine_op ops[] = {GR_COMBINE_MIN, GR_COMBINE_MAX, GR_COMBINE_SUM, GR_COMBINE_OR, GR_COMBINE_REPLACE};
  int n = 0;
  for (int t = 0; t < 3; t++)
    for (int o = 0; o < 5; o++) {
      if (ops[o] == GR_COMBINE_OR && types[t] != GR_VALUE_SVID) continue;
      const bool plain = ops[o] == GR_COMBINE_SUM || ops[o] == GR_COMBINE_OR;
      for (int nv = 1; nv <= 2; nv++)
        for (int nx = 0; nx <= (plain ? 0 : 2) && n < XH_MAX_KINDS; nx++) {
          xh_combine_kind k = {types[t], ops[o], nv, nx};
          out[n++] = k;
        }
    }
  return n;
}

gr_vid *xh_g2l_table(gr_vid n, gr_vid n_global) {
  gr_vid *g2l = malloc((size_t)(n_global ? n_global : 1) * sizeof *g2l);
  if (!g2l) return NULL;
  /* 7919 is prime and n is never a multiple of it here: a permutation. */
  for (gr_vid g = 0; g < n_global; g++) g2l[g] = g < n ? (gr_vid)(((uint64_t)g * 7919u) % n) : GR_NO_VERTEX;
  return g2l;
}

bool xh_combine_case_random(xh_combine_case *c, const xh_combine_kind *k, int variant, gr_vid n,
                            const int32_t *owner, const gr_vid *g2l, gr_vid n_global, const uint64_t counts[3],
                            uint64_t seed) {
  memset(c, 0, sizeof *c);
  if (!xh_state_alloc(&c->state, n, k->type, k->n_values, k->n_vertices)) return false;
  xh_state_random(&c->state, k->op, seed);
  const gr_vid range = variant == XH_CASE_GLOBAL ? n_global : n;
  bool ok = true;
  for (int j = 0; j < 3 && ok; j++) {
    xh_item *it = xh_items_random(&c->state, k->op, range, counts[j], seed + 1 + (uint64_t)j);
    c->msg[j] = it ? xh_message_build(&c->state.layout, it, counts[j]) : NULL;
    ok = c->msg[j] != NULL;
    free(it);
  }
  c->in.state = &c->state;
  c->in.op = k->op;
  c->in.owner = variant == XH_CASE_OWNER ? owner : NULL;
  c->in.me = 1;
  c->in.g2l = variant == XH_CASE_GLOBAL ? g2l : NULL;
  c->in.n_global = n_global;
  c->in.n_msgs = 3;
  for (int j = 0; j < 3; j++) {
    c->in.msg[j] = c->msg[j];
    c->in.count[j] = counts[j];
  }
  if (!ok) xh_combine_case_free(c);
  return ok;
}

void xh_combine_case_free(xh_combine_case *c) {
  xh_state_free(&c->state);
  for (int j = 0; j < 3; j++) free(c->msg[j]);
  memset(c, 0, sizeof *c);
}

/* ---- device helpers ------------------------------------------------------ */

static gr_status upload(gr_buffer *b, gr_device *dev, const void *host, size_t bytes, const char *what) {
  GR_CHECK(gr_buffer_resize(b, dev, bytes ? bytes : 8, 0, what));
  return gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D);
}

static gr_status download(gr_device *dev, void **host, const gr_buffer *b, size_t bytes) {
  *host = malloc(bytes ? bytes : 1);
  if (!*host) return gr_errorf(GR_ERR_HOST_OOM, "test download");
  return gr_device_copy(dev, *host, b->ptr, bytes, GR_COPY_D2H);
}

static int cmp_vid(const void *a, const void *b) {
  gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

/* Device copies of a state's arrays. */
typedef struct dev_state {
  gr_buffer v[GR_MAX_PAYLOADS], x[GR_MAX_PAYLOADS];
  gr_payload pay;
} dev_state;

static gr_status state_upload(dev_state *d, gr_device *dev, const xh_state *s) {
  memset(d, 0, sizeof *d);
  const size_t vb = (size_t)s->layout.value_bytes;
  d->pay.n_values = s->layout.n_values;
  d->pay.n_vertices = s->layout.n_vertices;
  for (int k = 0; k < s->layout.n_values; k++) {
    GR_CHECK(upload(&d->v[k], dev, s->values[k], (size_t)s->n * vb, "test values"));
    d->pay.values[k] = d->v[k].ptr;
  }
  for (int k = 0; k < s->layout.n_vertices; k++) {
    GR_CHECK(upload(&d->x[k], dev, s->vertices[k], (size_t)s->n * sizeof(gr_svid), "test vertices"));
    d->pay.vertices[k] = d->x[k].ptr;
  }
  return GR_SUCCESS;
}

static gr_status state_download(dev_state *d, gr_device *dev, xh_state *s) {
  const size_t vb = (size_t)s->layout.value_bytes;
  for (int k = 0; k < s->layout.n_values; k++)
    GR_CHECK(gr_device_copy(dev, s->values[k], d->v[k].ptr, (size_t)s->n * vb, GR_COPY_D2H));
  for (int k = 0; k < s->layout.n_vertices; k++)
    GR_CHECK(gr_device_copy(dev, s->vertices[k], d->x[k].ptr, (size_t)s->n * sizeof(gr_svid), GR_COPY_D2H));
  return GR_SUCCESS;
}

static void state_release(dev_state *d) {
  for (int k = 0; k < GR_MAX_PAYLOADS; k++) {
    gr_buffer_release(&d->v[k]);
    gr_buffer_release(&d->x[k]);
  }
}

/* Device copies of an owner table, as bytes (what the exchange keeps). */
static gr_status owner_upload(gr_buffer *b, gr_device *dev, const int32_t *owner, gr_vid n) {
  uint8_t *o8 = malloc((size_t)n + 1);
  if (!o8) return gr_errorf(GR_ERR_HOST_OOM, "test owners");
  for (gr_vid v = 0; v < n; v++) o8[v] = (uint8_t)owner[v];
  gr_status st = upload(b, dev, o8, (size_t)n, "test owner");
  free(o8);
  return st;
}

/* ---- package ------------------------------------------------------------- */

enum { GUARD_BYTES = 64, GUARD = 0xab };

void xh_package_free(xh_package_out *r) {
  free(r->next);
  free(r->cull);
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) {
    free(r->items[j]);
    free(r->bit_ids[j]);
  }
  memset(r, 0, sizeof *r);
}

void xh_package_in_init(xh_package_in *in, const xh_state *s, const int32_t *owner, int parts, int me, bool broadcast,
                        const gr_vid *out, gr_eid n_out, const gr_eid *deg) {
  memset(in, 0, sizeof *in);
  in->state = s;
  in->owner = owner;
  in->parts = parts;
  in->me = me;
  in->broadcast = broadcast;
  in->out = out;
  in->n_out = n_out;
  in->deg = deg;
}

gr_status xh_run_package(const gr_xk_ops *ops, gr_device *dev, const xh_package_in *in, xh_package_out *r) {
  memset(r, 0, sizeof *r);
  const xh_state *s = in->state;
  const gr_vid n = s->n;
  const gr_eid cap = in->next_capacity ? in->next_capacity : n;
  const size_t words = gr_bitmap_words(n);
  const int n_msg = in->broadcast ? 1 : in->parts;
  const uint64_t rb = (uint64_t)s->layout.record_bytes;
  dev_state ds;
  gr_buffer b_out = GR_BUFFER_INIT, b_owner = GR_BUFFER_INIT, b_conv = GR_BUFFER_INIT, b_next = GR_BUFFER_INIT,
            b_cull = GR_BUFFER_INIT, b_ctr = GR_BUFFER_INIT, b_deg = GR_BUFFER_INIT, b_claims = GR_BUFFER_INIT,
            b_counts = GR_BUFFER_INIT, b_settled = GR_BUFFER_INIT, b_list[GR_COMM_MAX_DEVICES],
            b_bits[GR_COMM_MAX_DEVICES];
  uint32_t *claims = NULL;
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) {
    gr_buffer z = GR_BUFFER_INIT;
    b_list[j] = b_bits[j] = z;
  }
  unsigned char *h = NULL;
  const size_t nctr = (size_t)gr_xk_counters(in->parts);
  gr_status st = state_upload(&ds, dev, s);
  if (st < 0) goto done;
  if (in->bound > in->n_out) {
    /* The output, then ids of vertices it does not hold up to the bound. */
    gr_vid *room = malloc((size_t)in->bound * sizeof *room);
    char *held = calloc(n ? n : 1, 1);
    if (!room || !held) {
      free(room);
      free(held);
      st = gr_errorf(GR_ERR_HOST_OOM, "test out");
      goto done;
    }
    for (gr_eid i = 0; i < in->n_out; i++) held[in->out[i]] = 1, room[i] = in->out[i];
    gr_vid v = 0;
    for (gr_eid i = in->n_out; i < in->bound; i++) {
      while (n > (gr_vid)in->n_out && held[v]) v = (v + 1) % n;
      room[i] = v;
      v = (v + 1) % n;
    }
    st = upload(&b_out, dev, room, (size_t)in->bound * sizeof(gr_vid), "test out");
    free(room);
    free(held);
    if (st < 0) goto done;
    const gr_eid counts[4] = {in->n_out, XH_OUT_EDGES, 0, 0};
    GR_CHECK_GOTO(upload(&b_counts, dev, counts, sizeof counts, "test output counts"), st, done);
  } else {
    GR_CHECK_GOTO(upload(&b_out, dev, in->out, (size_t)in->n_out * sizeof(gr_vid), "test out"), st, done);
  }
  GR_CHECK_GOTO(owner_upload(&b_owner, dev, in->owner, n), st, done);
  if (in->convert)
    GR_CHECK_GOTO(upload(&b_conv, dev, in->convert + in->convert_first, (size_t)(n - in->convert_first) * sizeof(gr_vid),
                         "test convert"),
                  st, done);
  if (in->deg) GR_CHECK_GOTO(upload(&b_deg, dev, in->deg, ((size_t)n + 1) * sizeof(gr_eid), "test degrees"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_next, dev, (size_t)cap * sizeof(gr_vid) + 8, 0, "test next"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_cull, dev, words * sizeof(uint32_t) + 4, 0, "test cull"), st, done);
  GR_CHECK_GOTO(gr_device_memset(dev, b_cull.ptr, 0, words * sizeof(uint32_t) + 4), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_ctr, dev, nctr * sizeof(unsigned long long), 0, "test counters"), st, done);
  GR_CHECK_GOTO(gr_device_memset(dev, b_ctr.ptr, 0, nctr * sizeof(unsigned long long)), st, done);
  gr_xk_package_args a;
  memset(&a, 0, sizeof a);
  a.out = b_out.ptr;
  a.n_out = in->bound > in->n_out ? in->bound : in->n_out;
  a.counts = in->bound > in->n_out ? b_counts.ptr : NULL;
  a.owner = b_owner.ptr;
  if (in->ranges) {
    uint8_t *o8 = malloc((size_t)n + 1);
    if (!o8) {
      st = gr_errorf(GR_ERR_HOST_OOM, "test owners");
      goto done;
    }
    for (gr_vid v = 0; v < n; v++) o8[v] = (uint8_t)in->owner[v];
    gr_xk_owner_ranges(o8, n, &a.ranges);
    free(o8);
    if (!a.ranges.n) {
      st = gr_errorf(GR_ERR_INTERNAL, "test: the owner table is more than %d runs", (int)GR_XK_RANGES_MAX);
      goto done;
    }
  }
  a.me = in->me;
  a.parts = in->parts;
  a.broadcast = in->broadcast;
  a.convert = in->convert ? b_conv.ptr : NULL;
  a.convert_first = in->convert_first;
  a.pay = ds.pay;
  a.layout = s->layout;
  a.next = b_next.ptr;
  a.next_capacity = cap;
  a.cull = b_cull.ptr;
  if (in->settled) {
    GR_CHECK_GOTO(upload(&b_settled, dev, in->settled, words * sizeof(uint32_t), "test settled"), st, done);
    a.cull = NULL;
    a.settled = b_settled.ptr;
  }
  a.deg = in->deg ? b_deg.ptr : NULL;
  a.counters = b_ctr.ptr;
  if (in->claims) {
    GR_CHECK_GOTO(gr_buffer_resize(&b_claims, dev, words * sizeof(uint32_t), 0, "test claims"), st, done);
    GR_CHECK_GOTO(gr_device_memset(dev, b_claims.ptr, 0, words * sizeof(uint32_t)), st, done);
    a.claims = b_claims.ptr;
  }
  for (int j = 0; j < n_msg; j++) {
    if (in->list_capacity[j]) {
      const size_t bytes = (size_t)(in->list_capacity[j] * rb) + GUARD_BYTES;
      GR_CHECK_GOTO(gr_buffer_resize(&b_list[j], dev, bytes, 0, "test list"), st, done);
      GR_CHECK_GOTO(gr_device_memset(dev, b_list[j].ptr, GUARD, bytes), st, done);
      a.list[j] = b_list[j].ptr;
      a.list_capacity[j] = in->list_capacity[j];
    }
    if (in->universe[j]) {
      const size_t bytes = (size_t)gr_xk_bitmap_bytes(in->universe[j]);
      GR_CHECK_GOTO(gr_buffer_resize(&b_bits[j], dev, bytes, 0, "test bitmap"), st, done);
      GR_CHECK_GOTO(gr_device_memset(dev, b_bits[j].ptr, 0, bytes), st, done);
      a.bits[j] = b_bits[j].ptr;
    }
  }
  GR_CHECK_GOTO(ops->package(dev, &a), st, done);
  GR_CHECK_GOTO(gr_device_sync(dev), st, done);
  GR_CHECK_GOTO(gr_device_copy(dev, r->counters, b_ctr.ptr, nctr * sizeof(unsigned long long), GR_COPY_D2H), st,
                done);
  r->n_next = (gr_eid)(r->counters[GR_XK_NEXT] < cap ? r->counters[GR_XK_NEXT] : cap);
  GR_CHECK_GOTO(download(dev, (void **)&r->next, &b_next, (size_t)r->n_next * sizeof(gr_vid)), st, done);
  if (r->n_next) qsort(r->next, (size_t)r->n_next, sizeof(gr_vid), cmp_vid);
  GR_CHECK_GOTO(download(dev, (void **)&r->cull, &b_cull, words * sizeof(uint32_t)), st, done);
  r->claims_exact = true;
  if (in->claims) {
    GR_CHECK_GOTO(download(dev, (void **)&claims, &b_claims, words * sizeof(uint32_t)), st, done);
    uint32_t *want = calloc(words ? words : 1, sizeof *want);
    if (!want) {
      st = gr_errorf(GR_ERR_HOST_OOM, "test claims");
      goto done;
    }
    for (gr_eid i = 0; i < in->n_out; i++) want[in->out[i] >> 5] |= 1u << (in->out[i] & 31u);
    r->claims_exact = memcmp(want, claims, words * sizeof(uint32_t)) == 0;
    free(want);
  }
  r->guard_intact = true;
  for (int j = 0; j < n_msg; j++) {
    if (in->list_capacity[j]) {
      const size_t bytes = (size_t)(in->list_capacity[j] * rb) + GUARD_BYTES;
      GR_CHECK_GOTO(download(dev, (void **)&h, &b_list[j], bytes), st, done);
      const uint64_t cnt = r->counters[GR_XK_PEER + j];
      r->written[j] = cnt < in->list_capacity[j] ? cnt : in->list_capacity[j];
      /* The kernels write only the slots they reserved below the capacity. */
      for (size_t i = (size_t)(r->written[j] * rb); i < bytes; i++) r->guard_intact = r->guard_intact && h[i] == GUARD;
      r->items[j] = xh_message_items(&s->layout, h, r->written[j]);
      free(h);
      h = NULL;
      if (!r->items[j]) {
        st = gr_errorf(GR_ERR_HOST_OOM, "test items");
        goto done;
      }
    }
    if (in->universe[j]) {
      GR_CHECK_GOTO(download(dev, (void **)&h, &b_bits[j], (size_t)gr_xk_bitmap_bytes(in->universe[j])), st, done);
      r->bit_ids[j] = xh_bitmap_ids(h, in->universe[j], s->layout.value_bytes, &r->n_bit_ids[j], &r->bit_value[j]);
      free(h);
      h = NULL;
      if (!r->bit_ids[j]) {
        st = gr_errorf(GR_ERR_HOST_OOM, "test bitmap ids");
        goto done;
      }
    }
  }
done:
  free(h);
  free(claims);
  gr_buffer_release(&b_claims);
  gr_buffer_release(&b_settled);
  gr_buffer_release(&b_counts);
  state_release(&ds);
  gr_buffer_release(&b_out);
  gr_buffer_release(&b_owner);
  gr_buffer_release(&b_conv);
  gr_buffer_release(&b_next);
  gr_buffer_release(&b_cull);
  gr_buffer_release(&b_ctr);
  gr_buffer_release(&b_deg);
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) {
    gr_buffer_release(&b_list[j]);
    gr_buffer_release(&b_bits[j]);
  }
  if (st < 0) xh_package_free(r);
  return st;
}

/* ---- combine ------------------------------------------------------------- */

void xh_combine_free(xh_combine_out *r) {
  xh_state_free(&r->state);
  free(r->next);
  free(r->cull);
  free(r->guard);
  free(r->settled);
  memset(r, 0, sizeof *r);
}

/* xh_run_combine, with no culling bitmap where no_cull (the settled bits
 * alone keep the next frontier's vertices single: gr_xk_combine_args.cull). */
static gr_status xh_run_combine_culling(const gr_xk_ops *ops, gr_device *dev, const xh_combine_in *in, bool no_cull,
                                        xh_combine_out *r) {
  memset(r, 0, sizeof *r);
  const xh_state *s = in->state;
  const gr_vid n = s->n;
  const size_t words = gr_bitmap_words(n);
  dev_state ds;
  gr_buffer b_owner = GR_BUFFER_INIT, b_g2l = GR_BUFFER_INIT, b_cull = GR_BUFFER_INIT, b_next = GR_BUFFER_INIT,
            b_ctr = GR_BUFFER_INIT, b_deg = GR_BUFFER_INIT, b_guard = GR_BUFFER_INIT, b_settled = GR_BUFFER_INIT,
            b_msg[GR_COMM_MAX_DEVICES];
  const int n_msgs = in->n_msgs;
  const size_t nctr = (size_t)gr_xk_counters(n_msgs > 1 ? n_msgs : 1);
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) {
    gr_buffer z = GR_BUFFER_INIT;
    b_msg[j] = z;
  }
  if (!xh_state_copy(&r->state, s)) return gr_errorf(GR_ERR_HOST_OOM, "test state");
  gr_status st = state_upload(&ds, dev, s);
  if (st < 0) goto done;
  if (in->owner) GR_CHECK_GOTO(owner_upload(&b_owner, dev, in->owner, n), st, done);
  if (in->deg) GR_CHECK_GOTO(upload(&b_deg, dev, in->deg, ((size_t)n + 1) * sizeof(gr_eid), "test degrees"), st, done);
  if (in->g2l)
    GR_CHECK_GOTO(upload(&b_g2l, dev, in->g2l, (size_t)in->n_global * sizeof(gr_vid), "test g2l"), st, done);
  if (in->guard) GR_CHECK_GOTO(upload(&b_guard, dev, in->guard, (size_t)n * sizeof(gr_svid), "test guard"), st, done);
  if (in->settled)
    GR_CHECK_GOTO(upload(&b_settled, dev, in->settled, words * sizeof(uint32_t), "test settled"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_cull, dev, words * sizeof(uint32_t), 0, "test cull"), st, done);
  if (in->cull)
    GR_CHECK_GOTO(gr_device_copy(dev, b_cull.ptr, in->cull, words * sizeof(uint32_t), GR_COPY_H2D), st, done);
  else GR_CHECK_GOTO(gr_device_memset(dev, b_cull.ptr, 0, words * sizeof(uint32_t)), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_next, dev, (size_t)n * sizeof(gr_vid), 0, "test next"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&b_ctr, dev, nctr * sizeof(unsigned long long), 0, "test counters"), st, done);
  GR_CHECK_GOTO(gr_device_memset(dev, b_ctr.ptr, 0, nctr * sizeof(unsigned long long)), st, done);
  for (int j = 0; j < n_msgs; j++) {
    const size_t bytes = in->universe[j] ? (size_t)gr_xk_bitmap_bytes(in->universe[j])
                                         : (size_t)gr_xk_list_bytes(&s->layout, in->count[j]);
    GR_CHECK_GOTO(upload(&b_msg[j], dev, in->msg[j], bytes, "test message"), st, done);
  }
  gr_xk_combine_args a;
  memset(&a, 0, sizeof a);
  a.g2l = in->g2l ? b_g2l.ptr : NULL;
  a.owner = in->owner ? b_owner.ptr : NULL;
  a.me = in->me;
  a.pay = ds.pay;
  a.layout = s->layout;
  a.type = s->type;
  a.op = in->op;
  a.guard = in->guard ? b_guard.ptr : NULL;
  a.stamp = in->stamp;
  a.cull = no_cull ? NULL : b_cull.ptr;
  a.settled = in->settled ? b_settled.ptr : NULL;
  a.settle_copies_bare = in->settle_copies_bare;
  a.next = b_next.ptr;
  a.next_capacity = n;
  a.deg = in->deg ? b_deg.ptr : NULL;
  a.counters = b_ctr.ptr;
  const bool followers = (in->op == GR_COMBINE_MIN || in->op == GR_COMBINE_MAX) &&
                         (s->layout.n_values > 1 || s->layout.n_vertices > 0);
  for (int pass = 1; pass <= (followers ? 2 : 1); pass++) {
    a.pass = pass;
    for (int j = 0; j < n_msgs; j++) {
      if (!in->universe[j] && !in->count[j]) continue;
      a.msg = b_msg[j].ptr;
      a.format = in->universe[j] ? GR_XK_BITMAP : GR_XK_LIST;
      a.count = in->count[j];
      a.universe = in->universe[j];
      a.found = GR_XK_PEER + 2 * (n_msgs > 1 ? n_msgs : 1) + j;
      GR_CHECK_GOTO(ops->combine(dev, &a), st, done);
    }
  }
  GR_CHECK_GOTO(gr_device_sync(dev), st, done);
  unsigned long long ctr[3 + 3 * GR_COMM_MAX_DEVICES];
  GR_CHECK_GOTO(gr_device_copy(dev, ctr, b_ctr.ptr, nctr * sizeof(unsigned long long), GR_COPY_D2H), st, done);
  const unsigned long long cnt = ctr[GR_XK_NEXT];
  r->next_edges = ctr[GR_XK_NEXT_EDGES];
  r->next_max_degree = ctr[GR_XK_NEXT_MAXDEG];
  for (int j = 0; j < n_msgs; j++) r->found[j] = ctr[GR_XK_PEER + 2 * (n_msgs > 1 ? n_msgs : 1) + j];
  if (cnt > n) {
    st = gr_errorf(GR_ERR_INTERNAL, "combine counted %llu vertices of %llu", cnt, (unsigned long long)n);
    goto done;
  }
  r->n_next = (gr_eid)cnt;
  GR_CHECK_GOTO(download(dev, (void **)&r->next, &b_next, (size_t)cnt * sizeof(gr_vid)), st, done);
  if (cnt) qsort(r->next, (size_t)cnt, sizeof(gr_vid), cmp_vid);
  GR_CHECK_GOTO(download(dev, (void **)&r->cull, &b_cull, words * sizeof(uint32_t)), st, done);
  GR_CHECK_GOTO(state_download(&ds, dev, &r->state), st, done);
  if (in->guard) GR_CHECK_GOTO(download(dev, (void **)&r->guard, &b_guard, (size_t)n * sizeof(gr_svid)), st, done);
  if (in->settled)
    GR_CHECK_GOTO(download(dev, (void **)&r->settled, &b_settled, words * sizeof(uint32_t)), st, done);
done:
  state_release(&ds);
  gr_buffer_release(&b_guard);
  gr_buffer_release(&b_settled);
  gr_buffer_release(&b_owner);
  gr_buffer_release(&b_g2l);
  gr_buffer_release(&b_cull);
  gr_buffer_release(&b_next);
  gr_buffer_release(&b_ctr);
  gr_buffer_release(&b_deg);
  for (int j = 0; j < GR_COMM_MAX_DEVICES; j++) gr_buffer_release(&b_msg[j]);
  if (st < 0) xh_combine_free(r);
  return st;
}

gr_status xh_run_combine(const gr_xk_ops *ops, gr_device *dev, const xh_combine_in *in, xh_combine_out *r) {
  return xh_run_combine_culling(ops, dev, in, false, r);
}

/* ---- BFS ----------------------------------------------------------------- */

gr_graph *xh_gen(const char *spec) {
  gr_gen_spec s;
  if (gr_gen_parse(&s, spec) < 0) return NULL;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  gr_graph *g = NULL;
  if (gr_gen_graph(&g, &s, &o) < 0) return NULL;
  return g;
}

gr_status xh_bfs_run(gr_graph *g, const xh_bfs_config *c, const gr_vid *sources, int n_sources, gr_result *results,
                     gr_run_stats *stats, xh_stage *stage) {
  gr_subgraph *whole = NULL;
  gr_subgraph **subs = NULL;
  gr_partition *part = NULL;
  gr_comm *comm = NULL;
  gr_enactor *en = NULL;
  gr_status st = GR_SUCCESS;
  int done_runs = 0;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = !c->no_preds;
  *stage = XH_SETUP;
  const gr_primitive *prim = c->prim ? c->prim : &gr_bfs_primitive;
  gr_enactor_config cfg = {prim, &o, c->backend, c->n_devices, c->cpu_threads,
                           GR_MEM_POLICY_INIT, NULL, NULL, NULL, false, false, NULL, false};
  if (c->n_devices == 1) {
    GR_CHECK_GOTO(gr_subgraph_whole(&whole, g, prim->needs_in_edges, prim->needs_weights), st, fail);
    cfg.subs = &whole;
  } else {
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.kind = c->partitioner;
    po.parts = c->n_devices;
    po.block = c->partition_block;
    po.seed = 7;
    GR_CHECK_GOTO(gr_partition_create(&part, g, &po), st, fail);
    GR_CHECK_GOTO(gr_subgraphs_build(&subs, g, part, c->proxy, prim->needs_in_edges, prim->needs_weights), st, fail);
    gr_comm_options co = {c->mode, c->transport, c->format, NULL};
    GR_CHECK_GOTO(gr_comm_create(&comm, c->backend, c->n_devices, &co), st, fail);
    cfg.subs = subs;
    cfg.exchange = &gr_comm_exchange_ops;
    cfg.exchange_shared = comm;
    cfg.broadcast = c->mode == GR_COMM_BROADCAST;
  }
  *stage = XH_CREATE;
  GR_CHECK_GOTO(gr_enactor_create(&en, &cfg), st, fail);
  for (int i = 0; i < n_sources; i++) {
    gr_run_args a = {sources[i], i, NULL, 0};
    gr_run_stats rs;
    *stage = XH_RUN;
    st = gr_enactor_run(en, &a, &rs);
    if (st < 0) {
      gr_run_stats_free(&rs);
      goto fail;
    }
    *stage = XH_EXTRACT;
    st = gr_enactor_extract(en, &results[i]);
    if (st < 0) {
      gr_run_stats_free(&rs);
      goto fail;
    }
    if (stats) stats[i] = rs;
    else gr_run_stats_free(&rs);
    done_runs++;
  }
  *stage = XH_DONE;
  goto out;
fail:
  for (int i = 0; i < done_runs; i++) {
    gr_result_free(&results[i]);
    if (stats) gr_run_stats_free(&stats[i]);
  }
out:
  gr_enactor_destroy(&en);
  gr_comm_destroy(&comm);
  gr_subgraph_destroy(&whole);
  gr_subgraphs_destroy(&subs, part ? part->parts : 0);
  gr_partition_destroy(&part);
  return st;
}

/* ---- LOGADD --------------------------------------------------------------- */

/* ln(e^a + e^b) in long double, from the larger term. */
static long double xh_log_add_wide(long double a, long double b) {
  const long double hi = a > b ? a : b, lo = a > b ? b : a;
  if (isinf(lo) && lo < 0) return hi;
  return hi + log1pl(expl(lo - hi));
}

void xh_check_logadd(const gr_xk_ops *ops, gr_device *dev, double rel_tol) {
  const gr_value_type types[] = {GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  const double z = -INFINITY;
  enum { N = 5, MANY = 4000 };
  /* v0 (0, ln 2) + (ln 3, ln 4) + (ln 5, ln 0) = (ln 9, ln 6); v1 only ln 0
   * arrives: unchanged; v2 (5000, -5000) + (5000, -5001): both far outside
   * double as numbers; v3 (ln 0, 7) + (ln 10, ln 0); v4 gets ln(i + 1) for
   * i < MANY from one message, then ln 7 from the other. */
  const double init[N][2] = {{0, log(2.0)}, {z, z}, {5000, -5000}, {z, 7}, {z, 0}};
  const double av[N][2] = {{log(3.0), log(4.0)}, {z, z}, {5000, -5001}, {z, z}, {0, 0}};
  const double bv[N][2] = {{log(5.0), z}, {z, z}, {z, z}, {log(10.0), z}, {log(7.0), log(7.0)}};
  for (int t = 0; t < 2; t++) {
    const gr_value_type ty = types[t];
    xh_state s;
    XH_CHECK(xh_state_alloc(&s, N, ty, 2, 0), "no room");
    for (gr_vid v = 0; v < N; v++)
      for (int k = 0; k < 2; k++) xh_state_set(&s, k, v, xh_value_bits(ty, init[v][k]));
    xh_item *a = calloc(4 + MANY, sizeof *a), b[N];
    memset(b, 0, sizeof b);
    uint64_t na = 0;
    for (gr_vid v = 0; v < 4; v++, na++) {
      a[na].id = v;
      for (int k = 0; k < 2; k++) a[na].val[k] = xh_value_bits(ty, av[v][k]);
    }
    for (int i = 0; i < MANY; i++, na++) {
      a[na].id = 4;
      for (int k = 0; k < 2; k++) a[na].val[k] = xh_value_bits(ty, log((double)(i + 1)));
    }
    for (gr_vid v = 0; v < N; v++) {
      b[v].id = v;
      for (int k = 0; k < 2; k++) b[v].val[k] = xh_value_bits(ty, bv[v][k]);
    }
    unsigned char *ma = xh_message_build(&s.layout, a, na), *mb = xh_message_build(&s.layout, b, N);
    xh_combine_in in = {&s, GR_COMBINE_LOGADD, NULL, 0, NULL, 0, NULL, 2, {ma, mb}, {na, N}, {0}, NULL, NULL, 0, NULL, false};
    xh_combine_out r;
    XH_CHECK(xh_run_combine(ops, dev, &in, &r) == GR_SUCCESS, "logadd: %s", gr_error_message());
    /* Expected, in long double: init, then the first message, then the
     * second (each vertex's records of one message in any order). */
    for (gr_vid v = 0; v < N; v++)
      for (int k = 0; k < 2; k++) {
        long double e = init[v][k];
        if (v < 4) e = xh_log_add_wide(e, av[v][k]);
        else
          for (int i = 0; i < MANY; i++) e = xh_log_add_wide(e, logl((long double)(i + 1)));
        e = xh_log_add_wide(e, bv[v][k]);
        const double got = xh_value_of(ty, xh_state_get(&r.state, k, v));
        /* 4,000 sequential log-adds round 4,000 times: float keeps ~1e-3. */
        const double tol = (ty == GR_VALUE_FLOAT ? 1e-3 : rel_tol) * (1 + (double)fabsl(e));
        if (isinf(e))
          XH_CHECK(got == (double)e, "logadd type %d: value %d of %u is %g, not ln 0", (int)ty, k, (unsigned)v, got);
        else
          XH_CHECK(fabs(got - (double)e) <= tol, "logadd type %d: value %d of %u is %.17g, expected %.17Lg", (int)ty,
                   k, (unsigned)v, got, e);
      }
    /* Every vertex that received a finite logarithm joined next; v1 did not. */
    XH_CHECK(r.n_next == 4, "logadd: %llu vertices joined next", (unsigned long long)r.n_next);
    for (gr_eid i = 0; i < r.n_next; i++) XH_CHECK(r.next[i] != 1, "logadd: vertex 1 joined next");
    xh_combine_free(&r);
    free(ma);
    free(mb);
    free(a);
    xh_state_free(&s);
  }
}

void xh_check_guard(const gr_xk_ops *ops, gr_device *dev) {
  /* Stamp 3. v0: unset, one record (takes 3, joins next); v1: stamped 3
   * and in the cull bitmap (claimed here: adds, not in next again); v2:
   * stamped 2, an earlier level (dropped, unchanged); v3: unset, records
   * in both messages (takes 3, both add, in next once); v4: a copy (owner
   * 0), unset (takes 3, adds, kept out of next); v5: stamped 4 (dropped);
   * v6: no record (unchanged). The records' values are 1 path (SUM) or
   * ln 1 = 0 (LOGADD): a sum of 0 still joins next. */
  enum { N = 7 };
  const gr_svid guard[N] = {-1, 3, 2, -1, -1, 4, -1};
  const int32_t owner[N] = {1, 1, 1, 1, 0, 1, 1};
  const uint32_t cull[1] = {1u << 1};
  const gr_vid ids_a[] = {0, 1, 2, 3, 4, 5}, ids_b[] = {3, 2};
  const gr_value_type types[] = {GR_VALUE_DOUBLE, GR_VALUE_FLOAT};
  const gr_combine_op ops_[] = {GR_COMBINE_SUM, GR_COMBINE_LOGADD};
  for (int t = 0; t < 2; t++)
    for (int o = 0; o < 2; o++) {
      const gr_value_type ty = types[t];
      const gr_combine_op op = ops_[o];
      const bool logs = op == GR_COMBINE_LOGADD;
      /* Initial values: the neutral sum for unset vertices, 5 paths (ln 5)
       * for the others. */
      xh_state s;
      XH_CHECK(xh_state_alloc(&s, N, ty, 1, 0), "no room");
      for (gr_vid v = 0; v < N; v++) {
        const double x = guard[v] < 0 ? (logs ? -INFINITY : 0.0) : (logs ? log(5.0) : 5.0);
        xh_state_set(&s, 0, v, xh_value_bits(ty, x));
      }
      xh_item a[6], b[2];
      memset(a, 0, sizeof a);
      memset(b, 0, sizeof b);
      const double one = logs ? 0.0 : 1.0;
      for (int i = 0; i < 6; i++) {
        a[i].id = ids_a[i];
        a[i].val[0] = xh_value_bits(ty, one);
      }
      for (int i = 0; i < 2; i++) {
        b[i].id = ids_b[i];
        b[i].val[0] = xh_value_bits(ty, one);
      }
      unsigned char *ma = xh_message_build(&s.layout, a, 6), *mb = xh_message_build(&s.layout, b, 2);
      xh_combine_in in = {&s, op, owner, 1, NULL, 0, cull, 2, {ma, mb}, {6, 2}, {0}, NULL, guard, 3, NULL, false};
      xh_combine_out r;
      XH_CHECK(xh_run_combine(ops, dev, &in, &r) == GR_SUCCESS, "guard: %s", gr_error_message());
      /* Paths expected: v0 1, v1 6, v2 5, v3 2, v4 1, v5 5, v6 none. */
      const double paths[N] = {1, 6, 5, 2, 1, 5, 0};
      const gr_svid after[N] = {3, 3, 2, 3, 3, 4, -1};
      for (gr_vid v = 0; v < N; v++) {
        const double got = xh_value_of(ty, xh_state_get(&r.state, 0, v));
        const double want = logs ? (paths[v] > 0 ? log(paths[v]) : -INFINITY) : paths[v];
        XH_CHECK(got == want || fabs(got - want) <= 1e-6 * (1 + fabs(want)),
                 "guard, type %d, op %d: value of %u is %g, expected %g", (int)ty, (int)op, (unsigned)v, got, want);
        XH_CHECK(r.guard[v] == after[v], "guard, op %d: stamp of %u is %lld, expected %lld", (int)op, (unsigned)v,
                 (long long)r.guard[v], (long long)after[v]);
      }
      XH_CHECK(r.n_next == 2 && r.next[0] == 0 && r.next[1] == 3,
               "guard, op %d: next holds %llu vertices (expected 0 and 3)", (int)op, (unsigned long long)r.n_next);
      xh_combine_free(&r);
      free(ma);
      free(mb);
      xh_state_free(&s);
    }
}

void xh_check_settled(const gr_xk_ops *ops, gr_device *dev) {
  /* 80 local vertices over three bitmap words, depth 3 arriving. Settled at
   * first: every 7th vertex and 40-47 (a whole word's part), some of them
   * without a depth, so that a skip shows (a settled vertex keeps -1 where
   * the combine would give it 3). Depths: -1, except every 5th (2) and
   * every 11th (6). Vertices 60-69 are copies (owner 0). Two messages
   * hold overlapping ids (every 3rd below 78; every 4th from 2): a vertex
   * in both combines once. Forms: lists or bitmaps, of local ids (a
   * bitmap's settled by whole words) or of global ids through g2l, with
   * copies given their values or settled bare, with a culling bitmap or
   * without (the settled bits alone let one record of a vertex through). */
  enum { N = 80, NG = 97, VAL = 3 };
  const size_t words = gr_bitmap_words(N);
  uint32_t settled0[3] = {0};
  gr_svid depth0[N];
  int32_t owner[N];
  for (gr_vid v = 0; v < N; v++) {
    depth0[v] = v % 5 == 0 ? 2 : v % 11 == 0 ? 6 : -1;
    owner[v] = v >= 60 && v < 70 ? 0 : 1;
    if (v % 7 == 0 || (v >= 40 && v < 48)) settled0[v >> 5] |= 1u << (v & 31u);
  }
  gr_vid ids[2][N];
  uint64_t cnt[2] = {0, 0};
  for (gr_vid v = 0; v < 78; v += 3) ids[0][cnt[0]++] = v;
  for (gr_vid v = 2; v < N; v += 4) ids[1][cnt[1]++] = v;
  gr_vid *g2l = xh_g2l_table(N, NG);
  XH_CHECK(g2l != NULL, "no room");
  /* The global ids that map onto each local vertex (g2l is a permutation
   * of the first N). */
  gr_vid l2g[N];
  for (gr_vid g = 0; g < NG; g++)
    if (g2l[g] != GR_NO_VERTEX) l2g[g2l[g]] = g;
  /* The model: each vertex named by a message and not settled takes
   * min(depth, 3), joins next when that changed it and it is owned, and is
   * settled after. */
  gr_svid want[N];
  bool named[N] = {false}, in_next[N] = {false};
  uint32_t settled1[3];
  memcpy(settled1, settled0, sizeof settled1);
  for (int j = 0; j < 2; j++)
    for (uint64_t i = 0; i < cnt[j]; i++) named[ids[j][i]] = true;
  uint64_t n_next = 0;
  for (gr_vid v = 0; v < N; v++) {
    want[v] = depth0[v];
    if (!named[v] || ((settled0[v >> 5] >> (v & 31u)) & 1u)) continue;
    settled1[v >> 5] |= 1u << (v & 31u);
    if (depth0[v] >= 0 && depth0[v] <= VAL) continue;
    want[v] = VAL;
    if (owner[v] == 1) {
      in_next[v] = true;
      n_next++;
    }
  }
  const gr_xk_layout l = gr_xk_layout_make(1, (int)sizeof(gr_svid), 0);
  for (int form = 0; form < 16; form++) {
    const bool bitmap = form & 1, global = form & 2, bare = form & 4, no_cull = form & 8;
    xh_state st;
    XH_CHECK(xh_state_alloc(&st, N, GR_VALUE_SVID, 1, 0), "no room");
    for (gr_vid v = 0; v < N; v++) xh_state_set(&st, 0, v, xh_value_bits(GR_VALUE_SVID, (double)depth0[v]));
    unsigned char *m[2] = {NULL, NULL};
    for (int j = 0; j < 2; j++) {
      gr_vid named_ids[N];
      for (uint64_t i = 0; i < cnt[j]; i++) named_ids[i] = global ? l2g[ids[j][i]] : ids[j][i];
      if (bitmap) {
        m[j] = xh_bitmap_build(global ? NG : N, xh_value_bits(GR_VALUE_SVID, VAL), (int)sizeof(gr_svid), named_ids,
                               cnt[j]);
      } else {
        xh_item it[N];
        memset(it, 0, sizeof it);
        for (uint64_t i = 0; i < cnt[j]; i++) {
          it[i].id = named_ids[i];
          it[i].val[0] = xh_value_bits(GR_VALUE_SVID, VAL);
        }
        m[j] = xh_message_build(&l, it, cnt[j]);
      }
      XH_CHECK(m[j] != NULL, "no room");
    }
    xh_combine_in in;
    memset(&in, 0, sizeof in);
    in.state = &st;
    in.op = GR_COMBINE_MIN;
    in.owner = owner;
    in.me = 1;
    in.g2l = global ? g2l : NULL;
    in.n_global = NG;
    in.n_msgs = 2;
    for (int j = 0; j < 2; j++) {
      in.msg[j] = m[j];
      in.count[j] = bitmap ? 0 : cnt[j];
      in.universe[j] = bitmap ? (global ? NG : N) : 0;
    }
    in.settled = settled0;
    in.settle_copies_bare = bare;
    xh_combine_out r;
    XH_CHECK(xh_run_combine_culling(ops, dev, &in, no_cull, &r) == GR_SUCCESS, "settled, form %d: %s", form,
             gr_error_message());
    for (gr_vid v = 0; v < N; v++) {
      const gr_svid got = (gr_svid)xh_value_of(GR_VALUE_SVID, xh_state_get(&r.state, 0, v));
      /* A bare copy is settled with its depth unchanged. */
      const gr_svid w = bare && owner[v] != 1 ? depth0[v] : want[v];
      XH_CHECK(got == w, "settled, form %d: depth of %u is %lld, expected %lld", form, (unsigned)v, (long long)got,
               (long long)w);
    }
    for (size_t w = 0; w < words; w++)
      XH_CHECK(r.settled[w] == settled1[w], "settled, form %d: word %zu is %08x, expected %08x", form, w,
               (unsigned)r.settled[w], (unsigned)settled1[w]);
    XH_CHECK(r.n_next == n_next, "settled, form %d: next holds %llu vertices, expected %llu", form,
             (unsigned long long)r.n_next, (unsigned long long)n_next);
    for (gr_eid i = 0; i < r.n_next; i++)
      XH_CHECK(r.next[i] < N && in_next[r.next[i]] && (i == 0 || r.next[i] > r.next[i - 1]),
               "settled, form %d: next holds %u", form, (unsigned)r.next[i]);
    /* Every id of a bitmap is counted, settled or not. */
    for (int j = 0; j < 2 && bitmap; j++)
      XH_CHECK(r.found[j] == cnt[j], "settled, form %d: bitmap %d counted %llu ids of %llu", form, j, r.found[j],
               (unsigned long long)cnt[j]);
    xh_combine_free(&r);
    free(m[0]);
    free(m[1]);
    xh_state_free(&st);
  }
  free(g2l);
}

void xh_check_seal(const gr_xk_ops *ops, gr_device *dev) {
  enum { PARTS = 4, ME = 2 };
  const uint64_t words[PARTS] = {70001, 3, 0, 12345}, stride = 70001 + 2;
  const uint64_t value = 0x1234567890abcdefull;
  const size_t total = (size_t)(PARTS * stride);
  uint32_t *host = calloc(total, sizeof *host), *back = calloc(total, sizeof *back);
  unsigned long long ctr[GR_XK_PEER + 3 * PARTS] = {0};
  uint64_t ids[PARTS] = {0};
  XH_CHECK(host && back, "no room");
  uint64_t x = 88172645463325252ull;
  for (int j = 0; j < PARTS; j++)
    for (uint64_t w = 0; w < stride; w++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      /* Words past a part's own, and this part's slot, hold bits the seal
       * must neither count nor touch. */
      const uint32_t bits = (uint32_t)x & (uint32_t)(x >> 32);
      host[j * stride + w] = bits;
      if (j != ME && w >= 2 && w < 2 + words[j]) ids[j] += (uint64_t)__builtin_popcount(bits);
    }
  gr_buffer b = GR_BUFFER_INIT, c = GR_BUFFER_INIT;
  XH_CHECK(gr_buffer_resize(&b, dev, total * sizeof *host, 0, "bitmaps") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&c, dev, sizeof ctr, 0, "counters") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, b.ptr, host, total * sizeof *host, GR_COPY_H2D) == GR_SUCCESS, "copy: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, c.ptr, ctr, sizeof ctr, GR_COPY_H2D) == GR_SUCCESS, "copy: %s", gr_error_message());
  for (int j = 0; j < PARTS; j++)
    if (j != ME)
      XH_CHECK(ops->seal(dev, (uint32_t *)b.ptr + j * stride, words[j], value,
                         (unsigned long long *)c.ptr + GR_XK_PEER + PARTS + j) == GR_SUCCESS,
               "seal: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, back, b.ptr, total * sizeof *back, GR_COPY_D2H) == GR_SUCCESS, "copy: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, ctr, c.ptr, sizeof ctr, GR_COPY_D2H) == GR_SUCCESS, "copy: %s", gr_error_message());
  for (int j = 0; j < PARTS; j++) {
    uint64_t head;
    memcpy(&head, back + j * stride, sizeof head);
    if (j == ME) {
      XH_CHECK(!memcmp(back + j * stride, host + j * stride, stride * sizeof *host), "part %d's slot changed", j);
      XH_CHECK(ctr[GR_XK_PEER + PARTS + j] == 0, "part %d counted", j);
      continue;
    }
    XH_CHECK(head == value, "part %d: value %llx", j, (unsigned long long)head);
    XH_CHECK(!memcmp(back + j * stride + 2, host + j * stride + 2, (stride - 2) * sizeof *host), "part %d: bits changed",
             j);
    XH_CHECK(ctr[GR_XK_PEER + PARTS + j] == ids[j], "part %d: %llu ids counted, %llu set", j, ctr[GR_XK_PEER + PARTS + j],
             (unsigned long long)ids[j]);
  }
  for (int k = 0; k < GR_XK_PEER + 3 * PARTS; k++)
    if (k < GR_XK_PEER + PARTS || k >= GR_XK_PEER + 2 * PARTS) XH_CHECK(ctr[k] == 0, "counter %d written", k);
  gr_buffer_release(&b);
  gr_buffer_release(&c);
  free(host);
  free(back);
}

void xh_check_mark_select(const gr_xk_ops *ops, gr_device *dev) {
  enum { N = 100003, MARKED = 20011, LIST = 70001 };
  const size_t words = gr_bitmap_words(N);
  gr_vid *marked = malloc(sizeof *marked * MARKED), *list = malloc(sizeof *list * LIST);
  gr_vid *pos = malloc(sizeof *pos * LIST), *ids = malloc(sizeof *ids * LIST), *back = malloc(sizeof *back * LIST);
  uint32_t *bits = malloc(sizeof *bits * words);
  uint8_t *want = calloc(N, 1), *seen = calloc(LIST, 1);
  XH_CHECK(marked && list && pos && ids && back && bits && want && seen, "no room");
  uint64_t x = 2463534242ull;
  for (int k = 0; k < MARKED; k++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    /* Repeats among the marked: a third of them twice. */
    marked[k] = k % 3 == 2 ? marked[k - 1] : (gr_vid)(x % N);
    want[marked[k]] = 1;
  }
  for (int k = 0; k < LIST; k++) list[k] = (gr_vid)(((uint64_t)k * 7919u + 13u) % N); /* distinct: 7919 is prime */
  gr_buffer bb = GR_BUFFER_INIT, mb = GR_BUFFER_INIT, lb = GR_BUFFER_INIT, pb = GR_BUFFER_INIT, ib = GR_BUFFER_INIT,
            cb = GR_BUFFER_INIT, gb = GR_BUFFER_INIT;
  XH_CHECK(gr_buffer_resize(&bb, dev, words * sizeof *bits, 0, "bits") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&mb, dev, sizeof *marked * MARKED, 0, "marked") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&lb, dev, sizeof *list * LIST, 0, "list") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&pb, dev, sizeof *pos * LIST, 0, "pos") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&ib, dev, sizeof *ids * LIST, 0, "ids") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&gb, dev, sizeof *back * LIST, 0, "back") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&cb, dev, sizeof(unsigned long long), 0, "counter") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_device_memset(dev, bb.ptr, 0, words * sizeof *bits) == GR_SUCCESS, "memset: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, mb.ptr, marked, sizeof *marked * MARKED, GR_COPY_H2D) == GR_SUCCESS, "copy");
  XH_CHECK(gr_device_copy(dev, lb.ptr, list, sizeof *list * LIST, GR_COPY_H2D) == GR_SUCCESS, "copy");
  /* The marked ids as four lists (one empty, one of a single id) into two
   * bitmaps at once, the second holding bits already (they stay); then as
   * one list into one bitmap, with bits[1] NULL. */
  gr_buffer ab = GR_BUFFER_INIT;
  XH_CHECK(gr_buffer_resize(&ab, dev, words * sizeof *bits, 0, "also") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_device_memset(dev, ab.ptr, 0x41, words * sizeof *bits) == GR_SUCCESS, "memset: %s", gr_error_message());
  gr_xk_mark_args mk;
  memset(&mk, 0, sizeof mk);
  mk.bits[0] = bb.ptr;
  mk.bits[1] = ab.ptr;
  const uint64_t cut[5] = {0, 7001, 7001, 7002, MARKED};
  for (int i = 0; i < 4; i++) {
    mk.ids[i] = (const gr_vid *)mb.ptr + cut[i];
    mk.n[i] = cut[i + 1] - cut[i];
  }
  mk.lists = 4;
  XH_CHECK(ops->mark(dev, &mk) == GR_SUCCESS, "mark: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, bits, ab.ptr, words * sizeof *bits, GR_COPY_D2H) == GR_SUCCESS, "copy");
  for (gr_vid v = 0; v < N; v++) {
    const unsigned preset = (0x41414141u >> (v & 31u)) & 1u;
    XH_CHECK(((bits[v >> 5] >> (v & 31u)) & 1u) == (want[v] | preset), "second bitmap: bit of %llu is %u",
             (unsigned long long)v, (bits[v >> 5] >> (v & 31u)) & 1u);
  }
  gr_buffer_release(&ab);
  XH_CHECK(gr_device_copy(dev, bits, bb.ptr, words * sizeof *bits, GR_COPY_D2H) == GR_SUCCESS, "copy");
  for (gr_vid v = 0; v < N; v++)
    XH_CHECK(((bits[v >> 5] >> (v & 31u)) & 1u) == want[v], "bit of %llu is %u", (unsigned long long)v,
             (bits[v >> 5] >> (v & 31u)) & 1u);
  XH_CHECK(gr_device_memset(dev, bb.ptr, 0, words * sizeof *bits) == GR_SUCCESS, "memset: %s", gr_error_message());
  memset(&mk, 0, sizeof mk);
  mk.bits[0] = bb.ptr;
  mk.ids[0] = mb.ptr;
  mk.n[0] = MARKED;
  mk.lists = 1;
  XH_CHECK(ops->mark(dev, &mk) == GR_SUCCESS, "mark: %s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, bits, bb.ptr, words * sizeof *bits, GR_COPY_D2H) == GR_SUCCESS, "copy");
  for (gr_vid v = 0; v < N; v++)
    XH_CHECK(((bits[v >> 5] >> (v & 31u)) & 1u) == want[v], "one list: bit of %llu is %u", (unsigned long long)v,
             (bits[v >> 5] >> (v & 31u)) & 1u);
  uint64_t hits = 0;
  for (int k = 0; k < LIST; k++) hits += want[list[k]];
  XH_CHECK(hits > 100 && hits < LIST / 2, "%llu hits", (unsigned long long)hits);
  /* Room for all of them, then for a quarter: counted past it, never
   * written. */
  const uint64_t caps[2] = {LIST, hits / 4};
  for (int round = 0; round < 2; round++) {
    const unsigned long long zero = 0;
    unsigned long long count = 0;
    XH_CHECK(gr_device_copy(dev, cb.ptr, &zero, sizeof zero, GR_COPY_H2D) == GR_SUCCESS, "copy");
    XH_CHECK(gr_device_memset(dev, pb.ptr, 0xff, sizeof *pos * LIST) == GR_SUCCESS, "memset");
    XH_CHECK(ops->select(dev, bb.ptr, lb.ptr, LIST, pb.ptr, ib.ptr, caps[round], cb.ptr) == GR_SUCCESS, "select: %s",
             gr_error_message());
    XH_CHECK(gr_device_copy(dev, &count, cb.ptr, sizeof count, GR_COPY_D2H) == GR_SUCCESS, "copy");
    XH_CHECK(gr_device_copy(dev, pos, pb.ptr, sizeof *pos * LIST, GR_COPY_D2H) == GR_SUCCESS, "copy");
    XH_CHECK(gr_device_copy(dev, ids, ib.ptr, sizeof *ids * LIST, GR_COPY_D2H) == GR_SUCCESS, "copy");
    XH_CHECK(count == hits, "round %d: %llu selected, %llu marked", round, count, (unsigned long long)hits);
    const uint64_t written = count < caps[round] ? count : caps[round];
    memset(seen, 0, LIST);
    for (uint64_t r = 0; r < written; r++) {
      XH_CHECK(pos[r] < LIST, "round %d: position %llu", round, (unsigned long long)pos[r]);
      XH_CHECK(!seen[pos[r]], "round %d: position %llu twice", round, (unsigned long long)pos[r]);
      seen[pos[r]] = 1;
      XH_CHECK(ids[r] == list[pos[r]] && want[ids[r]], "round %d: slot %llu holds %llu at %llu", round,
               (unsigned long long)r, (unsigned long long)ids[r], (unsigned long long)pos[r]);
    }
    for (uint64_t r = written; r < LIST; r++)
      XH_CHECK(pos[r] == (gr_vid)-1, "round %d: slot %llu past the room written", round, (unsigned long long)r);
  }
  /* The receiver's look-up: copies' ids by position. */
  XH_CHECK(ops->gather(dev, gb.ptr, lb.ptr, pb.ptr, hits / 4, (int)sizeof(gr_vid)) == GR_SUCCESS, "gather: %s",
           gr_error_message());
  XH_CHECK(gr_device_copy(dev, back, gb.ptr, sizeof *back * (hits / 4), GR_COPY_D2H) == GR_SUCCESS, "copy");
  for (uint64_t r = 0; r < hits / 4; r++) XH_CHECK(back[r] == ids[r], "gather slot %llu", (unsigned long long)r);
  gr_buffer *all[] = {&bb, &mb, &lb, &pb, &ib, &cb, &gb};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) gr_buffer_release(all[k]);
  free(marked);
  free(list);
  free(pos);
  free(ids);
  free(back);
  free(bits);
  free(want);
  free(seen);
}

void xh_check_or_union(const gr_xk_ops *ops, gr_device *dev) {
  /* Words not a multiple of 4, sparse and dense bitmaps, 0 to
   * GR_XK_OR_MAX sources, into a separate union or into the base itself,
   * with and without a bitmap that also takes the union; more than
   * GR_XK_OR_MAX sources refused. */
  enum { WORDS = 40009, N = GR_XK_OR_MAX + 2 };
  uint32_t *host = malloc(sizeof *host * WORDS * N), *got = malloc(sizeof *got * WORDS);
  uint32_t *also0 = malloc(sizeof *also0 * WORDS), *want = malloc(sizeof *want * WORDS);
  XH_CHECK(host && got && also0 && want, "no room");
  uint64_t x = 88172645463325252ull;
  for (size_t k = 0; k < (size_t)WORDS * N; k++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    /* Bitmap b keeps about one bit in 2^(b % 4) of each word's. */
    const size_t b = k / WORDS;
    uint32_t w = (uint32_t)x;
    for (size_t d = 0; d < b % 4; d++) w &= (uint32_t)(x >> (8 * (d + 1)));
    host[k] = w;
  }
  gr_buffer bits = GR_BUFFER_INIT, dst = GR_BUFFER_INIT, also = GR_BUFFER_INIT;
  XH_CHECK(gr_buffer_resize(&bits, dev, sizeof *host * WORDS * N, 0, "bits") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&dst, dev, sizeof *host * WORDS, 0, "union") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_buffer_resize(&also, dev, sizeof *host * WORDS, 0, "also") == GR_SUCCESS, "%s", gr_error_message());
  XH_CHECK(gr_device_copy(dev, bits.ptr, host, sizeof *host * WORDS * N, GR_COPY_H2D) == GR_SUCCESS, "copy");
  uint32_t *b = bits.ptr;
  const int counts[] = {0, 1, 3, GR_XK_OR_MAX};
  for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
    for (int into_base = 0; into_base < 2; into_base++)
      for (int with_also = 0; with_also < 2; with_also++) {
        const int n_src = counts[ci];
        /* The base is bitmap 0 (copied to the union first when or'ed into
         * it), the sources bitmaps 1.., the bitmap that also takes the
         * union starts as the last one. */
        for (size_t w = 0; w < WORDS; w++) also0[w] = host[(size_t)(N - 1) * WORDS + w];
        XH_CHECK(gr_device_copy(dev, also.ptr, also0, sizeof *host * WORDS, GR_COPY_H2D) == GR_SUCCESS, "copy");
        if (into_base)
          XH_CHECK(gr_device_copy(dev, dst.ptr, host, sizeof *host * WORDS, GR_COPY_H2D) == GR_SUCCESS, "copy");
        else
          XH_CHECK(gr_device_memset(dev, dst.ptr, 0xa5, sizeof *host * WORDS) == GR_SUCCESS, "memset");
        gr_xk_or_args o;
        memset(&o, 0, sizeof o);
        o.dst = dst.ptr;
        o.base = into_base ? dst.ptr : b;
        for (int k = 0; k < n_src; k++) o.src[k] = b + (size_t)(k + 1) * WORDS;
        o.n_src = n_src;
        o.also = with_also ? also.ptr : NULL;
        o.words = WORDS;
        XH_CHECK(ops->or_union(dev, &o) == GR_SUCCESS, "or_union: %s", gr_error_message());
        for (size_t w = 0; w < WORDS; w++) {
          uint32_t v = host[w];
          for (int k = 0; k < n_src; k++) v |= host[(size_t)(k + 1) * WORDS + w];
          want[w] = v;
        }
        XH_CHECK(gr_device_copy(dev, got, dst.ptr, sizeof *got * WORDS, GR_COPY_D2H) == GR_SUCCESS, "copy");
        for (size_t w = 0; w < WORDS; w++)
          XH_CHECK(got[w] == want[w], "%d sources%s: union word %zu is %08x, not %08x", n_src,
                   into_base ? " into the base" : "", w, got[w], want[w]);
        XH_CHECK(gr_device_copy(dev, got, also.ptr, sizeof *got * WORDS, GR_COPY_D2H) == GR_SUCCESS, "copy");
        for (size_t w = 0; w < WORDS; w++) {
          const uint32_t a = with_also ? also0[w] | want[w] : also0[w];
          XH_CHECK(got[w] == a, "%d sources: also's word %zu is %08x, not %08x", n_src, w, got[w], a);
        }
      }
  gr_xk_or_args too_many;
  memset(&too_many, 0, sizeof too_many);
  too_many.dst = dst.ptr;
  too_many.base = b;
  too_many.n_src = GR_XK_OR_MAX + 1;
  too_many.words = WORDS;
  XH_CHECK(ops->or_union(dev, &too_many) == GR_ERR_INTERNAL, "an or of %d bitmaps was taken", GR_XK_OR_MAX + 1);
  gr_buffer_release(&bits);
  gr_buffer_release(&dst);
  gr_buffer_release(&also);
  free(host);
  free(got);
  free(also0);
  free(want);
}

/* xorshift64: one draw a call (a call per operand, each sequenced). */
static uint64_t xh_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

void xh_check_or_owned(const gr_xk_ops *ops, gr_device *dev) {
  enum { WORDS = 20011, MAXP = 5 };
  uint8_t *owner = malloc(WORDS);
  uint32_t *bitmap = malloc(sizeof *bitmap * (WORDS + 1)), *packed = malloc(sizeof *packed * (WORDS + 1) * MAXP);
  uint32_t *got = malloc(sizeof *got * (WORDS + 1)), *also0 = malloc(sizeof *also0 * (WORDS + 1));
  XH_CHECK(owner && bitmap && packed && got && also0, "no room");
  uint64_t x = 0x9e3779b97f4a7c15ull;
  gr_buffer dpacked = GR_BUFFER_INIT, dst = GR_BUFFER_INIT, also = GR_BUFFER_INIT, downer = GR_BUFFER_INIT,
            dgroups = GR_BUFFER_INIT;
  for (int parts = 1; parts <= MAXP; parts++)
    for (int tail = 0; tail < 2; tail++)
      for (int silent = -1; silent < parts; silent += parts > 1 ? parts : 1) {
        /* Runs of words of one owner, as blocks of 32 ids or more make
         * them, and single words between. */
        for (size_t w = 0; w < WORDS;) {
          const uint8_t o = (uint8_t)(xh_next(&x) % (uint64_t)parts);
          const size_t run = xh_next(&x) % 4 == 0 ? 1 + xh_next(&x) % 70 : 1;
          for (size_t k = 0; k < run && w < WORDS; k++) owner[w++] = o;
        }
        const size_t total = WORDS + (size_t)tail;
        for (size_t w = 0; w < total; w++) {
          const uint32_t r1 = (uint32_t)xh_next(&x);
          bitmap[w] = r1 & (uint32_t)(xh_next(&x) >> 3);
          also0[w] = (uint32_t)xh_next(&x) & 0x01010101u;
        }
        gr_word_group *groups = NULL;
        uint64_t part_words[GR_COMM_MAX_DEVICES];
        XH_CHECK(gr_xk_word_groups(owner, WORDS, parts, &groups, part_words) == GR_SUCCESS && groups, "%s",
                 gr_error_message());
        uint64_t sum = 0;
        for (int o = 0; o < parts; o++) sum += part_words[o];
        XH_CHECK(sum == WORDS, "%d parts own %llu of %d words", parts, (unsigned long long)sum, (int)WORDS);
        /* Each part's words at their slots (what a pull's finds write),
         * the partial last word at slot part_words[o] of every part (the
         * tail's bits dealt out among the parts). */
        uint64_t at[MAXP];
        for (int o = 0; o < parts; o++) at[o] = (uint64_t)o * (WORDS + 1);
        memset(packed, 0xee, sizeof *packed * (WORDS + 1) * MAXP);
        for (size_t w = 0; w < WORDS; w++) {
          const int o = owner[w];
          gr_owner_words ow = {groups, WORDS, part_words[o], part_words[o] + (uint64_t)tail, parts, o};
          const gr_owner_slots sl = gr_owner_words_slots(&ow);
          const uint64_t slot = gr_owner_slot(sl, w);
          XH_CHECK(slot < part_words[o], "word %zu of part %d at slot %llu of %llu", w, o, (unsigned long long)slot,
                   (unsigned long long)part_words[o]);
          packed[at[o] + slot] = bitmap[w];
        }
        for (int o = 0; o < parts && tail; o++) {
          const uint32_t share = (uint32_t)(0x11111111u << o) & bitmap[WORDS];
          packed[at[o] + part_words[o]] = share;
          gr_owner_words ow = {groups, WORDS, part_words[o], part_words[o] + 1, parts, o};
          XH_CHECK(gr_owner_slot(gr_owner_words_slots(&ow), WORDS) == part_words[o], "the last word's slot");
        }
        /* A silent part sent nothing: its words read as zeros. */
        uint32_t want_tail = 0;
        for (int o = 0; o < parts && tail; o++)
          if (o != silent) want_tail |= (uint32_t)(0x11111111u << o) & bitmap[WORDS];
        const size_t gbytes = (WORDS + 31) / 32 * (size_t)parts * sizeof *groups;
        XH_CHECK(gr_buffer_resize(&dpacked, dev, sizeof *packed * (WORDS + 1) * MAXP, 0, "packed") == GR_SUCCESS &&
                     gr_buffer_resize(&dst, dev, sizeof *got * total, 0, "union") == GR_SUCCESS &&
                     gr_buffer_resize(&also, dev, sizeof *got * total, 0, "also") == GR_SUCCESS &&
                     gr_buffer_resize(&downer, dev, WORDS, 0, "owners") == GR_SUCCESS &&
                     gr_buffer_resize(&dgroups, dev, gbytes, 0, "groups") == GR_SUCCESS,
                 "%s", gr_error_message());
        XH_CHECK(gr_device_copy(dev, dpacked.ptr, packed, sizeof *packed * (WORDS + 1) * MAXP, GR_COPY_H2D) ==
                         GR_SUCCESS &&
                     gr_device_copy(dev, also.ptr, also0, sizeof *also0 * total, GR_COPY_H2D) == GR_SUCCESS &&
                     gr_device_copy(dev, downer.ptr, owner, WORDS, GR_COPY_H2D) == GR_SUCCESS &&
                     gr_device_copy(dev, dgroups.ptr, groups, gbytes, GR_COPY_H2D) == GR_SUCCESS &&
                     gr_device_memset(dev, dst.ptr, 0xa5, sizeof *got * total) == GR_SUCCESS,
                 "copy");
        gr_xk_or_owned_args a;
        memset(&a, 0, sizeof a);
        a.dst = dst.ptr;
        a.also = also.ptr;
        a.word_owner = downer.ptr;
        a.groups = dgroups.ptr;
        a.words = WORDS;
        a.tail = tail != 0;
        a.parts = parts;
        for (int o = 0; o < parts; o++) {
          a.part_words[o] = part_words[o];
          a.from[o] = o == silent ? NULL : (const uint32_t *)dpacked.ptr + at[o];
        }
        XH_CHECK(ops->or_owned(dev, &a) == GR_SUCCESS, "or_owned: %s", gr_error_message());
        XH_CHECK(gr_device_copy(dev, got, dst.ptr, sizeof *got * total, GR_COPY_D2H) == GR_SUCCESS, "copy");
        for (size_t w = 0; w < total; w++) {
          const uint32_t want = w == WORDS ? want_tail : owner[w] == silent ? 0u : bitmap[w];
          XH_CHECK(got[w] == want, "%d parts, silent %d: union word %zu is %08x, not %08x", parts, silent, w, got[w],
                   want);
        }
        XH_CHECK(gr_device_copy(dev, got, also.ptr, sizeof *got * total, GR_COPY_D2H) == GR_SUCCESS, "copy");
        for (size_t w = 0; w < total; w++) {
          const uint32_t want = also0[w] | (w == WORDS ? want_tail : owner[w] == silent ? 0u : bitmap[w]);
          XH_CHECK(got[w] == want, "%d parts: also's word %zu is %08x, not %08x", parts, w, got[w], want);
        }
        free(groups);
      }
  /* A word whose owner is no part: no groups. */
  owner[7] = MAXP;
  gr_word_group *none = NULL;
  uint64_t pw[GR_COMM_MAX_DEVICES];
  XH_CHECK(gr_xk_word_groups(owner, WORDS, MAXP, &none, pw) == GR_SUCCESS && !none, "a word of part %d got groups",
           MAXP);
  gr_buffer_release(&dpacked);
  gr_buffer_release(&dst);
  gr_buffer_release(&also);
  gr_buffer_release(&downer);
  gr_buffer_release(&dgroups);
  free(owner);
  free(bitmap);
  free(packed);
  free(got);
  free(also0);
}

static int xh_cmp_vid(const void *a, const void *b) {
  const gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

void xh_check_compact(const gr_xk_ops *ops, gr_device *dev) {
  enum { WORDS = 40003 };
  const uint64_t nv = (uint64_t)WORDS * 32u;
  uint32_t *bits = calloc(WORDS, sizeof *bits);
  gr_eid *deg = malloc((nv + 1) * sizeof *deg);
  gr_vid *next = malloc(nv * sizeof *next);
  uint32_t *vals = malloc(nv * sizeof *vals);
  XH_CHECK(bits && deg && next && vals, "no room");
  uint64_t ids = 0, sum = 0, most = 0, x = 2463534242ull;
  deg[0] = 0;
  for (uint64_t v = 0; v < nv; v++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const uint64_t d = x % 97u;
    deg[v + 1] = deg[v] + d;
    /* Dense stretches and empty ones. */
    if ((v / 4096) % 3 != 1 && (x >> 20) % 5 < 2) {
      bits[v >> 5] |= 1u << (v & 31u);
      ids++;
      sum += d;
      most = d > most ? d : most;
    }
  }
  /* Owners: part 1 of 3 keeps the ids v % 3 == 1 of pass 2, and those of
   * the words k % 3 == 1 of pass 3 (whole words of one owner: the table by
   * words is read instead, except for the last word, which ends past the
   * last id). */
  uint8_t *owner = malloc(nv), *blocks = malloc(nv), *words8 = NULL;
  XH_CHECK(owner && blocks, "no room");
  uint64_t ids1 = 0, sum1 = 0, most1 = 0, idsb = 0, sumb = 0, mostb = 0;
  for (uint64_t v = 0; v < nv; v++) {
    owner[v] = (uint8_t)(v % 3);
    blocks[v] = (uint8_t)((v / 32) % 3);
    const uint64_t d = deg[v + 1] - deg[v];
    if (owner[v] == 1 && ((bits[v >> 5] >> (v & 31u)) & 1u)) {
      ids1++;
      sum1 += d;
      most1 = d > most1 ? d : most1;
    }
    if (blocks[v] == 1 && ((bits[v >> 5] >> (v & 31u)) & 1u)) {
      idsb++;
      sumb += d;
      mostb = d > mostb ? d : mostb;
    }
  }
  XH_CHECK(gr_xk_word_owners(owner, nv, &words8) == GR_SUCCESS && !words8, "words of mixed owners got a table");
  XH_CHECK(gr_xk_word_owners(blocks, nv, &words8) == GR_SUCCESS && words8, "words of one owner got no table");
  for (uint64_t k = 0; k < WORDS; k++) XH_CHECK(words8[k] == k % 3, "word %llu's owner %u", (unsigned long long)k, words8[k]);
  for (int pass = 0; pass < 4; pass++) {
    /* Pass 1: a next of a third of the ids: counted past it, not written.
     * Passes 2 and 3: only the ids the owner table gives to part 1. */
    const uint64_t cap = pass == 1 ? ids / 3 : ids;
    const uint8_t *own = pass == 2 ? owner : pass == 3 ? blocks : NULL;
    /* Pass 3 also seals the bitmap as a message: its value ahead of the
     * words, every id counted (gr_xk_compact_args.sealed). */
    const bool seal = pass == 3;
    gr_buffer b = GR_BUFFER_INIT, d = GR_BUFFER_INIT, o = GR_BUFFER_INIT, c = GR_BUFFER_INIT;
    unsigned long long ctr[GR_XK_PEER + 1] = {0};
    XH_CHECK(gr_buffer_resize(&b, dev, (WORDS + 2) * sizeof *bits, 0, "bits") == GR_SUCCESS, "%s",
             gr_error_message());
    uint32_t *words_d = (uint32_t *)b.ptr + 2;
    XH_CHECK(gr_buffer_resize(&d, dev, (nv + 1) * sizeof *deg, 0, "deg") == GR_SUCCESS, "%s", gr_error_message());
    XH_CHECK(gr_buffer_resize(&o, dev, (cap + 1) * sizeof *next, 0, "next") == GR_SUCCESS, "%s", gr_error_message());
    XH_CHECK(gr_buffer_resize(&c, dev, sizeof ctr, 0, "counters") == GR_SUCCESS, "%s", gr_error_message());
    XH_CHECK(gr_device_copy(dev, words_d, bits, WORDS * sizeof *bits, GR_COPY_H2D) == GR_SUCCESS, "copy");
    XH_CHECK(gr_device_copy(dev, d.ptr, deg, (nv + 1) * sizeof *deg, GR_COPY_H2D) == GR_SUCCESS, "copy");
    XH_CHECK(gr_device_copy(dev, c.ptr, ctr, sizeof ctr, GR_COPY_H2D) == GR_SUCCESS, "copy");
    gr_buffer ob = GR_BUFFER_INIT, wb = GR_BUFFER_INIT;
    if (own) {
      XH_CHECK(gr_buffer_resize(&ob, dev, nv, 0, "owners") == GR_SUCCESS, "%s", gr_error_message());
      XH_CHECK(gr_device_copy(dev, ob.ptr, own, nv, GR_COPY_H2D) == GR_SUCCESS, "copy");
    }
    if (pass == 3) {
      XH_CHECK(gr_buffer_resize(&wb, dev, WORDS, 0, "owners by words") == GR_SUCCESS, "%s", gr_error_message());
      XH_CHECK(gr_device_copy(dev, wb.ptr, words8, WORDS, GR_COPY_H2D) == GR_SUCCESS, "copy");
    }
    /* Passes 0 and 2 give the ids taken the value 7: they hold none (-1)
     * yet, as a routed claim's vertex does; the others keep theirs (3, 9
     * or none). */
    gr_buffer vb = GR_BUFFER_INIT;
    const bool with_values = pass != 1;
#define XH_TAKEN(v) (((bits[(v) >> 5] >> ((v) & 31u)) & 1u) && (!own || own[v] == 1))
    if (with_values) {
      for (uint64_t v = 0; v < nv; v++) vals[v] = XH_TAKEN(v) ? UINT32_MAX : v % 5 == 0 ? 3u : v % 5 == 1 ? 9u : UINT32_MAX;
      XH_CHECK(gr_buffer_resize(&vb, dev, nv * sizeof *vals, 0, "values") == GR_SUCCESS, "%s", gr_error_message());
      XH_CHECK(gr_device_copy(dev, vb.ptr, vals, nv * sizeof *vals, GR_COPY_H2D) == GR_SUCCESS, "copy");
    }
    unsigned long long *ctr_d = c.ptr;
    /* Passes 2 and 3 copy the bitmap as they read it, every word whatever
     * its owner: pass 2 into two bitmaps (the culling bitmap and the
     * claims), pass 3 into the first only. */
    gr_buffer cb[2] = {GR_BUFFER_INIT, GR_BUFFER_INIT};
    for (int k = 0; pass >= 2 && k < 2; k++) {
      XH_CHECK(gr_buffer_resize(&cb[k], dev, WORDS * sizeof *bits, 0, "copy") == GR_SUCCESS, "%s", gr_error_message());
      XH_CHECK(gr_device_memset(dev, cb[k].ptr, 0xa5, WORDS * sizeof *bits) == GR_SUCCESS, "memset");
    }
    const gr_xk_compact_args ca = {words_d, WORDS, own ? ob.ptr : NULL, 1, o.ptr, cap, d.ptr, ctr_d,
                                   vb.ptr, 4, with_values ? 7u : 0u, wb.ptr, seal ? b.ptr : NULL,
                                   seal ? ctr_d + GR_XK_PEER : NULL, {cb[0].ptr, pass == 2 ? cb[1].ptr : NULL}};
    XH_CHECK(ops->compact(dev, &ca) == GR_SUCCESS, "compact: %s", gr_error_message());
    for (int k = 0; pass >= 2 && k < 2; k++) {
      uint32_t *got = malloc(WORDS * sizeof *got);
      XH_CHECK(got, "no room");
      XH_CHECK(gr_device_copy(dev, got, cb[k].ptr, WORDS * sizeof *got, GR_COPY_D2H) == GR_SUCCESS, "copy");
      for (uint64_t w = 0; w < WORDS; w++) {
        const uint32_t want = k == 1 && pass == 3 ? 0xa5a5a5a5u : bits[w];
        XH_CHECK(got[w] == want, "pass %d: copy %d's word %llu is %08x, not %08x", pass, k, (unsigned long long)w, got[w],
                 want);
      }
      free(got);
      gr_buffer_release(&cb[k]);
    }
    gr_buffer_release(&ob);
    gr_buffer_release(&wb);
    if (with_values) {
      XH_CHECK(gr_device_copy(dev, vals, vb.ptr, nv * sizeof *vals, GR_COPY_D2H) == GR_SUCCESS, "copy: %s",
               gr_error_message());
      gr_buffer_release(&vb);
      for (uint64_t v = 0; v < nv; v++) {
        const uint32_t want = XH_TAKEN(v) ? 7u : v % 5 == 0 ? 3u : v % 5 == 1 ? 9u : UINT32_MAX;
        XH_CHECK(vals[v] == want, "value of %llu: %u, want %u", (unsigned long long)v, vals[v], want);
      }
    }
#undef XH_TAKEN
    XH_CHECK(gr_device_copy(dev, ctr, c.ptr, sizeof ctr, GR_COPY_D2H) == GR_SUCCESS, "copy: %s", gr_error_message());
    if (seal) {
      uint32_t head[2] = {0, 0};
      XH_CHECK(gr_device_copy(dev, head, b.ptr, sizeof head, GR_COPY_D2H) == GR_SUCCESS, "copy");
      XH_CHECK(head[0] == 7u && head[1] == 0u, "sealed value %u:%u, want 7", head[1], head[0]);
      XH_CHECK(ctr[GR_XK_PEER] == ids, "sealed %llu ids of %llu", ctr[GR_XK_PEER], (unsigned long long)ids);
    } else {
      XH_CHECK(ctr[GR_XK_PEER] == 0, "%llu ids sealed, unasked", ctr[GR_XK_PEER]);
    }
    XH_CHECK(gr_device_copy(dev, next, o.ptr, cap * sizeof *next, GR_COPY_D2H) == GR_SUCCESS, "copy: %s",
             gr_error_message());
    const uint64_t want = pass == 3 ? idsb : own ? ids1 : ids, wsum = pass == 3 ? sumb : own ? sum1 : sum,
                   wmost = pass == 3 ? mostb : own ? most1 : most;
    XH_CHECK(ctr[GR_XK_NEXT] == want, "%llu ids counted, %llu set", ctr[GR_XK_NEXT], (unsigned long long)want);
    XH_CHECK(ctr[GR_XK_NEXT_EDGES] == wsum && ctr[GR_XK_NEXT_MAXDEG] == wmost, "degrees %llu/%llu, want %llu/%llu",
             ctr[GR_XK_NEXT_EDGES], ctr[GR_XK_NEXT_MAXDEG], (unsigned long long)wsum, (unsigned long long)wmost);
    if (pass != 1) {
      qsort(next, want, sizeof *next, xh_cmp_vid);
      uint64_t k = 0;
      for (uint64_t v = 0; v < nv; v++)
        if (((bits[v >> 5] >> (v & 31u)) & 1u) && (!own || own[v] == 1)) {
          XH_CHECK(k < want && next[k] == (gr_vid)v, "next[%llu] = %llu, want %llu", (unsigned long long)k,
                   (unsigned long long)next[k], (unsigned long long)v);
          k++;
        }
    } else {
      for (uint64_t k = 0; k < cap; k++)
        XH_CHECK(next[k] < nv && ((bits[next[k] >> 5] >> (next[k] & 31u)) & 1u), "next[%llu] = %llu not set",
                 (unsigned long long)k, (unsigned long long)next[k]);
    }
    gr_buffer_release(&b);
    gr_buffer_release(&d);
    gr_buffer_release(&o);
    gr_buffer_release(&c);
  }
  free(owner);
  free(blocks);
  free(words8);
  free(bits);
  free(deg);
  free(next);
  free(vals);
}

/* A combine's next frontier (counters[GR_XK_NEXT] ids at next_d, at most
 * cap), read back and sorted; freed by the caller. */
static gr_vid *xh_sorted_next(gr_device *dev, const void *next_d, unsigned long long n, gr_vid cap, uint64_t *count) {
  XH_CHECK(n <= cap, "next of %llu", n);
  gr_vid *ids = malloc((n + 1) * sizeof(gr_vid));
  XH_CHECK(ids, "no room");
  XH_CHECK(gr_device_copy(dev, ids, next_d, n * sizeof(gr_vid), GR_COPY_D2H) == GR_SUCCESS, "copy");
  qsort(ids, n, sizeof(gr_vid), xh_cmp_vid);
  *count = n;
  return ids;
}

/* The next frontiers of the two ways (one combine each, and one for all):
 * the same ids, none twice, and some. */
static void xh_same_next(gr_vid *const nexts[2], const uint64_t n_next[2], const char *what) {
  XH_CHECK(n_next[0] == n_next[1] && n_next[0] > 0, "%s: next: %llu one after another, %llu at once", what,
           (unsigned long long)n_next[0], (unsigned long long)n_next[1]);
  for (uint64_t i = 0; i < n_next[0]; i++)
    XH_CHECK(nexts[0][i] == nexts[1][i] && (i == 0 || nexts[1][i - 1] < nexts[1][i]), "%s: next[%llu]: %u and %u",
             what, (unsigned long long)i, (unsigned)nexts[0][i], (unsigned)nexts[1][i]);
}

/* Three peers' bitmaps of one step (a uniform MIN value, the settled words
 * taken whole, the copies dropped with their owners' words) combined in one
 * pass (n_more) and one after another: the same values, settled and claimed
 * words, next frontier (as a set), and ids counted per message. */
void xh_check_combine_more(const gr_xk_ops *ops, gr_device *dev) {
  enum { WORDS = 20011, MSGS = 3 };
  const gr_vid nv = (gr_vid)WORDS * 32u;
  const size_t bb = GR_XK_BITMAP_HEADER + WORDS * sizeof(uint32_t);
  unsigned char *msg = calloc(MSGS, bb);
  uint32_t *settled0 = calloc(WORDS, sizeof(uint32_t));
  gr_svid *depth0 = malloc(nv * sizeof(gr_svid));
  uint8_t *owner = malloc(nv);
  XH_CHECK(msg && settled0 && depth0 && owner, "no room");
  const gr_svid value = 5;
  uint64_t items[MSGS] = {0};
  for (int j = 0; j < MSGS; j++) {
    memcpy(msg + (size_t)j * bb, &value, sizeof value);
    uint32_t *w = (uint32_t *)(msg + (size_t)j * bb + GR_XK_BITMAP_HEADER);
    for (gr_vid v = 0; v < nv; v++)
      if (gr_rand64(41 + (uint64_t)j, 1, v) % 7 < 2 && (v / 4096) % 4 != 3) {
        w[v >> 5] |= 1u << (v & 31u);
        items[j]++;
      }
  }
  for (gr_vid v = 0; v < nv; v++) {
    owner[v] = (uint8_t)(gr_rand64(43, 2, v / 32) % 3); /* whole words of one owner, and single ids below */
    if (v >= nv / 2) owner[v] = (uint8_t)(gr_rand64(43, 3, v) % 3);
    const bool set = gr_rand64(47, 4, v) % 5 == 0;
    if (set) settled0[v >> 5] |= 1u << (v & 31u);
    depth0[v] = set ? 2 : gr_rand64(53, 5, v) % 11 == 0 ? 1 : -1;
  }
  gr_vid *nexts[2] = {NULL, NULL};
  uint64_t n_next[2] = {0, 0};
  uint32_t *settled[2], *claims[2];
  gr_svid *depth[2];
  unsigned long long found[2][MSGS];
  for (int way = 0; way < 2; way++) {
    gr_buffer m = GR_BUFFER_INIT, st = GR_BUFFER_INIT, cl = GR_BUFFER_INIT, dp = GR_BUFFER_INIT, ow = GR_BUFFER_INIT,
              nx = GR_BUFFER_INIT, ct = GR_BUFFER_INIT, cu = GR_BUFFER_INIT;
    const int nctr = gr_xk_counters(MSGS + 1);
    XH_CHECK(gr_buffer_resize(&m, dev, MSGS * bb, 0, "messages") == GR_SUCCESS &&
                 gr_buffer_resize(&st, dev, WORDS * sizeof(uint32_t), 0, "settled") == GR_SUCCESS &&
                 gr_buffer_resize(&cl, dev, WORDS * sizeof(uint32_t), 0, "claims") == GR_SUCCESS &&
                 gr_buffer_resize(&cu, dev, WORDS * sizeof(uint32_t), 0, "cull") == GR_SUCCESS &&
                 gr_buffer_resize(&dp, dev, nv * sizeof(gr_svid), 0, "depths") == GR_SUCCESS &&
                 gr_buffer_resize(&ow, dev, nv, 0, "owners") == GR_SUCCESS &&
                 gr_buffer_resize(&nx, dev, nv * sizeof(gr_vid), 0, "next") == GR_SUCCESS &&
                 gr_buffer_resize(&ct, dev, (size_t)nctr * sizeof(unsigned long long), 0, "counters") == GR_SUCCESS,
             "%s", gr_error_message());
    XH_CHECK(gr_device_copy(dev, m.ptr, msg, MSGS * bb, GR_COPY_H2D) == GR_SUCCESS &&
                 gr_device_copy(dev, st.ptr, settled0, WORDS * sizeof(uint32_t), GR_COPY_H2D) == GR_SUCCESS &&
                 gr_device_copy(dev, dp.ptr, depth0, nv * sizeof(gr_svid), GR_COPY_H2D) == GR_SUCCESS &&
                 gr_device_copy(dev, ow.ptr, owner, nv, GR_COPY_H2D) == GR_SUCCESS &&
                 gr_device_memset(dev, cl.ptr, 0, WORDS * sizeof(uint32_t)) == GR_SUCCESS &&
                 gr_device_memset(dev, cu.ptr, 0, WORDS * sizeof(uint32_t)) == GR_SUCCESS &&
                 gr_device_memset(dev, ct.ptr, 0, (size_t)nctr * sizeof(unsigned long long)) == GR_SUCCESS,
             "copy: %s", gr_error_message());
    gr_xk_combine_args a;
    memset(&a, 0, sizeof a);
    a.format = GR_XK_BITMAP;
    a.universe = nv;
    a.owner = ow.ptr;
    a.me = 1;
    a.pay.n_values = 1;
    a.pay.values[0] = dp.ptr;
    a.layout = gr_xk_layout_make(1, sizeof(gr_svid), 0);
    a.type = GR_VALUE_SVID;
    a.op = GR_COMBINE_MIN;
    a.pass = 1;
    a.cull = cu.ptr;
    a.settled = st.ptr;
    a.settle_copies_bare = true;
    a.claims = cl.ptr;
    a.next = nx.ptr;
    a.next_capacity = nv;
    a.counters = ct.ptr;
    for (int j = 0; j < MSGS; j++) {
      if (way == 1 && j > 0) break;
      a.msg = (const unsigned char *)m.ptr + (size_t)j * bb;
      a.found = GR_XK_PEER + 2 * (MSGS + 1) + j;
      a.n_more = 0;
      for (int k = 1; way == 1 && k < MSGS; k++) {
        a.more_msg[a.n_more] = (const unsigned char *)m.ptr + (size_t)k * bb;
        a.more_found[a.n_more++] = GR_XK_PEER + 2 * (MSGS + 1) + k;
      }
      XH_CHECK(ops->combine(dev, &a) == GR_SUCCESS, "combine: %s", gr_error_message());
    }
    unsigned long long *ctr = malloc((size_t)nctr * sizeof *ctr);
    settled[way] = malloc(WORDS * sizeof(uint32_t));
    claims[way] = malloc(WORDS * sizeof(uint32_t));
    depth[way] = malloc(nv * sizeof(gr_svid));
    XH_CHECK(ctr && settled[way] && claims[way] && depth[way], "no room");
    XH_CHECK(gr_device_copy(dev, ctr, ct.ptr, (size_t)nctr * sizeof *ctr, GR_COPY_D2H) == GR_SUCCESS &&
                 gr_device_copy(dev, settled[way], st.ptr, WORDS * sizeof(uint32_t), GR_COPY_D2H) == GR_SUCCESS &&
                 gr_device_copy(dev, claims[way], cl.ptr, WORDS * sizeof(uint32_t), GR_COPY_D2H) == GR_SUCCESS &&
                 gr_device_copy(dev, depth[way], dp.ptr, nv * sizeof(gr_svid), GR_COPY_D2H) == GR_SUCCESS,
             "copy: %s", gr_error_message());
    nexts[way] = xh_sorted_next(dev, nx.ptr, ctr[GR_XK_NEXT], nv, &n_next[way]);
    for (int j = 0; j < MSGS; j++) found[way][j] = ctr[GR_XK_PEER + 2 * (MSGS + 1) + j];
    free(ctr);
    gr_buffer *bufs[] = {&m, &st, &cl, &dp, &ow, &nx, &ct, &cu};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) gr_buffer_release(bufs[i]);
  }
  for (int j = 0; j < MSGS; j++)
    XH_CHECK(found[0][j] == items[j] && found[1][j] == items[j], "message %d: %llu and %llu ids counted, %llu set", j,
             found[0][j], found[1][j], (unsigned long long)items[j]);
  XH_CHECK(!memcmp(settled[0], settled[1], WORDS * sizeof(uint32_t)), "settled words differ");
  XH_CHECK(!memcmp(claims[0], claims[1], WORDS * sizeof(uint32_t)), "claimed words differ");
  xh_same_next(nexts, n_next, "bitmaps");
  for (gr_vid v = 0; v < nv; v++) {
    XH_CHECK(depth[0][v] == depth[1][v], "depth of %u: %d and %d", (unsigned)v, (int)depth[0][v], (int)depth[1][v]);
    /* What the pass should have done: owned, newly settled, unreached or above: the step's value. */
    bool any = false;
    for (int j = 0; j < MSGS; j++)
      any = any || ((((const uint32_t *)(msg + (size_t)j * bb + GR_XK_BITMAP_HEADER))[v >> 5] >> (v & 31u)) & 1u);
    const bool was = (settled0[v >> 5] >> (v & 31u)) & 1u;
    const gr_svid want = any && !was && owner[v] == 1 && (depth0[v] < 0 || depth0[v] > value) ? value : depth0[v];
    XH_CHECK(depth[1][v] == want, "depth of %u: %d, want %d", (unsigned)v, (int)depth[1][v], (int)want);
  }
  for (int way = 0; way < 2; way++) {
    free(nexts[way]);
    free(settled[way]);
    free(claims[way]);
    free(depth[way]);
  }
  free(msg);
  free(settled0);
  free(depth0);
  free(owner);
}

/* Three peers' lists of one step (values of their own, a vertex sent by
 * several peers, global ids through a map of its own, copies kept out of
 * the next frontier by the owner table) combined in one launch (n_more,
 * more_count) and one after another: the same values, claimed bits and
 * next frontier (as a set), for MIN and for SUM. */
void xh_check_combine_lists_more(const gr_xk_ops *ops, gr_device *dev) {
  enum { NV = 50021, MSGS = 3 };
  const gr_xk_layout l = gr_xk_layout_make(1, sizeof(gr_svid), 0);
  const size_t rb = (size_t)l.record_bytes;
  const size_t words = gr_bitmap_words(NV);
  unsigned char *msg = calloc(MSGS * (size_t)NV, rb);
  gr_svid *value0 = malloc(NV * sizeof(gr_svid));
  gr_vid *g2l = malloc(NV * sizeof(gr_vid));
  uint8_t *owner = malloc(NV);
  XH_CHECK(msg && value0 && g2l && owner, "no room");
  uint64_t items[MSGS] = {0};
  for (gr_vid v = 0; v < NV; v++) {
    owner[v] = (uint8_t)(gr_rand64(61, 1, v) % 3);
    value0[v] = (gr_svid)(gr_rand64(61, 2, v) % 1000);
    /* Global id v is local id g2l[v]: a permutation, and some not held. */
    g2l[v] = gr_rand64(61, 3, v) % 13 == 0 ? GR_NO_VERTEX : (gr_vid)(((uint64_t)v * 7919u) % NV);
  }
  for (int j = 0; j < MSGS; j++)
    for (gr_vid v = 0; v < NV; v++)
      if (gr_rand64(67 + (uint64_t)j, 1, v) % 4 == 0) {
        unsigned char *rec = msg + ((size_t)j * NV + items[j]++) * rb;
        const gr_svid x = (gr_svid)(gr_rand64(67 + (uint64_t)j, 2, v) % 1200);
        memcpy(rec, &v, sizeof v);
        memcpy(rec + l.value_offset, &x, sizeof x);
      }
  for (int o = 0; o < 2; o++) {
    const gr_combine_op op = o ? GR_COMBINE_SUM : GR_COMBINE_MIN;
    gr_vid *nexts[2] = {NULL, NULL};
    uint64_t n_next[2] = {0, 0};
    uint32_t *claims[2];
    gr_svid *value[2];
    for (int way = 0; way < 2; way++) {
      gr_buffer m = GR_BUFFER_INIT, cl = GR_BUFFER_INIT, va = GR_BUFFER_INIT, ow = GR_BUFFER_INIT,
                gl = GR_BUFFER_INIT, nx = GR_BUFFER_INIT, ct = GR_BUFFER_INIT, cu = GR_BUFFER_INIT;
      const int nctr = gr_xk_counters(MSGS + 1);
      XH_CHECK(gr_buffer_resize(&m, dev, MSGS * (size_t)NV * rb, 0, "messages") == GR_SUCCESS &&
                   gr_buffer_resize(&cl, dev, words * sizeof(uint32_t), 0, "claims") == GR_SUCCESS &&
                   gr_buffer_resize(&cu, dev, words * sizeof(uint32_t), 0, "cull") == GR_SUCCESS &&
                   gr_buffer_resize(&va, dev, NV * sizeof(gr_svid), 0, "values") == GR_SUCCESS &&
                   gr_buffer_resize(&ow, dev, NV, 0, "owners") == GR_SUCCESS &&
                   gr_buffer_resize(&gl, dev, NV * sizeof(gr_vid), 0, "map") == GR_SUCCESS &&
                   gr_buffer_resize(&nx, dev, NV * sizeof(gr_vid), 0, "next") == GR_SUCCESS &&
                   gr_buffer_resize(&ct, dev, (size_t)nctr * sizeof(unsigned long long), 0, "counters") == GR_SUCCESS,
               "%s", gr_error_message());
      XH_CHECK(gr_device_copy(dev, m.ptr, msg, MSGS * (size_t)NV * rb, GR_COPY_H2D) == GR_SUCCESS &&
                   gr_device_copy(dev, va.ptr, value0, NV * sizeof(gr_svid), GR_COPY_H2D) == GR_SUCCESS &&
                   gr_device_copy(dev, ow.ptr, owner, NV, GR_COPY_H2D) == GR_SUCCESS &&
                   gr_device_copy(dev, gl.ptr, g2l, NV * sizeof(gr_vid), GR_COPY_H2D) == GR_SUCCESS &&
                   gr_device_memset(dev, cl.ptr, 0, words * sizeof(uint32_t)) == GR_SUCCESS &&
                   gr_device_memset(dev, cu.ptr, 0, words * sizeof(uint32_t)) == GR_SUCCESS &&
                   gr_device_memset(dev, ct.ptr, 0, (size_t)nctr * sizeof(unsigned long long)) == GR_SUCCESS,
               "copy: %s", gr_error_message());
      gr_xk_combine_args a;
      memset(&a, 0, sizeof a);
      a.format = GR_XK_LIST;
      a.g2l = gl.ptr;
      a.owner = ow.ptr;
      a.me = 1;
      a.pay.n_values = 1;
      a.pay.values[0] = va.ptr;
      a.layout = l;
      a.type = GR_VALUE_SVID;
      a.op = op;
      a.pass = 1;
      a.cull = cu.ptr;
      a.claims = cl.ptr;
      a.next = nx.ptr;
      a.next_capacity = NV;
      a.counters = ct.ptr;
      for (int j = 0; j < MSGS; j++) {
        if (way == 1 && j > 0) break;
        a.msg = (const unsigned char *)m.ptr + (size_t)j * NV * rb;
        a.count = items[j];
        a.found = GR_XK_PEER + 2 * (MSGS + 1) + j;
        a.n_more = 0;
        for (int k = 1; way == 1 && k < MSGS; k++) {
          a.more_msg[a.n_more] = (const unsigned char *)m.ptr + (size_t)k * NV * rb;
          a.more_found[a.n_more] = GR_XK_PEER + 2 * (MSGS + 1) + k;
          a.more_count[a.n_more++] = items[k];
        }
        XH_CHECK(ops->combine(dev, &a) == GR_SUCCESS, "combine: %s", gr_error_message());
      }
      unsigned long long *ctr = malloc((size_t)nctr * sizeof *ctr);
      claims[way] = malloc(words * sizeof(uint32_t));
      value[way] = malloc(NV * sizeof(gr_svid));
      XH_CHECK(ctr && claims[way] && value[way], "no room");
      XH_CHECK(gr_device_copy(dev, ctr, ct.ptr, (size_t)nctr * sizeof *ctr, GR_COPY_D2H) == GR_SUCCESS &&
                   gr_device_copy(dev, claims[way], cl.ptr, words * sizeof(uint32_t), GR_COPY_D2H) == GR_SUCCESS &&
                   gr_device_copy(dev, value[way], va.ptr, NV * sizeof(gr_svid), GR_COPY_D2H) == GR_SUCCESS,
               "copy: %s", gr_error_message());
      nexts[way] = xh_sorted_next(dev, nx.ptr, ctr[GR_XK_NEXT], NV, &n_next[way]);
      free(ctr);
      gr_buffer *bufs[] = {&m, &cl, &va, &ow, &gl, &nx, &ct, &cu};
      for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) gr_buffer_release(bufs[i]);
    }
    XH_CHECK(!memcmp(claims[0], claims[1], words * sizeof(uint32_t)), "op %d: claimed bits differ", (int)op);
    xh_same_next(nexts, n_next, op == GR_COMBINE_MIN ? "lists, MIN" : "lists, SUM");
    /* What the launch should have done, from the records. */
    gr_svid *want = malloc(NV * sizeof(gr_svid));
    XH_CHECK(want, "no room");
    for (gr_vid v = 0; v < NV; v++) want[v] = value0[v];
    for (int j = 0; j < MSGS; j++)
      for (uint64_t i = 0; i < items[j]; i++) {
        const unsigned char *rec = msg + ((size_t)j * NV + i) * rb;
        gr_vid g;
        gr_svid x;
        memcpy(&g, rec, sizeof g);
        memcpy(&x, rec + l.value_offset, sizeof x);
        const gr_vid v = g2l[g];
        if (v == GR_NO_VERTEX) continue;
        XH_CHECK((claims[1][v >> 5] >> (v & 31u)) & 1u, "op %d: %u not claimed", (int)op, (unsigned)v);
        if (op == GR_COMBINE_MIN) want[v] = x < want[v] ? x : want[v];
        else want[v] += x;
      }
    for (gr_vid v = 0; v < NV; v++)
      XH_CHECK(value[0][v] == want[v] && value[1][v] == want[v], "op %d: value of %u: %d and %d, want %d", (int)op,
               (unsigned)v, (int)value[0][v], (int)value[1][v], (int)want[v]);
    for (uint64_t i = 0; i < n_next[1]; i++)
      XH_CHECK(owner[nexts[1][i]] == 1, "op %d: %u, owned by %d, in the next frontier", (int)op,
               (unsigned)nexts[1][i], (int)owner[nexts[1][i]]);
    free(want);
    for (int way = 0; way < 2; way++) {
      free(nexts[way]);
      free(claims[way]);
      free(value[way]);
    }
  }
  free(msg);
  free(value0);
  free(g2l);
  free(owner);
}

/* Two packages' messages (n_msg of them) hold the same records and the
 * same bitmaps (ids and value). */
static void xh_same_messages(xh_package_out *a, xh_package_out *b, int n_msg, const char *what) {
  for (int j = 0; j < n_msg; j++) {
    XH_CHECK(a->written[j] == b->written[j], "%s: message %d: %llu records, %llu", what, j,
             (unsigned long long)a->written[j], (unsigned long long)b->written[j]);
    /* Overflowed lists hold some of the records, whichever came first
     * (no list, or an empty one, has no records to compare). */
    if (a->written[j] && a->written[j] == a->counters[GR_XK_PEER + j]) {
      xh_sort_items(a->items[j], a->written[j]);
      xh_sort_items(b->items[j], b->written[j]);
      XH_CHECK(!memcmp(a->items[j], b->items[j], (size_t)a->written[j] * sizeof(xh_item)), "%s: message %d differs",
               what, j);
    }
    XH_CHECK(a->n_bit_ids[j] == b->n_bit_ids[j] &&
                 (!a->n_bit_ids[j] ||
                  (!memcmp(a->bit_ids[j], b->bit_ids[j], (size_t)a->n_bit_ids[j] * sizeof(gr_vid)) &&
                   a->bit_value[j] == b->bit_value[j])),
             "%s: bitmap %d differs", what, j);
  }
}

/* One package told its size (a) and told it on the device (b): equal. */
static void same_package_size_later(const gr_xk_ops *ops, gr_device *dev, xh_package_in *in, gr_eid extra,
                                    const char *what) {
  xh_package_out a, b;
  in->bound = 0;
  XH_CHECK(xh_run_package(ops, dev, in, &a) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  in->bound = in->n_out + extra;
  XH_CHECK(xh_run_package(ops, dev, in, &b) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  in->bound = 0;
  const int out = gr_xk_out_counter(in->parts);
  for (int k = 0; k < out; k++)
    XH_CHECK(a.counters[k] == b.counters[k], "%s: counter %d is %llu, %llu with the size on the device", what, k,
             a.counters[k], b.counters[k]);
  XH_CHECK(a.counters[out] == 0 && a.counters[out + 1] == 0, "%s: a size told wrote the counters of one on the device",
           what);
  XH_CHECK(b.counters[out] == in->n_out && b.counters[out + 1] == XH_OUT_EDGES,
           "%s: the size and edges copied as %llu and %llu, not %llu and %llu", what, b.counters[out],
           b.counters[out + 1], (unsigned long long)in->n_out, (unsigned long long)XH_OUT_EDGES);
  XH_CHECK(a.n_next == b.n_next && !memcmp(a.next, b.next, (size_t)a.n_next * sizeof(gr_vid)),
           "%s: next differs (%llu, %llu vertices)", what, (unsigned long long)a.n_next, (unsigned long long)b.n_next);
  const gr_vid n = in->state->n;
  XH_CHECK(!memcmp(a.cull, b.cull, gr_bitmap_words(n) * sizeof(uint32_t)), "%s: culling bits differ", what);
  XH_CHECK(a.guard_intact && b.guard_intact && a.claims_exact && b.claims_exact,
           "%s: a list written past its room, or claims not the output's", what);
  xh_same_messages(&a, &b, in->broadcast ? 1 : in->parts, what);
  xh_package_free(&a);
  xh_package_free(&b);
}

void xh_check_package_size_on_device(const gr_xk_ops *ops, gr_device *dev) {
  enum { N = 30000 };
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  gr_eid *deg = malloc(((size_t)N + 1) * sizeof *deg);
  XH_CHECK(deg != NULL, "no room");
  deg[0] = 0;
  for (gr_vid v = 0; v < N; v++) deg[v + 1] = deg[v] + (v * 7u) % 31u;
  for (int c = 0; c < 8; c++) {
    const gr_value_type t = types[c % 3];
    const bool uniform = c == 2 || c == 3, runs = c == 4 || c == 5, bcast = c == 1 || c == 3 || c == 5;
    const int parts = 2 + c % 3, me = c % parts;
    const gr_eid n_out = c == 6 ? 0 : c == 7 ? 5000 : 1500 + 100 * (gr_eid)c;
    xh_state s;
    XH_CHECK(xh_state_alloc(&s, N, t, uniform ? 1 : 1 + c % 2, uniform ? 0 : c % 2), "no room");
    if (uniform) {
      for (gr_vid v = 0; v < N; v++) xh_state_set(&s, 0, v, xh_value_bits(t, 5));
    } else {
      xh_state_random(&s, GR_COMBINE_MIN, 300 + (uint64_t)c);
    }
    int32_t *owner = runs ? xh_owner_runs(N, parts, me, 310 + (uint64_t)c) : xh_owner_random(N, parts, 310 + (uint64_t)c);
    gr_vid *out = xh_vertices_random(N, n_out ? n_out : 1, 320 + (uint64_t)c);
    xh_package_in in;
    xh_package_in_init(&in, &s, owner, parts, me, bcast, out, n_out, deg);
    in.claims = bcast;
    in.ranges = runs;
    for (int j = 0; j < (bcast ? 1 : parts); j++) {
      if (!bcast && j == me) continue;
      /* c 7: lists that overflow (their records counted, not written). */
      in.list_capacity[j] = c == 7 ? 700 : n_out + 1;
      if (uniform) in.universe[j] = N;
    }
    char what[96];
    snprintf(what, sizeof what, "case %d (type %d, %d parts, %s%s%s)", c, (int)t, parts, bcast ? "broadcast" : "selective",
             uniform ? ", bitmaps" : "", runs ? ", owners as runs" : "");
    same_package_size_later(ops, dev, &in, 3000, what);
    free(out);
    free(owner);
    xh_state_free(&s);
  }
  free(deg);
}

void xh_check_package_settled(const gr_xk_ops *ops, gr_device *dev, bool checks_bits) {
  enum { N = 20000 };
  const size_t words = gr_bitmap_words(N);
  for (int c = 0; c < 4; c++) {
    const bool bcast = c & 1, bits = c & 2;
    const int parts = 3 + c % 2, me = c % parts;
    const gr_eid n_out = 2500 + 300 * (gr_eid)c;
    xh_state s;
    XH_CHECK(xh_state_alloc(&s, N, GR_VALUE_SVID, 1, 0), "no room");
    for (gr_vid v = 0; v < N; v++) xh_state_set(&s, 0, v, xh_value_bits(GR_VALUE_SVID, 4));
    int32_t *owner = xh_owner_random(N, parts, 410 + (uint64_t)c);
    gr_vid *out = xh_vertices_random(N, n_out, 420 + (uint64_t)c);
    /* The output's bits set, as its claims set them, and every 9th
     * vertex's (settled before). */
    uint32_t *settled = calloc(words, sizeof *settled);
    XH_CHECK(owner && out && settled, "no room");
    for (gr_vid v = 0; v < N; v += 9) settled[v >> 5] |= 1u << (v & 31u);
    for (gr_eid i = 0; i < n_out; i++) settled[out[i] >> 5] |= 1u << (out[i] & 31u);
    xh_package_in in;
    xh_package_in_init(&in, &s, owner, parts, me, bcast, out, n_out, NULL);
    for (int j = 0; j < (bcast ? 1 : parts); j++) {
      if (!bcast && j == me) continue;
      in.list_capacity[j] = n_out + 1;
      if (bits) in.universe[j] = N;
    }
    char what[80];
    snprintf(what, sizeof what, "settled package, case %d (%d parts, %s%s)", c, parts,
             bcast ? "broadcast" : "selective", bits ? ", bitmaps" : "");
    xh_package_out a, b;
    XH_CHECK(xh_run_package(ops, dev, &in, &a) == GR_SUCCESS, "%s: %s", what, gr_error_message());
    in.settled = settled;
    XH_CHECK(xh_run_package(ops, dev, &in, &b) == GR_SUCCESS, "%s: %s", what, gr_error_message());
    gr_eid owned = 0;
    for (gr_eid i = 0; i < n_out; i++) owned += owner[out[i]] == me;
    XH_CHECK(a.n_next == owned && b.n_next == owned && !memcmp(a.next, b.next, (size_t)owned * sizeof(gr_vid)),
             "%s: next holds %llu and %llu vertices, %llu owned", what, (unsigned long long)a.n_next,
             (unsigned long long)b.n_next, (unsigned long long)owned);
    for (size_t w = 0; w < words; w++)
      XH_CHECK(b.cull[w] == 0, "%s: culling word %zu written (%08x) with no culling bitmap", what, w,
               (unsigned)b.cull[w]);
    const int n_msg = bcast ? 1 : parts;
    for (int j = 0; j < n_msg; j++)
      XH_CHECK(a.counters[GR_XK_PEER + j] == b.counters[GR_XK_PEER + j],
               "%s: message %d: %llu records, %llu with settled bits", what, j, a.counters[GR_XK_PEER + j],
               b.counters[GR_XK_PEER + j]);
    xh_same_messages(&a, &b, n_msg, what);
    xh_package_free(&a);
    xh_package_free(&b);
    if (checks_bits) {
      /* An owned output vertex without its bit: a peer's record for it
       * would add it to next again. */
      gr_eid i = 0;
      while (i < n_out && owner[out[i]] != me) i++;
      XH_CHECK(i < n_out, "%s: no owned output", what);
      settled[out[i] >> 5] &= ~(1u << (out[i] & 31u));
      const gr_status st = xh_run_package(ops, dev, &in, &b);
      XH_CHECK(st == GR_ERR_INTERNAL, "%s: vertex %u without its settled bit gave %d", what, (unsigned)out[i], (int)st);
      xh_package_free(&b);
    }
    free(settled);
    free(out);
    free(owner);
    xh_state_free(&s);
  }
}

void xh_check_combine_ids(const gr_xk_ops *ops, gr_device *dev) {
  /* 300 vertices, owner v % 3 (this device 1). Settled before: every 5th
   * (depth 1) and the own output's (every 7th, claimed here at depth 3).
   * Two peers' ids of value 3: v % 4 == 1 and v % 6 == 2, overlapping. A
   * launch with the own output first (own_first), and one of the peers'
   * lists alone: each unsettled id takes 3 and its bit, an owned one
   * joins next once; the own output's owned ids join next as they are. */
  enum { N = 300, VAL = 3, ME = 1 };
  const size_t words = gr_bitmap_words(N);
  gr_vid own[N], pa[N], pb[N];
  uint64_t n_own = 0, n_a = 0, n_b = 0;
  uint32_t settled0[(N + 31) / 32] = {0};
  gr_svid depth0[N];
  int32_t owner[N];
  for (gr_vid v = 0; v < N; v++) {
    owner[v] = (int32_t)(v % 3);
    depth0[v] = -1;
    if (v % 5 == 0) depth0[v] = 1;
    if (v % 7 == 0) {
      own[n_own++] = v;
      if (depth0[v] < 0) depth0[v] = VAL;
    }
    if (depth0[v] >= 0) settled0[v >> 5] |= 1u << (v & 31u);
    if (v % 4 == 1) pa[n_a++] = v;
    if (v % 6 == 2) pb[n_b++] = v;
  }
  for (int with_own = 0; with_own < 2; with_own++) {
    gr_svid want[N];
    bool in_next[N] = {false};
    uint64_t n_next = 0;
    for (gr_vid v = 0; v < N; v++) {
      want[v] = depth0[v];
      const bool named = v % 4 == 1 || v % 6 == 2, settled = (settled0[v >> 5] >> (v & 31u)) & 1u;
      if ((with_own && v % 7 == 0 && owner[v] == ME) || (named && !settled && owner[v] == ME)) {
        in_next[v] = true;
        n_next++;
      }
      if (named && !settled) want[v] = VAL;
    }
    xh_state st;
    XH_CHECK(xh_state_alloc(&st, N, GR_VALUE_SVID, 1, 0), "no room");
    for (gr_vid v = 0; v < N; v++) xh_state_set(&st, 0, v, xh_value_bits(GR_VALUE_SVID, (double)depth0[v]));
    dev_state ds;
    gr_buffer b_owner = GR_BUFFER_INIT, b_settled = GR_BUFFER_INIT, b_next = GR_BUFFER_INIT, b_ctr = GR_BUFFER_INIT,
              b_own = GR_BUFFER_INIT, b_a = GR_BUFFER_INIT, b_b = GR_BUFFER_INIT;
    const size_t nctr = (size_t)gr_xk_counters(3);
    XH_CHECK(state_upload(&ds, dev, &st) == GR_SUCCESS && owner_upload(&b_owner, dev, owner, N) == GR_SUCCESS &&
                 upload(&b_settled, dev, settled0, words * sizeof(uint32_t), "test settled") == GR_SUCCESS &&
                 upload(&b_own, dev, own, (size_t)n_own * sizeof(gr_vid), "test own") == GR_SUCCESS &&
                 upload(&b_a, dev, pa, (size_t)n_a * sizeof(gr_vid), "test ids") == GR_SUCCESS &&
                 upload(&b_b, dev, pb, (size_t)n_b * sizeof(gr_vid), "test ids") == GR_SUCCESS &&
                 gr_buffer_resize(&b_next, dev, (size_t)N * sizeof(gr_vid), 0, "test next") == GR_SUCCESS &&
                 gr_buffer_resize(&b_ctr, dev, nctr * sizeof(unsigned long long), 0, "test counters") == GR_SUCCESS &&
                 gr_device_memset(dev, b_ctr.ptr, 0, nctr * sizeof(unsigned long long)) == GR_SUCCESS,
             "ids: %s", gr_error_message());
    gr_xk_combine_args a;
    memset(&a, 0, sizeof a);
    a.format = GR_XK_IDS;
    a.owner = b_owner.ptr;
    a.me = ME;
    a.pay = ds.pay;
    a.layout = st.layout;
    a.type = GR_VALUE_SVID;
    a.op = GR_COMBINE_MIN;
    a.pass = 1;
    a.settled = b_settled.ptr;
    a.next = b_next.ptr;
    a.next_capacity = N;
    a.counters = b_ctr.ptr;
    a.value = VAL;
    if (with_own) {
      a.own_first = true;
      a.msg = b_own.ptr;
      a.count = n_own;
      a.n_more = 2;
      a.more_msg[0] = b_a.ptr;
      a.more_count[0] = n_a;
      a.more_msg[1] = b_b.ptr;
      a.more_count[1] = n_b;
    } else {
      a.msg = b_a.ptr;
      a.count = n_a;
      a.n_more = 1;
      a.more_msg[0] = b_b.ptr;
      a.more_count[0] = n_b;
    }
    XH_CHECK(ops->combine(dev, &a) == GR_SUCCESS && gr_device_sync(dev) == GR_SUCCESS, "ids: %s", gr_error_message());
    unsigned long long ctr[3 + 3 * GR_COMM_MAX_DEVICES + 2];
    XH_CHECK(gr_device_copy(dev, ctr, b_ctr.ptr, nctr * sizeof *ctr, GR_COPY_D2H) == GR_SUCCESS, "ids: %s",
             gr_error_message());
    XH_CHECK(ctr[GR_XK_NEXT] == n_next, "ids (own %d): next holds %llu vertices, expected %llu", with_own,
             ctr[GR_XK_NEXT], (unsigned long long)n_next);
    gr_vid *next = NULL;
    XH_CHECK(download(dev, (void **)&next, &b_next, (size_t)n_next * sizeof(gr_vid)) == GR_SUCCESS, "ids: %s",
             gr_error_message());
    qsort(next, (size_t)n_next, sizeof *next, cmp_vid);
    for (uint64_t i = 0; i < n_next; i++)
      XH_CHECK(next[i] < N && in_next[next[i]] && (i == 0 || next[i] > next[i - 1]), "ids (own %d): next holds %u",
               with_own, (unsigned)next[i]);
    xh_state got;
    XH_CHECK(xh_state_copy(&got, &st), "no room");
    XH_CHECK(state_download(&ds, dev, &got) == GR_SUCCESS, "ids: %s", gr_error_message());
    for (gr_vid v = 0; v < N; v++) {
      const gr_svid d = (gr_svid)xh_value_of(GR_VALUE_SVID, xh_state_get(&got, 0, v));
      XH_CHECK(d == want[v], "ids (own %d): depth of %u is %lld, expected %lld", with_own, (unsigned)v, (long long)d,
               (long long)want[v]);
    }
    free(next);
    xh_state_free(&got);
    state_release(&ds);
    gr_buffer *bufs[] = {&b_owner, &b_settled, &b_next, &b_ctr, &b_own, &b_a, &b_b};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) gr_buffer_release(bufs[k]);
    xh_state_free(&st);
  }
}
