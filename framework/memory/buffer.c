/* SPDX-License-Identifier: Apache-2.0 */
/* Just-enough buffers: grow on demand following the memory policy; every
 * growth after the first allocation counts as a reallocation, and a buffer
 * that grows again grows by at least half its capacity. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/util.h"

gr_status gr_mem_policy_parse(gr_mem_policy *out, const char *text) {
  gr_mem_policy p = GR_MEM_POLICY_INIT;
  if (!out || !text) return gr_errorf(GR_ERR_INVALID_ARG, "gr_mem_policy_parse: NULL argument");
  if (!strcmp(text, "just-enough")) {
    p.kind = GR_MEM_JUST_ENOUGH;
  } else if (!strcmp(text, "max")) {
    p.kind = GR_MEM_MAX;
  } else if (!strncmp(text, "prealloc:", 9)) {
    p.kind = GR_MEM_PREALLOC;
    if (!gr_parse_real(text + 9, strlen(text + 9), false, &p.factor, NULL) || !(p.factor >= 1.0) || p.factor > 64.0)
      return gr_errorf(GR_ERR_INVALID_ARG, "--mem prealloc:FACTOR needs a factor from 1 to 64, got '%s'", text + 9);
  } else {
    return gr_errorf(GR_ERR_INVALID_ARG, "--mem must be just-enough, prealloc:FACTOR or max, got '%s'", text);
  }
  *out = p;
  return GR_SUCCESS;
}

gr_status gr_buffer_reserve(gr_buffer *b, gr_device *dev, size_t bytes, int keep,
                            const gr_mem_policy *policy, size_t max_bytes, const char *what) {
  if (b->dev && b->dev != dev)
    return gr_errorf(GR_ERR_INTERNAL, "buffer %s moved between devices", what ? what : "");
  if (what) b->what = what;
  if (bytes <= b->capacity) {
    b->size = bytes;
    b->dev = dev;
    return GR_SUCCESS;
  }
  size_t cap = bytes;
  /* A buffer that has to grow again is growing step by step (a frontier on
   * a high-diameter graph gains a little every level): giving it half as
   * much again as it had keeps the number of reallocations logarithmic
   * instead of one per level, at most 1.5x over what was asked. */
  if (b->capacity && (!policy || policy->kind == GR_MEM_JUST_ENOUGH)) {
    size_t grown = b->capacity + b->capacity / 2;
    if (grown > cap) cap = max_bytes && grown > max_bytes ? (max_bytes > bytes ? max_bytes : bytes) : grown;
  }
  if (policy && policy->kind == GR_MEM_PREALLOC) cap = (size_t)((double)bytes * policy->factor);
  if (policy && policy->kind == GR_MEM_MAX && max_bytes > cap) cap = max_bytes;
  if (cap < bytes) cap = bytes;
  const bool keeping = keep && b->size;
  if (b->ptr && !keeping) {
    /* Nothing to keep: the old room goes first, so that the device never
     * holds both (a frontier queue that grew at CC's peak on four devices
     * held 4 MB it no longer needed beside its new 6 MB). A failed
     * allocation below then leaves the buffer empty. */
    gr__device_count_realloc(dev);
    gr_device_free(dev, b->ptr, b->capacity);
    b->ptr = NULL;
    b->size = b->capacity = 0;
  }
  void *p = NULL;
  gr_status st = gr_device_malloc(dev, &p, cap, b->what);
  if (st < 0) return st;
  if (keeping) {
    st = gr_device_copy(dev, p, b->ptr, b->size < bytes ? b->size : bytes, GR_COPY_D2D);
    if (st < 0) {
      gr_device_free(dev, p, cap);
      return st;
    }
    gr__device_count_realloc(dev);
    /* The copy above is ordered on the stream before the free, and
     * cudaFree waits for the device anyway. */
    gr_device_free(dev, b->ptr, b->capacity);
  }
  b->ptr = p;
  b->capacity = cap;
  b->size = bytes;
  b->dev = dev;
  return GR_SUCCESS;
}

gr_status gr_buffer_resize(gr_buffer *b, gr_device *dev, size_t bytes, int keep, const char *what) {
  return gr_buffer_reserve(b, dev, bytes, keep, NULL, 0, what);
}

void gr_buffer_release(gr_buffer *b) {
  if (b->ptr && b->dev) gr_device_free(b->dev, b->ptr, b->capacity);
  b->ptr = NULL;
  b->size = b->capacity = 0;
  b->dev = NULL;
}
