/* SPDX-License-Identifier: Apache-2.0 */
/* gr_problem: a primitive set up on a graph over a context's devices (the
 * steps a run of gr_run takes: check the input, partition, build each
 * device's subgraph, start the enactor), then runs, results in input ids,
 * validation and the figures of every run (gr_stats). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "gr/enactor.h"
#include "gr/subgraph.h"
#include "gr/util.h"
#include "subgraph_builder.h"

gr_status gr__primitive_lookup(const char *name, const gr_primitive **out);
gr_values_type gr__public_values_type(gr_value_type t);

struct gr_problem {
  gr_context *ctx;
  gr_graph *g;
  const gr_primitive *prim;
  gr_prim_options popts;
  gr_proxy_mode proxy;
  gr_comm_mode cmode;
  gr_comm *comm;      /* the context's (borrowed) or this problem's own */
  bool comm_borrowed;
  gr_subgraph *sub;   /* one device */
  gr_subgraph **subs; /* several */
  gr_partition *part;
  gr_enactor *en;
  double build_seconds, setup_seconds;
  /* the "sources" option: what gr_problem_run takes */
  uint64_t sources;
  bool sources_all;
  /* the sources of the last run over several (dense ids), which the
   * validation reads again */
  gr_vid *src_list;
  uint64_t src_capacity;
  /* the last run */
  int runs;
  gr_run_args args;
  bool have_result;
  gr_result res;
  gr_result ref;
  /* its results in the public form, made on first request */
  bool converted;
  void *values;
  int64_t *preds;
};

struct gr_stats {
  gr_run_summary sum;
  gr_run_stats run;
  gr_extra extra;
};

/* ---- set-up ----------------------------------------------------------------- */

static gr_vid gr__vertices_with_out_edges(const gr_graph *g) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid m = 0;
  for (gr_vid v = 0; v < c->n; v++) m += c->offsets[v + 1] > c->offsets[v];
  return m;
}

/* Options that only primitives summing over sources take, and a count of
 * sources the graph can give. */
static gr_status gr__problem_check_sources(const gr_primitive *prim, const gr_graph *g, const gr_options *o) {
  const bool several = o->sources_all || o->sources > 1;
  if ((several || o->prim.normalize) && !prim->accumulates_sources)
    return gr_errorf(GR_ERR_INVALID_ARG, "options sources and normalize apply to primitives that sum over sources "
                     "(bc), not %s", prim->name);
  if (!o->sources_all && o->sources > 1) {
    const gr_vid m = gr__vertices_with_out_edges(g);
    if (o->sources > m)
      return gr_errorf(GR_ERR_INVALID_ARG, "%llu distinct sources, but only %llu vertices have out-edges",
                       (unsigned long long)o->sources, (unsigned long long)m);
  }
  return GR_SUCCESS;
}

static gr_status gr__problem_check_input(const gr_primitive *prim, gr_graph *g, int devices) {
  const gr_vid n = gr_graph_num_vertices(g);
  if (n == 0) return gr_errorf(GR_ERR_BAD_INPUT, "the graph has no vertices");
  if (prim->needs_weights && !gr_graph_has_weights(g))
    return gr_errorf(GR_ERR_BAD_INPUT, "%s needs edge weights; %s has none (set weights to random:LO:HI)", prim->name,
                     gr_graph_name(g));
  if (devices > 1 && (gr_vid)devices > n)
    return gr_errorf(GR_ERR_INVALID_ARG, "%d devices for a graph of %llu vertices; use at most one device per vertex",
                     devices, (unsigned long long)n);
  return GR_SUCCESS;
}

