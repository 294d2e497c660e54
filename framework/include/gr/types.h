/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar types shared by host C and CUDA: vertex ids (32-bit unless built with
 * GR_VERTEX_64), 64-bit edge ids and counts, and the GR_HD marker that lets one
 * per-element function serve both backends. */
#ifndef GR_TYPES_H
#define GR_TYPES_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define GR_HD __host__ __device__ __forceinline__
#else
#define GR_HD static inline
#endif

#ifdef GR_VERTEX_64
typedef uint64_t gr_vid;  /* vertex id */
typedef int64_t gr_svid;  /* signed vertex-sized value: depths, labels; -1 = none */
#define GR_VID_MAX UINT64_MAX
#define GR_SVID_MAX INT64_MAX
#define GR_PRIvid PRIu64
#define GR_PRIsvid PRId64
#define GR_VID_BITS 64
#else
typedef uint32_t gr_vid;
typedef int32_t gr_svid;
#define GR_VID_MAX UINT32_MAX
#define GR_SVID_MAX INT32_MAX
#define GR_PRIvid PRIu32
#define GR_PRIsvid PRId32
#define GR_VID_BITS 32
#endif

/* Edge ids, offsets and every count of edges are 64-bit everywhere. */
typedef uint64_t gr_eid;
#define GR_PRIeid PRIu64

typedef float gr_weight;

/* Largest number of vertices a build can address; the all-ones id is kept as
 * the "no vertex" marker. */
#define GR_MAX_VERTICES ((uint64_t)GR_VID_MAX - 1u)
#define GR_NO_VERTEX ((gr_vid)GR_VID_MAX)

#endif
