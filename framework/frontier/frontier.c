/* SPDX-License-Identifier: Apache-2.0 */
/* Frontier buffers and the backend-independent part of the conversions. */
#include "frontier/frontier_kernels.h"
#include "gr/frontier.h"

void gr_frontier_init(gr_frontier *f, gr_vid universe) {
  gr_frontier z = GR_FRONTIER_INIT;
  *f = z;
  f->universe = universe;
}

gr_status gr_frontier_reserve(gr_frontier *f, gr_device *dev, gr_eid items, int keep,
                              const gr_mem_policy *policy) {
  size_t max_bytes = (size_t)f->universe * sizeof(gr_vid);
  return gr_buffer_reserve(&f->queue, dev, (size_t)items * sizeof(gr_vid), keep, policy, max_bytes,
                           "frontier queue");
}

gr_status gr_frontier_assign(gr_frontier *f, gr_device *dev, const gr_vid *host_ids, gr_eid n) {
  for (gr_eid i = 0; i < n; i++)
    if (host_ids[i] >= f->universe)
      return gr_errorf(GR_ERR_INVALID_ARG, "frontier id %llu outside 0..%llu",
                       (unsigned long long)host_ids[i], (unsigned long long)f->universe - 1);
  if (gr_frontier_capacity(f) < n) GR_CHECK(gr_frontier_reserve(f, dev, n, 0, NULL));
  GR_CHECK(gr_device_copy(dev, f->queue.ptr, host_ids, (size_t)n * sizeof(gr_vid), GR_COPY_H2D));
  f->size = n;
  return GR_SUCCESS;
}

gr_status gr_frontier_clear_bitmap(gr_frontier *f, gr_device *dev) {
  size_t bytes = gr_bitmap_words(f->universe) * sizeof(uint32_t);
  if (f->bitmap.capacity < bytes)
    GR_CHECK(gr_buffer_resize(&f->bitmap, dev, bytes, 0, "frontier bitmap"));
  return gr_device_memset(dev, f->bitmap.ptr, 0, bytes);
}

gr_status gr_frontier_queue_to_bitmap(gr_frontier *f, gr_device *dev, gr_workspace *ws) {
  (void)ws;
  GR_CHECK(gr_frontier_clear_bitmap(f, dev));
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA)
    return gr__frontier_q2b_cuda(dev, gr_frontier_items(f), f->size, gr_frontier_bits(f));
#endif
  return gr__frontier_q2b_cpu(dev, gr_frontier_items(f), f->size, gr_frontier_bits(f));
}

gr_status gr_bitmap_set_ids(gr_device *dev, const gr_vid *ids, gr_eid n, uint32_t *bits) {
  if (!n) return GR_SUCCESS;
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return gr__frontier_q2b_cuda(dev, ids, n, bits);
#endif
  return gr__frontier_q2b_cpu(dev, ids, n, bits);
}

gr_status gr_bitmap_or(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words) {
  if (!words) return GR_SUCCESS;
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return gr__frontier_or_cuda(dev, dst, src, words);
#endif
  return gr__frontier_or_cpu(dev, dst, src, words);
}

gr_status gr_ids_map(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table, gr_vid limit,
                     unsigned long long *bad) {
  if (!n) return GR_SUCCESS;
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return gr__ids_map_cuda(dev, ids, n, table, n_table, limit, bad);
#endif
  return gr__ids_map_cpu(dev, ids, n, table, n_table, limit, bad);
}

gr_status gr_frontier_bitmap_to_queue(gr_frontier *f, gr_device *dev, gr_workspace *ws) {
  if (!f->bitmap.ptr) return gr_errorf(GR_ERR_INTERNAL, "frontier has no bitmap to convert");
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA)
    return gr__frontier_b2q_cuda(dev, ws, gr_frontier_bits(f), f->universe, f);
#endif
  (void)ws;
  /* The CPU conversion counts first, so the queue can be sized just enough. */
  gr_eid n = 0;
  GR_CHECK(gr__frontier_b2q_cpu(dev, gr_frontier_bits(f), f->universe, NULL, &n));
  if (gr_frontier_capacity(f) < n) GR_CHECK(gr_frontier_reserve(f, dev, n, 0, NULL));
  GR_CHECK(gr__frontier_b2q_cpu(dev, gr_frontier_bits(f), f->universe, gr_frontier_items(f), &n));
  f->size = n;
  return GR_SUCCESS;
}

gr_status gr_frontier_download(const gr_frontier *f, gr_device *dev, gr_vid *host_ids) {
  return gr_device_copy(dev, host_ids, f->queue.ptr, (size_t)f->size * sizeof(gr_vid), GR_COPY_D2H);
}

void gr_frontier_swap(gr_frontier *a, gr_frontier *b) {
  gr_frontier t = *a;
  *a = *b;
  *b = t;
}

void gr_frontier_release(gr_frontier *f) {
  gr_buffer_release(&f->queue);
  gr_buffer_release(&f->bitmap);
  f->size = 0;
}

gr_status gr_frontier_degree_sum(const gr_frontier *f, gr_device *dev, gr_workspace *ws, const gr_csr *g,
                                 gr_eid *sum) {
  *sum = 0;
  if (!f->size) return GR_SUCCESS;
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA)
    return gr__frontier_degrees_cuda(dev, ws, gr_frontier_items(f), f->size, g->offsets, sum);
#endif
  (void)ws;
  return gr__frontier_degrees_cpu(dev, gr_frontier_items(f), f->size, g->offsets, sum);
}