gr_status gr_problem_create(gr_problem **out, gr_context *ctx, gr_graph *g, const char *primitive,
                            const gr_options *o) {
  if (!out || !ctx || !g) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_create: NULL argument");
  *out = NULL;
  gr_status st = GR_SUCCESS;
  const gr_primitive *prim = NULL;
  GR_CHECK(gr__primitive_lookup(primitive, &prim));
  GR_CHECK(gr__problem_check_input(prim, g, ctx->devices));
  gr_options defaults;
  if (!o) {
    gr__options_defaults(&defaults);
    o = &defaults;
  }
  GR_CHECK(gr__problem_check_sources(prim, g, o));
  gr_problem *p = NULL;
  GR_CHECK(gr_host_calloc((void **)&p, 1, sizeof *p, "problem"));
  const gr_result init = GR_RESULT_INIT;
  p->res = init;
  p->ref = init;
  /* Held until the problem goes (gr_problem_destroy), whatever is
   * destroyed first. */
  p->ctx = ctx;
  gr__context_hold(ctx);
  p->g = g;
  gr__graph_hold(g);
  p->prim = prim;
  p->popts = o->prim;
  p->sources = o->sources;
  p->sources_all = o->sources_all;
  /* What depends on the whole graph: checks of the input (sssp: weights of
   * at least 0) and options such as sssp's delta. */
  if (prim->prepare) GR_CHECK_GOTO(prim->prepare(g, &p->popts), st, cleanup);

  const gr_options *co = &ctx->opts;
  p->proxy = co->proxy == GR__PROXY_1HOP ? GR_PROXY_1HOP : co->proxy == GR__PROXY_ALL ? GR_PROXY_ALL : prim->proxy;
  p->cmode = co->comm_given ? co->comm : prim->comm;
  gr_enactor_config cfg = {prim,  &p->popts,   ctx->backend, ctx->devices, co->cpu_threads, co->mem, NULL, NULL, NULL,
                           false, co->timeline, gr__context_gpus(ctx), co->turns};
  double t = gr_time_now();
  if (ctx->devices == 1) {
    GR_CHECK_GOTO(gr_subgraph_whole(&p->sub, g, prim->needs_in_edges, prim->needs_weights), st, cleanup);
    p->build_seconds = gr_time_now() - t;
    t = gr_time_now();
    cfg.subs = &p->sub;
  } else {
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.kind = co->partitioner;
    po.parts = ctx->devices;
    po.block = co->part_block;
    po.seed = co->seed;
    po.bias_factor = co->bias;
    GR_CHECK_GOTO(gr_partition_create(&p->part, g, &po), st, cleanup);
    t = gr_time_now();
    /* Auto: duplicate-1-hop only under selective exchange (a broadcast
     * sends global ids, so every device keeps a |V|-entry table either
     * way), and there for the primitives whose passes it divides
     * (gr_primitive.auto_1hop) or, for those whose default is 1-hop, where
     * it halves the vertices a device holds on this partition. A default
     * of duplicate-all is kept: the primitive's algorithm needs it (DOBFS
     * pulls only where every device sees the whole frontier; under 1-hop
     * it would push every level). */
    if (co->proxy == GR__PROXY_AUTO)
      p->proxy = p->cmode == GR_COMM_SELECTIVE &&
                         (prim->auto_1hop || (prim->proxy == GR_PROXY_1HOP && gr_partition_1hop_pays(p->part)))
                     ? GR_PROXY_1HOP
                     : GR_PROXY_ALL;
    /* A primitive that reads its lists on the devices only gets them
     * gathered from the graph at the upload (no part's copy on the host);
     * not a duplicate-all part whose copies are refreshed, whose border
     * lists the exchange finds in its lists. */
    if (prim->device_lists_only && (p->proxy == GR_PROXY_1HOP || !prim->refreshes_copies))
      GR_CHECK_GOTO(
          gr_subgraphs_build_lazy(&p->subs, g, p->part, p->proxy, prim->needs_in_edges, prim->needs_weights), st,
          cleanup);
    else
      GR_CHECK_GOTO(
          gr_subgraphs_build(&p->subs, g, p->part, p->proxy, prim->needs_in_edges, prim->needs_weights), st,
          cleanup);
    p->build_seconds = gr_time_now() - t;
    /* The exchange's set-up (peer access, NCCL's communicators) opens the
     * devices: setup, not the partition. */
    t = gr_time_now();
    /* Taken atomically: a binding may destroy one problem of the context
     * on one thread while it makes another on a second. */
    if (ctx->comm && !__atomic_exchange_n(&ctx->comm_lent, true, __ATOMIC_ACQ_REL)) {
      p->comm = ctx->comm;
      p->comm_borrowed = true;
      gr_comm_set_mode(p->comm, p->cmode);
    } else {
      gr_comm_options cop = {p->cmode, co->transport, co->comm_format, gr__context_gpus(ctx)};
      GR_CHECK_GOTO(gr_comm_create(&p->comm, ctx->backend, ctx->devices, &cop), st, cleanup);
    }
    cfg.subs = p->subs;
    cfg.exchange = &gr_comm_exchange_ops;
    cfg.exchange_shared = p->comm;
    cfg.broadcast = p->cmode == GR_COMM_BROADCAST;
  }
  GR_CHECK_GOTO(gr_enactor_create(&p->en, &cfg), st, cleanup);
  p->setup_seconds = gr_time_now() - t;
  *out = p;
  return GR_SUCCESS;
cleanup:
  gr_problem_destroy(&p);
  return st;
}

