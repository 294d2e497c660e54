/* SPDX-License-Identifier: Apache-2.0 */
/* Just-enough device buffers: a size, a capacity, growth on demand with the
 * device's memory policy, and accounting through the device context. */
#ifndef GR_BUFFER_H
#define GR_BUFFER_H

#include <stddef.h>

#include "gr/device.h"
#include "gr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gr_buffer {
  void *ptr;
  size_t size;     /* bytes in use */
  size_t capacity; /* bytes allocated */
  gr_device *dev;
  const char *what; /* named in out-of-memory messages */
} gr_buffer;
#define GR_BUFFER_INIT {NULL, 0, 0, NULL, NULL}

/* How buffers grow (the --mem option): exactly what is asked, a factor more
 * than asked, or a preset maximum given by the caller. */
typedef enum gr_mem_policy_kind {
  GR_MEM_JUST_ENOUGH = 0,
  GR_MEM_PREALLOC = 1,
  GR_MEM_MAX = 2
} gr_mem_policy_kind;

typedef struct gr_mem_policy {
  gr_mem_policy_kind kind;
  double factor; /* GR_MEM_PREALLOC */
} gr_mem_policy;
#define GR_MEM_POLICY_INIT {GR_MEM_JUST_ENOUGH, 1.0}

/* Parses "just-enough", "prealloc:FACTOR" or "max". */
gr_status gr_mem_policy_parse(gr_mem_policy *out, const char *text);

/* Makes capacity >= bytes on dev. Contents are kept when keep != 0 (a device
 * copy of the old bytes), dropped otherwise. size becomes bytes. */
gr_status gr_buffer_resize(gr_buffer *b, gr_device *dev, size_t bytes,
                           int keep, const char *what);
/* Like resize, but capacity follows the policy (factor, or `max_bytes` for
 * GR_MEM_MAX when that is larger). */
gr_status gr_buffer_reserve(gr_buffer *b, gr_device *dev, size_t bytes,
                            int keep, const gr_mem_policy *policy,
                            size_t max_bytes, const char *what);
void gr_buffer_release(gr_buffer *b);

#ifdef __cplusplus
}
#endif

#endif
