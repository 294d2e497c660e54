/* SPDX-License-Identifier: Apache-2.0 */
/* The load cache: a text graph's CSR kept as a binary file named
 * <basename>.<16-hex key>.grb, where the key hashes the input's full path
 * and every load option that changes the result. The cache records the
 * input's size and modification time; a cache that no longer matches, or
 * that fails its checks, is logged and rebuilt. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gr/log.h"
#include "gr/util.h"
#include "graph_internal.h"

static uint64_t gr__fnv1a(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

static uint64_t gr__cache_key(const char *path, const gr_load_options *o) {
  char real[PATH_MAX];
  const char *where = realpath(path, real) ? real : path;
  char wspec[96], text[512];
  gr__weight_spec_format(wspec, sizeof wspec, &o->weights);
  /* The seed only matters for generated weights. */
  unsigned long long seed = o->weights.kind == GR_WEIGHTS_RANDOM ? (unsigned long long)o->seed : 0;
  snprintf(text, sizeof text,
           "gr-cache|version=%u|vid=%d|format=%d|undirected=%d|loops=%d|dups=%d|weights=%s|seed=%llu|",
           GR__BINARY_VERSION, GR_VID_BITS, (int)o->format, (int)o->undirected, (int)o->self_loops,
           (int)o->duplicates, wspec, seed);
  return gr_mix64(gr__fnv1a(gr__fnv1a(0xcbf29ce484222325ull, text), where));
}

/* Whether a folder may receive cache files: writable, and for root (who
 * may write anywhere) also not marked read-only by its mode, so that shared
 * read-only data folders stay clean. */
static bool gr__folder_writable(const char *dir) {
  struct stat s;
  if (access(dir, W_OK | X_OK) != 0 || stat(dir, &s) != 0 || !S_ISDIR(s.st_mode)) return false;
  return geteuid() != 0 || (s.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0;
}

/* The folder to cache in, or false (logged at INFO) when there is none. */
static bool gr__cache_folder(char *buf, size_t len, const char *path, const gr_load_options *o) {
  if (o->cache_dir && *o->cache_dir) {
    struct stat s;
    if (stat(o->cache_dir, &s) != 0 && mkdir(o->cache_dir, 0777) != 0 && errno != EEXIST) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "not caching %s: cannot create cache folder %s: %s", path,
             o->cache_dir, strerror(errno));
      return false;
    }
    if (!gr__folder_writable(o->cache_dir)) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "not caching %s: cache folder %s is not writable", path,
             o->cache_dir);
      return false;
    }
    snprintf(buf, len, "%s", o->cache_dir);
    return true;
  }
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(buf, len, ".");
  else if (slash == path) snprintf(buf, len, "/");
  else snprintf(buf, len, "%.*s", (int)(slash - path), path);
  if (!gr__folder_writable(buf)) {
    gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH,
           "not caching %s: its folder is not writable (a cache folder can be given)", path);
    return false;
  }
  return true;
}

gr_status gr__cache_lookup(gr_graph **out, char **cache_path, uint64_t *key, const char *path,
                           const gr__file_id *input, const gr_load_options *o) {
  *out = NULL;
  *cache_path = NULL;
  *key = 0;
  if (!o->use_cache) return GR_SUCCESS;
  /* Pipes and devices have no identity worth caching by. */
  struct stat s;
  if (stat(path, &s) != 0 || !S_ISREG(s.st_mode)) return GR_SUCCESS;
  char dir[PATH_MAX];
  if (!gr__cache_folder(dir, sizeof dir, path, o)) return GR_SUCCESS;
  *key = gr__cache_key(path, o);
  const char *base = gr__basename(path);
  size_t len = strlen(dir) + strlen(base) + 32;
  GR_CHECK(gr_host_alloc((void **)cache_path, len, "cache file name"));
  snprintf(*cache_path, len, "%s/%s.%016llx.grb", dir, base, (unsigned long long)*key);
  if (access(*cache_path, F_OK) != 0) {
    gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "no cache for %s yet (%s)", path, *cache_path);
    return GR_SUCCESS;
  }
  bool stale = false;
  gr_graph *g = NULL;
  gr_status st = gr__binary_map(&g, *cache_path, input, *key, gr__threads(o), &stale);
  if (st >= 0) {
    gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "%s: loaded from cache %s", path, *cache_path);
    *out = g;
    return GR_SUCCESS;
  }
  gr_log(GR_LOG_WARN, GR_SUBSYS_GRAPH, "%s%s; rebuilding it", stale ? "" : "unusable cache: ",
         gr_error_message());
  gr_error_clear();
  return GR_SUCCESS;
}

void gr__cache_store(const gr_graph *g, const char *cache_path, const gr__file_id *input,
                     uint64_t key) {
  if (!cache_path) return;
  const double t0 = gr_time_now();
  gr_status st = gr__binary_write(g, cache_path, input, key);
  if (st < 0) {
    gr_log(GR_LOG_WARN, GR_SUBSYS_GRAPH, "cannot write cache: %s", gr_error_message());
    gr_error_clear();
    return;
  }
  gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "wrote cache %s in %.3f s", cache_path, gr_time_now() - t0);
}
