/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU operators against plain serial loops: advance push and pull,
 * several push levels in one call (their stop tests), the three reading
 * plain ids and packed lists (_i = 1), filter with and
 * without culling, split into two outputs, for-each, frontier conversions,
 * and the refusal to write past an output's capacity; the --tune and --mem
 * option strings. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/frontier.h"
#include "gr/util.h"
#include "op_harness.h"
#include "testutil.h"

static gr_device *dev;
static gr_csr out_g, in_g;
enum { N = 5000, M = 40000 };

static void setup(void) {
  gr_device_options o = GR_DEVICE_OPTIONS_INIT;
  o.cpu_threads = 4;
  ck_assert_int_eq(gr_device_create(&dev, GR_BACKEND_CPU, 0, &o), GR_SUCCESS);
  ck_assert_int_eq(op_random_graph(&out_g, &in_g, N, M, 7), GR_SUCCESS);
}

static void teardown(void) {
  op_set_packed(false);
  op_graph_free(&out_g);
  op_graph_free(&in_g);
  gr_device_destroy(&dev);
  ck_assert_ptr_null(dev);
}

static bool has_edge(const gr_csr *c, gr_vid u, gr_vid v) {
  for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++)
    if (c->indices[k] == v) return true;
  return false;
}

/* The output's degrees over g, as the advances report them. */
static void check_out_degrees(const op_result *r, const gr_csr *g) {
  gr_eid sum = 0, mx = 0;
  for (gr_eid i = 0; i < r->n_out; i++) {
    const gr_eid d = g->offsets[r->out[i] + 1] - g->offsets[r->out[i]];
    sum += d;
    if (d > mx) mx = d;
  }
  ck_assert_uint_eq(r->out_edges, sum);
  ck_assert_uint_eq(r->out_max_degree, mx);
}

static void check_push(const gr_vid *f, gr_eid nf) {
  op_result r;
  ck_assert_int_eq(op_run_push(&test_ops_cpu, dev, &out_g, f, nf, &r), GR_SUCCESS);
  unsigned char *in_f = calloc(N, 1), *expect = calloc(N, 1);
  gr_eid edges = 0;
  for (gr_eid i = 0; i < nf; i++) in_f[f[i]] = 1;
  for (gr_eid i = 0; i < nf; i++)
    for (gr_eid k = out_g.offsets[f[i]]; k < out_g.offsets[f[i] + 1]; k++, edges++)
      if (!in_f[out_g.indices[k]]) expect[out_g.indices[k]] = 1;
  gr_eid n_expect = 0;
  for (gr_vid v = 0; v < N; v++) n_expect += expect[v];
  ck_assert_uint_eq(r.n_out, n_expect);
  ck_assert_uint_eq(r.edges, edges);
  check_out_degrees(&r, &out_g);
  for (gr_eid i = 0; i < r.n_out; i++) {
    ck_assert(expect[r.out[i]]);
    if (i) ck_assert_uint_lt(r.out[i - 1], r.out[i]); /* each output once */
  }
  for (gr_vid v = 0; v < N; v++) {
    ck_assert_int_eq(r.label[v], in_f[v] ? 0 : expect[v] ? 1 : -1);
    if (expect[v]) {
      ck_assert(r.pred[v] >= 0 && in_f[r.pred[v]]);
      ck_assert(has_edge(&out_g, (gr_vid)r.pred[v], v));
    }
  }
  free(in_f);
  free(expect);
  op_result_free(&r);
}

START_TEST(push_outputs_each_unvisited_neighbour_once) {
  op_set_packed(_i == 1);
  gr_vid hub = 0;
  check_push(&hub, 1);
  check_push(NULL, 0);
  for (gr_eid k = 1; k <= 4096; k *= 4) {
    gr_vid *f = op_random_set(N, k, k);
    check_push(f, k);
    free(f);
  }
}
END_TEST

/* A pull from frontier f over the candidates marked in is_cand (NULL:
 * every vertex, as op_run_pull takes them unless op_set_pull_candidates
 * says otherwise): each candidate outside the frontier with an in-neighbour
 * in it is found, the others handed on. Returns how many were found. */
