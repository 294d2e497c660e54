/* SPDX-License-Identifier: Apache-2.0 */
/* The gr_graph object: loading (format dispatch, the cache, timing and
 * progress), building from an edge list under the load options, the lazily
 * built CSC, the accessors and the id map. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gr/log.h"
#include "gr/util.h"
#include "graph_internal.h"

int gr__threads(const gr_load_options *o) {
  int t = o && o->threads > 0 ? o->threads : gr_host_threads();
  return t < 1 ? 1 : t;
}

const char *gr__basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

gr_status gr__vertex_limit_error(const char *what, uint64_t n) {
  if (GR_VID_BITS < 64)
    return gr_errorf(GR_ERR_TOO_LARGE,
                     "%s: %llu vertices is more than the %llu this build supports (%d-bit vertex "
                     "ids); rebuild gr with -DGR_VERTEX_64=ON",
                     what, (unsigned long long)n, (unsigned long long)GR_MAX_VERTICES, GR_VID_BITS);
  return gr_errorf(GR_ERR_TOO_LARGE, "%s: %llu vertices is more than the %llu gr supports", what,
                   (unsigned long long)n, (unsigned long long)GR_MAX_VERTICES);
}

gr_status gr__graph_alloc(gr_graph **out) {
  GR_CHECK(gr_host_calloc((void **)out, 1, sizeof **out, "graph"));
  (*out)->threads = 1;
  (*out)->refs = 1;
  return GR_SUCCESS;
}

gr_status gr__graph_set_name(gr_graph *g, const char *name) {
  char *copy = NULL;
  size_t len = strlen(name ? name : "") + 1;
  GR_CHECK(gr_host_alloc((void **)&copy, len, "graph name"));
  memcpy(copy, name ? name : "", len);
  free(g->name);
  g->name = copy;
  return GR_SUCCESS;
}

void gr__graph_free_array(const gr_graph *g, void *p) {
  if (!p) return;
  const uintptr_t a = (uintptr_t)p, lo = (uintptr_t)g->map;
  if (g->map && a >= lo && a < lo + g->map_bytes) return;
  free(p);
}

void gr__graph_hold(gr_graph *g) { __atomic_add_fetch(&g->refs, 1, __ATOMIC_RELAXED); }

void gr__graph_release(gr_graph *g) {
  if (!g || __atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
  gr__graph_free_array(g, g->out.offsets);
  gr__graph_free_array(g, g->out.indices);
  gr__graph_free_array(g, g->out.weights);
  gr__graph_free_array(g, g->orig_ids);
  if (g->in_built) {
    free(g->in.offsets);
    free(g->in.indices);
    free(g->in.weights);
  }
  if (g->map) munmap(g->map, g->map_bytes);
  free(g->name);
  free(g);
}

/* A binding's collector may free a graph before the problems made on it,
 * and a user may close one while a problem still runs on it: each problem
 * holds a reference, and the graph goes with the last. */
void gr_graph_destroy(gr_graph **pg) {
  if (!pg || !*pg) return;
  gr__graph_release(*pg);
  *pg = NULL;
}

/* --- building ------------------------------------------------------------- */

static bool gr__clean(gr_clean_mode mode, bool undirected) {
  return mode == GR_CLEAN_REMOVE || (mode == GR_CLEAN_DEFAULT && undirected);
}

/* Weights the options ask for on a built graph: dropped or generated. */
static gr_status gr__apply_weights(gr_graph *g, const gr_load_options *o) {
  if (o->weights.kind == GR_WEIGHTS_FILE) return GR_SUCCESS;
  gr__graph_free_array(g, g->out.weights);
  g->out.weights = NULL;
  g->wsum_known = false;
  if (o->weights.kind == GR_WEIGHTS_RANDOM) {
    GR_CHECK(gr__weights_generate(&g->out.weights, &g->wsum, &g->out, &o->weights, o->seed, g->threads));
    g->wsum_known = true;
  }
  return GR_SUCCESS;
}