void gr_problem_destroy(gr_problem **pp) {
  if (!pp || !*pp) return;
  gr_problem *p = *pp;
  gr_enactor_destroy(&p->en);
  if (p->comm_borrowed) __atomic_store_n(&p->ctx->comm_lent, false, __ATOMIC_RELEASE);
  else gr_comm_destroy(&p->comm);
  gr_subgraph_destroy(&p->sub);
  gr_subgraphs_destroy(&p->subs, p->part ? p->part->parts : 0);
  gr_partition_destroy(&p->part);
  gr_result_free(&p->res);
  gr_result_free(&p->ref);
  free(p->values);
  free(p->preds);
  free(p->src_list);
  gr__graph_release(p->g);
  gr__context_release(p->ctx);
  free(p);
  *pp = NULL;
}

/* ---- runs ------------------------------------------------------------------- */

/* Test hook (README, "fault injection"): GR_FAULT_RESULT=1 damages one value
 * of each result as it reaches the host, before anything reads it, to prove
 * that validation catches a wrong answer. */
static void gr__maybe_corrupt(gr_result *r, gr_vid source) {
  const char *f = getenv("GR_FAULT_RESULT");
  if (!f || strcmp(f, "1")) return;
  if (r->type == GR_VALUE_FLOAT) {
    /* A reached vertex's distance grows by at least 1 (more than any
     * tolerance); without one, the source moves off 0. */
    float *x = r->values;
    for (gr_vid v = 0; v < r->n; v++)
      if (v != source && isfinite(x[v]) && x[v] > 0) {
        x[v] += x[v] > 1 ? x[v] : 1;
        return;
      }
    x[source] = 1;
    return;
  }
  if (r->type == GR_VALUE_DOUBLE) {
    /* The first positive value (a centrality) grows by at least 1;
     * without one, vertex 0 gets 1. */
    double *x = r->values;
    for (gr_vid v = 0; v < r->n; v++)
      if (isfinite(x[v]) && x[v] > 0) {
        x[v] += x[v] > 1 ? x[v] : 1;
        return;
      }
    if (r->n) x[0] = 1;
    return;
  }
  if (r->type != GR_VALUE_SVID) return;
  gr_svid *d = r->values;
  for (gr_vid v = 0; v < r->n; v++)
    if (v != source && d[v] > 0) {
      d[v] += 2;
      return;
    }
  d[source] = 1;
}

static gr_vid gr__count_reached(const gr_result *r) {
  gr_vid n = 0;
  /* A result whose first per-vertex array holds depths (bc: the last
   * source's) reached what has one. */
  if (r->aux.n > 0 && r->aux.types[0] == GR_VALUE_SVID && !strcmp(r->aux.names[0], "depth")) {
    const gr_svid *d = r->aux_values[0];
#pragma omp parallel for reduction(+ : n) schedule(static)
    for (gr_vid v = 0; v < r->n; v++) n += d[v] >= 0;
    return n;
  }
  if (r->type == GR_VALUE_FLOAT) {
    /* Over the host's threads, as the depths (hundreds of megabytes on a
     * big graph, counted after every run). */
    const float *x = r->values;
#pragma omp parallel for reduction(+ : n) schedule(static)
    for (gr_vid v = 0; v < r->n; v++) n += isfinite(x[v]) != 0;
    return n;
  }
  if (r->type != GR_VALUE_SVID) return r->n;
  const gr_svid *d = r->values;
#pragma omp parallel for reduction(+ : n) schedule(static)
  for (gr_vid v = 0; v < r->n; v++) n += d[v] >= 0;
  return n;
}

