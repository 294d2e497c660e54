/* SPDX-License-Identifier: Apache-2.0 */
/* DOBFS: on one CPU device every direction mode gives the reference depths
 * and valid predecessors; auto pulls on a Kronecker graph and examines fewer
 * edges than push alone; on 2-4 CPU devices it equals one device under
 * every partitioner, proxy and exchange, pulling where one device pulls
 * except under selective exchange with 1-hop proxies (no device sees the
 * whole frontier there), where a forced pull is refused. Between devices
 * a pull's finds are or'ed inside its exchange, so the next pull ors no
 * bitmaps in a round of its own; a first level of one vertex sends a list;
 * a push's claims, routed or listed, are or'ed into every device's union of them. */
#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "dobfs/dobfs.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

enum { N_SOURCES = 3 };

static gr_graph *generated(const char *spec) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, spec), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.build_csc = true;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_gen_graph(&g, &s, &o), GR_SUCCESS);
  return g;
}

/* A vertex with out-edges, spread over the ids. */
static gr_vid source_of(const gr_graph *g, int k) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid v = (gr_vid)(((uint64_t)k * 7919u + 1u) % c->n);
  while (c->offsets[v + 1] == c->offsets[v]) v = (v + 1) % c->n;
  return v;
}

typedef struct outcome {
  gr_svid *depth[N_SOURCES];
  gr_eid edges[N_SOURCES];
  int pulls[N_SOURCES];       /* levels tagged 'U' */
  int first_pulls[N_SOURCES]; /* ... after a level (not the first) that did not pull */
  int told_pulls[N_SOURCES];  /* ... of which after a level whose exchange told every device all it found */
} outcome;

/* Per iteration, the devices whose exchange step told every device all
 * its output held (gr_exchange_step.told_all). */
enum { MAX_LEVELS = 256 };
static atomic_int told_count[MAX_LEVELS];
static gr_status counted_exchange(void *local, gr_part *p, gr_exchange_step *s) {
  const gr_status st = gr_comm_exchange_ops.exchange(local, p, s);
  if (s->told_all && s->iteration >= 0 && s->iteration < MAX_LEVELS) atomic_fetch_add(&told_count[s->iteration], 1);
  return st;
}

static void outcome_free(outcome *o) {
  for (int k = 0; k < N_SOURCES; k++) {
    free(o->depth[k]);
    o->depth[k] = NULL;
  }
}

/* Runs DOBFS from the test's sources; validates each run with BFS's
 * validator against the reference. */
/* DOBFS on CPU devices, one host thread each. */
static gr_enactor_config dobfs_config(gr_subgraph *const *subs, int devices, const gr_prim_options *o,
                                      const gr_exchange_ops *ex, void *shared, bool broadcast) {
  const gr_enactor_config cfg = {.prim = &gr_dobfs_primitive,
                                 .opts = o,
                                 .backend = GR_BACKEND_CPU,
                                 .n_devices = devices,
                                 .cpu_threads = 1,
                                 .mem = GR_MEM_POLICY_INIT,
                                 .subs = subs,
                                 .exchange = ex,
                                 .exchange_shared = shared,
                                 .broadcast = broadcast};
  return cfg;
}

/* g split at random in `parts` (the random partition's blocks of `block`
 * ids; 0: its default) under selective exchange (host transport),
 * messages in `format`. */
typedef struct two_parts {
  gr_partition *part;
  gr_subgraph **subs;
  gr_comm *comm;
  int parts;
} two_parts;

static void parts_open(two_parts *t, gr_graph *g, int parts, uint32_t block, gr_proxy_mode proxy,
                       gr_comm_format format) {
  gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
  po.parts = parts;
  po.block = block;
  t->part = NULL;
  t->subs = NULL;
  t->comm = NULL;
  t->parts = parts;
  ck_assert_int_eq(gr_partition_create(&t->part, g, &po), GR_SUCCESS);
  ck_assert_int_eq(gr_subgraphs_build(&t->subs, g, t->part, proxy, true, false), GR_SUCCESS);
  gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, format, NULL};
  ck_assert_int_eq(gr_comm_create(&t->comm, GR_BACKEND_CPU, parts, &co), GR_SUCCESS);
}