static gr_eid check_pull(const gr_vid *f, gr_eid nf, const unsigned char *is_cand) {
  op_result r;
  ck_assert_int_eq(op_run_pull(&test_ops_cpu, dev, &in_g, f, nf, &r), GR_SUCCESS);
  unsigned char *in_f = calloc(N, 1);
  for (gr_eid i = 0; i < nf; i++) in_f[f[i]] = 1;
  gr_eid n_expect = 0, n_rem = 0;
  for (gr_vid v = 0; v < N; v++) {
    const bool cand = (!is_cand || is_cand[v]) && !in_f[v];
    bool want = false;
    if (cand)
      for (gr_eid k = in_g.offsets[v]; k < in_g.offsets[v + 1] && !want; k++) want = in_f[in_g.indices[k]];
    n_expect += want;
    /* Unvisited and not found: handed on as the next pull's candidate. */
    if (cand && !want) {
      ck_assert_uint_lt(n_rem, r.n_remaining);
      ck_assert_uint_eq(r.remaining[n_rem], v);
      n_rem++;
    }
    ck_assert_int_eq(r.label[v], in_f[v] ? 0 : want ? 1 : -1);
    if (want) ck_assert(r.pred[v] >= 0 && in_f[r.pred[v]] && has_edge(&out_g, (gr_vid)r.pred[v], v));
  }
  ck_assert_uint_eq(r.n_out, n_expect);
  ck_assert_uint_eq(r.n_remaining, n_rem);
  check_out_degrees(&r, &in_g);
  for (gr_eid i = 1; i < r.n_out; i++) ck_assert_uint_lt(r.out[i - 1], r.out[i]);
  free(in_f);
  op_result_free(&r);
  return n_expect;
}

START_TEST(pull_finds_a_frontier_parent_for_each_reachable_vertex) {
  op_set_packed(_i == 1);
  for (gr_eid k = 1; k <= 4096; k *= 8) {
    gr_vid *f = op_random_set(N, k, 100 + k);
    check_pull(f, k, NULL);
    free(f);
  }
}
END_TEST

