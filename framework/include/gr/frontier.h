/* SPDX-License-Identifier: Apache-2.0 */
/* Frontiers: a sparse queue of vertex ids and a dense bitmap over the same
 * universe, with conversions both ways. Buffers live on the frontier's
 * device and grow just enough. */
#ifndef GR_FRONTIER_H
#define GR_FRONTIER_H

#include "gr/buffer.h"
#include "gr/graph.h"
#include "gr/types.h"
#include "gr/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gr_frontier {
  gr_vid universe;  /* ids are < universe */
  gr_buffer queue;  /* gr_vid items */
  gr_eid size;      /* items in the queue */
  gr_buffer bitmap; /* (universe + 31) / 32 words, when used */
} gr_frontier;
#define GR_FRONTIER_INIT {0, GR_BUFFER_INIT, 0, GR_BUFFER_INIT}

static inline gr_vid *gr_frontier_items(const gr_frontier *f) { return (gr_vid *)f->queue.ptr; }
static inline uint32_t *gr_frontier_bits(const gr_frontier *f) { return (uint32_t *)f->bitmap.ptr; }
static inline gr_eid gr_frontier_capacity(const gr_frontier *f) {
  return (gr_eid)(f->queue.capacity / sizeof(gr_vid));
}
static inline size_t gr_bitmap_words(gr_vid universe) { return ((size_t)universe + 31) / 32; }

void gr_frontier_init(gr_frontier *f, gr_vid universe);
/* Makes room for `items` queue entries (contents kept when keep != 0). */
gr_status gr_frontier_reserve(gr_frontier *f, gr_device *dev, gr_eid items, int keep,
                              const gr_mem_policy *policy);
/* Replaces the queue with n host-side ids. */
gr_status gr_frontier_assign(gr_frontier *f, gr_device *dev, const gr_vid *host_ids, gr_eid n);
/* Allocates the bitmap (when absent) and clears it. */
gr_status gr_frontier_clear_bitmap(gr_frontier *f, gr_device *dev);
/* Sets the bitmap to exactly the queue's elements. */
gr_status gr_frontier_queue_to_bitmap(gr_frontier *f, gr_device *dev, gr_workspace *ws);
/* Sets bit v of `bits` (device memory) for each of the n ids (device
 * memory), leaving the other bits as they are. */
gr_status gr_bitmap_set_ids(gr_device *dev, const gr_vid *ids, gr_eid n, uint32_t *bits);
/* dst[w] |= src[w] for the first `words` words (both device memory). */
gr_status gr_bitmap_or(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words);
/* ids[e] = table[ids[e]] for the n ids (device memory), through a table of
 * n_table entries (device memory): an id at or past n_table, or whose
 * entry is at or past `limit` (GR_NO_VERTEX among them), becomes 0 and is
 * counted into *bad (one device word, added to). A part's neighbour ids
 * gathered from the graph as global ids become its local ids so, on the
 * device. */
gr_status gr_ids_map(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table, gr_vid limit,
                     unsigned long long *bad);
/* Sets the queue to the bitmap's elements in ascending order. */
gr_status gr_frontier_bitmap_to_queue(gr_frontier *f, gr_device *dev, gr_workspace *ws);
/* The sum of the queue's vertices' degrees in g (device-resident CSR): the
 * edges a push from this frontier would visit. */
gr_status gr_frontier_degree_sum(const gr_frontier *f, gr_device *dev, gr_workspace *ws, const gr_csr *g,
                                 gr_eid *sum);
/* Copies the queue to host memory (n = f->size entries). */
gr_status gr_frontier_download(const gr_frontier *f, gr_device *dev, gr_vid *host_ids);
void gr_frontier_swap(gr_frontier *a, gr_frontier *b);
void gr_frontier_release(gr_frontier *f);

#ifdef GR_HAVE_CUDA
/* Loads frontier_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__frontier_cuda_preload(gr_device *dev);
#endif

#ifdef __cplusplus
}
#endif

#endif
