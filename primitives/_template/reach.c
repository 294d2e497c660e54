/* SPDX-License-Identifier: Apache-2.0 */
/* Reach as a primitive spec: per-device state (one value per local vertex),
 * reset at the source's owner, one push advance per iteration. Across
 * devices a reached vertex travels with its value and MAX lets 1 win. */
#include <stdlib.h>
#include <string.h>

#include "_template/reach.h"
#include "gr/util.h"

typedef struct gr__reach_slice {
  gr_buffer reached;
} gr__reach_slice;

const gr_reach_ops *gr__reach_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__reach_ops_cuda;
#endif
  (void)dev;
  return &gr__reach_ops_cpu;
}

static gr_status reach_init(void **slice, gr_part *p) {
  gr__reach_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "reach state"));
  GR_CHECK_GOTO(gr_buffer_resize(&s->reached, p->dev, (size_t)p->sub->n_local * sizeof(gr_svid), 0,
                                 "reach values"),
                st, fail);
  *slice = s;
  return GR_SUCCESS;
fail:
  gr_buffer_release(&s->reached);
  free(s);
  return st;
}

static void reach_release(void *slice, gr_part *p) {
  (void)p;
  gr__reach_slice *s = slice;
  gr_buffer_release(&s->reached);
  free(s);
}

static gr_status reach_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__reach_slice *s = slice;
  gr_vid n = p->sub->n_local;
  /* Every byte 0xff is -1 in two's complement: "unreached". */
  GR_CHECK(gr_device_memset(p->dev, s->reached.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  /* Each vertex is output at most once, so frontiers of n_local entries are
   * all a run ever needs (between devices the input holds owned vertices
   * only, in the room the enactor gave it). */
  const gr_eid first_room = p->count > 1 || n == 0 ? 1 : n;
  if (gr_frontier_capacity(first) < first_room) GR_CHECK(gr_frontier_reserve(first, p->dev, first_room, 0, &p->mem));
  /* Only the owner starts from the source. */
  return gr_part_seed(p, a->source, s->reached.ptr, 1, first);
}

static gr_status reach_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__reach_slice *s = slice;
  gr_vid n = p->sub->n_local;
  if (gr_frontier_capacity(it->out) < n)
    GR_CHECK(gr_frontier_reserve(it->out, p->dev, n, 0, &p->mem));
  gr_reach_ctx c = {(gr_svid *)s->reached.ptr};
  gr_advance_push_args a = {.g = &p->out,
                            .in = gr_frontier_items(it->in),
                            .n_in = it->in->size,
                            .out = gr_frontier_items(it->out),
                            .out_capacity = gr_frontier_capacity(it->out)};
  GR_CHECK(gr__reach_ops(p->dev)->push(p->dev, p->ws, &a, &c));
  it->out->size = a.n_out;
  it->edges += a.edges;
  return GR_SUCCESS;
}

/* Only the values travel: a peer needs nothing but "reached". */
static gr_status reach_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__reach_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = s->reached.ptr;
  return GR_SUCCESS;
}

static gr_status reach_extract(void *slice, gr_part *p, gr_result *r) {
  gr__reach_slice *s = slice;
  return gr_part_gather_svid(p, s->reached.ptr, r->values);
}

const gr_primitive gr_reach_primitive = {
    .name = "reach",
    .summary = "reachability: 1 for every vertex reachable from a source, -1 for the rest",
    .proxy = GR_PROXY_1HOP,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 0,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_MAX,
    .value_type = GR_VALUE_SVID,
    .needs_source = true,
    .needs_in_edges = false,
    .needs_weights = false,
    .reads_packed_lists = true,
    .state_bytes_per_vertex = {24, 64},
    .init = reach_init,
    .release = reach_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__reach_cuda_preload,
#endif
    .reset = reach_reset,
    .iterate = reach_iterate,
    .converged = NULL,
    .arrived = NULL, /* optional: the next input counted before the iteration's last barrier (sssp) */
    .arriving = NULL, /* optional, with arrived: its first pass enqueued inside the exchange, before its read (sssp) */
    .payload = reach_payload,
    .extract = reach_extract,
    .reference = gr_reach_reference,
    .validate = gr_reach_validate,
    .traversed_edges = gr_reach_traversed_edges,
};