START_TEST(pull_stops_at_the_first_parent) {
  op_set_packed(_i == 1);
  /* With every vertex but one in the frontier, each in-edge scan of the one
   * unvisited vertex stops at its first in-neighbour. */
  gr_vid *f = malloc(N * sizeof(gr_vid));
  gr_eid nf = 0;
  gr_vid target = 1;
  while (in_g.offsets[target + 1] - in_g.offsets[target] < 3) target++;
  for (gr_vid v = 0; v < N; v++)
    if (v != target) f[nf++] = v;
  op_result r;
  ck_assert_int_eq(op_run_pull(&test_ops_cpu, dev, &in_g, f, nf, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_out, 1);
  ck_assert_uint_eq(r.edges, 1);
  op_result_free(&r);
  free(f);
}
END_TEST

/* A pull over a candidate list (as between devices, where it is the owned
 * vertices, then what the last pull handed on): only candidates are found
 * or handed on, in whatever order the list holds them; the harness checks
 * that the finds' bitmap holds exactly the finds. */
START_TEST(pull_over_candidates_in_any_order_takes_only_them) {
  op_set_packed(_i == 1);
  gr_vid *cand = op_random_set(N, N / 2, 300);
  ck_assert_ptr_nonnull(cand);
  op_shuffle(cand, N / 2, 301);
  unsigned char *is_cand = calloc(N, 1);
  for (gr_eid i = 0; i < N / 2; i++) is_cand[cand[i]] = 1;
  gr_vid *f = op_random_set(N, 400, 302);
  op_set_pull_candidates(cand, N / 2);
  const gr_eid found = check_pull(f, 400, is_cand);
  op_set_pull_candidates(NULL, 0);
  ck_assert_uint_gt(found, 0);
  free(f);
  free(is_cand);
  free(cand);
}
END_TEST

START_TEST(filter_keeps_matching_items_and_culls_duplicates) {
  gr_eid n = 20000;
  gr_vid *in = malloc(n * sizeof(gr_vid));
  for (gr_eid i = 0; i < n; i++) in[i] = (gr_vid)(gr_rand64(5, 0, i) % 1000);
  op_result r;
  ck_assert_int_eq(op_run_filter(&test_ops_cpu, dev, 1000, in, n, 3, true, &r), GR_SUCCESS);
  unsigned char seen[1000] = {0};
  for (gr_eid i = 0; i < n; i++) seen[in[i]] = 1;
  gr_eid expect = 0;
  for (gr_vid v = 0; v < 1000; v += 3) expect += seen[v];
  ck_assert_uint_eq(r.n_out, expect);
  for (gr_eid i = 0; i < r.n_out; i++) {
    ck_assert_uint_eq(r.out[i] % 3, 0);
    if (i) ck_assert_uint_lt(r.out[i - 1], r.out[i]);
  }
  op_result_free(&r);
  ck_assert_int_eq(op_run_filter(&test_ops_cpu, dev, 1000, in, n, 3, false, &r), GR_SUCCESS);
  expect = 0;
  for (gr_eid i = 0; i < n; i++) expect += in[i] % 3 == 0;
  ck_assert_uint_eq(r.n_out, expect);
  op_result_free(&r);
  free(in);
}
END_TEST

START_TEST(filter_without_a_list_takes_every_id) {
  op_result r;
  ck_assert_int_eq(op_run_filter(&test_ops_cpu, dev, 1000, NULL, 1000, 7, false, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_out, 143); /* 0, 7, ..., 994 */
  for (gr_eid i = 0; i < r.n_out; i++) ck_assert_uint_eq(r.out[i], 7 * i);
  op_result_free(&r);
}
END_TEST

/* Breadth-first depths from one vertex (serial), -1 unreached. */
static gr_svid *bfs_depths(const gr_csr *g, gr_vid source) {
  gr_svid *d = malloc((size_t)g->n * sizeof(gr_svid));
  gr_vid *q = malloc((size_t)g->n * sizeof(gr_vid));
  for (gr_vid v = 0; v < g->n; v++) d[v] = -1;
  size_t head = 0, tail = 0;
  d[source] = 0;
  q[tail++] = source;
  while (head < tail) {
    const gr_vid u = q[head++];
    for (gr_eid k = g->offsets[u]; k < g->offsets[u + 1]; k++)
      if (d[g->indices[k]] < 0) {
        d[g->indices[k]] = d[u] + 1;
        q[tail++] = g->indices[k];
      }
  }
  free(q);
  return d;
}

/* Runs levels from `source` under the limits and checks them against the
 * serial depths: the levels run, their sizes, the labels, the frontier
 * left and its degrees, the edges visited. */
static void check_levels(gr_vid source, gr_advance_levels_args limits, int want_levels) {
  gr_svid *d = bfs_depths(&out_g, source);
  op_result r;
  ck_assert_int_eq(op_run_levels(&test_ops_cpu, dev, &out_g, &source, 1, &limits, &r), GR_SUCCESS);
  ck_assert_int_eq(r.levels, want_levels);
  gr_eid edges = 0;
  for (int l = 0; l < r.levels; l++) {
    gr_eid size = 0;
    for (gr_vid v = 0; v < N; v++)
      if (d[v] == l) {
        size++;
        edges += out_g.offsets[v + 1] - out_g.offsets[v];
      }
    ck_assert_uint_eq(r.level_sizes[l], size);
  }
  ck_assert_uint_eq(r.edges, edges);
  gr_eid left = 0;
  for (gr_vid v = 0; v < N; v++) {
    ck_assert_int_eq(r.label[v], d[v] <= r.levels ? d[v] : -1);
    left += d[v] == r.levels;
  }
  ck_assert_uint_eq(r.n_out, left);
  for (gr_eid i = 0; i < r.n_out; i++) ck_assert_int_eq(d[r.out[i]], r.levels);
  check_out_degrees(&r, &out_g);
  if (limits.trail_capacity) {
    /* The trail holds each level's vertices, level after level. */
    gr_eid at = 0;
    for (int l = 0; l < r.levels; l++)
      for (gr_eid i = 0; i < r.level_sizes[l]; i++) ck_assert_int_eq(d[r.trail[at++]], l);
    ck_assert_uint_eq(at, r.n_trail);
  }
  op_result_free(&r);
  free(d);
}

START_TEST(levels_run_breadth_first_until_a_limit) {
  op_set_packed(_i == 1);
  gr_advance_levels_args lim;
  memset(&lim, 0, sizeof lim);
  lim.max_levels = 1000;
  lim.max_vertices = N;
  lim.max_edges = (gr_eid)1 << 40;
  lim.max_degree = N;
  /* From a vertex of the random part, deepest level first. */
  gr_svid *d = bfs_depths(&out_g, 4321);
  gr_svid deepest = 0;
  for (gr_vid v = 0; v < N; v++) deepest = d[v] > deepest ? d[v] : deepest;
  free(d);
  ck_assert_int_gt(deepest, 2);
  check_levels(4321, lim, (int)deepest + 1); /* until the frontier is empty */
  lim.max_levels = 2;
  check_levels(4321, lim, 2);
  /* The hub (vertex 0, degree N / 2) stops the loop where it enters. */
  lim.max_levels = 1000;
  lim.max_degree = 400;
  d = bfs_depths(&out_g, 4321);
  ck_assert_int_gt(d[0], 0);
  const int hub_level = (int)d[0];
  free(d);
  check_levels(4321, lim, hub_level);
  /* Few vertices or edges allowed. */
  lim.max_degree = N;
  lim.max_vertices = 1;
  check_levels(4321, lim, 1);
  lim.max_vertices = N;
  lim.max_edges = 0;
  check_levels(4321, lim, 0); /* the input itself does not fit */
}
END_TEST

/* A trail keeps every level's input; the loop stops before a level that
 * would not fit in it, and after the level whose visit raised the stop
 * flag. */
START_TEST(levels_keep_a_trail_and_stop_on_a_flag) {
  op_set_packed(_i == 1);
  gr_advance_levels_args lim;
  memset(&lim, 0, sizeof lim);
  lim.max_levels = 1000;
  lim.max_vertices = N;
  lim.max_edges = (gr_eid)1 << 40;
  lim.max_degree = N;
  gr_svid *d = bfs_depths(&out_g, 4321);
  gr_svid deepest = 0;
  for (gr_vid v = 0; v < N; v++) deepest = d[v] > deepest ? d[v] : deepest;
  ck_assert_int_gt(deepest, 3);
  gr_eid first_two = 0;
  gr_vid at_two = N;
  for (gr_vid v = 0; v < N; v++) {
    first_two += d[v] == 0 || d[v] == 1;
    if (d[v] == 2 && at_two == N) at_two = v;
  }
  free(d);
  lim.trail_capacity = N;
  check_levels(4321, lim, (int)deepest + 1);
  lim.trail_capacity = first_two; /* level 2 does not fit */
  check_levels(4321, lim, 2);
  lim.trail_capacity = N;
  /* Raised while level 1 claims at_two: levels 0 and 1 run. */
  op_set_stop_at(at_two);
  lim.stop = (const uint32_t *)&lim; /* any pointer: the harness's flag */
  check_levels(4321, lim, 2);
  lim.stop = NULL;
}
END_TEST

/* n random ids below `below` (repeats kept), from the seed's stream. */
static gr_vid *random_ids(gr_eid n, uint64_t seed, gr_vid below) {
  gr_vid *ids = malloc(n * sizeof(gr_vid));
  ck_assert_ptr_nonnull(ids);
  for (gr_eid i = 0; i < n; i++) ids[i] = (gr_vid)(gr_rand64(seed, 0, i) % below);
  return ids;
}

/* n random ids below 5000 and how many fall in classes 0 and 1 of
 * test_klass with modulus 3. */
static gr_vid *split_input(gr_eid n, gr_eid *want0, gr_eid *want1) {
  gr_vid *in = random_ids(n, 6, 5000);
  *want0 = *want1 = 0;
  for (gr_eid i = 0; i < n; i++) {
    *want0 += in[i] % 3 == 0;
    *want1 += in[i] % 3 == 1;
  }
  return in;
}

START_TEST(split_sends_each_item_to_its_class) {
  gr_eid n = 30000, want0 = 0, want1 = 0;
  gr_vid *in = split_input(n, &want0, &want1);
  op_result r;
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, n, 3, n, n, &r), GR_SUCCESS);
  /* Items keep their multiplicity: split does not uniquify. */
  ck_assert_uint_eq(r.n_out, want0);
  ck_assert_uint_eq(r.n_remaining, want1);
  for (gr_eid i = 0; i < r.n_out; i++) ck_assert_uint_eq(r.out[i] % 3, 0);
  for (gr_eid i = 0; i < r.n_remaining; i++) ck_assert_uint_eq(r.remaining[i] % 3, 1);
  op_result_free(&r);
  /* Either output too small: refused, not overrun. */
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, n, 3, want0 - 1, n, &r), GR_ERR_INTERNAL);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "first output"));
  op_result_free(&r);
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, n, 3, n, want1 - 1, &r), GR_ERR_INTERNAL);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "second output"));
  op_result_free(&r);
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, 0, 3, 1, 1, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_out + r.n_remaining, 0);
  op_result_free(&r);
  free(in);
}
END_TEST

