/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange's per-element work, with one implementation per backend
 * (exchange_cpu.c, the portable definition; cuda/exchange_cuda.cu): split an
 * output frontier into owned vertices and per-peer packages, and combine an
 * arriving package into local state. Launchers take device pointers, never
 * allocate and never synchronize; counts come back through device counters.
 *
 * A package (message) for one peer holds `count` items as a structure of
 * arrays, each section starting on an 8-byte boundary:
 *   ids (gr_vid) | value payload 0 | ... | vertex payload 0 | ...           */
#ifndef GR_COMM_EXCHANGE_KERNELS_H
#define GR_COMM_EXCHANGE_KERNELS_H

#include "gr/device.h"
#include "gr/primitive.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GR_COMM_MAX_DEVICES = 32 };

typedef struct gr_xk_layout {
  int n_values;
  int value_bytes; /* 4 or 8 */
  int n_vertices;
} gr_xk_layout;

GR_HD uint64_t gr_xk_align8(uint64_t b) { return (b + 7u) & ~(uint64_t)7u; }

/* Byte offset of section `sec` (0 = ids, 1.. values, then vertices) in a
 * message of `count` items; sec = 1 + n_values + n_vertices gives the
 * message's size. */
GR_HD uint64_t gr_xk_section(const gr_xk_layout *l, uint64_t count, int sec) {
  uint64_t off = 0;
  if (sec > 0) off += gr_xk_align8(count * sizeof(gr_vid));
  for (int k = 0; k < l->n_values && k + 1 < sec; k++) off += gr_xk_align8(count * (uint64_t)l->value_bytes);
  for (int k = 0; k < l->n_vertices && 1 + l->n_values + k < sec; k++)
    off += gr_xk_align8(count * sizeof(gr_svid));
  return off;
}
GR_HD uint64_t gr_xk_message_bytes(const gr_xk_layout *l, uint64_t count) {
  return gr_xk_section(l, count, 1 + l->n_values + l->n_vertices);
}

/* Split: every item v of `out` owned by this device (owner[v] == me) goes to
 * `next` and its bit is set in `cull`; with count_peers, counts[1 + j] counts
 * the items owned by part j. counts[0] is the number written to next. */
typedef struct gr_xk_split_args {
  const gr_vid *out;
  gr_eid n_out;
  const int32_t *owner; /* per local vertex */
  int me;
  int count_peers;
  gr_vid *next;
  gr_eid next_capacity;
  uint32_t *cull;
  unsigned long long *counts; /* 1 + parts device counters, zeroed */
} gr_xk_split_args;

/* Pack: items of `out` into the messages. With owner given (selective),
 * an item goes to the message of its owner (items owned by `me` are
 * skipped) at a slot taken from cursor[owner]; without (broadcast), item i
 * goes to message 0 at slot i. The id written is convert[v] when convert is
 * given (the owner's local id, or the global id), else v. */
typedef struct gr_xk_pack_args {
  const gr_vid *out;
  gr_eid n_out;
  const int32_t *owner;
  int me;
  const gr_vid *convert;
  gr_payload pay;
  gr_xk_layout layout;
  unsigned char *msg[GR_COMM_MAX_DEVICES];   /* message start per part */
  uint64_t msg_count[GR_COMM_MAX_DEVICES];   /* items of each message */
  unsigned long long *cursor;                /* one device counter per part, zeroed */
} gr_xk_pack_args;

/* Combine one arriving message. Pass 1 applies the operator to the first
 * value payload (SUM, OR: to every value payload; REPLACE: writes every
 * payload); a changed vertex that this device owns joins `next` once (cull).
 * Pass 2 (MIN and MAX with more than one payload, after pass 1 of every
 * message) copies the other payloads where the local value equals the
 * arriving one. Ids are local, or global when g2l is given (entries
 * GR_NO_VERTEX are not held here and are skipped). */
typedef struct gr_xk_combine_args {
  const unsigned char *msg;
  uint64_t count;
  const gr_vid *g2l;
  const int32_t *owner; /* NULL: every vertex is owned */
  int me;
  gr_payload pay;
  gr_xk_layout layout;
  gr_value_type type;
  gr_combine_op op;
  int pass;
  uint32_t *cull;
  gr_vid *next;
  gr_eid next_capacity;
  unsigned long long *count_next; /* device counter: items in next */
} gr_xk_combine_args;

/* A broadcast package of a uniform payload (one value payload, no vertex
 * payloads, the same value for every item) may travel as a bitmap:
 *   [the value, 8 bytes] [one bit per id of [0, universe), 32-bit words]
 * (universe: the id space of broadcast packages, the global vertex count). */
GR_HD uint64_t gr_xk_bitmap_bytes(gr_vid universe) {
  return 8u + gr_xk_align8(((uint64_t)universe + 31u) / 32u * 4u);
}

/* Pack as a bitmap: sets the bit of every item's id (convert[v] when given)
 * in msg, whose bits the caller has cleared, writes the value of the first
 * item as the message's value, and counts the distinct ids (the items the
 * receivers will unpack) in *distinct, a zeroed device counter. */
typedef struct gr_xk_pack_bits_args {
  const gr_vid *out;
  gr_eid n_out; /* > 0 */
  const gr_vid *convert;
  const void *values; /* value payload 0, per local vertex */
  int value_bytes;
  unsigned char *msg;
  unsigned long long *distinct;
} gr_xk_pack_bits_args;

/* Unpack a bitmap message into a list message of `count` items (layout:
 * one value payload) at `list`: ids in any order, each with the value.
 * cursor: a zeroed device counter. */
typedef struct gr_xk_unpack_bits_args {
  const unsigned char *msg;
  gr_vid universe;
  gr_xk_layout layout;
  unsigned char *list;
  uint64_t count;
  unsigned long long *cursor;
} gr_xk_unpack_bits_args;

typedef struct gr_xk_ops {
  gr_status (*split)(gr_device *dev, const gr_xk_split_args *a);
  gr_status (*pack)(gr_device *dev, const gr_xk_pack_args *a);
  gr_status (*combine)(gr_device *dev, const gr_xk_combine_args *a);
  gr_status (*pack_bits)(gr_device *dev, const gr_xk_pack_bits_args *a);
  gr_status (*unpack_bits)(gr_device *dev, const gr_xk_unpack_bits_args *a);
} gr_xk_ops;

extern const gr_xk_ops gr__xk_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_xk_ops gr__xk_ops_cuda;
#endif

#ifdef __cplusplus
}
#endif

#endif
