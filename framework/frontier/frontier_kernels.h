/* SPDX-License-Identifier: Apache-2.0 */
/* Launchers for frontier conversions, one per backend. They take device
 * pointers and sizes, never allocate, and (CUDA) never synchronize, except
 * where a count must come back to the host. */
#ifndef GR_FRONTIER_KERNELS_H
#define GR_FRONTIER_KERNELS_H

#include "gr/frontier.h"

#ifdef __cplusplus
extern "C" {
#endif

gr_status gr__frontier_q2b_cpu(gr_device *dev, const gr_vid *q, gr_eid n, uint32_t *bits);
gr_status gr__frontier_b2q_cpu(gr_device *dev, const uint32_t *bits, gr_vid universe, gr_vid *q,
                               gr_eid *n);
gr_status gr__frontier_or_cpu(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words);
gr_status gr__ids_map_cpu(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table, gr_vid limit,
                         unsigned long long *bad);
gr_status gr__frontier_degrees_cpu(gr_device *dev, const gr_vid *q, gr_eid n, const gr_eid *offsets,
                                   gr_eid *sum);
#ifdef GR_HAVE_CUDA
gr_status gr__frontier_degrees_cuda(gr_device *dev, gr_workspace *ws, const gr_vid *q, gr_eid n,
                                    const gr_eid *offsets, gr_eid *sum);
gr_status gr__frontier_or_cuda(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words);
gr_status gr__ids_map_cuda(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table, gr_vid limit,
                          unsigned long long *bad);
gr_status gr__frontier_q2b_cuda(gr_device *dev, const gr_vid *q, gr_eid n, uint32_t *bits);
/* Needs ws->words and ws->temp; grows them. */
gr_status gr__frontier_b2q_cuda(gr_device *dev, gr_workspace *ws, const uint32_t *bits,
                                gr_vid universe, gr_frontier *f);
#endif

#ifdef __cplusplus
}
#endif

#endif