static gr_status gr__extra_copy(gr_extra *dst, const gr_extra *src) {
  memset(dst, 0, sizeof *dst);
  dst->n_numbers = src->n_numbers;
  for (int k = 0; k < GR_EXTRA_MAX; k++) {
    dst->number_names[k] = src->number_names[k];
    dst->numbers[k] = src->numbers[k];
  }
  dst->series_len = src->series_len;
  for (int k = 0; k < src->n_series && k < GR_EXTRA_MAX; k++) {
    dst->series_names[k] = src->series_names[k];
    dst->n_series = k + 1;
    if (!src->series[k] || src->series_len <= 0) continue;
    const size_t bytes = (size_t)src->series_len * sizeof(double);
    GR_CHECK(gr_host_alloc((void **)&dst->series[k], bytes, "run figures"));
    memcpy(dst->series[k], src->series[k], bytes);
  }
  return GR_SUCCESS;
}

/* Room for n sources in the problem's list (kept from run to run). */
static gr_status gr__problem_source_room(gr_problem *p, uint64_t n) {
  if (n <= p->src_capacity) return GR_SUCCESS;
  gr_vid *list = NULL;
  GR_CHECK(gr_host_alloc((void **)&list, (size_t)n * sizeof *list, "sources"));
  free(p->src_list);
  p->src_list = list;
  p->src_capacity = n;
  return GR_SUCCESS;
}

/* A run with args (its source or sources set), its results and figures. */
static gr_status gr__problem_run(gr_problem *p, gr_run_args args, gr_stats **stats) {
  gr_status st = GR_SUCCESS;
  gr_stats *s = NULL;
  args.run = p->runs;
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "run figures"));
  p->have_result = false;
  p->converted = false;
  GR_CHECK_GOTO(gr_enactor_run(p->en, &args, &s->run), st, cleanup);
  p->runs++;
  p->args = args;
  const double t = gr_time_now();
  GR_CHECK_GOTO(gr_enactor_extract_reuse(p->en, &p->res), st, cleanup);
  gr__maybe_corrupt(&p->res, args.source);
  p->have_result = true;
  gr_run_summary *x = &s->sum;
  x->source = p->prim->needs_source ? (int64_t)gr_graph_original_id(p->g, args.source) : -1;
  x->ms = s->run.ms;
  x->iterations = s->run.iterations;
  x->edges_visited = s->run.edges;
  x->reached = gr__count_reached(&p->res);
  x->traversed_edges = p->prim->traversed_edges ? p->prim->traversed_edges(p->g, &p->res) : gr_graph_num_edges(p->g);
  x->gteps = x->ms > 0 ? (double)x->traversed_edges / (x->ms * 1e-3) / 1e9 : 0.0;
  x->iteration_limit = s->run.status == GR_ITERATION_LIMIT;
  x->devices = s->run.n_devices;
  x->levels = s->run.frontier_len;
  x->has_levels = s->run.level_edges && s->run.level_ms && s->run.level_tag;
  x->has_level_bytes = x->has_levels && s->run.n_devices > 1 && s->run.level_bytes;
  x->extract_seconds = gr_time_now() - t;
  x->sources = args.sources ? (uint64_t)args.n_sources : p->prim->needs_source ? 1 : 0;
  GR_CHECK_GOTO(gr__extra_copy(&s->extra, &p->res.extra), st, cleanup);
  st = s->run.status;
  if (stats) {
    *stats = s;
    s = NULL;
  }
cleanup:
  gr_stats_destroy(&s);
  return st;
}