gr_status gr_graph_from_coo(gr_graph **out, gr_coo *coo, const gr_load_options *options) {
  gr_status st = GR_SUCCESS;
  gr_graph *g = NULL;
  const gr_load_options defaults = GR_LOAD_OPTIONS_INIT;
  const gr_load_options *o = options ? options : &defaults;
  const double t0 = gr_time_now();
  if (!out || !coo) {
    st = gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_from_coo: NULL argument");
    goto cleanup;
  }
  *out = NULL;
  if (coo->n > GR_MAX_VERTICES) {
    st = gr__vertex_limit_error("edge list", coo->n);
    goto cleanup;
  }
  if (o->weights.kind != GR_WEIGHTS_FILE) {
    free(coo->w);
    coo->w = NULL;
  }
  const bool undirected = o->undirected || coo->symmetric;
  const uint64_t arcs = undirected ? (coo->m > UINT64_MAX / 2 ? UINT64_MAX : 2 * coo->m) : coo->m;
  GR_CHECK_GOTO(gr__check_host_memory("edge list", coo->n, coo->m, arcs, coo->w != NULL), st, cleanup);
  GR_CHECK_GOTO(gr__graph_alloc(&g), st, cleanup);
  g->threads = gr__threads(o);
  g->directed = !undirected;
  g->id_base = coo->id_base;
  GR_CHECK_GOTO(gr__csr_build(&g->out, &g->self_loops, coo, undirected,
                              gr__clean(o->self_loops, undirected), gr__clean(o->duplicates, undirected),
                              g->threads),
                st, cleanup);
  g->orig_ids = coo->orig_ids;
  coo->orig_ids = NULL;
  GR_CHECK_GOTO(gr__apply_weights(g, o), st, cleanup);
  GR_CHECK_GOTO(gr__graph_set_name(g, "edge list"), st, cleanup);
  if (o->build_csc) {
    const gr_csr *in = NULL;
    GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);
  }
  g->load_seconds = gr_time_now() - t0;
  *out = g;
  g = NULL;
cleanup:
  gr_coo_free(coo);
  gr_graph_destroy(&g);
  return st;
}

/* A binary file holds a built graph; options that ask for something else
 * (undirected, removals, other weights) rebuild it or replace its weights. */
gr_status gr__binary_apply_options(gr_graph **pg, const gr_load_options *o) {
  gr_status st = GR_SUCCESS;
  gr_graph *g = *pg, *h = NULL;
  gr_coo coo = GR_COO_INIT;
  bool rebuild = (o->undirected && g->directed) ||
                 (o->self_loops == GR_CLEAN_REMOVE && g->self_loops > 0);
  if (!rebuild && o->duplicates == GR_CLEAN_REMOVE) {
    uint64_t dups = 0;
    const gr_csr *c = &g->out;
    GR__OMP(parallel for schedule(dynamic, 1024) num_threads(g->threads) reduction(+ : dups))
    for (uint64_t u = 0; u < (uint64_t)c->n; u++)
      for (gr_eid e = c->offsets[u] + 1; e < c->offsets[u + 1]; e++) dups += c->indices[e] == c->indices[e - 1];
    rebuild = dups > 0;
  }
  if (rebuild) {
    GR_CHECK_GOTO(gr__csr_to_coo(&coo, &g->out, !g->directed, g->threads), st, cleanup);
    coo.id_base = g->id_base;
    if (g->orig_ids) {
      GR_CHECK_GOTO(gr_host_alloc((void **)&coo.orig_ids, (size_t)g->out.n * sizeof(uint64_t), "original vertex ids"),
                    st, cleanup);
      memcpy(coo.orig_ids, g->orig_ids, (size_t)g->out.n * sizeof(uint64_t));
    }
    gr_graph_destroy(pg);
    GR_CHECK_GOTO(gr_graph_from_coo(&h, &coo, o), st, cleanup);
    *pg = h;
  } else {
    GR_CHECK_GOTO(gr__apply_weights(g, o), st, cleanup);
  }
cleanup:
  gr_coo_free(&coo);
  return st;
}

static bool gr__ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

static gr_file_format gr__format_by_name(const char *path) {
  if (gr__ends_with(path, ".grb")) return GR_FORMAT_BINARY;
  if (gr__ends_with(path, ".mtx") || gr__ends_with(path, ".mtx.gz")) return GR_FORMAT_MTX;
  return GR_FORMAT_EDGELIST;
}

static gr_status gr__load_binary(gr_graph **out, const char *path, const gr_load_options *o) {
  GR_CHECK(gr__binary_map(out, path, NULL, 0, gr__threads(o), NULL));
  gr_status st = gr__binary_apply_options(out, o);
  if (st < 0) gr_graph_destroy(out);
  return st;
}

