/* SPDX-License-Identifier: Apache-2.0 */
/* Host result arrays in global ids. */
#include <stdlib.h>
#include <string.h>

#include "gr/primitive.h"
#include "gr/subgraph.h"
#include "gr/util.h"

static size_t gr__value_size(gr_value_type t) {
  switch (t) {
    case GR_VALUE_SVID:
      return sizeof(gr_svid);
    case GR_VALUE_FLOAT:
      return sizeof(float);
    case GR_VALUE_DOUBLE:
      return sizeof(double);
  }
  return sizeof(double);
}

/* All bytes 0xff, on all host threads: results of big graphs are hundreds
 * of megabytes, filled once per run. */
static void gr__fill_ff(void *p, size_t bytes) {
  const size_t piece = (size_t)1 << 20;
#pragma omp parallel for schedule(static) if (bytes > 4 * piece)
  for (size_t off = 0; off < bytes; off += piece) memset((char *)p + off, 0xff, bytes - off < piece ? bytes - off : piece);
}

gr_status gr_result_alloc(gr_result *r, gr_vid n, gr_value_type type, bool preds) {
  gr_result z = GR_RESULT_INIT;
  *r = z;
  r->n = n;
  r->type = type;
  GR_CHECK(gr_host_alloc(&r->values, (size_t)n * gr__value_size(type), "results"));
  /* Unwritten entries read as "unreached" (-1) rather than garbage. */
  gr__fill_ff(r->values, (size_t)n * gr__value_size(type));
  if (preds) {
    gr_status st = gr_host_alloc((void **)&r->preds, (size_t)n * sizeof(gr_svid), "predecessors");
    if (st < 0) {
      gr_result_free(r);
      return st;
    }
    gr__fill_ff(r->preds, (size_t)n * sizeof(gr_svid));
  }
  return GR_SUCCESS;
}

gr_status gr_result_reuse(gr_result *r, gr_vid n, gr_value_type type, bool preds) {
  if (!r->values || r->n != n || r->type != type || (r->preds != NULL) != preds) {
    gr_result_free(r);
    return gr_result_alloc(r, n, type, preds);
  }
  gr_extra_free(&r->extra);
  gr__fill_ff(r->values, (size_t)n * gr__value_size(type));
  if (preds) gr__fill_ff(r->preds, (size_t)n * sizeof(gr_svid));
  return GR_SUCCESS;
}

void gr_extra_free(gr_extra *x) {
  for (int i = 0; i < x->n_series && i < GR_EXTRA_MAX; i++) free(x->series[i]);
  memset(x, 0, sizeof *x);
}

static void gr__result_aux_free(gr_result *r) {
  for (int k = 0; k < GR_AUX_MAX; k++) {
    free(r->aux_values[k]);
    r->aux_values[k] = NULL;
  }
  memset(&r->aux, 0, sizeof r->aux);
}

gr_status gr_result_aux(gr_result *r, const gr_aux_spec *aux) {
  bool same = aux->n == r->aux.n;
  for (int k = 0; same && k < aux->n; k++)
    same = aux->types[k] == r->aux.types[k] && r->aux_values[k] && !strcmp(aux->names[k], r->aux.names[k]);
  if (!same) {
    gr__result_aux_free(r);
    if (aux->n < 0 || aux->n > GR_AUX_MAX)
      return gr_errorf(GR_ERR_INTERNAL, "a result carries 0 to %d per-vertex arrays, not %d", GR_AUX_MAX, aux->n);
    for (int k = 0; k < aux->n; k++) {
      gr_status st = gr_host_alloc(&r->aux_values[k], (r->n ? (size_t)r->n : 1) * gr__value_size(aux->types[k]),
                                   aux->names[k]);
      if (st < 0) {
        gr__result_aux_free(r);
        return st;
      }
    }
    r->aux = *aux;
  }
  for (int k = 0; k < aux->n; k++) gr__fill_ff(r->aux_values[k], (size_t)r->n * gr__value_size(aux->types[k]));
  return GR_SUCCESS;
}

void gr_result_free(gr_result *r) {
  gr__result_aux_free(r);
  free(r->values);
  free(r->preds);
  gr_extra_free(&r->extra);
  r->values = NULL;
  r->preds = NULL;
  r->n = 0;
}

/* Seeds one value of `size` bytes wherever the source is held, and the
 * first frontier at its owner. Proxies take the value too: a pull in the
 * first iteration reads the source's value on every device before any
 * exchange has carried it (DOBFS pulling at once on a small graph found
 * the source's neighbours one level late on devices that held it as a
 * proxy), and a push reaching a seeded proxy has nothing to claim. */