gr_status gr_problem_run(gr_problem *p, int64_t source, gr_stats **stats) {
  if (stats) *stats = NULL;
  if (!p) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_run: NULL argument");
  gr_run_args args = {0, 0, NULL, 0};
  if (p->sources_all || p->sources > 1) {
    /* The "sources" option: every vertex, or the draw of this run. */
    const gr_vid n = gr_graph_num_vertices(p->g);
    const uint64_t k = p->sources_all ? n : p->sources;
    /* The list the last result was validated against changes now. */
    p->have_result = false;
    GR_CHECK(gr__problem_source_room(p, k));
    if (p->sources_all)
      for (gr_vid v = 0; v < n; v++) p->src_list[v] = v;
    else
      GR_CHECK(gr__graph_sample(p->g, p->ctx->opts.seed, p->runs, k, p->src_list));
    args.sources = p->src_list;
    args.n_sources = (gr_vid)k;
    args.source = p->src_list[0];
  } else if (p->prim->needs_source) {
    uint64_t v = 0;
    GR_CHECK(gr_graph_find(p->g, source, &v));
    args.source = (gr_vid)v;
  }
  return gr__problem_run(p, args, stats);
}

gr_status gr_problem_run_sources(gr_problem *p, const int64_t *sources, uint64_t count, gr_stats **stats) {
  if (stats) *stats = NULL;
  if (!p || (!sources && count > 0)) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_run_sources: NULL argument");
  const gr_primitive *prim = p->prim;
  if (!prim->needs_source) return gr_errorf(GR_ERR_INVALID_ARG, "%s takes no source: use gr_problem_run", prim->name);
  if (sources && count == 0) return gr_errorf(GR_ERR_INVALID_ARG, "a run over sources needs at least one");
  const gr_vid n = gr_graph_num_vertices(p->g);
  const uint64_t k = sources ? count : n;
  if (!prim->accumulates_sources && k != 1)
    return gr_errorf(GR_ERR_INVALID_ARG, "%s takes one source per run, not %llu", prim->name, (unsigned long long)k);
  if (k > GR_MAX_VERTICES)
    return gr_errorf(GR_ERR_INVALID_ARG, "%llu sources is more than a run takes", (unsigned long long)k);
  p->have_result = false;
  GR_CHECK(gr__problem_source_room(p, k));
  for (uint64_t i = 0; i < k; i++) {
    uint64_t v = i;
    if (sources) GR_CHECK(gr_graph_find(p->g, sources[i], &v));
    p->src_list[i] = (gr_vid)v;
  }
  gr_run_args args = {p->src_list[0], 0, NULL, 0};
  if (prim->accumulates_sources) {
    args.sources = p->src_list;
    args.n_sources = (gr_vid)k;
  }
  return gr__problem_run(p, args, stats);
}