static void two_parts_open(two_parts *t, gr_graph *g, gr_proxy_mode proxy, gr_comm_format format) {
  parts_open(t, g, 2, 0, proxy, format);
}

static void two_parts_close(two_parts *t) {
  gr_comm_destroy(&t->comm);
  gr_subgraphs_destroy(&t->subs, t->parts);
  gr_partition_destroy(&t->part);
}

/* The last run's depths, checked with BFS's validator and against the
 * reference's; the caller frees them. */
static gr_svid *checked_depths(gr_graph *g, gr_enactor *e, const gr_run_args *a, const gr_prim_options *o) {
  gr_result r, ref;
  ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
  ck_assert_int_eq(gr_bfs_reference(g, a, o, &ref), GR_SUCCESS);
  ck_assert_msg(gr_bfs_validate(g, a, o, &r, &ref) == GR_SUCCESS, "source %llu: %s", (unsigned long long)a->source,
                gr_error_message());
  ck_assert_int_eq(memcmp(r.values, ref.values, (size_t)r.n * sizeof(gr_svid)), 0);
  gr_svid *depth = r.values;
  r.values = NULL;
  gr_result_free(&r);
  gr_result_free(&ref);
  return depth;
}

static void run_dobfs(gr_graph *g, gr_subgraph *const *subs, int devices, const gr_prim_options *o,
                      const gr_exchange_ops *ex, void *shared, bool broadcast, outcome *out) {
  const gr_enactor_config cfg = dobfs_config(subs, devices, o, ex, shared, broadcast);
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    for (int l = 0; l < MAX_LEVELS; l++) atomic_store(&told_count[l], 0);
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    out->edges[k] = st.edges;
    out->pulls[k] = out->first_pulls[k] = out->told_pulls[k] = 0;
    ck_assert_int_le(st.frontier_len, MAX_LEVELS);
    for (int l = 0; l < st.frontier_len; l++) {
      out->pulls[k] += st.level_tag[l] == 'U';
      const bool first = st.level_tag[l] == 'U' && l > 0 && st.level_tag[l - 1] != 'U';
      out->first_pulls[k] += first;
      out->told_pulls[k] += first && atomic_load(&told_count[l - 1]) == devices;
    }
    gr_run_stats_free(&st);
    out->depth[k] = checked_depths(g, e, &a, o);
  }
  gr_enactor_destroy(&e);
}

static void run_one_device(gr_graph *g, const gr_prim_options *o, outcome *out) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  run_dobfs(g, &sub, 1, o, NULL, NULL, false, out);
  gr_subgraph_destroy(&sub);
}