/* Reads and parses a text file, builds it and stores the cache. */
static gr_status gr__load_text(gr_graph **out, const char *path, const gr_load_options *o,
                               gr_file_format format, const char *cache_path, uint64_t key,
                               gr__progress *prog) {
  gr_status st = GR_SUCCESS;
  gr__text text = GR__TEXT_INIT;
  gr_coo coo = GR_COO_INIT;
  const int threads = gr__threads(o);
  const bool want_weights = o->weights.kind == GR_WEIGHTS_FILE;
  const double t0 = gr_time_now();
  GR_CHECK_GOTO(gr__text_read(&text, path, prog, 0.0, 0.4), st, cleanup);
  const double t1 = gr_time_now();
  if (o->format == GR_FORMAT_AUTO && format == GR_FORMAT_EDGELIST) {
    if (gr__looks_like_mtx(text.data, text.len)) format = GR_FORMAT_MTX;
    else if (gr__looks_like_binary(text.data, text.len)) format = GR_FORMAT_BINARY;
  }
  if (format == GR_FORMAT_BINARY) {
    gr__text_free(&text);
    return gr__load_binary(out, path, o);
  }
  if (format == GR_FORMAT_MTX)
    GR_CHECK_GOTO(gr__mtx_parse(&coo, path, text.data, text.len, want_weights, threads, prog), st, cleanup);
  else
    GR_CHECK_GOTO(gr__edgelist_parse(&coo, path, text.data, text.len, want_weights, threads, prog), st,
                  cleanup);
  const gr__file_id id = text.id;
  /* The text is not needed any more: free it before the build. */
  gr__text_free(&text);
  gr__progress_update(prog, 0.7);
  const double t2 = gr_time_now();
  gr_load_options no_csc = *o;
  no_csc.build_csc = false;
  GR_CHECK_GOTO(gr_graph_from_coo(out, &coo, &no_csc), st, cleanup);
  gr__progress_update(prog, 0.95);
  const double t3 = gr_time_now();
  gr__cache_store(*out, cache_path, &id, key);
  gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "%s: read %.3f s, parse %.3f s, build %.3f s, cache %.3f s (%d threads)",
         path, t1 - t0, t2 - t1, t3 - t2, gr_time_now() - t3, threads);
cleanup:
  gr__text_free(&text);
  gr_coo_free(&coo);
  return st;
}

gr_status gr_graph_load(gr_graph **out, const char *path, const gr_load_options *options) {
  gr_status st = GR_SUCCESS;
  gr_graph *g = NULL;
  char *cache_path = NULL;
  gr__progress prog;
  const gr_load_options defaults = GR_LOAD_OPTIONS_INIT;
  const gr_load_options *o = options ? options : &defaults;
  if (!out || !path || !*path) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_load: no output or no path");
  *out = NULL;
  const double t0 = gr_time_now();
  gr__progress_start(&prog, gr__basename(path), o->progress);
  gr_file_format format = o->format == GR_FORMAT_AUTO ? gr__format_by_name(path) : o->format;
  if (format == GR_FORMAT_BINARY) {
    GR_CHECK_GOTO(gr__load_binary(&g, path, o), st, cleanup);
  } else if (format == GR_FORMAT_MTX || format == GR_FORMAT_EDGELIST) {
    gr__file_id id;
    uint64_t key = 0;
    GR_CHECK_GOTO(gr__file_identity(&id, path), st, cleanup);
    GR_CHECK_GOTO(gr__cache_lookup(&g, &cache_path, &key, path, &id, o), st, cleanup);
    if (g) {
      g->from_cache = true;
    } else {
      GR_CHECK_GOTO(gr__load_text(&g, path, o, format, cache_path, key, &prog), st, cleanup);
    }
  } else {
    st = gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_load: unknown file format %d", (int)o->format);
    goto cleanup;
  }
  g->threads = gr__threads(o);
  GR_CHECK_GOTO(gr__graph_set_name(g, gr__basename(path)), st, cleanup);
  if (o->build_csc) {
    const gr_csr *in = NULL;
    GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);
  }
  g->load_seconds = gr_time_now() - t0;
  gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH,
         "loaded %s: %llu vertices, %llu arcs, %s%s in %.3f s%s", path,
         (unsigned long long)g->out.n, (unsigned long long)g->out.m,
         g->directed ? "directed" : "undirected", g->out.weights ? ", weighted" : "", g->load_seconds,
         g->from_cache ? " (cache)" : "");
  *out = g;
  g = NULL;
cleanup:
  gr__progress_end(&prog);
  free(cache_path);
  gr_graph_destroy(&g);
  return st;
}

/* --- accessors -------------------------------------------------------------- */

const gr_csr *gr_graph_out(const gr_graph *g) { return g ? &g->out : NULL; }

