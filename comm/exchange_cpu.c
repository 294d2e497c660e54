/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange's per-element work on the CPU backend: the portable
 * definition the CUDA kernels are checked against. Loops run over the
 * device's threads; counters are updated with atomics. */
#include <string.h>

#include "exchange_kernels.h"
#include "gr/atomic.h"

static gr_status gr__xk_split_cpu(gr_device *dev, const gr_xk_split_args *a) {
  const int nt = gr_device_cpu_threads(dev);
  int overflow = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 4096)
  for (gr_eid i = 0; i < a->n_out; i++) {
    const gr_vid v = a->out[i];
    const int o = a->owner[v];
    if (o == a->me) {
      gr_bitmap_test_and_set(a->cull, v);
      uint64_t pos = gr_atomic_add_u64((uint64_t *)&a->counts[0], 1);
      if (pos < a->next_capacity) a->next[pos] = v;
      else __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
    } else if (a->count_peers) {
      gr_atomic_add_u64((uint64_t *)&a->counts[1 + o], 1);
    }
  }
  if (overflow)
    return gr_errorf(GR_ERR_INTERNAL, "exchange split: next frontier of capacity %llu overflowed",
                     (unsigned long long)a->next_capacity);
  return GR_SUCCESS;
}

static gr_status gr__xk_pack_cpu(gr_device *dev, const gr_xk_pack_args *a) {
  const int nt = gr_device_cpu_threads(dev);
  const gr_xk_layout *l = &a->layout;
  const size_t vb = (size_t)l->value_bytes;
#pragma omp parallel for num_threads(nt) schedule(static, 4096)
  for (gr_eid i = 0; i < a->n_out; i++) {
    const gr_vid v = a->out[i];
    int part = 0;
    uint64_t slot = i;
    if (a->owner) {
      part = a->owner[v];
      if (part == a->me) continue;
      slot = gr_atomic_add_u64((uint64_t *)&a->cursor[part], 1);
    }
    unsigned char *m = a->msg[part];
    const uint64_t cnt = a->msg_count[part];
    ((gr_vid *)m)[slot] = a->convert ? a->convert[v] : v;
    for (int k = 0; k < l->n_values; k++)
      memcpy(m + gr_xk_section(l, cnt, 1 + k) + slot * vb, (const unsigned char *)a->pay.values[k] + v * vb, vb);
    for (int k = 0; k < l->n_vertices; k++)
      ((gr_svid *)(m + gr_xk_section(l, cnt, 1 + l->n_values + k)))[slot] = a->pay.vertices[k][v];
  }
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

/* Applies op to one value; true when the local value changed. */
static bool gr__apply(gr_value_type t, gr_combine_op op, void *local, const void *in) {
  switch (t) {
    case GR_VALUE_SVID: {
      gr_svid *p = local, x = *(const gr_svid *)in;
      switch (op) {
        case GR_COMBINE_MIN: return gr__min_svid(p, x);
        case GR_COMBINE_MAX: return gr__max_svid(p, x);
        case GR_COMBINE_SUM: __atomic_fetch_add(p, x, __ATOMIC_RELAXED); return x != 0;
        case GR_COMBINE_OR: {
          gr_svid old = __atomic_fetch_or(p, x, __ATOMIC_RELAXED);
          return (old | x) != old;
        }
        case GR_COMBINE_REPLACE: __atomic_store_n(p, x, __ATOMIC_RELAXED); return true;
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
      }
      return false;
    }
  }
  return false;
}

/* Equal as values (as CUDA's pass 2 compares: -0.0 equals 0.0). */
static bool gr__equal(gr_value_type t, const void *a, const void *b) {
  switch (t) {
    case GR_VALUE_FLOAT: {
      float x, y;
      memcpy(&x, a, sizeof x);
      memcpy(&y, b, sizeof y);
      return x == y;
    }
    case GR_VALUE_DOUBLE: {
      double x, y;
      memcpy(&x, a, sizeof x);
      memcpy(&y, b, sizeof y);
      return x == y;
    }
    case GR_VALUE_SVID:
      return *(const gr_svid *)a == *(const gr_svid *)b;
  }
  return false;
}

static gr_status gr__xk_combine_cpu(gr_device *dev, const gr_xk_combine_args *a) {
  const int nt = gr_device_cpu_threads(dev);
  const gr_xk_layout *l = &a->layout;
  const size_t vb = (size_t)l->value_bytes;
  const gr_vid *ids = (const gr_vid *)a->msg;
  const bool all_values = a->op == GR_COMBINE_SUM || a->op == GR_COMBINE_OR;
  int overflow = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 1024)
  for (uint64_t i = 0; i < a->count; i++) {
    gr_vid v = ids[i];
    if (a->g2l) {
      v = a->g2l[v];
      if (v == GR_NO_VERTEX) continue;
    }
    const unsigned char *val0 = a->msg + gr_xk_section(l, a->count, 1) + i * vb;
    unsigned char *loc0 = (unsigned char *)a->pay.values[0] + v * vb;
    if (a->pass == 2) {
      /* The winner's other payloads: any sender whose value equals the
       * final one is a valid winner. */
      if (!gr__equal(a->type, loc0, val0)) continue;
      for (int k = 1; k < l->n_values; k++)
        memcpy((unsigned char *)a->pay.values[k] + v * vb, a->msg + gr_xk_section(l, a->count, 1 + k) + i * vb, vb);
      for (int k = 0; k < l->n_vertices; k++)
        a->pay.vertices[k][v] = ((const gr_svid *)(a->msg + gr_xk_section(l, a->count, 1 + l->n_values + k)))[i];
      continue;
    }
    bool changed = gr__apply(a->type, a->op, loc0, val0);
    if (all_values || a->op == GR_COMBINE_REPLACE)
      for (int k = 1; k < l->n_values; k++)
        changed |= gr__apply(a->type, a->op, (unsigned char *)a->pay.values[k] + v * vb,
                             a->msg + gr_xk_section(l, a->count, 1 + k) + i * vb);
    if (a->op == GR_COMBINE_REPLACE)
      for (int k = 0; k < l->n_vertices; k++)
        a->pay.vertices[k][v] = ((const gr_svid *)(a->msg + gr_xk_section(l, a->count, 1 + l->n_values + k)))[i];
    if (!changed || (a->owner && a->owner[v] != a->me)) continue;
    if (!gr_bitmap_test_and_set(a->cull, v)) continue;
    uint64_t pos = gr_atomic_add_u64((uint64_t *)a->count_next, 1);
    if (pos < a->next_capacity) a->next[pos] = v;
    else __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
  }
  if (overflow)
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: next frontier of capacity %llu overflowed",
                     (unsigned long long)a->next_capacity);
  return GR_SUCCESS;
}

