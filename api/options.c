/* SPDX-License-Identifier: Apache-2.0 */
/* gr_options: settings by name, parsed and checked when set, so that a bad
 * value is reported where the caller gave it rather than deep in a run. The
 * enumerations reuse the parsers of the layers below (their messages name
 * the accepted values). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "gr/util.h"
#include "gr/workspace.h"

void gr__options_defaults(gr_options *o) {
  const gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  const gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  const gr_mem_policy mp = GR_MEM_POLICY_INIT;
  memset(o, 0, sizeof *o);
  o->backend = GR__BACKEND_AUTO;
  o->devices = 1;
  o->mem = mp;
  o->partitioner = GR_PART_RANDOM;
  o->bias = 0.5;
  o->proxy = GR__PROXY_AUTO;
  o->comm = GR_COMM_SELECTIVE;
  o->transport = GR_TRANSPORT_AUTO;
  o->comm_format = GR_COMM_FORMAT_AUTO;
  o->seed = 1;
  o->sources = 1;
  o->load = lo;
  o->prim = po;
}

void gr__options_clear(gr_options *o) {
  free(o->cache_dir);
  o->cache_dir = NULL;
  o->load.cache_dir = NULL;
}

gr_status gr__options_copy(gr_options *dst, const gr_options *src) {
  if (!src) {
    gr__options_defaults(dst);
    return GR_SUCCESS;
  }
  *dst = *src;
  dst->cache_dir = NULL;
  dst->load.cache_dir = NULL;
  if (src->cache_dir) {
    size_t len = strlen(src->cache_dir) + 1;
    GR_CHECK(gr_host_alloc((void **)&dst->cache_dir, len, "options"));
    memcpy(dst->cache_dir, src->cache_dir, len);
    dst->load.cache_dir = dst->cache_dir;
  }
  return GR_SUCCESS;
}

gr_load_options gr__options_load(const gr_options *o) {
  gr_options d;
  if (!o) {
    gr__options_defaults(&d);
    o = &d;
  }
  gr_load_options lo = o->load;
  lo.seed = o->seed;
  lo.cache_dir = o->cache_dir;
  return lo;
}

gr_status gr_options_create(gr_options **out) {
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_options_create: NULL argument");
  *out = NULL;
  gr_options *o = NULL;
  GR_CHECK(gr_host_calloc((void **)&o, 1, sizeof *o, "options"));
  gr__options_defaults(o);
  *out = o;
  return GR_SUCCESS;
}

void gr_options_destroy(gr_options **o) {
  if (!o || !*o) return;
  gr__options_clear(*o);
  free(*o);
  *o = NULL;
}

/* ---- value parsers -------------------------------------------------------- */

static bool gr__parse_bool(const char *v, bool *out) {
  static const char *yes[] = {"on", "true", "yes", "1"}, *no[] = {"off", "false", "no", "0"};
  for (int i = 0; i < 4; i++) {
    if (!strcmp(v, yes[i])) {
      *out = true;
      return true;
    }
    if (!strcmp(v, no[i])) {
      *out = false;
      return true;
    }
  }
  return false;
}

/* Numbers are the framework's plain decimals (gr_parse_count and
 * gr_parse_real), as gr_run's options are: strtoll and strtod would also
 * take blanks, '+' signs, hexadecimal and infinities. */
static bool gr__parse_long(const char *v, long long lo, long long hi, long long *out) {
  uint64_t x = 0;
  if (!gr_parse_count(v, strlen(v), &x) || x < (uint64_t)lo || x > (uint64_t)hi) return false;
  *out = (long long)x;
  return true;
}

/* A number in (lo, hi) with the open or closed ends asked for. */
static bool gr__parse_double(const char *v, double lo, bool lo_open, double hi, bool hi_open, double *out) {
  double x = 0;
  if (!gr_parse_real(v, strlen(v), false, &x, NULL)) return false;
  if (lo_open ? !(x > lo) : !(x >= lo)) return false;
  if (hi_open ? !(x < hi) : !(x <= hi)) return false;
  *out = x;
  return true;
}

static bool gr__parse_clean(const char *v, gr_clean_mode *out) {
  if (!strcmp(v, "default")) *out = GR_CLEAN_DEFAULT;
  else if (!strcmp(v, "keep")) *out = GR_CLEAN_KEEP;
  else if (!strcmp(v, "remove")) *out = GR_CLEAN_REMOVE;
  else return false;
  return true;
}

static gr_status gr__bad(const char *key, const char *value, const char *want) {
  return gr_errorf(GR_ERR_INVALID_ARG, "option %s must be %s, got '%s'", key, want, value);
}

/* Applies key = value to o (a scratch copy; the caller keeps it only when
 * this succeeds). */