gr_status gr_graph_in(gr_graph *g, const gr_csr **out) {
  if (!g || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_in: NULL argument");
  if (!g->directed) {
    *out = &g->out;
    return GR_SUCCESS;
  }
  if (!g->in_built) {
    GR_CHECK(gr__csr_transpose(&g->in, &g->out, g->threads));
    g->in_built = true;
  }
  *out = &g->in;
  return GR_SUCCESS;
}

gr_status gr_graph_weight_summary(gr_graph *g, gr_weight_summary *out) {
  if (!g || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_weight_summary: NULL argument");
  if (!g->out.weights) return gr_errorf(GR_ERR_INVALID_ARG, "%s has no edge weights", gr_graph_name(g));
  if (!g->wsum_known) {
    GR_CHECK(gr_csr_weight_summary(&g->out, g->threads, &g->wsum));
    g->wsum_known = true;
  }
  *out = g->wsum;
  return GR_SUCCESS;
}

gr_vid gr_graph_num_vertices(const gr_graph *g) { return g ? g->out.n : 0; }
gr_eid gr_graph_num_arcs(const gr_graph *g) { return g ? g->out.m : 0; }

gr_eid gr_graph_num_self_loops(const gr_graph *g) { return g ? g->self_loops : 0; }

gr_eid gr_graph_num_edges(const gr_graph *g) {
  if (!g) return 0;
  return g->directed ? g->out.m : (g->out.m + g->self_loops) / 2;
}

/* gr_graph_edges_reached over depths (depth >= 0) or distances (finite):
 * one of the two arrays is given; the test's branch is the same for every
 * vertex. */
static gr_eid gr__edges_reached(const gr_graph *g, const gr_svid *depth, const float *dist) {
  const gr_csr *c = &g->out;
  const int threads = g->threads > 0 ? g->threads : gr_host_threads();
  (void)threads;
#define GR__REACHED(u) (depth ? depth[u] >= 0 : isfinite(dist[u]))
  gr_eid total = 0;
  if (g->directed || g->self_loops == 0) {
    GR__OMP(parallel for schedule(static) num_threads(threads) reduction(+ : total))
    for (gr_vid u = 0; u < c->n; u++)
      if (GR__REACHED(u)) total += c->offsets[u + 1] - c->offsets[u];
    return g->directed ? total : total / 2;
  }
  /* Each undirected edge is stored twice: counted from its smaller end (a
   * self-loop, stored once, from itself). */
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads) reduction(+ : total))
  for (gr_vid u = 0; u < c->n; u++) {
    if (!GR__REACHED(u)) continue;
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) total += c->indices[k] >= u;
  }
#undef GR__REACHED
  return total;
}

gr_eid gr_graph_edges_reached(const gr_graph *g, const gr_svid *depth) {
  return g && depth ? gr__edges_reached(g, depth, NULL) : 0;
}

gr_eid gr_graph_edges_reached_float(const gr_graph *g, const float *dist) {
  return g && dist ? gr__edges_reached(g, NULL, dist) : 0;
}

bool gr_graph_is_directed(const gr_graph *g) { return g && g->directed; }
bool gr_graph_has_weights(const gr_graph *g) { return g && g->out.weights != NULL; }

uint64_t gr_graph_original_id(const gr_graph *g, gr_vid v) {
  if (!g || v >= g->out.n) return UINT64_MAX;
  return g->orig_ids ? g->orig_ids[v] : (uint64_t)v + (uint64_t)g->id_base;
}

gr_status gr_graph_find_vertex(const gr_graph *g, uint64_t original_id, gr_vid *out) {
  if (!g || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_find_vertex: NULL argument");
  const uint64_t n = g->out.n;
  if (g->orig_ids) {
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (g->orig_ids[mid] < original_id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < n && g->orig_ids[lo] == original_id) {
      *out = (gr_vid)lo;
      return GR_SUCCESS;
    }
  } else if (original_id >= (uint64_t)g->id_base && original_id - (uint64_t)g->id_base < n) {
    *out = (gr_vid)(original_id - (uint64_t)g->id_base);
    return GR_SUCCESS;
  }
  return gr_errorf(GR_ERR_INVALID_ARG, "vertex %llu is not in %s", (unsigned long long)original_id,
                   g->name ? g->name : "the graph");
}

const char *gr_graph_name(const gr_graph *g) { return g && g->name ? g->name : ""; }
bool gr_graph_from_cache(const gr_graph *g) { return g && g->from_cache; }
double gr_graph_load_seconds(const gr_graph *g) { return g ? g->load_seconds : 0.0; }
