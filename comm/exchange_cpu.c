/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange's per-element work on the CPU backend: the portable
 * definition the CUDA kernels are checked against. Loops run over the
 * device's threads; counters are updated with atomics. */
#include <string.h>

#include "exchange_kernels.h"
#include "gr/atomic.h"
#include "gr/logspace.h"

static void gr__ctr_add(unsigned long long *c, uint64_t v) { gr_atomic_add_u64((uint64_t *)c, v); }

static void gr__ctr_max(unsigned long long *c, uint64_t v) {
  uint64_t cur = __atomic_load_n((uint64_t *)c, __ATOMIC_RELAXED);
  while (v > cur && !__atomic_compare_exchange_n((uint64_t *)c, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* A vertex joins the next frontier: one slot, and its out-degree counted. */
static bool gr__to_next(gr_vid *next, gr_eid capacity, const gr_eid *deg, unsigned long long *ctr, gr_vid v) {
  const uint64_t pos = gr_atomic_add_u64((uint64_t *)&ctr[GR_XK_NEXT], 1);
  if (pos >= capacity) return false;
  next[pos] = v;
  if (deg) {
    const uint64_t d = deg[v + 1] - deg[v];
    gr__ctr_add(&ctr[GR_XK_NEXT_EDGES], d);
    gr__ctr_max(&ctr[GR_XK_NEXT_MAXDEG], d);
  }
  return true;
}

/* One record of vertex v (its payloads) written as id `id`. */
static void gr__write_record(unsigned char *rec, const gr_xk_layout *l, const gr_payload *pay, gr_vid id, gr_vid v) {
  const size_t vb = (size_t)l->value_bytes;
  /* Padding zeroed: no byte a peer copies is left unwritten. */
  memset(rec, 0, (size_t)l->record_bytes);
  memcpy(rec, &id, sizeof id);
  for (int k = 0; k < l->n_values; k++)
    memcpy(rec + l->value_offset + k * vb, (const unsigned char *)pay->values[k] + v * vb, vb);
  for (int k = 0; k < l->n_vertices; k++)
    memcpy(rec + l->vertex_offset + k * sizeof(gr_svid), &pay->vertices[k][v], sizeof(gr_svid));
}

static gr_status gr__xk_package_cpu(gr_device *dev, const gr_xk_package_args *a) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_package_cpu", NULL));
  if (!a->cull && !a->settled)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: no culling bitmap and no settled bits");
  const int nt = gr_device_cpu_threads(dev);
  const gr_xk_layout *l = &a->layout;
  const size_t vb = (size_t)l->value_bytes;
  unsigned long long *ctr = a->counters;
  int overflow = 0, unsettled = 0;
  gr_eid n_out = a->n_out;
  if (a->counts) {
    /* The advance's results where it left them (gr_xk_package_args.counts). */
    if ((gr_eid)a->counts[0] < n_out) n_out = (gr_eid)a->counts[0];
    ctr[gr_xk_out_counter(a->parts)] = a->counts[0];
    ctr[gr_xk_out_counter(a->parts) + 1] = a->counts[1];
  }
#pragma omp parallel for num_threads(nt) schedule(static, 4096)
  for (gr_eid i = 0; i < n_out; i++) {
    const gr_vid v = a->out[i];
    const int o = a->ranges.n ? gr_xk_range_owner(&a->ranges, v) : a->owner[v];
    if (a->claims) gr_atomic_or_u32(&a->claims[v >> 5], 1u << (v & 31u));
    if (o == a->me) {
      /* An output holds each vertex once; the cull bit keeps next so even
       * if a vertex came twice. Without one the vertex's settled bit must
       * be set (gr_xk_package_args.cull), or a peer's record for it would
       * add it to next again. */
      if (!a->cull && !(a->settled && (a->settled[v >> 5] >> (v & 31u) & 1u)))
        __atomic_store_n(&unsettled, 1, __ATOMIC_RELAXED);
      else if ((!a->cull || gr_bitmap_test_and_set(a->cull, v)) &&
               !gr__to_next(a->next, a->next_capacity, a->deg, ctr, v))
        __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
      if (!a->broadcast) continue;
    }
    const int j = a->broadcast ? 0 : o;
    const gr_vid id = gr_xk_package_id(a, v);
    if (a->dense[j]) {
      /* Its position's bit and slot (an output holds each vertex once:
       * one writer a slot). */
      uint32_t *words = (uint32_t *)a->dense[j];
      gr_atomic_or_u32(&words[id >> 5], 1u << (id & 31u));
      memcpy(a->dense[j] + gr_xk_bits_bytes(a->dense_universe[j]) + (uint64_t)id * vb,
             (const unsigned char *)a->pay.values[0] + v * vb, vb);
      gr__ctr_add(&ctr[GR_XK_PEER + j], 1);
    } else if (a->list[j]) {
      const uint64_t slot = gr_atomic_add_u64((uint64_t *)&ctr[GR_XK_PEER + j], 1);
      if (slot < a->list_capacity[j])
        gr__write_record(a->list[j] + slot * (uint64_t)l->record_bytes, l, &a->pay, id, v);
    }
    if (a->bits[j]) {
      uint32_t *words = (uint32_t *)(a->bits[j] + 8);
      const uint32_t mask = 1u << (id & 31u);
      if (!(gr_atomic_or_u32(&words[id >> 5], mask) & mask)) {
        gr__ctr_add(&ctr[GR_XK_PEER + a->parts + j], 1);
        /* Uniform payloads: every writer writes the same bytes. */
        uint64_t value = 0;
        memcpy(&value, (const unsigned char *)a->pay.values[0] + v * vb, vb);
        __atomic_store_n((uint64_t *)a->bits[j], value, __ATOMIC_RELAXED);
      }
    }
  }
  if (unsettled)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: an owned output vertex without its settled bit, and no "
                                      "culling bitmap");
  if (overflow)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: next frontier of capacity %llu overflowed",
                     (unsigned long long)a->next_capacity);
  return GR_SUCCESS;
}