static gr_status gr__options_apply(gr_options *o, const char *key, const char *v) {
  long long n = 0;
  double f = 0;
  bool b = false;
  if (!strcmp(key, "backend")) {
    if (!strcmp(v, "auto")) o->backend = GR__BACKEND_AUTO;
    else if (!strcmp(v, "cpu")) o->backend = GR__BACKEND_CPU;
    else if (!strcmp(v, "gpu") || !strcmp(v, "cuda")) o->backend = GR__BACKEND_GPU;
    else return gr__bad(key, v, "auto, cpu or gpu");
  } else if (!strcmp(key, "devices")) {
    if (!gr__parse_long(v, 1, 1024, &n)) return gr__bad(key, v, "a whole number from 1 to 1024");
    if (o->n_gpu_ids && n != o->n_gpu_ids)
      return gr_errorf(GR_ERR_INVALID_ARG, "option devices = %lld disagrees with gpu-ids, which names %d GPU%s", n,
                       o->n_gpu_ids, o->n_gpu_ids == 1 ? "" : "s");
    o->devices = (int)n;
  } else if (!strcmp(key, "gpu-ids")) {
    /* "1,3": device 0 on GPU 1, device 1 on GPU 3 (repeats allowed: devices
     * sharing a GPU); "" or "default": device i on GPU i again. */
    if (!*v || !strcmp(v, "default")) {
      o->n_gpu_ids = 0;
      return GR_SUCCESS;
    }
    int k = 0;
    for (const char *c = v;;) {
      const char *end = strchr(c, ',');
      const size_t len = end ? (size_t)(end - c) : strlen(c);
      char item[16];
      if (len == 0 || len >= sizeof item || k >= GR__MAX_GPU_IDS) return gr__bad(key, v, "a comma-separated list of GPU ordinals");
      memcpy(item, c, len);
      item[len] = '\0';
      if (!gr__parse_long(item, 0, 4095, &n)) return gr__bad(key, v, "a comma-separated list of GPU ordinals");
      o->gpu_ids[k++] = (int)n;
      if (!end) break;
      c = end + 1;
    }
    o->n_gpu_ids = k;
    o->devices = k;
  } else if (!strcmp(key, "cpu-threads")) {
    if (!gr__parse_long(v, 0, 4096, &n)) return gr__bad(key, v, "a whole number from 0 to 4096");
    o->cpu_threads = (int)n;
  } else if (!strcmp(key, "mem")) {
    GR_CHECK(gr_mem_policy_parse(&o->mem, v));
  } else if (!strcmp(key, "partitioner")) {
    GR_CHECK(gr_partitioner_parse(&o->partitioner, v));
  } else if (!strcmp(key, "partition-block")) {
    if (!strcmp(v, "auto")) o->part_block = 0;
    else if (gr__parse_long(v, 1, 1L << 30, &n)) o->part_block = (uint32_t)n;
    else return gr__bad(key, v, "auto or a whole number from 1 to 2^30");
  } else if (!strcmp(key, "bias")) {
    if (!gr__parse_double(v, 0.0, false, 1e6, false, &f)) return gr__bad(key, v, "a number from 0 to 1e6");
    o->bias = f;
  } else if (!strcmp(key, "proxy")) {
    if (!strcmp(v, "auto")) o->proxy = GR__PROXY_AUTO;
    else if (!strcmp(v, "all")) o->proxy = GR__PROXY_ALL;
    else if (!strcmp(v, "1hop")) o->proxy = GR__PROXY_1HOP;
    else return gr__bad(key, v, "auto, all or 1hop");
  } else if (!strcmp(key, "comm")) {
    if (!strcmp(v, "default")) {
      o->comm_given = false;
    } else {
      GR_CHECK(gr_comm_mode_parse(&o->comm, v));
      o->comm_given = true;
    }
  } else if (!strcmp(key, "transport")) {
    GR_CHECK(gr_transport_parse(&o->transport, v));
  } else if (!strcmp(key, "comm-format")) {
    GR_CHECK(gr_comm_format_parse(&o->comm_format, v));
  } else if (!strcmp(key, "timeline")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->timeline = b;
  } else if (!strcmp(key, "turns")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->turns = b;
  } else if (!strcmp(key, "seed")) {
    uint64_t s = 0;
    if (!gr_parse_count(v, strlen(v), &s)) return gr__bad(key, v, "a whole number");
    o->seed = s;
  } else if (!strcmp(key, "undirected")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->load.undirected = b;
  } else if (!strcmp(key, "self-loops")) {
    if (!gr__parse_clean(v, &o->load.self_loops)) return gr__bad(key, v, "default, keep or remove");
  } else if (!strcmp(key, "duplicates")) {
    if (!gr__parse_clean(v, &o->load.duplicates)) return gr__bad(key, v, "default, keep or remove");
  } else if (!strcmp(key, "weights")) {
    GR_CHECK(gr_weight_spec_parse(&o->load.weights, v));
  } else if (!strcmp(key, "format")) {
    if (!strcmp(v, "auto")) o->load.format = GR_FORMAT_AUTO;
    else if (!strcmp(v, "mtx")) o->load.format = GR_FORMAT_MTX;
    else if (!strcmp(v, "edgelist")) o->load.format = GR_FORMAT_EDGELIST;
    else if (!strcmp(v, "binary")) o->load.format = GR_FORMAT_BINARY;
    else return gr__bad(key, v, "auto, mtx, edgelist or binary");
  } else if (!strcmp(key, "cache")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->load.use_cache = b;
  } else if (!strcmp(key, "cache-dir")) {
    size_t len = strlen(v) + 1;
    char *s = NULL;
    GR_CHECK(gr_host_alloc((void **)&s, len, "options"));
    memcpy(s, v, len);
    free(o->cache_dir);
    o->cache_dir = s;
    o->load.cache_dir = s;
  } else if (!strcmp(key, "progress")) {
    if (!strcmp(v, "auto")) o->load.progress = 0;
    else if (gr__parse_bool(v, &b)) o->load.progress = b ? 1 : -1;
    else return gr__bad(key, v, "auto, on or off");
  } else if (!strcmp(key, "in-edges")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->load.build_csc = b;
  } else if (!strcmp(key, "mark-pred")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->prim.mark_pred = b;
  } else if (!strcmp(key, "max-iter")) {
    if (!gr__parse_long(v, 0, INT_MAX, &n)) return gr__bad(key, v, "a whole number");
    o->prim.max_iterations = (int)n;
  } else if (!strcmp(key, "direction")) {
    if (!strcmp(v, "auto")) o->prim.direction = GR_DIRECTION_AUTO;
    else if (!strcmp(v, "push")) o->prim.direction = GR_DIRECTION_PUSH;
    else if (!strcmp(v, "pull")) o->prim.direction = GR_DIRECTION_PULL;
    else return gr__bad(key, v, "auto, push or pull");
  } else if (!strcmp(key, "do-a") || !strcmp(key, "do-b")) {
    if (!gr__parse_double(v, 0.0, true, 1e9, false, &f)) return gr__bad(key, v, "a positive number");
    if (key[3] == 'a') o->prim.do_a = f;
    else o->prim.do_b = f;
  } else if (!strcmp(key, "delta")) {
    if (!strcmp(v, "auto")) o->prim.delta = 0.0;
    else if (gr__parse_double(v, 0.0, true, 3e38, false, &f)) o->prim.delta = f;
    else return gr__bad(key, v, "a positive number or auto");
  } else if (!strcmp(key, "tolerance")) {
    if (!gr__parse_double(v, 0.0, true, 2.0, true, &f)) return gr__bad(key, v, "a number above 0 and below 2");
    o->prim.tolerance = f;
  } else if (!strcmp(key, "damping")) {
    /* 0 is allowed (every rank 1/n); 1 is not: without the jump the ranks
     * need not be unique nor the iteration converge. */
    if (!gr__parse_double(v, 0.0, false, 1.0, true, &f))
      return gr__bad(key, v, "a number from 0 up to (not including) 1");
    o->prim.damping = f;
  } else if (!strcmp(key, "tune")) {
    GR_CHECK(gr_tuning_parse(&o->prim.tune, v));
  } else if (!strcmp(key, "graph-memory")) {
    GR_CHECK(gr_graph_memory_parse(&o->prim.graph_memory, v));
  } else if (!strcmp(key, "compress")) {
    GR_CHECK(gr_compress_parse(&o->prim.compress, v));
  } else if (!strcmp(key, "device-memory-limit")) {
    uint64_t bytes = 0;
    if (!strcmp(v, "none")) bytes = 0;
    else if (!gr_parse_bytes(v, &bytes)) return gr__bad(key, v, "a byte count such as 8G, 512M or 1048576, or none");
    o->prim.device_memory_limit = bytes;
  } else if (!strcmp(key, "sources")) {
    uint64_t k = 0;
    if (!strcmp(v, "all")) {
      o->sources_all = true;
      o->sources = 1;
    } else if (gr_parse_count(v, strlen(v), &k) && k >= 1 && k <= GR_MAX_VERTICES) {
      o->sources_all = false;
      o->sources = k;
    } else {
      return gr__bad(key, v, "a whole number of at least 1 or all");
    }
  } else if (!strcmp(key, "normalize")) {
    if (!gr__parse_bool(v, &b)) return gr__bad(key, v, "on or off");
    o->prim.normalize = b;
  } else {
    return gr_errorf(GR_ERR_INVALID_ARG, "unknown option '%s'", key);
  }
  return GR_SUCCESS;
}

gr_status gr_options_set(gr_options *o, const char *key, const char *value) {
  if (!o || !key || !value) return gr_errorf(GR_ERR_INVALID_ARG, "gr_options_set: NULL argument");
  /* Work on a copy so that a rejected value leaves the options as they were
   * (the tuning parser fills fields as it goes). */
  gr_options t = *o;
  gr_status st = gr__options_apply(&t, key, value);
  if (st < 0) {
    if (t.cache_dir != o->cache_dir) free(t.cache_dir);
    return st;
  }
  *o = t;
  return GR_SUCCESS;
}
