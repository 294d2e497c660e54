/* SPDX-License-Identifier: Apache-2.0 */
/* Connected components: the serial reference (weak components of directed
 * graphs), the validator against each kind of wrong answer, the figures of
 * finish, the vote for the largest component; the primitive on one CPU
 * device against the reference (the Afforest skip taken and not), and on
 * 2-4 CPU devices through the multi-device layer against one device under
 * every partitioner, proxy mode and exchange mode. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cc/cc.h"
#include "comm.h"
#include "devices.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

static gr_graph *from_edges(gr_vid n, const gr_vid (*e)[2], int m, bool undirected) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, (uint64_t)m + 1, false), GR_SUCCESS);
  for (int i = 0; i < m; i++) ck_assert_int_eq(gr_coo_push(&c, e[i][0], e[i][1], 0), GR_SUCCESS);
  c.n = n;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.undirected = undirected;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

/* Directed: 0 -> 1 <- 2 (one weak component, no strong one), 4 -> 3,
 * 5 isolated, 6 with a self-loop, 8 -> 7 -> 8. */
static gr_graph *small_graph(void) {
  const gr_vid e[][2] = {{0, 1}, {2, 1}, {4, 3}, {6, 6}, {8, 7}, {7, 8}};
  return from_edges(9, e, 6, false);
}

static double number(const gr_result *r, const char *name) {
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], name)) return r->extra.numbers[i];
  ck_abort_msg("no figure '%s'", name);
  return 0;
}

START_TEST(reference_finds_weak_components_with_smallest_ids) {
  gr_graph *g = small_graph();
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_cc_reference(g, &a, &o, &r), GR_SUCCESS);
  const gr_svid expect[] = {0, 0, 0, 3, 3, 5, 6, 7, 7};
  for (int v = 0; v < 9; v++) ck_assert_int_eq(((gr_svid *)r.values)[v], expect[v]);
  ck_assert(r.values_are_ids);
  ck_assert_int_eq(gr_cc_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  ck_assert_int_eq(gr_cc_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_cc_finish(&r), GR_SUCCESS);
  ck_assert_double_eq(number(&r, "components"), 5);
  ck_assert_double_eq(number(&r, "largest"), 3);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

/* A breadth-first search from each unlabelled vertex in id order over
 * out- and in-arcs: each component labelled with its smallest id, a
 * different algorithm from the reference's. */
static gr_svid *labels_by_search(gr_graph *g) {
  const gr_csr *out = gr_graph_out(g), *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  const gr_vid n = out->n;
  gr_svid *l = malloc(sizeof *l * n);
  gr_vid *q = malloc(sizeof *q * n);
  for (gr_vid v = 0; v < n; v++) l[v] = -1;
  for (gr_vid s = 0; s < n; s++) {
    if (l[s] >= 0) continue;
    gr_vid head = 0, tail = 0;
    l[s] = (gr_svid)s;
    q[tail++] = s;
    while (head < tail) {
      const gr_vid u = q[head++];
      for (int dir = 0; dir < 2; dir++) {
        const gr_csr *c = dir ? in : out;
        for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++)
          if (l[c->indices[k]] < 0) {
            l[c->indices[k]] = (gr_svid)s;
            q[tail++] = c->indices[k];
          }
      }
    }
  }
  free(q);
  return l;
}

/* The reference's arcs shared by 4 threads give each component its
 * smallest id, as a search does: a Kronecker graph (one giant component and
 * many small ones), a sparse directed random graph, a long path whose
 * vertices are numbered against its order (the deepest trees). */
START_TEST(reference_over_threads_equals_a_search) {
#ifdef _OPENMP
  const int had = omp_get_max_threads();
  omp_set_num_threads(4);
#endif
  enum { PATH = 20000 };
  static gr_vid e[PATH][2];
  for (gr_vid i = 0; i + 1 < PATH; i++) {
    /* The path visits the ids 0, PATH - 1, 1, PATH - 2, ... */
    const gr_vid a = i % 2 ? PATH - 1 - i / 2 : i / 2, b = (i + 1) % 2 ? PATH - 1 - (i + 1) / 2 : (i + 1) / 2;
    e[i][0] = b;
    e[i][1] = a;
  }
  gr_graph *graphs[3] = {gr_test_generated("kron:13:4"), gr_test_generated("uniform:13:1"),
                         from_edges(PATH, (const gr_vid(*)[2])e, PATH - 1, false)};
  for (int gi = 0; gi < 3; gi++) {
    gr_graph *g = graphs[gi];
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_run_args a = {0, 0, NULL, 0};
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_cc_reference(g, &a, &o, &r), GR_SUCCESS);
    gr_svid *want = labels_by_search(g);
    const gr_svid *l = r.values;
    gr_vid comps = 0;
    for (gr_vid v = 0; v < r.n; v++) {
      ck_assert_msg(l[v] == want[v], "graph %d, vertex %llu: label %lld, the search's %lld", gi,
                    (unsigned long long)v, (long long)l[v], (long long)want[v]);
      comps += l[v] == (gr_svid)v;
    }
    ck_assert_uint_gt(comps, gi == 2 ? 0 : 1);
    free(want);
    gr_result_free(&r);
    gr_graph_destroy(&g);
  }
#ifdef _OPENMP
  omp_set_num_threads(had);
#endif
}
END_TEST

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = small_graph();
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT, r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_cc_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_cc_reference(g, &a, &o, &r), GR_SUCCESS);
  gr_svid *l = r.values;
  struct {
    int v[2];
    gr_svid value;
    bool with_ref;
    const char *needle;
  } cases[] = {
      {{5, -1}, -1, false, "not a vertex"},           /* no label */
      {{5, -1}, 9, false, "not a vertex"},            /* past the ids */
      {{3, -1}, 4, false, "above its own id"},        /* not the smallest id */
      {{2, -1}, 1, false, "not itself"},              /* a label whose vertex is elsewhere */
      {{4, -1}, 4, false, "joins two labels"},        /* 4 -> 3 split */
      {{3, 4}, 0, true, "the reference puts it"},     /* two components merged */
      {{3, 4}, 0, false, NULL},                       /* ... which only the reference can tell */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gr_svid old[2] = {0, 0};
    for (int k = 0; k < 2; k++)
      if (cases[i].v[k] >= 0) {
        old[k] = l[cases[i].v[k]];
        l[cases[i].v[k]] = cases[i].value;
      }
    const gr_status st = gr_cc_validate(g, &a, &o, &r, cases[i].with_ref ? &ref : NULL);
    if (cases[i].needle) {
      ck_assert_msg(st == GR_ERR_VALIDATION, "case %zu passed", i);
      ck_assert_msg(strstr(gr_error_message(), cases[i].needle), "case %zu: %s", i, gr_error_message());
    } else {
      ck_assert_int_eq(st, GR_SUCCESS);
    }
    for (int k = 0; k < 2; k++)
      if (cases[i].v[k] >= 0) l[cases[i].v[k]] = old[k];
  }
  ck_assert_int_eq(gr_cc_validate(g, &a, &o, &r, &ref), GR_SUCCESS);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(largest_component_vote_takes_the_most_frequent_root) {
  gr_svid roots[] = {5, 3, 5, 9, 3, 5, 1};
  ck_assert_int_eq(gr_cc_mode(roots, 7), 5);
  /* A tie goes to the smaller root, whatever the order. */
  gr_svid tie[] = {8, 2, 8, 2, 4};
  ck_assert_int_eq(gr_cc_mode(tie, 5), 2);
  gr_svid one[] = {7};
  ck_assert_int_eq(gr_cc_mode(one, 1), 7);
  ck_assert_int_eq(gr_cc_mode(one, 0), -1);
}
END_TEST

