/* SPDX-License-Identifier: Apache-2.0 */
/* gr_context: which devices a problem runs on and the exchange between
 * them; and what the library was built with. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "gr/util.h"
#include "registry.h"

#ifndef GR_VERSION
#define GR_VERSION "unknown"
#endif

void gr_library_get_info(gr_library_info *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  out->version = GR_VERSION;
  out->vertex_id_bits = GR_VID_BITS;
  out->cuda = gr_cuda_available() != 0;
  out->nccl = gr_comm_have_nccl() != 0;
#ifdef GR_HAVE_METIS
  out->metis = true;
#endif
  gr_cuda_versions(&out->cuda_runtime, &out->cuda_driver);
}

gr_status gr_gpu_count(int *count) {
  if (!count) return gr_errorf(GR_ERR_INVALID_ARG, "gr_gpu_count: NULL argument");
  *count = 0;
  return gr_device_count(GR_BACKEND_CUDA, count);
}

int gr_primitive_count(void) {
  int n = 0;
  for (const gr_primitive *const *p = gr_primitive_list(); *p; p++) n++;
  return n;
}

const char *gr_primitive_name(int i) {
  if (i < 0 || i >= gr_primitive_count()) return NULL;
  return gr_primitive_list()[i]->name;
}

/* The registry's primitive, or GR_ERR_INVALID_ARG listing the known ones. */
gr_status gr__primitive_lookup(const char *name, const gr_primitive **out);
gr_status gr__primitive_lookup(const char *name, const gr_primitive **out) {
  *out = name ? gr_primitive_find(name) : NULL;
  if (*out) return GR_SUCCESS;
  char known[512] = "";
  size_t k = 0;
  for (const gr_primitive *const *p = gr_primitive_list(); *p && k < sizeof known; p++) {
    int w = snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", (*p)->name);
    if (w < 0) break;
    k += (size_t)w;
  }
  return gr_errorf(GR_ERR_INVALID_ARG, "unknown primitive '%s' (known: %s)", name ? name : "(null)", known);
}

static gr_values_type gr__values_type(gr_value_type t) {
  return t == GR_VALUE_FLOAT ? GR_VALUES_FLOAT32 : t == GR_VALUE_DOUBLE ? GR_VALUES_FLOAT64 : GR_VALUES_INT64;
}
gr_values_type gr__public_values_type(gr_value_type t);
gr_values_type gr__public_values_type(gr_value_type t) { return gr__values_type(t); }

gr_status gr_primitive_get_info(const char *name, gr_primitive_info *out) {
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_primitive_get_info: NULL argument");
  const gr_primitive *p = NULL;
  GR_CHECK(gr__primitive_lookup(name, &p));
  memset(out, 0, sizeof *out);
  out->name = p->name;
  out->summary = p->summary ? p->summary : "";
  out->needs_source = p->needs_source;
  out->needs_weights = p->needs_weights;
  out->needs_in_edges = p->needs_in_edges;
  out->values = gr__values_type(p->value_type);
  out->accumulates_sources = p->accumulates_sources;
  return GR_SUCCESS;
}

gr_status gr_context_create(gr_context **out, const gr_options *o) {
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_context_create: NULL argument");
  *out = NULL;
  gr_status st = GR_SUCCESS;
  gr_context *c = NULL;
  GR_CHECK(gr_host_calloc((void **)&c, 1, sizeof *c, "context"));
  GR_CHECK_GOTO(gr__options_copy(&c->opts, o), st, cleanup);
  c->devices = c->opts.devices;
  c->backend = GR_BACKEND_CPU;
  if (c->opts.n_gpu_ids && c->opts.backend == GR__BACKEND_CPU) {
    st = gr_errorf(GR_ERR_INVALID_ARG, "option gpu-ids names GPUs, but the backend is cpu");
    goto cleanup;
  }
  if (c->opts.backend != GR__BACKEND_CPU) {
    int gpus = 0;
    GR_CHECK_GOTO(gr_device_count(GR_BACKEND_CUDA, &gpus), st, cleanup);
    if (c->opts.n_gpu_ids) {
      /* Physical ordinals, whatever GR_DEVICE_MAP presents. */
      int phys = 0;
      GR_CHECK_GOTO(gr_device_physical_gpus(&phys), st, cleanup);
      for (int i = 0; i < c->opts.n_gpu_ids; i++)
        if (c->opts.gpu_ids[i] >= phys) {
          st = gr_errorf(GR_ERR_NO_DEVICE, "gpu-ids names GPU %d, but %d GPU%s exist%s on this machine%s",
                         c->opts.gpu_ids[i], phys, phys == 1 ? "" : "s", phys == 1 ? "s" : "",
                         phys == 0 ? "; use the cpu backend for CPU devices" : "");
          goto cleanup;
        }
      c->backend = GR_BACKEND_CUDA;
    } else if (gpus > 0 || c->opts.backend == GR__BACKEND_GPU) {
      if (c->devices > gpus) {
        st = gr_errorf(GR_ERR_NO_DEVICE, "%d GPU%s asked for, but %d exist%s on this machine%s", c->devices,
                       c->devices == 1 ? " was" : "s were", gpus, gpus == 1 ? "s" : "",
                       gpus == 0 ? "; use the cpu backend for CPU devices" : "");
        goto cleanup;
      }
      c->backend = GR_BACKEND_CUDA;
    }
  }
  if (c->opts.turns && c->devices > 1 && c->opts.transport == GR_TRANSPORT_NCCL) {
    /* A device waiting inside an NCCL transfer for a peer that waits for
     * its turn would wait forever. */
    st = gr_errorf(GR_ERR_INVALID_ARG, "turns: devices taking turns cannot use the nccl transport (every device "
                                       "must post its part of an NCCL transfer at once); use p2p");
    goto cleanup;
  }
  if (c->devices > 1) {
    gr_comm_options co = {c->opts.comm, c->opts.transport, c->opts.comm_format, gr__context_gpus(c)};
    GR_CHECK_GOTO(gr_comm_create(&c->comm, c->backend, c->devices, &co), st, cleanup);
  }
  c->refs = 1;
  *out = c;
  c = NULL;
cleanup:
  if (c) {
    gr__options_clear(&c->opts);
    free(c);
  }
  return st;
}

void gr__context_hold(gr_context *c) { __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED); }

void gr__context_release(gr_context *c) {
  if (!c || __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  gr_comm_destroy(&c->comm);
  gr__options_clear(&c->opts);
  free(c);
}

/* A binding's collector (Python's at exit, among others) may free a context
 * before the problems made on it; each problem holds a reference (their
 * exchange may be the context's), so the context goes with the last. */
void gr_context_destroy(gr_context **c) {
  if (!c || !*c) return;
  gr__context_release(*c);
  *c = NULL;
}

gr_status gr_context_get_info(const gr_context *c, gr_context_info *out) {
  if (!c || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_context_get_info: NULL argument");
  out->backend = c->backend == GR_BACKEND_CUDA ? "cuda" : "cpu";
  out->devices = c->devices;
  out->transport = c->comm ? gr_transport_name(gr_comm_transport(c->comm)) : NULL;
  return GR_SUCCESS;
}