/* count_past: an output too small is filled to its capacity and no
 * further, and the pass counts every item of each class (the caller grows
 * the output and runs again: CC's list of border vertices outside the
 * largest tree). */
START_TEST(split_counts_past_a_full_output) {
  const gr_eid n = 30000;
  gr_eid want0 = 0, want1 = 0;
  gr_vid *in = split_input(n, &want0, &want1);
  op_set_count_past(true);
  op_result r;
  const gr_eid cap0 = want0 / 3, cap1 = want1 - 1;
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, n, 3, cap0, cap1, &r), GR_SUCCESS);
  ck_assert(op_split_filled(&r, want0, want1, cap0, cap1, 3));
  ck_assert_uint_eq(r.n_out, cap0);
  ck_assert_uint_eq(r.n_remaining, cap1);
  for (gr_eid i = 0; i < r.n_remaining; i++) ck_assert_uint_eq(r.remaining[i] % 3, 1);
  op_result_free(&r);
  /* Room enough: the same as without it. */
  ck_assert_int_eq(op_run_split(&test_ops_cpu, dev, 5000, in, n, 3, n, n, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_out, want0);
  ck_assert_uint_eq(r.counted[0], want0);
  ck_assert_uint_eq(r.n_remaining, want1);
  ck_assert(!r.overran);
  op_result_free(&r);
  op_set_count_past(false);
  free(in);
}
END_TEST

/* A split enqueued before its input's size is known on the host
 * (gr_primitive.arriving): it reads the size on the device under a larger
 * bound, takes nothing past it, adds its counts to the words given and
 * reads nothing back; over a list, a range, or both. Fails where the pass
 * reads past the size (ids of both classes lie there) or reads its counts
 * back as a split of its own would. */