/* The most frequent of n roots by counting each against all, smallest on
 * a tie: what gr_cc_mode's sort must agree with. */
static gr_svid mode_by_counting(const gr_svid *v, int n) {
  gr_svid best = -1;
  int best_count = 0;
  for (int i = 0; i < n; i++) {
    int c = 0;
    for (int j = 0; j < n; j++) c += v[j] == v[i];
    if (c > best_count || (c == best_count && v[i] < best)) {
      best_count = c;
      best = v[i];
    }
  }
  return best;
}

START_TEST(largest_component_vote_agrees_with_counting_on_full_samples) {
  /* Full samples (the radix sort's path) and one longer list (qsort's):
   * ids that differ in every byte, negative ones, ties between runs. */
  enum { N = GR_CC_SAMPLES + 7 };
  gr_svid v[N], copy[N];
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int round = 0; round < 40; round++) {
    const int n = round == 39 ? N : GR_CC_SAMPLES - round % 3;
    for (int i = 0; i < n; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t r = x >> 33;
      /* A few frequent ids and many rare ones, spread over the id range. */
      const gr_svid frequent[] = {0x7ffffffe, 3, 0x01020304, 0x00ff0000, -5, 0x40000000};
      v[i] = r % 4 ? frequent[(r >> 8) % (2 + round % 5)] : (gr_svid)((r * 2654435761u) & 0x7fffffff) - (r & 1 ? 7 : 0);
      copy[i] = v[i];
    }
    const gr_svid want = mode_by_counting(copy, n);
    ck_assert_int_eq(gr_cc_mode(v, n), want);
    for (int i = 1; i < n; i++) ck_assert(v[i - 1] <= v[i]);
  }
}
END_TEST

/* gr_cc_finish over labels it counts in two ways (the sampled giant's in
 * per-thread sums, every other label in the table), on 4 threads: a giant
 * label that the samples find, one they miss (a component larger than any
 * sampled one's, whose vertices lie between the sample points), no giant
 * at all, and labels outside the ids (skipped); each time the same
 * components and largest size as a serial count. */
START_TEST(finish_counts_every_label_whatever_the_sample) {
  enum { N = 10000, SAMPLES = GR_CC_SAMPLES };
  gr_svid *label = malloc(N * sizeof *label);
  gr_vid *size = malloc(N * sizeof *size);
  bool *sampled = calloc(N, sizeof *sampled);
  ck_assert_ptr_nonnull(label);
  ck_assert_ptr_nonnull(size);
  ck_assert_ptr_nonnull(sampled);
  for (uint64_t i = 0; i < SAMPLES; i++) sampled[i * N / SAMPLES] = true; /* gr_cc_finish's sample points */
#ifdef _OPENMP
  const int had = omp_get_max_threads();
  omp_set_num_threads(4);
#endif
  for (int kind = 0; kind < 3; kind++) {
    uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(kind + 1);
    for (int v = 0; v < N; v++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const unsigned draw = (unsigned)(x >> 33) % 100;
      if (kind == 0) label[v] = draw < 70 ? 3 : v; /* a giant of 70 % */
      else if (kind == 1) label[v] = v % 5 == 4 && !sampled[v] ? 17 : draw < 8 ? 2 : v; /* samples: 2; largest: 17 */
      else label[v] = v - v % 4; /* components of 4, no giant */
    }
    label[N - 1] = -1;
    label[N - 2] = N;
    gr_result r = {.n = N, .type = GR_VALUE_SVID, .values = label};
    ck_assert_int_eq(gr_cc_finish(&r), GR_SUCCESS);
    memset(size, 0, N * sizeof *size);
    double components = 0, largest = 0;
    for (int v = 0; v < N; v++) {
      if (label[v] < 0 || label[v] >= N) continue;
      components += label[v] == v;
      if (++size[label[v]] > largest) largest = size[label[v]];
    }
    ck_assert_double_eq(number(&r, "components"), components);
    ck_assert_double_eq(number(&r, "largest"), largest);
    /* The case is what it says: label 17 is the largest and no sample's. */
    if (kind == 1) ck_assert_uint_eq(size[17], (gr_vid)largest);
    gr_extra_free(&r.extra);
  }
#ifdef _OPENMP
  omp_set_num_threads(had);
#endif
  free(sampled);
  free(label);
  free(size);
}
END_TEST

/* gr_cc_link from 8 threads at once over arcs that build what the GPU's
 * sampling rounds meet: roots hooked in descending order (chains), a hub
 * that every link starts from, and random arcs over the trees these left,
 * in rounds as Afforest runs them (no compress between, so paths grow).
 * Afterwards every parent is at most its child (no cycle, no link above a
 * child), and two vertices share a root exactly when a serial union-find
 * over the same arcs joins them. */
static gr_svid serial_root(gr_svid *p, gr_svid v) {
  while (p[v] != v) v = p[v] = p[p[v]];
  return v;
}

START_TEST(concurrent_links_join_exactly_the_arcs_components) {
  enum { N = 1 << 16, ARCS = 3 * N };
  gr_svid *parent = malloc(N * sizeof *parent), *serial = malloc(N * sizeof *serial);
  gr_vid(*arcs)[2] = malloc(ARCS * sizeof *arcs);
  ck_assert(parent && serial && arcs);
  for (int trial = 0; trial < 4; trial++) {
    uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(trial + 1);
    for (int k = 0; k < ARCS; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      gr_vid u = (gr_vid)(x % N), v = (gr_vid)((x >> 32) % N);
      if (k < N / 2) u = N - 1 - (gr_vid)k, v = u - 1;   /* a descending chain of single vertices */
      else if (k < N) v = (gr_vid)(N / 3 + trial);         /* a hub */
      else if (k < N + N / 4 && trial & 1) v = u / 64 * 64; /* blocks: many small trees, then joined */
      arcs[k][0] = u;
      arcs[k][1] = v;
    }
    for (gr_vid v = 0; v < N; v++) parent[v] = serial[v] = (gr_svid)v;
    gr_cc_ctx c;
    memset(&c, 0, sizeof c);
    c.parent = parent;
    const int rounds[] = {0, N / 2, N, ARCS};
    for (int r = 0; r + 1 < 4; r++) {
#pragma omp parallel for num_threads(8) schedule(dynamic, 64)
      for (int k = rounds[r]; k < rounds[r + 1]; k++) gr_cc_link(&c, (gr_svid)arcs[k][0], (gr_svid)arcs[k][1]);
    }
    for (int k = 0; k < ARCS; k++) {
      const gr_svid a = serial_root(serial, (gr_svid)arcs[k][0]), b = serial_root(serial, (gr_svid)arcs[k][1]);
      if (a != b) serial[a > b ? a : b] = a > b ? b : a;
    }
    for (gr_vid v = 0; v < N; v++) {
      ck_assert_msg(parent[v] <= (gr_svid)v && parent[v] >= 0, "trial %d: parent[%llu] = %lld", trial,
                    (unsigned long long)v, (long long)parent[v]);
      /* Roots are each tree's smallest id in both: the same labels. */
      ck_assert_msg(gr_cc_find(&c, (gr_svid)v) == serial_root(serial, (gr_svid)v), "trial %d: vertex %llu", trial,
                    (unsigned long long)v);
    }
  }
  free(arcs);
  free(serial);
  free(parent);
}
END_TEST