static const char *const specs[] = {"kron:11:16", "uniform:10:8,directed", "grid2d:20x30", "kron:10:8,directed"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

START_TEST(every_direction_gives_the_reference_on_one_device) {
  const gr_direction dirs[] = {GR_DIRECTION_AUTO, GR_DIRECTION_PUSH, GR_DIRECTION_PULL};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = generated(specs[i]);
    for (int d = 0; d < 3; d++) {
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      o.mark_pred = true;
      o.direction = dirs[d];
      outcome out = {{NULL}, {0}, {0}, {0}, {0}};
      run_one_device(g, &o, &out);
      for (int k = 0; k < N_SOURCES; k++) {
        if (dirs[d] == GR_DIRECTION_PUSH) ck_assert_int_eq(out.pulls[k], 0);
        if (dirs[d] == GR_DIRECTION_PULL) ck_assert_int_gt(out.pulls[k], 0);
      }
      outcome_free(&out);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(auto_pulls_and_examines_fewer_edges_on_kronecker) {
  gr_graph *g = generated("kron:13:16");
  gr_prim_options push = GR_PRIM_OPTIONS_INIT, aut = GR_PRIM_OPTIONS_INIT;
  push.direction = GR_DIRECTION_PUSH;
  outcome p = {{NULL}, {0}, {0}, {0}, {0}}, a = {{NULL}, {0}, {0}, {0}, {0}};
  run_one_device(g, &push, &p);
  run_one_device(g, &aut, &a);
  for (int k = 0; k < N_SOURCES; k++) {
    ck_assert_int_gt(a.pulls[k], 0);
    ck_assert_msg(a.edges[k] * 2 < p.edges[k], "auto examined %llu edges, push %llu",
                  (unsigned long long)a.edges[k], (unsigned long long)p.edges[k]);
  }
  outcome_free(&p);
  outcome_free(&a);
  gr_graph_destroy(&g);
}
END_TEST

/* With predecessors, and depths alone under --comm-format auto and list
 * (pushes between devices routed or never). */
static const struct {
  bool pred;
  gr_comm_format format;
} variants[] = {{true, GR_COMM_FORMAT_AUTO}, {false, GR_COMM_FORMAT_AUTO}, {false, GR_COMM_FORMAT_LIST}};
START_TEST(several_devices_equal_one_device) {
  /* The random partition twice: by single ids (its choice on these
   * graphs), and in blocks of 32 ids, whose pulls' finds go as owner words. */
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_RANDOM, GR_PART_BIASED,
#ifdef GR_HAVE_METIS
                                              GR_PART_METIS,
#endif
                                              GR_PART_STATIC, GR_PART_RANGE};
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  static const gr_comm_mode comms[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  gr_exchange_ops counted = gr_comm_exchange_ops;
  counted.exchange = counted_exchange;
  int told_pulls = 0;
  for (int i = 0; i < N_SPECS * 3; i++) {
    const int vi = i % 3;
    gr_graph *g = generated(specs[i / 3]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    o.mark_pred = variants[vi].pred;
    outcome expect = {{NULL}, {0}, {0}, {0}, {0}};
    run_one_device(g, &o, &expect);
    for (int devices = 2; devices <= 4; devices++)
      for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++) {
        gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
        po.kind = kinds[p];
        po.parts = devices;
        po.threads = 1;
        if (p == 1) po.block = 32;
        gr_partition *part = NULL;
        ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
        for (size_t x = 0; x < 2; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], true, false), GR_SUCCESS);
          for (size_t c = 0; c < 2; c++) {
            gr_comm_options co = {comms[c], GR_TRANSPORT_HOST, variants[vi].format, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            outcome got = {{NULL}, {0}, {0}, {0}, {0}};
            run_dobfs(g, subs, devices, &o, &counted, comm, comms[c] == GR_COMM_BROADCAST, &got);
            gr_comm_destroy(&comm);
            for (int k = 0; k < N_SOURCES; k++) {
              ck_assert_msg(!memcmp(got.depth[k], expect.depth[k], (size_t)n * sizeof(gr_svid)),
                            "%s, %d devices, %s%s, %s, %s, variant %d: source %d differs", specs[i / 3], devices,
                            gr_partitioner_name(kinds[p]), p == 1 ? " (blocks of 32)" : "",
                            proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                            gr_comm_mode_name(comms[c]), vi, k);
              /* Pulls need the whole frontier: under broadcast, or from
               * the devices' or'ed bitmaps under duplicate-all proxies;
               * they pull where one device does. */
              if (comms[c] == GR_COMM_SELECTIVE && proxies[x] == GR_PROXY_1HOP) ck_assert_int_eq(got.pulls[k], 0);
              else ck_assert_int_eq(got.pulls[k], expect.pulls[k]);
              /* Under selective exchange with duplicate-all proxies every
               * push's exchange tells every device all it found (its list
               * whole to every peer, or its routed bitmap), so that a
               * pull's frontier needs no round of its own. */
              const bool told = comms[c] == GR_COMM_SELECTIVE && proxies[x] == GR_PROXY_ALL;
              if (told) {
                told_pulls += got.told_pulls[k];
                ck_assert_msg(got.told_pulls[k] == got.first_pulls[k],
                              "%s, %d devices, %s, variant %d: %d of %d first pulls after a level told to all",
                              specs[i / 3], devices, gr_partitioner_name(kinds[p]), vi, got.told_pulls[k],
                              got.first_pulls[k]);
              }
            }
            outcome_free(&got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    outcome_free(&expect);
    gr_graph_destroy(&g);
  }
  /* Pulls after pushes happened (on the Kronecker graphs). */
  ck_assert_int_gt(told_pulls, 0);
}
END_TEST

START_TEST(forced_pull_without_a_whole_frontier_is_refused) {
  gr_graph *g = generated("kron:8:4");
  /* 1-hop proxies under selective exchange: no device sees the frontier. */
  two_parts t;
  two_parts_open(&t, g, GR_PROXY_1HOP, GR_COMM_FORMAT_AUTO);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.direction = GR_DIRECTION_PULL;
  const gr_enactor_config cfg = dobfs_config(t.subs, 2, &o, &gr_comm_exchange_ops, t.comm, false);
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "broadcast"));
  ck_assert_ptr_null(e);
  two_parts_close(&t);
  gr_graph_destroy(&g);
}
END_TEST

/* DOBFS on g split at random in two, duplicate-all proxies, selective
 * exchange over the host transport; two_parts_close(t) after the enactor. */
static gr_enactor *two_devices(two_parts *t, gr_graph *g, const gr_prim_options *o) {
  two_parts_open(t, g, GR_PROXY_ALL, GR_COMM_FORMAT_AUTO);
  const gr_enactor_config cfg = dobfs_config(t->subs, 2, o, &gr_comm_exchange_ops, t->comm, false);
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  return e;
}

/* The first level holds the source alone: its claims go as a list (a few
 * records), not as bitmaps of every vertex, even where later levels route. */
START_TEST(a_first_level_of_one_vertex_sends_no_bitmaps) {
  gr_graph *g = generated("uniform:14:4");
  const gr_vid n = gr_graph_num_vertices(g);
  two_parts t;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor *e = two_devices(&t, g, &o);
  for (int k = 0; k < N_SOURCES; k++) {
    const gr_vid src = source_of(g, k);
    const gr_csr *c = gr_graph_out(g);
    const gr_eid degree = c->offsets[src + 1] - c->offsets[src];
    gr_run_args a = {src, k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_gt(st.frontier_len, 1);
    ck_assert_int_eq(st.level_tag[0], 'P');
    /* A record (id and depth) per claim at most; a bitmap would be n / 8. */
    ck_assert_msg(st.level_bytes[0] <= 16 * degree && 16 * degree < (uint64_t)n / 8,
                  "source %llu of degree %llu: the first level moved %llu bytes",
                  (unsigned long long)src, (unsigned long long)degree, (unsigned long long)st.level_bytes[0]);
    gr_run_stats_free(&st);
  }
  gr_enactor_destroy(&e);
  two_parts_close(&t);
  gr_graph_destroy(&g);
}
END_TEST

/* Between devices with duplicate-all proxies a pull's finds reach every
 * device: as a bitmap of every vertex, or as their ids where those take an
 * eighth of its bytes or less, and nothing when a device found none. Every
 * level pulls here, so the late levels find few vertices: each moves at
 * most their ids (a gr_vid each, to the one peer), far below the bitmap. */
START_TEST(a_pull_that_finds_few_vertices_sends_their_ids) {
  gr_graph *g = generated("kron:14:8");
  const gr_vid n = gr_graph_num_vertices(g);
  two_parts t;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.direction = GR_DIRECTION_PULL;
  gr_enactor *e = two_devices(&t, g, &o);
  int small = 0, large = 0;
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_ptr_nonnull(st.level_bytes);
    for (int l = 0; l < st.frontier_len; l++) {
      ck_assert_int_eq(st.level_tag[l], 'U');
      /* What level l found, over both devices: the next level's input
       * (none after the last). */
      const uint64_t found = l + 1 < st.frontier_len ? (uint64_t)st.frontier[l + 1] : 0;
      const uint64_t id = sizeof(gr_vid);
      if (id * found <= (uint64_t)n / 64) {
        small++;
        ck_assert_msg(st.level_bytes[l] <= id * found,
                      "source %llu, level %d found %llu vertices and moved %llu bytes (a bitmap: %llu)",
                      (unsigned long long)a.source, l, (unsigned long long)found,
                      (unsigned long long)st.level_bytes[l], (unsigned long long)n / 8);
      } else if (found >= (uint64_t)n / 4) {
        /* Each device found more than an eighth of a bitmap's worth of ids. */
        large++;
        ck_assert_uint_ge(st.level_bytes[l], (uint64_t)n / 8);
      }
    }
    gr_run_stats_free(&st);
    free(checked_depths(g, e, &a, &o));
  }
  /* Both forms were taken. */
  ck_assert_int_gt(small, N_SOURCES);
  ck_assert_int_gt(large, 0);
  gr_enactor_destroy(&e);
  two_parts_close(&t);
  gr_graph_destroy(&g);
}
END_TEST

/* DOBFS pulling at every level on `devices` parts of g (the random
 * partition in blocks of 32 ids, duplicate-all proxies), with --tune
 * `tune` (NULL: none) and a timeline where asked; *o is the options the
 * enactor reads. */
static gr_enactor *pulling_devices(two_parts *t, gr_graph *g, int devices, gr_prim_options *o, const char *tune,
                                   bool timeline) {
  parts_open(t, g, devices, 32, GR_PROXY_ALL, GR_COMM_FORMAT_AUTO);
  *o = (gr_prim_options)GR_PRIM_OPTIONS_INIT;
  o->direction = GR_DIRECTION_PULL;
  if (tune) ck_assert_int_eq(gr_tuning_parse(&o->tune, tune), GR_SUCCESS);
  gr_enactor_config cfg = dobfs_config(t->subs, devices, o, &gr_comm_exchange_ops, t->comm, false);
  cfg.timeline = timeline;
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  return e;
}

/* The run from the test's k-th source, into *st; returns its arguments. */
static gr_run_args run_source(gr_enactor *e, gr_graph *g, int k, gr_run_stats *st) {
  gr_run_args a = {source_of(g, k), k, NULL, 0};
  ck_assert_msg(gr_enactor_run(e, &a, st) == GR_SUCCESS, "%s", gr_error_message());
  return a;
}

/* Between devices with duplicate-all proxies and the random partition in
 * blocks of 32 ids, every word of 32 ids has one owner: a pull's finds are
 * kept as the device's own words and sent as they are (gr_part_owner_words,
 * owner-words=on, the default). Every level pulls; on 2, 3 and 4 devices
 * the depths equal the reference's with the finds as owner words and as
 * bitmaps of every id (owner-words=off), and no level moves more than each
 * device's own words to each peer ((N - 1) n / 8 bytes in all, n a multiple
 * of 32 here), where a level of bitmaps of every id moves N times that. */
START_TEST(a_pulls_finds_go_as_each_devices_own_words) {
  gr_graph *g = generated("kron:14:8");
  const gr_vid n = gr_graph_num_vertices(g);
  ck_assert_uint_eq(n % 32, 0);
  for (int devices = 2; devices <= 4; devices++) {
    const uint64_t own = (uint64_t)(devices - 1) * n / 8;
    uint64_t most[2] = {0, 0};
    for (int on = 0; on < 2; on++) {
      two_parts t;
      gr_prim_options o;
      gr_enactor *e = pulling_devices(&t, g, devices, &o, on ? "owner-words=on" : "owner-words=off", false);
      for (int k = 0; k < N_SOURCES; k++) {
        gr_run_stats st;
        const gr_run_args a = run_source(e, g, k, &st);
        for (int l = 0; l < st.frontier_len; l++) {
          ck_assert_int_eq(st.level_tag[l], 'U');
          if (st.level_bytes[l] > most[on]) most[on] = st.level_bytes[l];
        }
        gr_run_stats_free(&st);
        free(checked_depths(g, e, &a, &o));
      }
      gr_enactor_destroy(&e);
      two_parts_close(&t);
    }
    ck_assert_msg(most[1] <= own, "%d devices: a level moved %llu bytes, more than the owner words' %llu", devices,
                  (unsigned long long)most[1], (unsigned long long)own);
    ck_assert_msg(most[0] >= (uint64_t)devices * own, "%d devices, bitmaps of every id: at most %llu bytes a level",
                  devices, (unsigned long long)most[0]);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* Between devices a pull's finds are or'ed by the exchange, whose
 * or-round is left running on the stream where every peer sent its
 * bitmap (gr_iter.or_kept: each device keeps two bitmaps of finds, and
 * every pull drains its stream before its exchange's barrier): the host
 * waits for the pull's counters, not again at the exchange's end (on 2
 * logical devices of an H100, 4 waits a pull level became 3). A peer's
 * ids, sent in its bitmap's place, are its next frontier, which the next
 * level may write: read to the end before the barrier. Every level
 * pulls; on 2 to 4 CPU devices, whose counters are read with no wait, the
 * depths equal the reference's, and at every level where each device sent
 * its own words (the level moves (N - 1) n / 8 bytes) no device waits
 * (with the or-round's wait, most levels waited once); a level whose
 * peers sent ids waits at most once. */
START_TEST(a_pull_level_waits_for_its_counters_alone) {
  gr_graph *g = generated("kron:13:8");
  const gr_vid n = gr_graph_num_vertices(g);
  ck_assert_uint_eq(n % 32, 0);
  for (int devices = 2; devices <= 4; devices++) {
    const uint64_t bitmaps = (uint64_t)(devices - 1) * n / 8;
    int bitmap_levels = 0;
    two_parts t;
    gr_prim_options o;
    gr_enactor *e = pulling_devices(&t, g, devices, &o, NULL, true);
    for (int k = 0; k < N_SOURCES; k++) {
      gr_run_stats st;
      const gr_run_args a = run_source(e, g, k, &st);
      ck_assert_int_eq(st.n_devices, devices);
      for (int d = 0; d < devices; d++) {
        const gr_device_run_stats *ds = &st.devices[d];
        ck_assert_int_eq(ds->timeline_len, st.frontier_len);
        for (int i = 0; i < ds->timeline_len; i++) {
          const bool words = st.level_bytes[i] == bitmaps;
          bitmap_levels += words && d == 0;
          ck_assert_msg(ds->timeline[i].waits <= (words ? 0u : 1u),
                        "%d devices, source %d: device %d waited %u times at level %d (%llu bytes moved)", devices, k,
                        d, ds->timeline[i].waits, ds->timeline[i].iteration, (unsigned long long)st.level_bytes[i]);
        }
      }
      gr_run_stats_free(&st);
      free(checked_depths(g, e, &a, &o));
    }
    ck_assert_msg(bitmap_levels >= N_SOURCES, "%d devices: %d levels of bitmaps alone in %d runs", devices,
                  bitmap_levels, N_SOURCES);
    gr_enactor_destroy(&e);
    two_parts_close(&t);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* One run from the first source with *flag set (a hook that clears the
 * bitmap a pull takes as its frontier after each exchange): its depths
 * must differ from the reference's, the pulls having read that bitmap. */
static void depths_differ_with(gr_graph *g, gr_enactor *e, const gr_prim_options *o, bool *flag) {
  *flag = true;
  gr_run_args a = {source_of(g, 0), 0, NULL, 0};
  gr_run_stats st;
  ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
  gr_result r, ref;
  ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
  ck_assert_int_eq(gr_bfs_reference(g, &a, o, &ref), GR_SUCCESS);
  ck_assert_msg(memcmp(r.values, ref.values, (size_t)r.n * sizeof(gr_svid)) != 0,
                "the pulls after pushes marked their frontiers some other way");
  *flag = false;
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_run_stats_free(&st);
}

/* Per device and iteration: the union of the step's claims that the
 * exchange left in gr_iter.claim_bits (CPU devices: host memory), copied
 * after each push; with claims_clear, then cleared (a pull that takes it
 * as its frontier finds nothing). */
static uint32_t *claims_seen[2][MAX_LEVELS];
static gr_vid claims_n;
static bool claims_clear;
static atomic_int claims_unsaved;
static void claims_free(void) {
  for (int l = 0; l < MAX_LEVELS; l++)
    for (int d = 0; d < 2; d++) {
      free(claims_seen[d][l]);
      claims_seen[d][l] = NULL;
    }
}
static gr_status claims_exchange(void *local, gr_part *p, gr_exchange_step *s) {
  const gr_status st = gr_comm_exchange_ops.exchange(local, p, s);
  if (st >= 0 && s->claim_bits && s->iteration >= 0 && s->iteration < MAX_LEVELS) {
    const size_t bytes = ((size_t)claims_n + 31) / 32 * sizeof(uint32_t);
    uint32_t *copy = malloc(bytes);
    /* Checked on the test's thread, not this device's. */
    if (!copy) atomic_fetch_add(&claims_unsaved, 1);
    if (copy) memcpy(copy, s->claim_bits, bytes);
    claims_seen[p->index][s->iteration] = copy;
    if (claims_clear) memset(s->claim_bits, 0, bytes);
  }
  return st;
}

/* Between devices with duplicate-all proxies and no visited bits
 * (--tune visited=state; with them, the next test) a push's claims are
 * or'ed over the devices inside its exchange (gr_iter.claim_bits), so that
 * a pull after it marks its frontier without a pass over every depth
 * (which would miss the copies a routing push claimed: they hold no
 * depth). Every push routes (--comm-format bitmap),
 * none does (list: its claims go to every peer as lists), or each device
 * picks (auto): after every push each device's union holds every vertex
 * the step found (depth level + 1), and besides them only vertices of
 * earlier levels of the same run (the union is cleared once a run: a
 * vertex of another run's, or one deeper or never reached, would be a
 * false parent to the pulls); the depths equal the
 * reference's. With the unions cleared after
 * their exchange, the depths differ: the pulls after those pushes took
 * them as their frontier. */
static const gr_comm_format union_formats[] = {GR_COMM_FORMAT_BITMAP, GR_COMM_FORMAT_LIST, GR_COMM_FORMAT_AUTO};
START_TEST(claims_are_or_ed_into_every_devices_union) {
  gr_graph *g = generated("kron:14:16");
  const gr_vid n = gr_graph_num_vertices(g);
  claims_n = n;
  two_parts t;
  two_parts_open(&t, g, GR_PROXY_ALL, union_formats[_i]);
  gr_exchange_ops ex = gr_comm_exchange_ops;
  ex.exchange = claims_exchange;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_tuning_parse(&o.tune, "visited=state"), GR_SUCCESS);
  const gr_enactor_config cfg = dobfs_config(t.subs, 2, &o, &ex, t.comm, false);
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  int checked = 0, before_pull = 0;
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    gr_svid *depth = checked_depths(g, e, &a, &o);
    for (int l = 0; l < MAX_LEVELS; l++) {
      const bool both = claims_seen[0][l] && claims_seen[1][l];
      for (int d = 0; d < 2 && both; d++) {
        const uint32_t *bits = claims_seen[d][l];
        for (gr_vid v = 0; v < n; v++) {
          const bool set = (bits[v >> 5] >> (v & 31)) & 1u;
          if (depth[v] == (gr_svid)l + 1)
            ck_assert_msg(set, "source %llu, level %d: device %d's union misses vertex %llu of depth %d",
                          (unsigned long long)a.source, l, d, (unsigned long long)v, l + 1);
          else if (set)
            ck_assert_msg(depth[v] >= 0 && depth[v] <= (gr_svid)l,
                          "source %llu, level %d: device %d's union holds vertex %llu of depth %lld", (unsigned long long)a.source,
                          l, d, (unsigned long long)v, (long long)depth[v]);
        }
        checked++;
        if (l + 1 < st.frontier_len && st.level_tag[l + 1] == 'U') before_pull++;
      }
    }
    claims_free();
    free(depth);
    gr_run_stats_free(&st);
  }
  ck_assert_int_eq(atomic_load(&claims_unsaved), 0);
  /* Unions were made, and a pull followed one of them. */
  ck_assert_int_gt(checked, 0);
  ck_assert_int_gt(before_pull, 0);
  /* The pulls read the unions: cleared, they find nothing. */
  depths_differ_with(g, e, &o, &claims_clear);
  claims_free();
  gr_enactor_destroy(&e);
  two_parts_close(&t);
  gr_graph_destroy(&g);
}
END_TEST

/* Per step: whether it lent a union of claims or of a pull's finds, and
 * (with visited_clear) the visited bits cleared after its exchange
 * (gr_exchange_step.settled: a pull after it then has no frontier). */
static atomic_int unions_lent, settled_steps, or_rounds;
static bool visited_clear;
static gr_vid visited_n;
static gr_status visited_exchange(void *local, gr_part *p, gr_exchange_step *s) {
  const gr_status st = gr_comm_exchange_ops.exchange(local, p, s);
  if (s->claim_bits || s->or_union) atomic_fetch_add(&unions_lent, 1);
  if (s->or_bits && s->or_also) atomic_fetch_add(&or_rounds, 1);
  if (st >= 0 && s->settled) {
    atomic_fetch_add(&settled_steps, 1);
    if (visited_clear) memset(s->settled, 0, ((size_t)visited_n + 31) / 32 * sizeof(uint32_t));
  }
  return st;
}

/* With the visited bits (the default) every claim of a push reaches them
 * on every device (its own push sets them, the combine settles every
 * peer's claim), and they hold only vertices of that level or earlier
 * ones: a pull after the push takes them as its frontier, and no step
 * lends a union of claims. A pull's finds go into them alone (or'ed over
 * the devices), the frontier of a pull after it: no pull lends a union
 * of its finds. The depths equal the reference's, pulls following pushes
 * and pulls; with the bits cleared after each push's exchange the depths
 * differ: the pulls read them. */
START_TEST(pulls_take_the_visited_bits_as_their_frontier) {
  gr_graph *g = generated("kron:14:16");
  visited_n = gr_graph_num_vertices(g);
  two_parts t;
  two_parts_open(&t, g, GR_PROXY_ALL, union_formats[_i]);
  gr_exchange_ops ex = gr_comm_exchange_ops;
  ex.exchange = visited_exchange;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  const gr_enactor_config cfg = dobfs_config(t.subs, 2, &o, &ex, t.comm, false);
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  atomic_store(&unions_lent, 0);
  atomic_store(&settled_steps, 0);
  atomic_store(&or_rounds, 0);
  int after_push = 0, after_pull = 0;
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    free(checked_depths(g, e, &a, &o));
    for (int l = 1; l < st.frontier_len; l++) {
      if (st.level_tag[l] == 'U' && st.level_tag[l - 1] == 'P') after_push++;
      if (st.level_tag[l] == 'U' && st.level_tag[l - 1] == 'U') after_pull++;
    }
    gr_run_stats_free(&st);
  }
  ck_assert_int_eq(atomic_load(&unions_lent), 0);
  ck_assert_int_gt(atomic_load(&settled_steps), 0);
  ck_assert_int_gt(atomic_load(&or_rounds), 0);
  ck_assert_int_gt(after_push, 0);
  ck_assert_int_gt(after_pull, 0);
  depths_differ_with(g, e, &o, &visited_clear);
  gr_enactor_destroy(&e);
  two_parts_close(&t);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dobfs");
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, every_direction_gives_the_reference_on_one_device);
  tcase_add_test(one, auto_pulls_and_examines_fewer_edges_on_kronecker);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 900);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, forced_pull_without_a_whole_frontier_is_refused);
  tcase_add_test(multi, a_first_level_of_one_vertex_sends_no_bitmaps);
  tcase_add_test(multi, a_pull_that_finds_few_vertices_sends_their_ids);
  tcase_add_test(multi, a_pulls_finds_go_as_each_devices_own_words);
  tcase_add_test(multi, a_pull_level_waits_for_its_counters_alone);
  tcase_add_loop_test(multi, claims_are_or_ed_into_every_devices_union, 0,
                      (int)(sizeof union_formats / sizeof *union_formats));
  tcase_add_loop_test(multi, pulls_take_the_visited_bits_as_their_frontier, 0,
                      (int)(sizeof union_formats / sizeof *union_formats));
  suite_add_tcase(s, multi);
  return gr_test_run_suite(s, 0);
}