START_TEST(split_reads_its_size_and_leaves_its_counts_on_the_device) {
  const gr_eid n_list = 20000;
  gr_vid *list = random_ids(n_list, 9, 5000);
  for (int form = 0; form < 3; form++) {
    const gr_vid first = 5000;
    const gr_eid n_first = form == 0 ? 0 : 3000, total = n_first + (form == 1 ? 0 : n_list);
    op_result want, got;
    op_set_split_later(false, 0);
    ck_assert_int_eq(op_run_split_range(&test_ops_cpu, dev, 8000, first, n_first, form == 1 ? NULL : list, total, 3,
                                        total, total, &want),
                     GR_SUCCESS);
    for (int slack = 0; slack < 2; slack++) {
      op_set_split_later(true, slack ? 4096 : 0);
      ck_assert_int_eq(op_run_split_range(&test_ops_cpu, dev, 8000, first, n_first, form == 1 ? NULL : list, total, 3,
                                          total, total, &got),
                       GR_SUCCESS);
      op_set_split_later(false, 0);
      ck_assert_msg(!got.later_read, "form %d: the pass read its counts back", form);
      ck_assert_msg(op_same_split(&got, &want), "form %d, slack %d: %llu and %llu items where %llu and %llu", form,
                    slack, (unsigned long long)got.n_out, (unsigned long long)got.n_remaining,
                    (unsigned long long)want.n_out, (unsigned long long)want.n_remaining);
      ck_assert_uint_gt(want.n_out, total / 4);
      op_result_free(&got);
    }
    /* Outputs too small: written to their capacities and no further,
     * every item counted (the caller checks the counts). */
    const gr_eid cap0 = want.n_out / 3, cap1 = want.n_remaining - 1;
    op_set_split_later(true, 512);
    ck_assert_int_eq(op_run_split_range(&test_ops_cpu, dev, 8000, first, n_first, form == 1 ? NULL : list, total, 3,
                                        cap0, cap1, &got),
                     GR_SUCCESS);
    op_set_split_later(false, 0);
    ck_assert(op_split_filled(&got, want.n_out, want.n_remaining, cap0, cap1, 3));
    ck_assert_uint_eq(got.n_out, cap0);
    ck_assert_uint_eq(got.n_remaining, cap1);
    op_result_free(&got);
    op_result_free(&want);
  }
  free(list);
}
END_TEST

/* A range of ids, then a list, in one pass (a device's copies under
 * duplicate-1-hop proxies, then its owned border vertices): every item of
 * both goes to its class; a range alone too. */
START_TEST(split_takes_a_range_then_a_list) {
  const gr_eid n_list = 700;
  gr_vid *list = random_ids(n_list, 8, 1000);
  const gr_vid first = 3000;
  const gr_eid n_first = 1500;
  for (int with_list = 0; with_list < 2; with_list++) {
    const gr_eid total = n_first + (with_list ? n_list : 0);
    op_result r;
    ck_assert_int_eq(op_run_split_range(&test_ops_cpu, dev, 5000, first, n_first, with_list ? list : NULL, total, 3,
                                        total, total, &r),
                     GR_SUCCESS);
    gr_eid want0 = 0, want1 = 0;
    for (gr_eid i = 0; i < total; i++) {
      const gr_vid v = i < n_first ? (gr_vid)(first + i) : list[i - n_first];
      want0 += v % 3 == 0;
      want1 += v % 3 == 1;
    }
    ck_assert_uint_eq(r.n_out, want0);
    ck_assert_uint_eq(r.n_remaining, want1);
    /* Sorted: the range's ids come after the list's (all below 1000). */
    ck_assert_uint_eq(r.out[r.n_out - 1], first + n_first - 1 - (first + n_first - 1) % 3);
    for (gr_eid i = 0; i < r.n_out; i++) ck_assert_uint_eq(r.out[i] % 3, 0);
    for (gr_eid i = 0; i < r.n_remaining; i++) ck_assert_uint_eq(r.remaining[i] % 3, 1);
    if (!with_list) ck_assert_uint_ge(r.out[0], first);
    op_result_free(&r);
  }
  free(list);
}
END_TEST

START_TEST(for_each_visits_every_vertex_or_every_item) {
  op_result r;
  ck_assert_int_eq(op_run_for_each(&test_ops_cpu, dev, N, NULL, N, &r), GR_SUCCESS);
  for (gr_vid v = 0; v < N; v++) ck_assert_uint_eq(r.marks[v], 2 * v + 1);
  op_result_free(&r);
  gr_vid *f = op_random_set(N, 300, 9);
  ck_assert_int_eq(op_run_for_each(&test_ops_cpu, dev, N, f, 300, &r), GR_SUCCESS);
  gr_eid marked = 0;
  for (gr_vid v = 0; v < N; v++) marked += r.marks[v] != 0;
  ck_assert_uint_eq(marked, 300);
  for (int i = 0; i < 300; i++) ck_assert_uint_eq(r.marks[f[i]], 2 * f[i] + 1);
  op_result_free(&r);
  free(f);
  /* The ids [first, first + n) when no list is given. */
  ck_assert_int_eq(op_run_for_each_from(&test_ops_cpu, dev, N, NULL, 100, N - 100, &r), GR_SUCCESS);
  for (gr_vid v = 0; v < N; v++) ck_assert_uint_eq(r.marks[v], v >= N - 100 ? 2 * v + 1 : 0);
  op_result_free(&r);
}
END_TEST