static gr_status gr__part_seed(gr_part *p, gr_vid source, void *values, const void *value, size_t size,
                               gr_frontier *first) {
  first->size = 0;
  gr_vid src = 0;
  if (!gr_subgraph_local(p->sub, source, &src)) return GR_SUCCESS;
  GR_CHECK(gr_device_copy(p->dev, (unsigned char *)values + (size_t)src * size, value, size, GR_COPY_H2D));
  if (gr_subgraph_owns(p->sub, src)) GR_CHECK(gr_frontier_assign(first, p->dev, &src, 1));
  return gr_device_sync(p->dev);
}

gr_status gr_part_seed(gr_part *p, gr_vid source, gr_svid *values, gr_svid value, gr_frontier *first) {
  return gr__part_seed(p, source, values, &value, sizeof value, first);
}

gr_status gr_part_seed_float(gr_part *p, gr_vid source, float *values, float value, gr_frontier *first) {
  return gr__part_seed(p, source, values, &value, sizeof value, first);
}

/* Owned entries of a device array of `size`-byte values, to global ids. */
static gr_status gr__part_gather(gr_part *p, const void *values, size_t size, void *global) {
  const gr_subgraph *sub = p->sub;
  /* Under 1-hop proxies the owned vertices are the first local ids: only
   * they travel and are scanned. Otherwise (duplicate-all, one device)
   * every local id is, the owner table picking this device's. */
  const gr_vid n = sub->proxy == GR_PROXY_1HOP && sub->local_to_global ? sub->n_owned : sub->n_local;
  /* The device's staging memory, kept from run to run (pinned on GPUs: a
   * fresh pageable buffer of a big graph's results costs page faults and a
   * slow copy every run). */
  const size_t bytes = (size_t)n * size;
  if (p->host_stage_bytes < bytes) {
    gr_device_host_free(p->dev, p->host_stage);
    p->host_stage = NULL;
    p->host_stage_bytes = 0;
    GR_CHECK(gr_device_host_alloc(p->dev, &p->host_stage, bytes ? bytes : 1, "results"));
    p->host_stage_bytes = bytes;
  }
  unsigned char *h = p->host_stage;
  gr_status st = gr_device_copy(p->dev, h, values, bytes, GR_COPY_D2H);
  if (st < 0) return st;
  /* Each device's thread scatters its own vertices with a share of the
   * host's threads (owners write disjoint entries), with typed stores: a
   * memcpy call per vertex cost more than the rest of the loop. Values are
   * 4 or 8 bytes (gr_part_gather_*). */
  const int threads = gr_host_threads() / p->count > 1 ? gr_host_threads() / p->count : 1;
  (void)threads;
  if (size == 8) {
    const uint64_t *src = (const uint64_t *)(const void *)h;
    uint64_t *dst = global;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 65536)
    for (gr_vid v = 0; v < n; v++)
      if (gr_subgraph_owns(sub, v)) dst[gr_subgraph_global(sub, v)] = src[v];
  } else {
    const uint32_t *src = (const uint32_t *)(const void *)h;
    uint32_t *dst = global;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 65536)
    for (gr_vid v = 0; v < n; v++)
      if (gr_subgraph_owns(sub, v)) dst[gr_subgraph_global(sub, v)] = src[v];
  }
  return GR_SUCCESS;
}

gr_status gr_part_gather_svid(gr_part *p, const gr_svid *values, gr_svid *global) {
  return gr__part_gather(p, values, sizeof *values, global);
}

gr_status gr_part_gather_float(gr_part *p, const float *values, float *global) {
  return gr__part_gather(p, values, sizeof *values, global);
}

gr_status gr_part_gather_double(gr_part *p, const double *values, double *global) {
  return gr__part_gather(p, values, sizeof *values, global);
}

gr_status gr_part_owners(gr_part *p, gr_buffer *b, const uint8_t **table, gr_vid *owned_first) {
  const gr_subgraph *s = p->sub;
  *table = NULL;
  *owned_first = 0;
  if (!s->owner || p->count == 1) return GR_SUCCESS;
  if (s->proxy == GR_PROXY_1HOP) {
    /* Owned vertices come first; a device that owns none still has proxies
     * to tell apart: an empty range of owned ids needs the table. */
    if (s->n_owned > 0) {
      *owned_first = s->n_owned;
      return GR_SUCCESS;
    }
  }
  const size_t n = s->n_local;
  uint8_t *h = NULL;
  GR_CHECK(gr_host_alloc((void **)&h, n ? n : 1, "owner table"));
  for (size_t v = 0; v < n; v++) h[v] = (uint8_t)s->owner[v];
  gr_status st = gr_buffer_resize(b, p->dev, n ? n : 1, 0, "owner table");
  if (st >= 0) st = gr_device_copy(p->dev, b->ptr, h, n, GR_COPY_H2D);
  if (st >= 0) st = gr_device_sync(p->dev);
  free(h);
  if (st >= 0) *table = b->ptr;
  return st;
}