static gr_status gr__xk_pack_bits_cpu(gr_device *dev, const gr_xk_pack_bits_args *a) {
  const int nt = gr_device_cpu_threads(dev);
  uint32_t *bits = (uint32_t *)(a->msg + 8);
  const size_t vb = (size_t)a->value_bytes;
  memcpy(a->msg, (const unsigned char *)a->values + (size_t)a->out[0] * vb, vb);
  uint64_t distinct = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 4096) reduction(+ : distinct)
  for (gr_eid i = 0; i < a->n_out; i++) {
    const gr_vid id = a->convert ? a->convert[a->out[i]] : a->out[i];
    const uint32_t mask = 1u << (id & 31u);
    if (!(gr_atomic_or_u32(&bits[id >> 5], mask) & mask)) distinct++;
  }
  *a->distinct = distinct;
  return GR_SUCCESS;
}

static gr_status gr__xk_unpack_bits_cpu(gr_device *dev, const gr_xk_unpack_bits_args *a) {
  const int nt = gr_device_cpu_threads(dev);
  const uint32_t *bits = (const uint32_t *)(a->msg + 8);
  const size_t vb = (size_t)a->layout.value_bytes;
  gr_vid *ids = (gr_vid *)a->list;
  unsigned char *vals = a->list + gr_xk_section(&a->layout, a->count, 1);
  const gr_eid words = ((gr_eid)a->universe + 31) / 32;
  int overflow = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 1024)
  for (gr_eid w = 0; w < words; w++) {
    uint32_t word = bits[w];
    if (!word) continue;
    uint64_t pos = gr_atomic_add_u64((uint64_t *)a->cursor, (uint64_t)__builtin_popcount(word));
    for (; word; word &= word - 1, pos++) {
      if (pos >= a->count) {
        __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
        break;
      }
      ids[pos] = (gr_vid)(w * 32 + (gr_eid)__builtin_ctz(word));
      memcpy(vals + pos * vb, a->msg, vb);
    }
  }
  if (overflow || *a->cursor != a->count)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: a bitmap package held %llu vertices, %llu announced",
                     (unsigned long long)*a->cursor, (unsigned long long)a->count);
  return GR_SUCCESS;
}

const gr_xk_ops gr__xk_ops_cpu = {gr__xk_split_cpu, gr__xk_pack_cpu, gr__xk_combine_cpu, gr__xk_pack_bits_cpu,
                                  gr__xk_unpack_bits_cpu};