START_TEST(queue_bitmap_round_trip_sorts_and_keeps_the_set) {
  gr_vid n = 100003; /* not a multiple of 32 */
  gr_vid items[] = {n - 1, 0, 31, 32, 33, 77777, 5};
  op_result r;
  ck_assert_int_eq(op_run_roundtrip(dev, n, items, 7, &r), GR_SUCCESS);
  gr_vid expect[] = {0, 5, 31, 32, 33, 77777, n - 1};
  ck_assert_uint_eq(r.n_out, 7);
  for (int i = 0; i < 7; i++) ck_assert_uint_eq(r.out[i], expect[i]);
  op_result_free(&r);
  ck_assert_int_eq(op_run_roundtrip(dev, n, NULL, 0, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_out, 0);
  op_result_free(&r);
}
END_TEST

/* dst |= src word by word: four words at a time where both are aligned,
 * one by one where not and in the tail; nothing past the last word. */
START_TEST(bitmap_or_sets_each_word_to_the_union) {
  ck_assert_msg(op_check_bitmap_or(dev, 1027, 7) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_bitmap_or(dev, 3, 8) == GR_SUCCESS, "%s", gr_error_message());
}
END_TEST

/* Ids through a table (a lazy 1-hop part's ids made local at the upload):
 * every id, the ones without an entry below the limit 0 and counted. */
START_TEST(ids_map_through_a_table) {
  ck_assert_msg(op_check_ids_map(dev, 100003, 5000, 3000, 3) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_ids_map(dev, 1, 2, 1, 4) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_ids_map(dev, 0, 2, 1, 5) == GR_SUCCESS, "%s", gr_error_message());
}
END_TEST

START_TEST(frontier_rejects_ids_outside_its_universe) {
  gr_frontier f;
  gr_frontier_init(&f, 10);
  gr_vid bad = 10;
  ck_assert_int_eq(gr_frontier_assign(&f, dev, &bad, 1), GR_ERR_INVALID_ARG);
  gr_frontier_release(&f);
}
END_TEST

START_TEST(advance_refuses_to_overflow_its_output) {
  gr_workspace ws;
  ck_assert_int_eq(gr_workspace_init(&ws, dev, NULL), GR_SUCCESS);
  gr_svid *label = malloc(N * sizeof(gr_svid)), *pred = malloc(N * sizeof(gr_svid));
  for (int i = 0; i < N; i++) label[i] = -1;
  label[0] = 0;
  gr_vid out[4];
  gr_vid hub = 0;
  test_ctx c = {.label = label, .pred = pred, .next = 1, .modulus = 1};
  gr_advance_push_args a = {.g = &out_g, .in = &hub, .n_in = 1, .out = out, .out_capacity = 4};
  gr_status st = test_ops_cpu.push(dev, &ws, &a, &c);
  ck_assert_int_eq(st, GR_ERR_INTERNAL);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "capacity 4"));
  free(label);
  free(pred);
  gr_workspace_release(&ws);
}
END_TEST

/* ---- option strings -------------------------------------------------------- */

/* An on/off tuning key: its default, the other value, a bad value refused
 * with the value kept, and the default again. */
static void check_switch(gr_tuning *t, const bool *field, const char *key, bool initial, const char *bad) {
  char text[64];
  ck_assert_msg(*field == initial, "%s: default", key);
  snprintf(text, sizeof text, "%s=%s", key, initial ? "off" : "on");
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_SUCCESS);
  ck_assert_msg(*field == !initial, "%s", text);
  snprintf(text, sizeof text, "%s=%s", key, bad);
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_ERR_INVALID_ARG);
  ck_assert_msg(*field == !initial, "%s kept the value", text);
  snprintf(text, sizeof text, "%s=%s", key, initial ? "on" : "off");
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_SUCCESS);
  ck_assert_msg(*field == initial, "%s", text);
}

/* A count tuning key: its default, another value taken, a bad value
 * refused with that value kept, and 0 taken. */
static void check_count(gr_tuning *t, const gr_eid *field, const char *key, gr_eid initial, gr_eid other,
                        const char *bad) {
  char text[64];
  ck_assert_msg(*field == initial, "%s: default", key);
  snprintf(text, sizeof text, "%s=%llu", key, (unsigned long long)other);
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_SUCCESS);
  ck_assert_msg(*field == other, "%s", text);
  snprintf(text, sizeof text, "%s=%s", key, bad);
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_ERR_INVALID_ARG);
  ck_assert_msg(*field == other, "%s kept the value", text);
  snprintf(text, sizeof text, "%s=0", key);
  ck_assert_int_eq(gr_tuning_parse(t, text), GR_SUCCESS);
  ck_assert_msg(*field == 0, "%s", text);
}