gr_status gr_problem_get_values(gr_problem *p, gr_values *out) {
  if (!p || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_get_values: NULL argument");
  if (!p->have_result) return gr_errorf(GR_ERR_INVALID_ARG, "the problem has no results: run it first");
  const gr_result *r = &p->res;
  if (!p->converted) {
    /* Vertex-sized integers become 64-bit ones (the same whatever width
     * the build keeps), and values that are vertices become input ids. */
    if (r->type == GR_VALUE_SVID) {
      if (!p->values) GR_CHECK(gr_host_alloc(&p->values, (size_t)gr_graph_num_vertices(p->g) * sizeof(int64_t) + 1,
                                             "results"));
      int64_t *v = p->values;
      const gr_svid *d = r->values;
      for (gr_vid i = 0; i < r->n; i++)
        v[i] = r->values_are_ids && d[i] >= 0 ? (int64_t)gr_graph_original_id(p->g, (gr_vid)d[i]) : (int64_t)d[i];
    }
    if (r->preds) {
      if (!p->preds)
        GR_CHECK(gr_host_alloc((void **)&p->preds, (size_t)gr_graph_num_vertices(p->g) * sizeof(int64_t) + 1,
                               "predecessors"));
      for (gr_vid i = 0; i < r->n; i++)
        p->preds[i] = r->preds[i] < 0 ? -1 : (int64_t)gr_graph_original_id(p->g, (gr_vid)r->preds[i]);
    }
    p->converted = true;
  }
  out->n = r->n;
  out->type = gr__public_values_type(r->type);
  out->values = r->type == GR_VALUE_SVID ? p->values : r->values;
  out->values_are_ids = r->values_are_ids;
  out->predecessors = r->preds ? p->preds : NULL;
  return GR_SUCCESS;
}

gr_status gr_problem_validate(gr_problem *p) {
  if (!p) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_validate: NULL argument");
  if (!p->have_result) return gr_errorf(GR_ERR_INVALID_ARG, "the problem has no results: run it first");
  gr_result_free(&p->ref);
  if (p->prim->certifies && p->prim->certifies(p->g, &p->args, &p->popts, &p->res))
    return p->prim->validate(p->g, &p->args, &p->popts, &p->res, NULL);
  GR_CHECK(p->prim->reference(p->g, &p->args, &p->popts, &p->ref));
  return p->prim->validate(p->g, &p->args, &p->popts, &p->res, &p->ref);
}

gr_status gr_problem_get_info(const gr_problem *p, gr_problem_info *out) {
  if (!p || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_get_info: NULL argument");
  memset(out, 0, sizeof *out);
  out->primitive = p->prim->name;
  out->backend = p->ctx->backend == GR_BACKEND_CUDA ? "cuda" : "cpu";
  out->devices = gr_enactor_device_count(p->en);
  out->needs_source = p->prim->needs_source;
  out->build_seconds = p->build_seconds;
  out->setup_seconds = p->setup_seconds;
  if (p->part) {
    out->partitioner = gr_partitioner_name(p->part->kind);
    out->proxy = p->proxy == GR_PROXY_1HOP ? "1hop" : "all";
    out->comm = gr_comm_mode_name(p->cmode);
    out->transport = gr_transport_name(gr_comm_transport(p->comm));
    out->partition_seconds = p->part->seconds;
    out->partition_block = p->part->block;
    out->edge_cut = p->part->edge_cut;
    out->arcs = p->part->m;
    out->border_total = p->part->border_total;
    out->proxies_total = p->part->proxies_total;
  }
  return GR_SUCCESS;
}

gr_status gr_problem_get_part(const gr_problem *p, int part, gr_part_info *out) {
  if (!p || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_get_part: NULL argument");
  if (!p->part || part < 0 || part >= p->part->parts)
    return gr_errorf(GR_ERR_INVALID_ARG, "part %d: the problem has %d parts", part, p->part ? p->part->parts : 0);
  out->vertices = p->part->vertices[part];
  out->edges = p->part->edges[part];
  out->border = p->part->border[part];
  out->proxies = p->part->proxies[part];
  return GR_SUCCESS;
}

gr_status gr_problem_get_device(const gr_problem *p, int device, gr_device_info *out) {
  if (!p || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_problem_get_device: NULL argument");
  const int n = gr_enactor_device_count(p->en);
  if (device < 0 || device >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "device %d: the problem has %d devices", device, n);
  gr_device_report r;
  memset(&r, 0, sizeof r);
  gr_enactor_device_report(p->en, device, &r);
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", r.name);
  out->peak_bytes = r.peak_bytes;
  out->allocations = r.allocations;
  out->reallocations = r.reallocations;
  out->host_graph_bytes = r.host_graph_bytes;
  out->l2_bytes = r.l2_bytes;
  out->memory_bandwidth = r.memory_bandwidth;
  return GR_SUCCESS;
}

/* ---- figures of a run ---------------------------------------------------- */

gr_status gr_stats_get_summary(const gr_stats *s, gr_run_summary *out) {
  if (!s || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_summary: NULL argument");
  *out = s->sum;
  return GR_SUCCESS;
}

gr_status gr_stats_get_level(const gr_stats *s, int k, gr_level_info *out) {
  if (!s || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_level: NULL argument");
  if (k < 0 || k >= s->run.frontier_len)
    return gr_errorf(GR_ERR_INVALID_ARG, "level %d: the run has %d", k, s->run.frontier_len);
  memset(out, 0, sizeof *out);
  out->frontier = s->run.frontier[k];
  if (s->sum.has_levels) {
    out->edges = s->run.level_edges[k];
    out->ms = s->run.level_ms[k];
    out->tag = s->run.level_tag[k];
  }
  if (s->run.level_bytes) out->bytes = s->run.level_bytes[k];
  return GR_SUCCESS;
}

static const gr_device_run_stats *gr__dev(const gr_stats *s, int d) {
  return s && s->run.devices && d >= 0 && d < s->run.n_devices ? &s->run.devices[d] : NULL;
}

gr_status gr_stats_get_device(const gr_stats *s, int device, gr_device_split *out) {
  const gr_device_run_stats *y = gr__dev(s, device);
  if (!y || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_device: no device %d", device);
  out->compute_ms = y->compute_ms;
  out->package_ms = y->package_ms;
  out->transfer_ms = y->transfer_ms;
  out->combine_ms = y->combine_ms;
  out->wait_ms = y->wait_ms;
  out->items_sent = y->items_sent;
  out->items_received = y->items_received;
  out->launches = y->launches;
  out->waits = y->waits;
  out->allocations = y->allocations;
  out->barriers = y->barriers;
  out->timeline_len = y->timeline_len;
  out->work_ms = y->work_ms;
  out->bytes_received = y->bytes_received;
  return GR_SUCCESS;
}

uint64_t gr_stats_bytes_to(const gr_stats *s, int device, int peer) {
  const gr_device_run_stats *y = gr__dev(s, device);
  if (!y || !y->bytes_to || peer < 0 || peer >= s->run.n_devices) return 0;
  return y->bytes_to[peer];
}

gr_status gr_stats_get_timeline(const gr_stats *s, int device, int k, gr_timeline_step *out) {
  const gr_device_run_stats *y = gr__dev(s, device);
  if (!y || !out || k < 0 || k >= y->timeline_len)
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_timeline: no step %d of device %d", k, device);
  const gr_timeline_entry *t = &y->timeline[k];
  out->iteration = t->iteration;
  out->compute_ms = t->compute_ms;
  out->package_ms = t->package_ms;
  out->transfer_ms = t->transfer_ms;
  out->combine_ms = t->combine_ms;
  out->wait_ms = t->wait_ms;
  out->launches = t->launches;
  out->waits = t->waits;
  out->copies = t->copies;
  out->memsets = t->memsets;
  out->allocations = t->allocations;
  out->barriers = t->barriers;
  out->bytes = t->bytes;
  out->work_ms = t->work_ms;
  out->bytes_in = t->bytes_in;
  return GR_SUCCESS;
}

int gr_stats_extra_numbers(const gr_stats *s) {
  return s ? (s->extra.n_numbers < GR_EXTRA_MAX ? s->extra.n_numbers : GR_EXTRA_MAX) : 0;
}

gr_status gr_stats_get_extra_number(const gr_stats *s, int k, const char **name, double *value) {
  if (!name || !value || k < 0 || k >= gr_stats_extra_numbers(s))
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_extra_number: no number %d", k);
  *name = s->extra.number_names[k];
  *value = s->extra.numbers[k];
  return GR_SUCCESS;
}

int gr_stats_extra_series(const gr_stats *s) {
  return s ? (s->extra.n_series < GR_EXTRA_MAX ? s->extra.n_series : GR_EXTRA_MAX) : 0;
}

gr_status gr_stats_get_extra_series(const gr_stats *s, int k, const char **name, const double **values, int *len) {
  if (!name || !values || !len || k < 0 || k >= gr_stats_extra_series(s))
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_stats_get_extra_series: no series %d", k);
  *name = s->extra.series_names[k];
  *values = s->extra.series[k];
  *len = s->extra.series[k] ? s->extra.series_len : 0;
  return GR_SUCCESS;
}

void gr_stats_destroy(gr_stats **s) {
  if (!s || !*s) return;
  gr_run_stats_free(&(*s)->run);
  gr_extra_free(&(*s)->extra);
  free(*s);
  *s = NULL;
}