/* "No value" (-1) loses to every value: as unsigned, -1 is the largest. */
static bool gr__min_svid(gr_svid *p, gr_svid x) {
  gr_svid cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while ((gr_vid)x < (gr_vid)cur) {
    if (__atomic_compare_exchange_n(p, &cur, x, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
  }
  return false;
}
static bool gr__max_svid(gr_svid *p, gr_svid x) {
  gr_svid cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (x > cur) {
    if (__atomic_compare_exchange_n(p, &cur, x, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
  }
  return false;
}

/* Floating-point operators through compare-and-swap on the bit pattern. */
#define GR__FP_ATOMIC(NAME, T, U, BETTER)                                             \
  static bool NAME(T *p, T x) {                                                       \
    U *q = (U *)p;                                                                    \
    U cur = __atomic_load_n(q, __ATOMIC_RELAXED);                                     \
    for (;;) {                                                                        \
      T c;                                                                            \
      memcpy(&c, &cur, sizeof c);                                                     \
      T nv;                                                                           \
      if (!(BETTER)) return false;                                                    \
      U nb;                                                                           \
      memcpy(&nb, &nv, sizeof nb);                                                    \
      if (__atomic_compare_exchange_n(q, &cur, nb, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
        return true;                                                                  \
    }                                                                                 \
  }
GR__FP_ATOMIC(gr__min_f32, float, uint32_t, (nv = x) < c)
GR__FP_ATOMIC(gr__max_f32, float, uint32_t, (nv = x) > c)
GR__FP_ATOMIC(gr__add_f32, float, uint32_t, ((nv = c + x), x != 0))
GR__FP_ATOMIC(gr__min_f64, double, uint64_t, (nv = x) < c)
GR__FP_ATOMIC(gr__max_f64, double, uint64_t, (nv = x) > c)
GR__FP_ATOMIC(gr__add_f64, double, uint64_t, ((nv = c + x), x != 0))
GR__FP_ATOMIC(gr__logadd_f32, float, uint32_t, ((nv = gr_log_add_f32(c, x)), x != -INFINITY))
GR__FP_ATOMIC(gr__logadd_f64, double, uint64_t, ((nv = gr_log_add(c, x)), x != -INFINITY))

/* Applies op to one value; true when the local value changed. */
static bool gr__apply(gr_value_type t, gr_combine_op op, void *local, const void *in) {
  switch (t) {
    case GR_VALUE_SVID: {
      gr_svid *p = local, x;
      memcpy(&x, in, sizeof x);
      switch (op) {
        case GR_COMBINE_MIN: return gr__min_svid(p, x);
        case GR_COMBINE_MAX: return gr__max_svid(p, x);
        case GR_COMBINE_SUM: __atomic_fetch_add(p, x, __ATOMIC_RELAXED); return x != 0;
        case GR_COMBINE_OR: {
          gr_svid old = __atomic_fetch_or(p, x, __ATOMIC_RELAXED);
          return (old | x) != old;
        }
        case GR_COMBINE_REPLACE: __atomic_store_n(p, x, __ATOMIC_RELAXED); return true;
        case GR_COMBINE_LOGADD: return false; /* refused for integers by the exchange */
      }
      return false;
    }
    case GR_VALUE_FLOAT: {
      float x;
      memcpy(&x, in, sizeof x);
      switch (op) {
        case GR_COMBINE_MIN: return gr__min_f32(local, x);
        case GR_COMBINE_MAX: return gr__max_f32(local, x);
        case GR_COMBINE_SUM: return gr__add_f32(local, x);
        case GR_COMBINE_REPLACE: memcpy(local, &x, sizeof x); return true;
        case GR_COMBINE_OR: return false;
        case GR_COMBINE_LOGADD: return gr__logadd_f32(local, x);
      }
      return false;
    }
    case GR_VALUE_DOUBLE: {
      double x;
      memcpy(&x, in, sizeof x);
      switch (op) {
        case GR_COMBINE_MIN: return gr__min_f64(local, x);
        case GR_COMBINE_MAX: return gr__max_f64(local, x);
        case GR_COMBINE_SUM: return gr__add_f64(local, x);
        case GR_COMBINE_REPLACE: memcpy(local, &x, sizeof x); return true;
        case GR_COMBINE_OR: return false;
        case GR_COMBINE_LOGADD: return gr__logadd_f64(local, x);
      }
      return false;
    }
  }
  return false;
}

/* Equal as values (as CUDA's pass 2 compares: -0.0 equals 0.0), the local
 * one read relaxed: a combine's other threads may be writing it (ties,
 * min_ties; pass 2 runs after every write). */
static bool gr__equal(gr_value_type t, const void *local, const void *in) {
  switch (t) {
    case GR_VALUE_FLOAT: {
      const uint32_t b = gr_load_relaxed_u32((const uint32_t *)local);
      float x, y;
      memcpy(&x, &b, sizeof x);
      memcpy(&y, in, sizeof y);
      return x == y;
    }
    case GR_VALUE_DOUBLE: {
      const uint64_t b = gr_load_relaxed_u64((const uint64_t *)local);
      double x, y;
      memcpy(&x, &b, sizeof x);
      memcpy(&y, in, sizeof y);
      return x == y;
    }
    case GR_VALUE_SVID: {
      gr_svid y;
      memcpy(&y, in, sizeof y);
      return gr_load_relaxed_svid((const gr_svid *)local) == y;
    }
  }
  return false;
}

/* Combines one item: the value payloads at `vals` (value_bytes apart) and
 * the vertex payloads at `vtx` (or none), into local vertex v. Returns
 * whether v joins the next frontier. */
static bool gr__combine_one(const gr_xk_combine_args *a, gr_vid v, const unsigned char *vals,
                            const unsigned char *vtx, uint32_t *settled) {
  const gr_xk_layout *l = &a->layout;
  /* A settled vertex keeps its value; the first to combine one settles it
   * (the step's value is the same in every item). */
  if (settled && (__atomic_fetch_or(&settled[v >> 5], 1u << (v & 31u), __ATOMIC_RELAXED) >> (v & 31u)) & 1u)
    return false;
  /* A copy the primitive never reads once settled (the word or the bit
   * above settled it). */
  if (a->settle_copies_bare && a->owner && a->owner[v] != a->me) return false;
  const size_t vb = (size_t)l->value_bytes;
  unsigned char *loc0 = (unsigned char *)a->pay.values[0] + v * vb;
  if (a->pass == 2) {
    /* The winner's other payloads: any sender whose value equals the final
     * one is a valid winner. */
    if (!gr__equal(a->type, loc0, vals)) return false;
    for (int k = 1; k < l->n_values; k++) memcpy((unsigned char *)a->pay.values[k] + v * vb, vals + k * vb, vb);
    for (int k = 0; k < l->n_vertices; k++) memcpy(&a->pay.vertices[k][v], vtx + k * sizeof(gr_svid), sizeof(gr_svid));
    return false;
  }
  if (a->guard) {
    /* A guarded sum (gr_iter.guard): the first stamp wins, records for a
     * vertex stamped otherwise are dropped, and a combined owned vertex
     * joins the next frontier whatever its sum. */
    gr_svid seen = -1;
    if (!gr_atomic_cas_svid(&a->guard[v], -1, a->stamp)) seen = gr_load_relaxed_svid(&a->guard[v]);
    if (seen >= 0 && seen != a->stamp) return false;
    gr__apply(a->type, a->op, loc0, vals);
    return (!a->owner || a->owner[v] == a->me) && (!a->cull || gr_bitmap_test_and_set(a->cull, v));
  }
  bool changed = gr__apply(a->type, a->op, loc0, vals);
  /* A peer lowered the vertex in place to the record's value (min_ties). */
  if (!changed && a->min_ties) changed = gr__equal(a->type, loc0, vals);
  if (a->op == GR_COMBINE_SUM || a->op == GR_COMBINE_OR || a->op == GR_COMBINE_REPLACE || a->op == GR_COMBINE_LOGADD)
    for (int k = 1; k < l->n_values; k++)
      changed |= gr__apply(a->type, a->op, (unsigned char *)a->pay.values[k] + v * vb, vals + k * vb);
  if (a->op == GR_COMBINE_REPLACE)
    for (int k = 0; k < l->n_vertices; k++) memcpy(&a->pay.vertices[k][v], vtx + k * sizeof(gr_svid), sizeof(gr_svid));
  /* Without a culling bitmap the settled bit above let this record alone
   * through (gr_xk_combine_args.cull). */
  return changed && (!a->owner || a->owner[v] == a->me) && (!a->cull || gr_bitmap_test_and_set(a->cull, v));
}

static gr_status gr__xk_combine_cpu(gr_device *dev, const gr_xk_combine_args *a) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_combine_cpu", NULL));
  if (!a->cull && !a->settled)
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: no culling bitmap and no settled bits");
  const int nt = gr_device_cpu_threads(dev);
  const gr_xk_layout *l = &a->layout;
  int overflow = 0;
  if (a->format == GR_XK_BITMAP) {
    const uint32_t *words = gr_xk_bitmap_words(a->msg);
    const gr_eid n_words = ((gr_eid)a->universe + 31) / 32;
    uint64_t found = 0, more[GR_XK_MORE_MAX] = {0};
    const int n_more = a->n_more;
    if (n_more < 0 || n_more > GR_XK_MORE_MAX)
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: %d more bitmaps (at most %d)", n_more, GR_XK_MORE_MAX);
    /* The bitmaps share one value, the first's (the kernels read no other). */
    for (int k = 0; k < n_more; k++)
      if (memcmp(a->more_msg[k], a->msg, GR_XK_BITMAP_HEADER) != 0)
        return gr_errorf(GR_ERR_INTERNAL, "exchange combine: bitmap %d of a pass holds another value than the first",
                         k + 1);
#pragma omp parallel for num_threads(nt) schedule(static, 1024) reduction(+ : found, more[:GR_XK_MORE_MAX])
    for (gr_eid w = 0; w < n_words; w++) {
      uint32_t word = words[w];
      found += (uint64_t)__builtin_popcount(word);
      for (int k = 0; k < n_more; k++) {
        const uint32_t mk = gr_xk_bitmap_words(a->more_msg[k])[w];
        more[k] += (uint64_t)__builtin_popcount(mk);
        word |= mk;
      }
      if (a->claims && !a->g2l) a->claims[w] |= word;
      /* Bits are local ids (no g2l): the settled ones go a word at a time,
       * this iteration being the word's only writer. */
      if (a->settled && !a->g2l && word) {
        const uint32_t done = a->settled[w];
        a->settled[w] = done | word;
        word &= ~done;
      }
      for (; word; word &= word - 1) {
        gr_vid v = (gr_vid)(w * 32 + (gr_eid)__builtin_ctz(word));
        if (a->g2l && (v = a->g2l[v]) == GR_NO_VERTEX) continue;
        if (gr__combine_one(a, v, a->msg, NULL, a->g2l ? a->settled : NULL) &&
            !gr__to_next(a->next, a->next_capacity, a->deg, a->counters, v))
          __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
      }
    }
    gr__ctr_add(&a->counters[a->found], found);
    for (int k = 0; k < n_more; k++) gr__ctr_add(&a->counters[a->more_found[k]], more[k]);
  } else if (a->format == GR_XK_DENSE) {
    if (a->n_more || !a->g2l || l->n_values != 1 || l->n_vertices)
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: a dense message needs its border list and one value");
    const uint32_t *words = (const uint32_t *)a->msg;
    const unsigned char *vals = a->msg + gr_xk_bits_bytes(a->universe);
    const size_t vb = (size_t)l->value_bytes;
    const gr_eid n_words = ((gr_eid)a->universe + 31) / 32;
#pragma omp parallel for num_threads(nt) schedule(static, 1024)
    for (gr_eid w = 0; w < n_words; w++)
      for (uint32_t word = words[w]; word; word &= word - 1) {
        const gr_eid pos = w * 32 + (gr_eid)__builtin_ctz(word);
        const gr_vid v = a->g2l[pos];
        if (a->claims) gr_bitmap_test_and_set(a->claims, v);
        if (gr__combine_one(a, v, vals + pos * vb, NULL, a->settled) &&
            !gr__to_next(a->next, a->next_capacity, a->deg, a->counters, v))
          __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
      }
  } else {
    if (a->n_more < 0 || a->n_more > GR_XK_MORE_MAX || (a->n_more && a->op == GR_COMBINE_REPLACE))
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: %d more lists beside one (at most %d, none that replaces)",
                       a->n_more, GR_XK_MORE_MAX);
    /* The first list, then the n_more others of the pass (their records
     * in any order: the operators but REPLACE commute). */
    /* Bare ids (GR_XK_IDS) take the value the package named; the first
     * list of own_first is this device's output, whose owned vertices
     * join next as they are. */
    const bool ids = a->format == GR_XK_IDS;
    if (ids && (l->n_values != 1 || l->n_vertices || a->pass != 1))
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: bare ids with %d value and %d vertex payloads (pass %d)",
                       l->n_values, l->n_vertices, a->pass);
    const uint64_t rb = ids ? sizeof(gr_vid) : (uint64_t)l->record_bytes;
    const uint64_t value = a->value;
    for (int k = -1; k < a->n_more; k++) {
      const unsigned char *msg = k < 0 ? a->msg : a->more_msg[k];
      const uint64_t count = k < 0 ? a->count : a->more_count[k];
      const bool own = ids && a->own_first && k < 0;
#pragma omp parallel for num_threads(nt) schedule(static, 1024)
      for (uint64_t i = 0; i < count; i++) {
        const unsigned char *rec = msg + i * rb;
        gr_vid v;
        memcpy(&v, rec, sizeof v);
        if (a->g2l && (v = a->g2l[v]) == GR_NO_VERTEX) continue;
        if (a->claims) gr_bitmap_test_and_set(a->claims, v);
        bool emit;
        if (own) emit = !a->owner || a->owner[v] == a->me;
        else if (ids) emit = gr__combine_one(a, v, (const unsigned char *)&value, NULL, a->settled);
        else emit = gr__combine_one(a, v, rec + l->value_offset, rec + l->vertex_offset, a->settled);
        if (emit && !gr__to_next(a->next, a->next_capacity, a->deg, a->counters, v))
          __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
      }
    }
  }
  if (overflow)
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: next frontier of capacity %llu overflowed",
                     (unsigned long long)a->next_capacity);
  return GR_SUCCESS;
}

static gr_status gr__xk_gather_cpu(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n,
                                   int elem_bytes) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_gather_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  if (elem_bytes == 8) {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (uint64_t k = 0; k < n; k++) ((uint64_t *)dst)[k] = ((const uint64_t *)src)[ids[k]];
  } else {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (uint64_t k = 0; k < n; k++) ((uint32_t *)dst)[k] = ((const uint32_t *)src)[ids[k]];
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_scatter_cpu(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n,
                                    int elem_bytes) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_scatter_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  if (elem_bytes == 8) {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (uint64_t k = 0; k < n; k++) ((uint64_t *)dst)[ids[k]] = ((const uint64_t *)src)[k];
  } else {
#pragma omp parallel for num_threads(nt) schedule(static)
    for (uint64_t k = 0; k < n; k++) ((uint32_t *)dst)[ids[k]] = ((const uint32_t *)src)[k];
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_or_union_cpu(gr_device *dev, const gr_xk_or_args *a) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_or_union_cpu", NULL));
  if (a->n_src < 0 || a->n_src > GR_XK_OR_MAX || (!a->dst && !a->also) || !a->base)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: an or of %d bitmaps (at most %d, into a union from a base)", a->n_src,
                     (int)GR_XK_OR_MAX);
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (uint64_t w = 0; w < a->words; w++) {
    uint32_t v = a->base[w];
    for (int k = 0; k < a->n_src; k++) v |= a->src[k][w];
    if (a->dst) a->dst[w] = v;
    if (a->also && v) a->also[w] |= v;
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_or_owned_cpu(gr_device *dev, const gr_xk_or_owned_args *a) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_or_owned_cpu", NULL));
  if ((!a->dst && !a->also) || !a->word_owner || !a->groups || a->parts < 1 || a->parts > GR_COMM_MAX_DEVICES)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: a union of owner words of %d parts without its tables", a->parts);
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (uint64_t w = 0; w < a->words; w++) {
    const int o = a->word_owner[w];
    const uint32_t *f = a->from[o];
    const uint32_t v = f ? f[gr_word_group_slot(a->groups[(w >> 5) * (uint64_t)a->parts + (uint64_t)o], w)] : 0u;
    if (a->dst) a->dst[w] = v;
    if (a->also && v) a->also[w] |= v;
  }
  if (a->tail) {
    uint32_t v = 0;
    for (int o = 0; o < a->parts; o++)
      if (a->from[o]) v |= a->from[o][a->part_words[o]];
    if (a->dst) a->dst[a->words] = v;
    if (a->also) a->also[a->words] |= v;
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_seal_cpu(gr_device *dev, uint32_t *msg, uint64_t words, uint64_t value,
                                 unsigned long long *counter) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_seal_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  memcpy(msg, &value, sizeof value);
  const uint32_t *w = msg + 2;
  uint64_t ids = 0;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : ids)
  for (uint64_t k = 0; k < words; k++) ids += (uint64_t)__builtin_popcount(w[k]);
  gr__ctr_add(counter, ids);
  return GR_SUCCESS;
}

/* A routed claim's value (gr_xk_compact_args): v held none (all ones) or
 * the step's value already, and this pass is its only writer. Returns
 * false, storing nothing, where v held another value: the router broke the
 * contract. */
static bool gr__store_routed(const gr_xk_compact_args *a, gr_vid v) {
  if (a->value_bytes == 8) {
    uint64_t *p = (uint64_t *)a->values + v;
    if (*p != UINT64_MAX && *p != a->value) return false;
    *p = a->value;
  } else {
    uint32_t *p = (uint32_t *)a->values + v;
    if (*p != UINT32_MAX && *p != (uint32_t)a->value) return false;
    *p = (uint32_t)a->value;
  }
  return true;
}

static gr_status gr__xk_compact_cpu(gr_device *dev, const gr_xk_compact_args *a) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_compact_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  unsigned long long *counters = a->counters;
  /* The lowest claimed id that held another value (none: n_words * 32). */
  uint64_t held = a->n_words * 32u, all = 0;
  if (a->sealed_msg) memcpy(a->sealed_msg, &a->value, sizeof a->value);
#pragma omp parallel for num_threads(nt) schedule(static, 1024) reduction(min : held) reduction(+ : all)
  for (uint64_t k = 0; k < a->n_words; k++) {
    uint32_t w = a->words[k];
    for (int c = 0; c < 2; c++)
      if (a->copy_to[c]) a->copy_to[c][k] = w;
    all += (uint64_t)__builtin_popcount(w);
    if (a->owner && a->word_owner && k + 1 < a->n_words) {
      if (a->word_owner[k] != a->me) w = 0;
    } else if (a->owner) {
      for (uint32_t m = w; m; m &= m - 1u)
        if (a->owner[k * 32u + (uint64_t)__builtin_ctz(m)] != a->me) w &= ~(m & (0u - m));
    }
    if (!w) continue;
    /* One reservation per word. */
    uint64_t pos = gr_atomic_add_u64((uint64_t *)&counters[GR_XK_NEXT], (uint64_t)__builtin_popcount(w));
    uint64_t sum = 0, most = 0;
    for (; w; w &= w - 1u, pos++) {
      const gr_vid v = (gr_vid)(k * 32u + (uint64_t)__builtin_ctz(w));
      if (pos < a->next_capacity) a->next[pos] = v;
      if (a->values && !gr__store_routed(a, v) && (uint64_t)v < held) held = (uint64_t)v;
      if (a->deg) {
        const uint64_t d = a->deg[v + 1] - a->deg[v];
        sum += d;
        most = d > most ? d : most;
      }
    }
    if (a->deg) {
      gr__ctr_add(&counters[GR_XK_NEXT_EDGES], sum);
      gr__ctr_max(&counters[GR_XK_NEXT_MAXDEG], most);
    }
  }
  if (a->sealed) gr__ctr_add(a->sealed, all);
  if (held < a->n_words * 32u)
    return gr_errorf(GR_ERR_INTERNAL,
                     "exchange compact: routed vertex %llu held a value already (a routing claim must be its first)",
                     (unsigned long long)held);
  return GR_SUCCESS;
}

static gr_status gr__xk_mark_cpu(gr_device *dev, const gr_xk_mark_args *a) {
  if (a->lists < 0 || a->lists > GR_XK_MARK_MAX)
    return gr_errorf(GR_ERR_INTERNAL, "exchange mark: %d lists, at most %d", a->lists, (int)GR_XK_MARK_MAX);
  GR_CHECK(gr__device_launch(dev, "gr__xk_mark_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  for (int i = 0; i < a->lists; i++) {
    const gr_vid *ids = a->ids[i];
    const uint64_t n = a->n[i];
#pragma omp parallel for num_threads(nt) schedule(static)
    for (uint64_t k = 0; k < n; k++) {
      gr_bitmap_test_and_set(a->bits[0], ids[k]);
      if (a->bits[1]) gr_bitmap_test_and_set(a->bits[1], ids[k]);
    }
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_select_cpu(gr_device *dev, const uint32_t *bits, const gr_vid *ids, uint64_t n, gr_vid *pos,
                                   gr_vid *id, uint64_t capacity, unsigned long long *counter) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_select_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (uint64_t k = 0; k < n; k++) {
    if (!gr_bitmap_test(bits, ids[k])) continue;
    const unsigned long long r = __atomic_fetch_add(counter, 1ull, __ATOMIC_RELAXED);
    if (r < capacity) {
      pos[r] = (gr_vid)k;
      id[r] = ids[k];
    }
  }
  return GR_SUCCESS;
}

static gr_status gr__xk_offset_cpu(gr_device *dev, gr_vid *dst, const gr_vid *src, uint64_t n, gr_vid base) {
  GR_CHECK(gr__device_launch(dev, "gr__xk_offset_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (uint64_t k = 0; k < n; k++) dst[k] = (gr_vid)((src ? src[k] : (gr_vid)k) + base);
  return GR_SUCCESS;
}

const gr_xk_ops gr__xk_ops_cpu = {gr__xk_package_cpu, gr__xk_combine_cpu, NULL,
                                  gr__xk_gather_cpu,  gr__xk_scatter_cpu, gr__xk_or_union_cpu,
                                  gr__xk_seal_cpu,    gr__xk_compact_cpu, gr__xk_mark_cpu,
                                  gr__xk_select_cpu,  gr__xk_offset_cpu,  gr__xk_or_owned_cpu};