START_TEST(tuning_parses_every_key) {
  gr_tuning t = GR_TUNING_INIT;
  ck_assert_int_eq(gr_tuning_parse(&t, "advance=twc,pull=warp,small=off,small-vertices=10,small-edges=0,"
                                       "small-degree=18446744073709551615,visited=state,pull-light=3,"
                                       "status=idempotent,sort=on,relabel=off,hot=0,hub=7,long-rows=64"),
                   GR_SUCCESS);
  ck_assert_int_eq(t.advance, GR_ADVANCE_TWC);
  ck_assert_int_eq(t.pull, GR_PULL_WARP);
  ck_assert(!t.small_loop && !t.visited_bitmap && t.idempotent);
  ck_assert_uint_eq(t.small_vertices, 10);
  ck_assert_uint_eq(t.small_edges, 0);
  ck_assert_uint_eq(t.small_degree, UINT64_MAX);
  ck_assert_uint_eq(t.pull_light, 3);
  ck_assert_int_eq(t.sort_input, GR_SORT_ON);
  ck_assert_int_eq(t.relabel, GR_SORT_OFF);
  ck_assert_uint_eq(t.hot, 0);
  ck_assert_uint_eq(t.hub, 7);
  ck_assert_uint_eq(t.long_rows, 64);
  ck_assert_int_eq(gr_tuning_parse(&t, "long-rows=auto"), GR_SUCCESS);
  ck_assert_uint_eq(t.long_rows, GR_LONG_ROWS_AUTO);
  ck_assert_int_eq(gr_tuning_parse(&t, "long-rows=0"), GR_SUCCESS);
  ck_assert_uint_eq(t.long_rows, 0);
  ck_assert_int_eq(gr_tuning_parse(&t, "relabel=on,hot=1024"), GR_SUCCESS);
  ck_assert_int_eq(t.relabel, GR_SORT_ON);
  ck_assert_uint_eq(t.hot, 1024);
  ck_assert_int_eq(gr_tuning_parse(&t, "relabel=yes"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(t.walk_stage, GR_SORT_AUTO);
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=on"), GR_SUCCESS);
  ck_assert_int_eq(t.walk_stage, GR_SORT_ON);
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=off"), GR_SUCCESS);
  ck_assert_int_eq(t.walk_stage, GR_SORT_OFF);
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=auto"), GR_SUCCESS);
  ck_assert_int_eq(t.walk_stage, GR_SORT_AUTO);
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=1"), GR_ERR_INVALID_ARG);
  ck_assert(!t.bc_log);
  ck_assert_int_eq(gr_tuning_parse(&t, "bc-counts=log"), GR_SUCCESS);
  ck_assert(t.bc_log);
  ck_assert_int_eq(gr_tuning_parse(&t, "bc-counts=double"), GR_ERR_INVALID_ARG);
  ck_assert(t.bc_log);
  ck_assert_int_eq(gr_tuning_parse(&t, "bc-counts=auto"), GR_SUCCESS);
  ck_assert(!t.bc_log);
  ck_assert(t.sssp_heavy_once);
  ck_assert_int_eq(gr_tuning_parse(&t, "sssp-heavy=always"), GR_SUCCESS);
  ck_assert(!t.sssp_heavy_once);
  ck_assert_int_eq(gr_tuning_parse(&t, "sssp-heavy=never"), GR_ERR_INVALID_ARG);
  ck_assert(!t.sssp_heavy_once);
  ck_assert_int_eq(gr_tuning_parse(&t, "sssp-heavy=once"), GR_SUCCESS);
  ck_assert(t.sssp_heavy_once);
  check_count(&t, &t.sssp_tail, "sssp-tail", 16, 64, "often");
  check_count(&t, &t.sssp_early, "sssp-early", 16384, 7, "-1");
  check_switch(&t, &t.sssp_peers, "sssp-peers", false, "maybe");
  check_switch(&t, &t.owner_words, "owner-words", true, "whole");
  check_switch(&t, &t.cc_one_label, "cc-one-label", true, "some");
  check_count(&t, &t.pull_try, "pull-try", 8, 3, "some");
  /* auto copies where the 4-byte states take 8x the L2 or more (n at least
   * twice the L2's bytes) and memory is slower than 4 TB/s; an unknown L2
   * or bandwidth (0) never; on and off whatever the device. */
  const uint64_t l2 = 50u << 20, h100 = UINT64_C(3352320000000), h200 = UINT64_C(4915200000000);
  ck_assert(gr_tuning_walk_stage(&t, 2 * l2, l2, h100));
  ck_assert(!gr_tuning_walk_stage(&t, 2 * l2 - 1, l2, h100));
  ck_assert(!gr_tuning_walk_stage(&t, 2 * l2, l2, h200));
  ck_assert(gr_tuning_walk_stage(&t, 2 * l2, l2, GR_WALK_STAGE_BANDWIDTH - 1));
  ck_assert(!gr_tuning_walk_stage(&t, 2 * l2, l2, GR_WALK_STAGE_BANDWIDTH));
  ck_assert(!gr_tuning_walk_stage(&t, UINT64_MAX, 0, h100));
  ck_assert(!gr_tuning_walk_stage(&t, UINT64_MAX, l2, 0));
  ck_assert(!gr_tuning_walk_stage(&t, 0, 0, 0));
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=on"), GR_SUCCESS);
  ck_assert(gr_tuning_walk_stage(&t, 1, 0, 0));
  ck_assert_int_eq(gr_tuning_parse(&t, "walk-stage=off"), GR_SUCCESS);
  ck_assert(!gr_tuning_walk_stage(&t, 2 * l2, l2, h100));
}
END_TEST

START_TEST(tuning_counts_are_digits_only_and_a_refusal_changes_nothing) {
  const gr_tuning init = GR_TUNING_INIT;
  gr_tuning t = init;
  /* strtoull took " -5" (as 2^64 - 5), "+5", " 5" and wrapped silently
   * only where errno was not checked; all are refused now. */
  const char *bad[] = {"small-vertices= -5", "small-vertices=+5", "small-edges= 5", "small-degree=5 ",
                       "small-degree=18446744073709551616", "pull-light=0", "pull-light=0x10", "small-edges=", "hot=-1",
                       "hub=4k", "long-rows=-1", "long-rows=18446744073709551615", "long-rows=Auto",
                       "pull-try=-1", "pull-try= 8"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_msg(gr_tuning_parse(&t, bad[i]) == GR_ERR_INVALID_ARG, "'%s' was taken", bad[i]);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "--tune"));
  }
  ck_assert_int_eq(gr_tuning_parse(&t, "advance=serial,small-edges=-1"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(t.advance, init.advance);
  ck_assert_uint_eq(t.small_edges, init.small_edges);
}
END_TEST

START_TEST(memory_policy_factor_is_a_plain_decimal) {
  gr_mem_policy p = GR_MEM_POLICY_INIT;
  ck_assert_int_eq(gr_mem_policy_parse(&p, "prealloc:1.5"), GR_SUCCESS);
  ck_assert_int_eq(p.kind, GR_MEM_PREALLOC);
  ck_assert_double_eq(p.factor, 1.5);
  ck_assert_int_eq(gr_mem_policy_parse(&p, "max"), GR_SUCCESS);
  ck_assert_int_eq(p.kind, GR_MEM_MAX);
  /* strtod took the blank and the hexadecimal factor (0x10 = 16). */
  const char *bad[] = {"prealloc: 2", "prealloc:0x10", "prealloc:+2", "prealloc:2 ", "prealloc:0.5", "prealloc:65",
                       "prealloc:inf", "prealloc:", "huge"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(gr_mem_policy_parse(&p, bad[i]) == GR_ERR_INVALID_ARG, "'%s' was taken", bad[i]);
  ck_assert_int_eq(p.kind, GR_MEM_MAX);
}
END_TEST

int main(void) {
  Suite *s = suite_create("operators");
  TCase *tc = tcase_create("cpu");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, push_outputs_each_unvisited_neighbour_once, 0, 2);
  tcase_add_loop_test(tc, pull_finds_a_frontier_parent_for_each_reachable_vertex, 0, 2);
  tcase_add_loop_test(tc, pull_stops_at_the_first_parent, 0, 2);
  tcase_add_loop_test(tc, pull_over_candidates_in_any_order_takes_only_them, 0, 2);
  tcase_add_test(tc, filter_keeps_matching_items_and_culls_duplicates);
  tcase_add_test(tc, filter_without_a_list_takes_every_id);
  tcase_add_test(tc, split_sends_each_item_to_its_class);
  tcase_add_test(tc, split_counts_past_a_full_output);
  tcase_add_test(tc, split_takes_a_range_then_a_list);
  tcase_add_test(tc, split_reads_its_size_and_leaves_its_counts_on_the_device);
  tcase_add_loop_test(tc, levels_run_breadth_first_until_a_limit, 0, 2);
  tcase_add_loop_test(tc, levels_keep_a_trail_and_stop_on_a_flag, 0, 2);
  tcase_add_test(tc, for_each_visits_every_vertex_or_every_item);
  tcase_add_test(tc, queue_bitmap_round_trip_sorts_and_keeps_the_set);
  tcase_add_test(tc, bitmap_or_sets_each_word_to_the_union);
  tcase_add_test(tc, ids_map_through_a_table);
  tcase_add_test(tc, frontier_rejects_ids_outside_its_universe);
  tcase_add_test(tc, advance_refuses_to_overflow_its_output);
  suite_add_tcase(s, tc);
  TCase *args = tcase_create("arguments");
  tcase_add_test(args, tuning_parses_every_key);
  tcase_add_test(args, tuning_counts_are_digits_only_and_a_refusal_changes_nothing);
  tcase_add_test(args, memory_policy_factor_is_a_plain_decimal);
  suite_add_tcase(s, args);
  return gr_test_run_suite(s, 0);
}