/* Runs cc `runs` times on the given parts, the lists packed or not;
 * returns the last run's labels (caller frees) and checks that every run
 * gives the same. */
/* run_cc with --tune `tune` (NULL: the defaults); bytes (where given):
 * the bytes the second run moved between devices, in all and in its first
 * iteration. */
static gr_svid *run_cc_tuned(gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex,
                             void *shared, int *iterations, bool packed, const char *tune, uint64_t *bytes) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.compress = packed ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
  if (tune) ck_assert_int_eq(gr_tuning_parse(&o.tune, tune), GR_SUCCESS);
  gr_enactor_config cfg = {.prim = &gr_cc_primitive,
                           .opts = &o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = threads,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  gr_svid *first = NULL;
  for (int k = 0; k < 2; k++) {
    gr_run_args a = {0, k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(st.status, GR_SUCCESS);
    if (iterations) *iterations = st.iterations;
    if (bytes) {
      bytes[0] = 0;
      for (int i = 0; st.level_bytes && i < st.iterations; i++) bytes[0] += st.level_bytes[i];
      bytes[1] = st.level_bytes && st.iterations ? st.level_bytes[0] : 0;
    }
    gr_run_stats_free(&st);
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    ck_assert(r.values_are_ids);
    ck_assert_int_ge(number(&r, "components"), 1);
    if (!first) {
      first = r.values;
      r.values = NULL;
    } else {
      ck_assert_int_eq(memcmp(first, r.values, (size_t)r.n * sizeof(gr_svid)), 0);
    }
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  return first;
}

static gr_svid *run_cc(gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex, void *shared,
                       int *iterations, bool packed) {
  return run_cc_tuned(subs, devices, threads, ex, shared, iterations, packed, NULL, NULL);
}

/* CC with gr_part_borders checked at every iteration (CPU devices: the
 * lists are host memory): under duplicate-1-hop proxies the copies are a
 * range of ids (no list: every copy is there), otherwise one array, the
 * owned entries after the copies; each copy is a vertex another device
 * owns, each owned entry one this device owns, each once; and some device
 * has some. */
static int borders_seen;
static gr_status checked_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr_borders b;
  GR_CHECK(gr_part_borders(p, &b));
  const gr_subgraph *sub = p->sub;
  if (sub->peer_begin) {
    /* 1-hop: the copies are the local ids after the owned ones. */
    ck_assert_ptr_null(b.copies);
    ck_assert_uint_eq(b.copies_first, sub->n_owned);
    ck_assert_uint_eq(b.copies_first + b.n_copies, sub->n_local);
  } else {
    /* One array, owned after copies (CC takes both in one pass). */
    ck_assert_ptr_nonnull(b.copies);
    ck_assert_ptr_eq(b.owned, b.copies + b.n_copies);
  }
  uint8_t *seen = calloc(sub->n_local ? sub->n_local : 1, 1);
  ck_assert_ptr_nonnull(seen);
  for (gr_eid k = 0; k < b.n_copies + b.n_owned; k++) {
    const bool copy = k < b.n_copies;
    const gr_vid v = copy ? (b.copies ? b.copies[k] : (gr_vid)(b.copies_first + k)) : b.owned[k - b.n_copies];
    ck_assert_uint_lt(v, sub->n_local);
    ck_assert_msg(gr_subgraph_owns(sub, v) != copy, "device %d: %s %llu", p->index, copy ? "copy" : "owned",
                  (unsigned long long)v);
    ck_assert_msg(!seen[v], "device %d: vertex %llu listed twice", p->index, (unsigned long long)v);
    seen[v] = 1;
  }
  free(seen);
  if (b.n_copies && b.n_owned) __atomic_store_n(&borders_seen, 1, __ATOMIC_RELAXED);
  return gr_cc_primitive.iterate(slice, p, it);
}

START_TEST(border_lists_hold_each_copy_and_copied_vertex_once) {
  gr_primitive checked = gr_cc_primitive;
  checked.iterate = checked_iterate;
  gr_graph *g = gr_test_generated("kron:10:8");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_svid *expect = run_cc(&sub, 1, 1, NULL, NULL, NULL, false);
  gr_subgraph_destroy(&sub);
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_vid n = gr_graph_num_vertices(g);
  for (int devices = 2; devices <= 4; devices++)
    for (int x = 0; x < 2; x++) {
      borders_seen = 0;
      gr_svid *got = gr_test_run_svid(g, &checked, devices, proxies[x], true, 0, NULL);
      ck_assert_int_eq(borders_seen, 1);
      ck_assert_int_eq(memcmp(got, expect, (size_t)n * sizeof(gr_svid)), 0);
      free(got);
    }
  free(expect);
  gr_graph_destroy(&g);
}
END_TEST

/* Under 1-hop proxies a device holds the rows of its owned vertices only:
 * its CSR's and CSC's offsets end after the owned rows (a copy's row is
 * empty on the host; the device keeps no entry for it), under
 * duplicate-all every local row, and the answers stay one device's. CC
 * reads both arrays (a directed graph's CSC is its own). */
enum { ROWS_DEVICES = 4 };
static gr_vid rows_out[ROWS_DEVICES], rows_in[ROWS_DEVICES], rows_owned[ROWS_DEVICES], rows_local[ROWS_DEVICES];
static bool rows_csc_own[ROWS_DEVICES];

static gr_status rows_init(void **slice, gr_part *p) {
  rows_out[p->index] = p->out.n;
  rows_in[p->index] = p->in.n;
  rows_owned[p->index] = p->sub->n_owned;
  rows_local[p->index] = p->sub->n_local;
  rows_csc_own[p->index] = p->in.offsets != p->out.offsets;
  return gr_cc_primitive.init(slice, p);
}

START_TEST(a_device_holds_the_rows_of_its_owned_vertices_only) {
  gr_primitive checked = gr_cc_primitive;
  checked.init = rows_init;
  static const char *const graphs[] = {"kron:10:8", "kron:10:8,directed"};
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  for (int k = 0; k < 2; k++) {
    gr_graph *g = gr_test_generated(graphs[k]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_svid *expect = run_cc(&sub, 1, 1, NULL, NULL, NULL, false);
    gr_subgraph_destroy(&sub);
    for (int devices = 2; devices <= ROWS_DEVICES; devices++)
      for (int x = 0; x < 2; x++) {
        memset(rows_out, 0, sizeof rows_out);
        gr_svid *got = gr_test_run_svid(g, &checked, devices, proxies[x], true, 0, NULL);
        for (int d = 0; d < devices; d++) {
          const gr_vid want = proxies[x] == GR_PROXY_1HOP ? rows_owned[d] : rows_local[d];
          ck_assert_msg(rows_owned[d] > 0 && rows_owned[d] < rows_local[d], "%s, %d devices: device %d owns %llu of %llu",
                        graphs[k], devices, d, (unsigned long long)rows_owned[d], (unsigned long long)rows_local[d]);
          ck_assert_msg(rows_out[d] == want && rows_in[d] == want,
                        "%s, %d devices, %s proxies: device %d holds %llu CSR and %llu CSC rows for %llu owned of "
                        "%llu local vertices",
                        graphs[k], devices, proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", d,
                        (unsigned long long)rows_out[d], (unsigned long long)rows_in[d],
                        (unsigned long long)rows_owned[d], (unsigned long long)rows_local[d]);
          ck_assert_int_eq(rows_csc_own[d], k == 1);
        }
        ck_assert_int_eq(memcmp(got, expect, (size_t)n * sizeof(gr_svid)), 0);
        free(got);
      }
    free(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* Between devices a device holds per local vertex CC's forest, labels,
 * roots' labels and global ids, and per owned vertex the border lists and
 * the exchange's buffers, beside its quarter of the arcs; no owner table
 * (the exchange reads the 1-hop layout's runs), no offsets for the
 * copies' empty rows, no list of the copies (a range of ids), no table of
 * their ids on their owners (messages carry positions in the border
 * lists) and no receive buffer for a refresh (its values land in the
 * copies' slots): on 4 devices each device's peak is at most 0.395 of one
 * device's on Kronecker 16 (0.389; 0.425 with the list, the table and the
 * buffer, 0.430 with the owner table too, 0.454 with the copies' rows
 * too). With 64-bit ids the arrays of ids weigh more: bounded by 0.40. */
START_TEST(memory_per_device_on_four_cpu_devices) {
  gr_graph *g = gr_test_generated("kron:16:16");
  gr_test_check_peak_on_four(g, &gr_cc_primitive, GR_PROXY_1HOP, true, 1, GR_VID_BITS == 64 ? 0.40 : 0.395);
  gr_graph_destroy(&g);
}
END_TEST

/* gr_part_refresh_some checked from inside CC's runs (CPU devices: device
 * lists are host memory), on an array of its own: at the first iteration
 * every owned entry takes version 0 and a full refresh sends it; at
 * iteration t the owned vertices whose global id is t mod 3 take version
 * t and only they are listed (twice, in two lists). Afterwards every copy
 * holds its owner's latest version, each written id is a copy and is
 * written once, and every copy of a listed vertex is written. */
enum { PROBE_DEVICES = 4 };
static uint32_t *probe_vals[PROBE_DEVICES];
static int probe_sparse; /* some device wrote fewer copies than it holds */

static uint32_t probe_value(gr_vid g, int version) { return (uint32_t)g * 16u + (uint32_t)version; }
static int probe_version(gr_vid g, int iteration) {
  for (int t = iteration; t >= 1; t--)
    if ((int)(g % 3u) == t % 3) return t;
  return 0;
}

static gr_status probe_iterate(void *slice, gr_part *p, gr_iter *it) {
  const gr_subgraph *sub = p->sub;
  const gr_vid n = sub->n_local;
  const int t = it->iteration;
  if (t == 0) {
    free(probe_vals[p->index]);
    probe_vals[p->index] = calloc(n ? n : 1, sizeof(uint32_t));
  }
  uint32_t *val = probe_vals[p->index];
  ck_assert_ptr_nonnull(val);
  gr_vid *listed = malloc(sizeof(gr_vid) * (n ? n : 1));
  ck_assert_ptr_nonnull(listed);
  gr_eid k = 0;
  for (gr_vid v = 0; v < n; v++) {
    if (!gr_subgraph_owns(sub, v)) continue;
    const gr_vid g = gr_subgraph_global(sub, v);
    if (t == 0) val[v] = probe_value(g, 0);
    else if ((int)(g % 3u) == t % 3) {
      val[v] = probe_value(g, t);
      listed[k++] = v;
    }
  }
  void *arrays[1] = {val};
  const gr_vid *written = NULL;
  gr_eid n_written = 0;
  if (t == 0) {
    GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(uint32_t)));
  } else {
    const gr_vid *lists[2] = {listed, listed};
    const gr_eid counts[2] = {k, k / 2};
    GR_CHECK(gr_part_refresh_some(p, arrays, 1, (int)sizeof(uint32_t), lists, counts, 2, &written, &n_written));
  }
  free(listed);
  uint8_t *hit = calloc(n ? n : 1, 1);
  ck_assert_ptr_nonnull(hit);
  for (gr_eid w = 0; w < n_written; w++) {
    const gr_vid v = written[w];
    ck_assert_uint_lt(v, n);
    ck_assert_msg(!gr_subgraph_owns(sub, v), "device %d wrote its own vertex %llu", p->index, (unsigned long long)v);
    ck_assert_msg(!hit[v], "device %d wrote copy %llu twice", p->index, (unsigned long long)v);
    hit[v] = 1;
  }
  /* The copies the refresh keeps (under duplicate-all proxies a vertex
   * that no owned row reaches is held but copied by no one). */
  gr_borders b;
  GR_CHECK(gr_part_borders(p, &b));
  for (gr_eid c = 0; c < b.n_copies; c++) {
    const gr_vid v = b.copies ? b.copies[c] : (gr_vid)(b.copies_first + c);
    const gr_vid g = gr_subgraph_global(sub, v);
    ck_assert_msg(val[v] == probe_value(g, probe_version(g, t)),
                  "device %d, iteration %d: copy of %llu holds %u, its owner %u", p->index, t,
                  (unsigned long long)g, val[v], probe_value(g, probe_version(g, t)));
    if (t > 0 && (int)(g % 3u) == t % 3)
      ck_assert_msg(hit[v], "device %d, iteration %d: copy of %llu not written", p->index, t, (unsigned long long)g);
    if (hit[v]) hit[v] = 2;
  }
  for (gr_eid w = 0; w < n_written; w++)
    ck_assert_msg(hit[written[w]] == 2, "device %d wrote a vertex it does not copy", p->index);
  free(hit);
  if (t > 0 && n_written < b.n_copies) __atomic_store_n(&probe_sparse, 1, __ATOMIC_RELAXED);
  return gr_cc_primitive.iterate(slice, p, it);
}

START_TEST(refresh_some_sends_the_listed_owned_entries_to_every_copy) {
  gr_primitive probed = gr_cc_primitive;
  probed.iterate = probe_iterate;
  gr_graph *g = gr_test_generated("kron:10:8");
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  probe_sparse = 0;
  for (int devices = 2; devices <= PROBE_DEVICES; devices++)
    for (int x = 0; x < 2; x++) {
      int iterations = 0;
      free(gr_test_run_svid(g, &probed, devices, proxies[x], true, 0, &iterations));
      ck_assert_int_ge(iterations, 2);
    }
  for (int d = 0; d < PROBE_DEVICES; d++) {
    free(probe_vals[d]);
    probe_vals[d] = NULL;
  }
  /* A third of the entries changed: records, not every value. */
  ck_assert_int_eq(probe_sparse, 1);
  gr_graph_destroy(&g);
}
END_TEST

/* gr_part_allgather checked from inside CC's runs (CPU devices: device
 * memory is host memory): at iteration t device d gives 8 (d + t) % 5
 * bytes (none for some), each word naming its device, iteration, call and
 * place, in two calls back to back; every device receives every device's
 * words in device order, at the places at[] says, the same at[] on every
 * device. Each device scribbles over its bytes as soon as a call returns:
 * an all-gather leaves without its closing barrier (comm/exchange.c,
 * gr__direct), so a slower peer may still be copying what it sent, which
 * must not be the caller's bytes; the second call closes the first before
 * it sends again. */
static int gather_calls;
static gr_status gather_iterate(void *slice, gr_part *p, gr_iter *it) {
  const int t = it->iteration, me = p->index, n = p->count;
  uint64_t mine[4], at[PROBE_DEVICES + 1];
  const int k = (me + t) % 5;
  for (int r = 0; r < 2; r++) {
    for (int i = 0; i < k; i++)
      mine[i] = (uint64_t)me << 32 | (uint64_t)t << 16 | (uint64_t)r << 8 | (uint64_t)i;
    gr_buffer all = {0};
    GR_CHECK(gr_part_allgather(p, mine, (uint64_t)k * sizeof(uint64_t), &all, "test gather", at));
    memset(mine, 0xab, sizeof mine);
    ck_assert_uint_eq(at[0], 0);
    for (int d = 0; d < n; d++) {
      const int kd = (d + t) % 5;
      ck_assert_uint_eq(at[d + 1] - at[d], (uint64_t)kd * sizeof(uint64_t));
      for (int i = 0; i < kd; i++) {
        const uint64_t w = ((const uint64_t *)all.ptr)[at[d] / sizeof(uint64_t) + (uint64_t)i];
        ck_assert_msg(w == ((uint64_t)d << 32 | (uint64_t)t << 16 | (uint64_t)r << 8 | (uint64_t)i),
                      "device %d, iteration %d, call %d: word %d of device %d is %llx", me, t, r, i, d,
                      (unsigned long long)w);
      }
    }
    gr_buffer_release(&all);
  }
  __atomic_add_fetch(&gather_calls, 1, __ATOMIC_RELAXED);
  return gr_cc_primitive.iterate(slice, p, it);
}

START_TEST(allgather_gives_every_device_every_devices_bytes_in_order) {
  gr_primitive probed = gr_cc_primitive;
  probed.iterate = gather_iterate;
  gr_graph *g = gr_test_generated("kron:10:8");
  for (int devices = 2; devices <= PROBE_DEVICES; devices++) {
    gather_calls = 0;
    int iterations = 0;
    free(gr_test_run_svid(g, &probed, devices, GR_PROXY_1HOP, true, 0, &iterations));
    ck_assert_int_ge(iterations, 2);
    ck_assert_int_ge(gather_calls, 2 * devices);
  }
  gr_graph_destroy(&g);
}
END_TEST

static gr_svid *run_one_device(gr_graph *g, int threads, int *iterations, bool packed) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_svid *l = run_cc(&sub, 1, threads, NULL, NULL, iterations, packed);
  gr_subgraph_destroy(&sub);
  return l;
}

/* kron:10:8,directed,seed=7 over 3 ranges with duplicate-all proxies has
 * owned labels that only the exchange lowers while a third device copies
 * them: a refresh that left out the input lost them. */
static const char *const specs[] = {"kron:11:8",          "uniform:10:2,directed", "grid2d:20x30",
                                    "kron:10:4,directed", "uniform:11:1",          "kron:10:8,directed,seed=7"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

START_TEST(one_device_equals_reference) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_result ref = GR_RESULT_INIT;
    ck_assert_int_eq(gr_cc_reference(g, &a, &o, &ref), GR_SUCCESS);
    /* Threads 1 and 3 with plain ids, 2 with packed lists. */
    for (int threads = 1; threads <= 3; threads++) {
      int iterations = 0;
      gr_svid *l = run_one_device(g, threads, &iterations, threads == 2);
      /* One device: the first iteration is the answer. */
      ck_assert_int_eq(iterations, 1);
      gr_result r = {.n = n, .type = GR_VALUE_SVID, .values = l};
      ck_assert_msg(gr_cc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s, %d threads%s: %s", specs[i], threads,
                    threads == 2 ? ", packed lists" : "", gr_error_message());
      ck_assert_int_eq(memcmp(l, ref.values, (size_t)n * sizeof(gr_svid)), 0);
      free(l);
    }
    gr_result_free(&ref);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* The arcs a run visits (the run's edge count): the sampling rounds' (each
 * vertex's first two out-arcs) and the rest's, which the advances leave on
 * the device and one read brings back after the last compress. A star of
 * 200 leaves beside a clique of 8: undirected, the star is the largest
 * tree and the rest is the clique's rows (8 x 7 arcs); directed (the
 * centre's arcs out, the clique's both ways), the rounds leave the clique
 * the largest tree and the rest is the centre's 200 out-arcs and the
 * leaves' 200 in-arcs (two advances, two words). */
START_TEST(the_arcs_a_run_visits_are_counted) {
  enum { LEAVES = 200, CLIQUE = 8 };
  gr_vid e[LEAVES + CLIQUE * CLIQUE][2];
  int m = 0;
  for (int i = 1; i <= LEAVES; i++) {
    e[m][0] = 0;
    e[m++][1] = (gr_vid)i;
  }
  for (int d = 0; d < 2; d++) {
    const bool directed = d == 1;
    int mm = m;
    for (int i = 0; i < CLIQUE; i++)
      for (int j = directed ? 0 : i + 1; j < CLIQUE; j++) {
        if (i == j) continue;
        e[mm][0] = (gr_vid)(LEAVES + 1 + i);
        e[mm++][1] = (gr_vid)(LEAVES + 1 + j);
      }
    gr_graph *g = from_edges(LEAVES + 1 + CLIQUE, e, mm, !directed);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_enactor_config cfg = {.prim = &gr_cc_primitive, .opts = &o, .backend = GR_BACKEND_CPU, .n_devices = 1,
                             .cpu_threads = 2, .mem = GR_MEM_POLICY_INIT, .subs = &sub};
    gr_enactor *en = NULL;
    ck_assert_msg(gr_enactor_create(&en, &cfg) == GR_SUCCESS, "%s", gr_error_message());
    const gr_eid want = directed ? 2 + CLIQUE * 2 + LEAVES + LEAVES
                                 : 2 + LEAVES + CLIQUE * 2 + CLIQUE * (CLIQUE - 1);
    for (int k = 0; k < 2; k++) {
      gr_run_args a = {0, k, NULL, 0};
      gr_run_stats st;
      ck_assert_msg(gr_enactor_run(en, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
      ck_assert_msg(st.edges == want, "%s, run %d: %llu arcs visited, want %llu", directed ? "directed" : "undirected",
                    k, (unsigned long long)st.edges, (unsigned long long)want);
      gr_run_stats_free(&st);
    }
    gr_enactor_destroy(&en);
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(graphs_without_edges_and_of_one_vertex) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  const gr_vid none[][2] = {{0, 0}};
  for (int k = 0; k < 4; k++) {
    /* 5 isolated vertices; one vertex with a self-loop; each with plain
     * ids and packed lists (no block; one). */
    gr_graph *g = k & 1 ? from_edges(1, none, 1, false) : from_edges(5, none, 0, true);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_svid *l = run_one_device(g, 2, NULL, k >= 2);
    for (gr_vid v = 0; v < n; v++) ck_assert_int_eq(l[v], (gr_svid)v);
    gr_result r = {.n = n, .type = GR_VALUE_SVID, .values = l};
    ck_assert_int_eq(gr_cc_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
    ck_assert_int_eq(gr_cc_finish(&r), GR_SUCCESS);
    ck_assert_double_eq(number(&r, "components"), n);
    ck_assert_double_eq(number(&r, "largest"), 1);
    gr_result_free(&r);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* Every partitioner and both proxies, for the runs on several devices. */
static const gr_partitioner_kind partitioners[] = {GR_PART_RANDOM, GR_PART_BIASED,
#ifdef GR_HAVE_METIS
                                                   GR_PART_METIS,
#endif
                                                   GR_PART_STATIC, GR_PART_RANGE};
static const gr_proxy_mode proxy_modes[] = {GR_PROXY_ALL, GR_PROXY_1HOP};

START_TEST(several_devices_equal_one_device) {
  static const gr_comm_mode comms[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_svid *expect = run_one_device(g, 1, NULL, false);
    for (int devices = 2; devices <= 4; devices++) {
      for (size_t p = 0; p < sizeof partitioners / sizeof partitioners[0]; p++) {
        gr_partition *part = gr_test_partition(g, partitioners[p], devices);
        for (size_t x = 0; x < sizeof proxy_modes / sizeof proxy_modes[0]; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxy_modes[x], true, false), GR_SUCCESS);
          for (size_t c = 0; c < sizeof comms / sizeof comms[0]; c++) {
            gr_comm_options co = {comms[c], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            /* Three devices hold their lists packed. */
            gr_svid *got = run_cc(subs, devices, 1, &gr_comm_exchange_ops, comm, NULL, devices == 3);
            gr_comm_destroy(&comm);
            ck_assert_msg(!memcmp(got, expect, (size_t)n * sizeof(gr_svid)),
                          "%s, %d devices%s, %s, %s proxy_modes, %s: labels differ from one device", specs[i], devices,
                          devices == 3 ? " (packed lists)" : "",
                          gr_partitioner_name(partitioners[p]), proxy_modes[x] == GR_PROXY_1HOP ? "1hop" : "all",
                          gr_comm_mode_name(comms[c]));
            free(got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    }
    free(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* The merge's table: every label inserted is found at the slot its insert
 * returned, a second insert of it returns that slot, and any other key is
 * absent; on tables of 2 to 2^10 slots filled to half, with keys that
 * collide (one first slot for several keys, the last slot's probes
 * wrapping to the first) and keys spread over the ids. */
START_TEST(merge_table_finds_each_label_and_no_other) {
  enum { MAX_BITS = 10, MAX_SLOTS = 1 << MAX_BITS };
  static gr_svid keys[MAX_SLOTS], inserted[MAX_SLOTS / 2];
  static gr_eid at[MAX_SLOTS / 2];
  for (int bits = 1; bits <= MAX_BITS; bits++) {
    const gr_eid slots = (gr_eid)1 << bits, last = slots - 1;
    for (int spread = 0; spread < 2; spread++) {
      for (gr_eid i = 0; i < slots; i++) keys[i] = GR_CC_EMPTY;
      /* Half the slots: with spread, ids 7i + 3; without, ids whose first
       * slot is the last (then any), so that probes wrap. */
      gr_eid n = 0;
      for (gr_svid x = 0; n < slots / 2; x++) {
        if (spread ? x % 7 != 3 : (n < slots / 4 && gr__cc_merge_hash(x, bits) != last)) continue;
        inserted[n] = x;
        at[n] = (gr_eid)gr__cc_merge_insert(keys, bits, x);
        ck_assert_uint_lt(at[n], slots);
        n++;
      }
      for (gr_eid i = 0; i < n; i++) {
        ck_assert_int_eq(keys[at[i]], inserted[i]);
        ck_assert_int_eq(gr__cc_merge_slot(keys, bits, inserted[i]), (gr_svid)at[i]);
        ck_assert_int_eq(gr__cc_merge_insert(keys, bits, inserted[i]), (gr_svid)at[i]);
      }
      gr_eid taken = 0;
      for (gr_eid i = 0; i < slots; i++) taken += keys[i] != GR_CC_EMPTY;
      ck_assert_uint_eq(taken, n);
      const gr_svid hi = n ? inserted[n - 1] + 8 : 8;
      for (gr_svid x = 0; x <= hi; x++) {
        bool in = false;
        for (gr_eid i = 0; i < n; i++) in |= inserted[i] == x;
        if (!in) ck_assert_int_eq(gr__cc_merge_slot(keys, bits, x), -1);
      }
    }
  }
  /* The table holds at least 1.5 times the pairs' labels, in the least
   * power of two that does. */
  for (gr_eid np = 0; np < 5000; np += np < 20 ? 1 : 997) {
    const int bits = gr_cc_merge_bits(np);
    ck_assert_uint_ge((gr_eid)1 << bits, 3 * np);
    ck_assert(bits == 1 || ((gr_eid)1 << (bits - 1)) < 3 * np);
  }
}
END_TEST

/* The merge's union-find on the CPU backend: labels that pairs join, in
 * chains and out of order, each take the smallest of their set; a label
 * joined to nothing else keeps its own; a label in no pair is absent. */
START_TEST(merge_gives_each_label_its_sets_smallest) {
  gr_device *dev = NULL;
  gr_workspace ws;
  ck_assert_int_eq(gr_device_create(&dev, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_workspace_init(&ws, dev, NULL), GR_SUCCESS);
  enum { P = 9 };
  /* Sets {2, 7, 8, 40}, {3, 5, 9}, {11}, {12, 13}. */
  static const gr_svid pairs[2 * P] = {40, 8, 9, 5, 8, 7, 5, 3, 7, 2, 11, 11, 13, 12, 40, 7, 12, 13};
  static const gr_svid labels_want[] = {2, 3, 5, 7, 8, 9, 11, 12, 13, 40};
  static const gr_svid lowest_want[] = {2, 3, 3, 2, 2, 3, 11, 12, 12, 2};
  static const gr_svid absent[] = {0, 1, 4, 6, 10, 14, 39, 41, 1000};
  const int bits = gr_cc_merge_bits(P);
  const gr_eid slots = (gr_eid)1 << bits;
  gr_svid *table = malloc(2 * slots * sizeof *table), in[2 * P];
  ck_assert_ptr_nonnull(table);
  /* No seed, a seed that is a label of a set, one in no pair (which then
   * joins nothing). */
  static const gr_svid seeds[] = {-1, 7, 500};
  for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
    memcpy(in, pairs, sizeof in);
    gr_cc_merge_args m = {in, P, bits, table, table + slots, seeds[k]};
    ck_assert_int_eq(gr__cc_ops_cpu.merge(dev, &ws, &m), GR_SUCCESS);
    gr_eid taken = 0;
    for (gr_eid i = 0; i < slots; i++) taken += m.keys[i] != GR_CC_EMPTY;
    ck_assert_uint_eq(taken, sizeof labels_want / sizeof *labels_want + (seeds[k] == 500));
    for (size_t i = 0; i < sizeof labels_want / sizeof *labels_want; i++) {
      const gr_svid got = gr_cc_merged(m.keys, m.parent, bits, labels_want[i]);
      ck_assert_msg(got == lowest_want[i], "seed %lld, label %lld: %lld, want %lld", (long long)seeds[k],
                    (long long)labels_want[i], (long long)got, (long long)lowest_want[i]);
    }
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
      ck_assert_int_eq(gr_cc_merged(m.keys, m.parent, bits, absent[i]), -1);
    if (seeds[k] == 500) ck_assert_int_eq(gr_cc_merged(m.keys, m.parent, bits, 500), 500);
  }
  free(table);
  gr_workspace_release(&ws);
  gr_device_destroy(&dev);
}
END_TEST

/* CC on `devices` CPU devices of g, a range partition (a device a block of
 * ids) under the given proxies, selective exchange over host copies. */
static gr_svid *run_ranges(gr_graph *g, int devices, gr_proxy_mode proxy, int *iterations, bool packed) {
  gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
  po.kind = GR_PART_RANGE;
  po.parts = devices;
  gr_partition *part = NULL;
  ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
  gr_subgraph **subs = NULL;
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxy, true, false), GR_SUCCESS);
  gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *comm = NULL;
  ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
  gr_svid *l = run_cc(subs, devices, 1, &gr_comm_exchange_ops, comm, iterations, packed);
  gr_comm_destroy(&comm);
  gr_subgraphs_destroy(&subs, devices);
  gr_partition_destroy(&part);
  return l;
}

/* A path of `path` vertices per block over `devices` blocks of `block`
 * vertices (ids [k block, (k + 1) block)), whose path part is the block's
 * last `path` ids, joined from block to block; with `stars`, each block's
 * first block - path ids form a star of their own (a component per block,
 * larger than the block's piece of the path). Range partition: a device a
 * block. */
static gr_svid *run_blocks(int devices, int block, int path, bool stars, gr_proxy_mode proxy, int *iterations) {
  const int n = devices * block;
  gr_vid (*e)[2] = malloc(sizeof *e * (size_t)n);
  ck_assert_ptr_nonnull(e);
  int m = 0;
  for (int k = 0; k < devices; k++) {
    const int first = k * block + block - path;
    for (int i = first; i + 1 < first + path; i++) {
      e[m][0] = (gr_vid)i;
      e[m++][1] = (gr_vid)i + 1;
    }
    if (k + 1 < devices) { /* to the next block's path */
      e[m][0] = (gr_vid)(first + path - 1);
      e[m++][1] = (gr_vid)((k + 1) * block + block - path);
    }
    for (int i = k * block + 1; stars && i < first; i++) {
      e[m][0] = (gr_vid)(k * block);
      e[m++][1] = (gr_vid)i;
    }
  }
  gr_graph *g = from_edges((gr_vid)n, (const gr_vid(*)[2])e, m, true);
  free(e);
  gr_svid *l = run_ranges(g, devices, proxy, iterations, devices == 3);
  gr_graph_destroy(&g);
  return l;
}

/* Each device's largest tree is a star of its own block, so no two are
 * joined: the path's smallest id (block 0's first path vertex) has to
 * reach every device's piece of the path (and the stars keep their own
 * labels). */
START_TEST(a_label_crosses_every_device_of_a_path) {
  enum { BLOCK = 300, PATH = 100 };
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  for (int devices = 2; devices <= 4; devices++) {
    for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
      int iterations = 0;
      gr_svid *l = run_blocks(devices, BLOCK, PATH, true, proxies[x], &iterations);
      for (int k = 0; k < devices; k++)
        for (int i = 0; i < BLOCK; i++)
          ck_assert_int_eq(l[k * BLOCK + i], i < BLOCK - PATH ? k * BLOCK : BLOCK - PATH);
      /* Afforest, the merge (which takes the label across every device
       * at once, where label rounds took one device per exchange, at
       * least `devices` iterations) and the repair that the stars'
       * different labels call for, which changes nothing. */
      ck_assert_msg(iterations == 3, "%d devices, %s proxies: %d iterations", devices,
                    proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", iterations);
      free(l);
    }
  }
}
END_TEST

/* The path alone: every device's largest tree is its piece of the path,
 * and each shares a vertex (the proxy at a border) with its neighbour's,
 * so all of them start from the smallest label after Afforest and the run
 * ends after one label round, however many devices the label would cross.
 * (The test above: largest trees that end with different labels take a
 * repair after the merge.) */
START_TEST(largest_trees_that_share_a_vertex_start_from_one_label) {
  enum { BLOCK = 100 };
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  for (int devices = 2; devices <= 4; devices++) {
    for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
      int iterations = 0;
      gr_svid *l = run_blocks(devices, BLOCK, BLOCK, false, proxies[x], &iterations);
      for (int v = 0; v < devices * BLOCK; v++) ck_assert_int_eq(l[v], 0);
      ck_assert_msg(iterations <= 2, "%d devices, %s proxies: %d iterations", devices,
                    proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", iterations);
      free(l);
    }
  }
}
END_TEST

/* Two devices, a range partition (device 0 owns 0..31, device 1 32..63),
 * 1-hop proxies. Each device's largest tree is a star of its own; a path
 * 33..38 on device 1 holds copies of 3 and 7 (device 0's) at its ends, so
 * that its tree's smallest global id, 3, is a copy there, whose local id
 * comes after every owned one. Afforest's last compress gathers that id at
 * the tree's root: the path takes 3 at the first take, and 7, which device
 * 0 reaches through the path only, gets it in the first label round
 * (three iterations, the last changing nothing). A root left with its
 * smallest local id's label (32-something) would take 3 a round later. */
START_TEST(a_tree_takes_its_smallest_global_id_at_once) {
  enum { N = 64 };
  gr_vid e[N][2];
  int m = 0;
  for (gr_vid v = 0; v < 32; v++)
    if (v != 16 && v != 3 && v != 7) e[m][0] = 16, e[m++][1] = v;
  for (gr_vid v = 32; v < N; v++)
    if (v != 48 && (v < 33 || v > 38)) e[m][0] = 48, e[m++][1] = v;
  const gr_vid path[][2] = {{3, 33}, {33, 34}, {34, 35}, {35, 36}, {36, 37}, {37, 38}, {38, 7}};
  for (size_t k = 0; k < sizeof path / sizeof *path; k++) e[m][0] = path[k][0], e[m++][1] = path[k][1];
  gr_graph *g = from_edges(N, (const gr_vid(*)[2])e, m, true);
  int iterations = 0;
  gr_svid *l = run_ranges(g, 2, GR_PROXY_1HOP, &iterations, false);
  for (gr_vid v = 0; v < N; v++) {
    const bool on_path = v == 3 || v == 7 || (v >= 33 && v <= 38);
    ck_assert_int_eq(l[v], on_path ? 3 : v < 32 ? 0 : 32);
  }
  ck_assert_msg(iterations <= 3, "%d iterations", iterations);
  free(l);
  gr_graph_destroy(&g);
}
END_TEST

/* Two devices, a range partition (device 0 owns 0..31, device 1 32..63),
 * 1-hop proxies. Each device's largest tree is a star of its own, not
 * joined after Afforest (neither holds the other's smallest id or root),
 * though one component (30 - 60, each end in its device's star). Device
 * 1's star holds copies of 5 and 20 (through 50 and 49), so its best is 5
 * after Afforest; it learns 0 in the first label round (60's label comes
 * back as 0): the largest tree's best falls there, and that round's take
 * must pass over the tree's border vertices too, so that 49 takes 0 and
 * its copy carries it to 20 (whose tree on device 0 holds 49's copy). A
 * take over the border vertices outside the largest tree alone leaves 20
 * with 5, and the largest trees agreeing at the end, no repair follows. */
START_TEST(a_largest_tree_whose_best_falls_takes_all_its_border) {
  enum { N = 64 };
  gr_vid e[N][2];
  int m = 0;
  for (gr_vid v = 0; v < 32; v++)
    if (v != 16 && v != 2 && v != 5 && v != 20) e[m][0] = 16, e[m++][1] = v;
  for (gr_vid v = 32; v < N; v++)
    if (v != 48) e[m][0] = 48, e[m++][1] = v;
  const gr_vid cross[][2] = {{2, 5}, {5, 50}, {20, 49}, {30, 60}};
  for (size_t k = 0; k < sizeof cross / sizeof *cross; k++) e[m][0] = cross[k][0], e[m++][1] = cross[k][1];
  gr_graph *g = from_edges(N, (const gr_vid(*)[2])e, m, true);
  gr_svid *expect = run_one_device(g, 1, NULL, false);
  int iterations = 0;
  gr_svid *l = run_ranges(g, 2, GR_PROXY_1HOP, &iterations, false);
  for (gr_vid v = 0; v < N; v++) {
    ck_assert_int_eq(expect[v], 0);
    ck_assert_msg(l[v] == expect[v], "vertex %llu: label %lld, one device %lld", (unsigned long long)v,
                  (long long)l[v], (long long)expect[v]);
  }
  free(l);
  free(expect);
  gr_graph_destroy(&g);
}
END_TEST

/* Where every device's largest tree holds one label (cc-one-label=on,
 * the default), that label crosses no device: the first take sends no
 * copy (the merge's pairs join their trees), the merge's refresh only the
 * owned labels other than it, the copies taking it first. The same labels
 * as one device and as cc-one-label=off, on 2 to 4 devices of Kronecker
 * and uniform graphs (the giant component's label nearly everywhere), of
 * a grid and of a sparse directed graph (many small components, the owned
 * labels outside the largest trees many), under every partitioner and
 * both proxies, in as many iterations or fewer; and on the Kronecker and
 * uniform graphs with the random partition and 1-hop proxies (CC's own),
 * at most a third of the bytes, none of them in the first iteration. */
START_TEST(the_largest_trees_label_stays_on_its_devices) {
  static const char *graphs[] = {"kron:11:8", "uniform:11:8", "grid2d:30x30", "uniform:10:2,directed"};
  for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++) {
    gr_graph *g = gr_test_generated(graphs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_svid *expect = run_one_device(g, 1, NULL, false);
    for (int devices = 2; devices <= 4; devices++) {
      for (size_t k = 0; k < sizeof partitioners / sizeof *partitioners; k++) {
        gr_partition *part = gr_test_partition(g, partitioners[k], devices);
        for (size_t x = 0; x < sizeof proxy_modes / sizeof *proxy_modes; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxy_modes[x], true, false), GR_SUCCESS);
          gr_svid *got[2];
          int iterations[2];
          uint64_t bytes[2][2];
          static const char *tunes[2] = {"cc-one-label=on", "cc-one-label=off"};
          for (int t = 0; t < 2; t++) {
            gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            got[t] = run_cc_tuned(subs, devices, 1, &gr_comm_exchange_ops, comm, &iterations[t], false, tunes[t],
                                  bytes[t]);
            gr_comm_destroy(&comm);
            ck_assert_msg(!memcmp(got[t], expect, (size_t)n * sizeof(gr_svid)),
                          "%s, %d devices, %s, %s proxy_modes, %s: labels differ from one device", graphs[i], devices,
                          gr_partitioner_name(partitioners[k]), proxy_modes[x] == GR_PROXY_1HOP ? "1hop" : "all", tunes[t]);
            free(got[t]);
          }
          ck_assert_int_le(iterations[0], iterations[1]);
          if (partitioners[k] == GR_PART_RANDOM && proxy_modes[x] == GR_PROXY_1HOP && i < 2) {
            ck_assert_msg(3 * bytes[0][0] <= bytes[1][0], "%s, %d devices, %s proxy_modes: %llu bytes moved, %llu "
                          "with cc-one-label=off", graphs[i], devices, proxy_modes[x] == GR_PROXY_1HOP ? "1hop" : "all",
                          (unsigned long long)bytes[0][0], (unsigned long long)bytes[1][0]);
            ck_assert_msg(bytes[0][1] == 0 && bytes[1][1] > 0, "%s, %d devices: Afforest's iteration moved %llu "
                          "bytes, %llu with cc-one-label=off", graphs[i], devices, (unsigned long long)bytes[0][1],
                          (unsigned long long)bytes[1][1]);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    }
    free(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("cc");
  TCase *ref = tcase_create("reference");
  tcase_add_test(ref, reference_finds_weak_components_with_smallest_ids);
  tcase_add_test(ref, reference_over_threads_equals_a_search);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, largest_component_vote_takes_the_most_frequent_root);
  tcase_add_test(ref, largest_component_vote_agrees_with_counting_on_full_samples);
  tcase_add_test(ref, finish_counts_every_label_whatever_the_sample);
  tcase_add_test(ref, concurrent_links_join_exactly_the_arcs_components);
  suite_add_tcase(s, ref);
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, one_device_equals_reference);
  tcase_add_test(one, graphs_without_edges_and_of_one_vertex);
  tcase_add_test(one, the_arcs_a_run_visits_are_counted);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 900);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, the_largest_trees_label_stays_on_its_devices);
  tcase_add_test(multi, a_label_crosses_every_device_of_a_path);
  tcase_add_test(multi, merge_table_finds_each_label_and_no_other);
  tcase_add_test(multi, merge_gives_each_label_its_sets_smallest);
  tcase_add_test(multi, allgather_gives_every_device_every_devices_bytes_in_order);
  tcase_add_test(multi, largest_trees_that_share_a_vertex_start_from_one_label);
  tcase_add_test(multi, a_tree_takes_its_smallest_global_id_at_once);
  tcase_add_test(multi, a_largest_tree_whose_best_falls_takes_all_its_border);
  tcase_add_test(multi, border_lists_hold_each_copy_and_copied_vertex_once);
  tcase_add_test(multi, a_device_holds_the_rows_of_its_owned_vertices_only);
  tcase_add_test(multi, memory_per_device_on_four_cpu_devices);
  tcase_add_test(multi, refresh_some_sends_the_listed_owned_entries_to_every_copy);
  suite_add_tcase(s, multi);
  return gr_test_run_suite(s, 0);
}
