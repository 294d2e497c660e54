/* SPDX-License-Identifier: Apache-2.0 */
/* Binary CSR format: save/load round trips (directed, undirected, weights,
 * id maps), mapped arrays 64-byte aligned, detection of truncated, corrupt
 * and foreign files, contents no build makes behind matching checksums
 * (unsorted rows, a wrong self-loop count, an undirected graph without
 * reverse arcs), load options applied to a binary graph, and the Matrix
 * Market writer (round trip through a file, lower triangle, weights). */
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "graph_internal.h"
#include "graph_test.h"

static void flip_byte(const char *path, long at) {
  int fd = open(path, O_RDWR);
  ck_assert_int_ge(fd, 0);
  unsigned char b = 0;
  ck_assert_int_eq(pread(fd, &b, 1, at), 1);
  b ^= 0x5a;
  ck_assert_int_eq(pwrite(fd, &b, 1, at), 1);
  close(fd);
}

static long file_size(const char *path) {
  struct stat s;
  ck_assert_int_eq(stat(path, &s), 0);
  return (long)s.st_size;
}

/* A directed, weighted graph with sparse ids and a self-loop. */
static gr_graph *sample_graph(void) {
  gr_load_options o = gt_options();
  return gt_load_text("sample.txt", "10 20 1.5\n20 30 2\n30 10 -4\n30 30 7\n10 30 0.25\n", &o);
}

/* ---- round trip --------------------------------------------------------------- */

START_TEST(binary_round_trip_keeps_csr_weights_and_id_map) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("sample.grb");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  ck_assert(gr_graph_is_directed(h));
  ck_assert(gr_graph_has_weights(h));
  ck_assert_uint_eq(gr_graph_num_edges(h), 5);
  ck_assert_uint_eq(gr_graph_original_id(h, 2), 30);
  gr_vid v = 0;
  ck_assert_int_eq(gr_graph_find_vertex(h, 20, &v), GR_SUCCESS);
  ck_assert_uint_eq(v, 1);
  ck_assert_str_eq(gr_graph_name(h), strrchr(path, '/') + 1);
  ck_assert(!gr_graph_from_cache(h));
  /* The in-edges of a mapped graph are built like any other. */
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(h, &in), GR_SUCCESS);
  ck_assert_str_eq(gt_csr_text(in, true), "0:2(-4) 1:0(1.5) 2:0(0.25),1(2),2(7)");
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(binary_round_trip_keeps_undirected_edge_count) {
  gr_load_options o = gt_options();
  o.self_loops = GR_CLEAN_KEEP;
  gr_graph *g = gt_load_text("und.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 1\n", &o);
  const char *path = gt_scratch("und.grb");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_graph *h = gt_load_path(path, &o);
  ck_assert(!gr_graph_is_directed(h));
  ck_assert_uint_eq(gr_graph_num_edges(h), 3);
  ck_assert_uint_eq(gr_graph_num_arcs(h), 5);
  ck_assert_uint_eq(gr_graph_original_id(h, 0), 1);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(binary_arrays_are_mapped_64_byte_aligned) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("align.grb");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  const gr_csr *c = gr_graph_out(h);
  ck_assert_uint_eq((uintptr_t)c->offsets % 64, 0);
  ck_assert_uint_eq((uintptr_t)c->indices % 64, 0);
  ck_assert_uint_eq((uintptr_t)c->weights % 64, 0);
  /* Mapped privately: writing changes this process's view only. */
  c->weights[0] = 99.0f;
  gr_graph *k = gt_load_path(path, &o);
  ck_assert_float_ne(gr_graph_out(k)->weights[0], 99.0f);
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
  gr_graph_destroy(&k);
}
END_TEST

START_TEST(binary_is_found_by_format_option_or_content) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("graph.bin");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&h);
  o.format = GR_FORMAT_BINARY;
  h = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&h);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(binary_save_over_its_own_mapped_file_works) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("self.grb");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  ck_assert_int_eq(gr_graph_save_binary(h, path), GR_SUCCESS);
  gr_graph *k = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(k));
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
  gr_graph_destroy(&k);
}
END_TEST

START_TEST(binary_save_to_a_missing_folder_is_an_io_error) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("no-such-folder/x.grb");
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_ERR_IO);
  ck_assert(strstr(gr_error_message(), "cannot create") != NULL);
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_ERR_IO);
  ck_assert(strstr(gr_error_message(), "cannot create") != NULL);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- corruption ---------------------------------------------------------------- */

static const char *saved_sample(const char *name) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch(name);
  ck_assert_int_eq(gr_graph_save_binary(g, path), GR_SUCCESS);
  gr_graph_destroy(&g);
  return path;
}

START_TEST(binary_truncated_file_is_bad_input) {
  const char *path = saved_sample("trunc.grb");
  ck_assert_int_eq(truncate(path, file_size(path) - 64), 0);
  gr_load_options o = gt_options();
  gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "truncated or extended file");
  ck_assert_int_eq(truncate(path, 100), 0);
  gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "truncated binary graph");
}
END_TEST

START_TEST(binary_flipped_array_byte_is_bad_input) {
  const char *path = saved_sample("flip.grb");
  /* The offsets start right after the 256-byte header. */
  flip_byte(path, 256 + 9);
  gr_load_options o = gt_options();
  gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "checksum mismatch in the offsets");
  /* Then the indices, at the next 64-byte boundary after 4 offsets. */
  const char *w = saved_sample("flip-i.grb");
  flip_byte(w, 256 + 64 + 1);
  gt_load_fails_path(w, &o, GR_ERR_BAD_INPUT, "checksum mismatch in the indices");
}
END_TEST

START_TEST(binary_flipped_header_byte_is_bad_input) {
  const char *path = saved_sample("head.grb");
  flip_byte(path, 40);
  gr_load_options o = gt_options();
  gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "corrupt header");
}
END_TEST

START_TEST(binary_foreign_file_is_bad_input) {
  gr_load_options o = gt_options();
  char text[600];
  memset(text, 'x', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  gt_load_fails_path(gt_write("text.grb", text), &o, GR_ERR_BAD_INPUT, "is not a gr binary graph");
  gt_load_fails_path(gt_write("tiny.grb", "GRCSR"), &o, GR_ERR_BAD_INPUT, "truncated binary graph");
}
END_TEST

/* ---- contents behind matching checksums ---------------------------------------
 * A file whose checksums match can still hold arrays no build makes; the
 * reader refuses them. Each case edits a saved file through its mapping
 * (where the loaded graph's arrays lie) and re-seals it (gr__binary_seal). */

typedef struct edited {
  const char *path;
  unsigned char *bytes;
  size_t len;
  size_t indices, weights; /* file offsets of the arrays */
} edited;

static edited edit_saved(gr_graph *g, const char *name) {
  edited x = {gt_scratch(name), NULL, 0, 0, 0};
  ck_assert_int_eq(gr_graph_save_binary(g, x.path), GR_SUCCESS);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(x.path, &o);
  ck_assert_ptr_nonnull(h->map);
  x.indices = (size_t)((char *)h->out.indices - (char *)h->map);
  x.weights = h->out.weights ? (size_t)((char *)h->out.weights - (char *)h->map) : 0;
  gr_graph_destroy(&h);
  FILE *f = fopen(x.path, "rb");
  ck_assert_ptr_nonnull(f);
  x.len = (size_t)file_size(x.path);
  x.bytes = malloc(x.len);
  ck_assert_uint_eq(fread(x.bytes, 1, x.len, f), x.len);
  fclose(f);
  return x;
}

static void edit_store(edited *x) {
  ck_assert_int_eq(gr__binary_seal(x->bytes, x->len), GR_SUCCESS);
  FILE *f = fopen(x->path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(x->bytes, 1, x->len, f), x->len);
  fclose(f);
  free(x->bytes);
  x->bytes = NULL;
}

static gr_vid *edit_index(edited *x, size_t e) { return (gr_vid *)(void *)(x->bytes + x->indices) + e; }
static gr_weight *edit_weight(edited *x, size_t e) { return (gr_weight *)(void *)(x->bytes + x->weights) + e; }

START_TEST(binary_sealed_copy_loads_unchanged) {
  /* The edit helpers alone change nothing: the control for the cases below. */
  gr_graph *g = sample_graph();
  edited x = edit_saved(g, "same.grb");
  edit_store(&x);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(x.path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(binary_rows_out_of_order_are_bad_input) {
  /* sample_graph's row 2 (original id 30) is 0,2 with weights -4, 7. */
  gr_graph *g = sample_graph();
  edited x = edit_saved(g, "order.grb");
  const gr_eid r2 = gr_graph_out(g)->offsets[2];
  gr_vid t = *edit_index(&x, r2);
  *edit_index(&x, r2) = *edit_index(&x, r2 + 1);
  *edit_index(&x, r2 + 1) = t;
  edit_store(&x);
  gr_load_options o = gt_options();
  gt_load_fails_path(x.path, &o, GR_ERR_BAD_INPUT, "rows not sorted");
  gr_graph_destroy(&g);
}
END_TEST

/* sample_graph saved with arc `arc` of row 2 (original id 30: arcs to 0
 * and 2, the second its self-loop) pointing to `to`: the load fails with
 * `message`. */
static void row2_arc_edit_fails(const char *file, gr_eid arc, gr_vid to, const char *message) {
  gr_graph *g = sample_graph();
  edited x = edit_saved(g, file);
  *edit_index(&x, gr_graph_out(g)->offsets[2] + arc) = to;
  edit_store(&x);
  gr_load_options o = gt_options();
  gt_load_fails_path(x.path, &o, GR_ERR_BAD_INPUT, message);
  gr_graph_destroy(&g);
}

START_TEST(binary_neighbour_ids_out_of_range_are_bad_input) {
  /* Row 2's first arc (to 0) now names vertex n (3): out of range, and out
   * of order too (its next arc is 2); the range is what the error names. */
  row2_arc_edit_fails("range.grb", 0, 3, "1 neighbour ids out of range");
}
END_TEST

START_TEST(binary_duplicate_arcs_out_of_weight_order_are_bad_input) {
  /* Directed graphs keep duplicates, ordered by weight. */
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("dups.txt", "1 2 5\n1 2 3\n2 1 1\n", &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(3),1(5) 1:0(1)");
  edited x = edit_saved(g, "dups.grb");
  *edit_weight(&x, 0) = 5;
  *edit_weight(&x, 1) = 3;
  edit_store(&x);
  gt_load_fails_path(x.path, &o, GR_ERR_BAD_INPUT, "rows not sorted");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(binary_wrong_self_loop_count_is_bad_input) {
  gr_graph *g = sample_graph();
  ck_assert_uint_eq(gr_graph_num_self_loops(g), 1);
  gr_graph_destroy(&g);
  /* The self-loop 30 -> 30 (row 2, second arc) now points to vertex 1. */
  row2_arc_edit_fails("loops.grb", 1, 1, "1 self-loops, the arrays hold 0");
}
END_TEST

START_TEST(binary_undirected_arc_without_its_reverse_is_bad_input) {
  /* An undirected path 1-2-3: arcs 0->1, 1->0, 1->2, 2->1. Turning 2->1
   * into 2->0 keeps every row sorted and in range, but 0->2 is missing.
   * Before this check such a file crashed multi-device runs with 1-hop
   * proxies (an unmapped neighbour id read past a device's arrays). */
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("path.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1");
  edited x = edit_saved(g, "asym.grb");
  *edit_index(&x, 3) = 0;
  edit_store(&x);
  gt_load_fails_path(x.path, &o, GR_ERR_BAD_INPUT, "not all paired with a reverse arc");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(binary_undirected_weights_that_differ_by_direction_are_bad_input) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("wpath.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 2 2\n", &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(0.5) 1:0(0.5),2(2) 2:1(2)");
  edited x = edit_saved(g, "wasym.grb");
  *edit_weight(&x, 3) = 3;
  edit_store(&x);
  gt_load_fails_path(x.path, &o, GR_ERR_BAD_INPUT, "not all paired with a reverse arc of the same weight");
  gr_graph_destroy(&g);
}
END_TEST

/* ---- options on binary graphs ------------------------------------------------- */

START_TEST(binary_load_applies_undirected_and_weight_options) {
  const char *path = saved_sample("opts.grb");
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *h = gt_load_path(path, &o);
  gr_graph *t = gt_load_text("sample2.txt", "10 20 1.5\n20 30 2\n30 10 -4\n30 30 7\n10 30 0.25\n", &o);
  ck_assert(!gr_graph_is_directed(h));
  gt_csr_equal(gr_graph_out(h), gr_graph_out(t));
  ck_assert_uint_eq(gr_graph_original_id(h, 2), 30);
  gr_graph_destroy(&h);
  gr_graph_destroy(&t);

  o = gt_options();
  o.weights.kind = GR_WEIGHTS_NONE;
  h = gt_load_path(path, &o);
  ck_assert(!gr_graph_has_weights(h));
  gr_graph_destroy(&h);

  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, "random:100:200"), GR_SUCCESS);
  h = gt_load_path(path, &o);
  const gr_csr *c = gr_graph_out(h);
  for (gr_eid e = 0; e < c->m; e++) ck_assert(c->weights[e] >= 100.0f && c->weights[e] <= 200.0f);
  gr_graph_destroy(&h);

  o = gt_options();
  o.self_loops = GR_CLEAN_REMOVE;
  h = gt_load_path(path, &o);
  ck_assert_uint_eq(gr_graph_num_arcs(h), 4);
  ck_assert_uint_eq(gt_self_loops(gr_graph_out(h)), 0);
  gr_graph_destroy(&h);
}
END_TEST

/* ---- Matrix Market writer ------------------------------------------------------ */

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  char *buf = calloc(1, 1 << 16);
  ck_assert_ptr_nonnull(buf);
  size_t n = fread(buf, 1, (1 << 16) - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

START_TEST(mtx_writer_writes_directed_graphs_as_general) {
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("out.mtx");
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_SUCCESS);
  char *text = read_all(path);
  ck_assert(strncmp(text, "%%MatrixMarket matrix coordinate real general\n", 46) == 0);
  ck_assert(strstr(text, "\n3 3 5\n1 2 1.5\n1 3 0.25\n2 3 2\n3 1 -4\n3 3 7\n") != NULL);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  free(text);
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(mtx_writer_writes_undirected_graphs_as_lower_triangle) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("tri.txt", "0 1\n1 2\n2 0\n", &(gr_load_options){.undirected = true, .progress = -1});
  const char *path = gt_scratch("tri.mtx");
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_SUCCESS);
  char *text = read_all(path);
  ck_assert(strncmp(text, "%%MatrixMarket matrix coordinate pattern symmetric\n", 51) == 0);
  ck_assert(strstr(text, "\n3 3 3\n2 1\n3 1\n3 2\n") != NULL);
  gr_graph *h = gt_load_path(path, &o);
  ck_assert(!gr_graph_is_directed(h));
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  free(text);
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(mtx_writer_round_trips_weights_exactly) {
  gr_load_options o = gt_options();
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, "random:0:1"), GR_SUCCESS);
  o.undirected = true;
  gr_graph *g = gt_load_text("rw.txt", "0 1\n1 2\n2 3\n3 0\n0 2\n", &o);
  const char *path = gt_scratch("rw.mtx");
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_SUCCESS);
  gr_load_options p = gt_options();
  gr_graph *h = gt_load_path(path, &p);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

START_TEST(mtx_writer_compresses_gz_paths) {
#ifdef GR_HAVE_ZLIB
  gr_graph *g = sample_graph();
  const char *path = gt_scratch("out.mtx.gz");
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_SUCCESS);
  FILE *f = fopen(path, "rb");
  unsigned char magic[2] = {0, 0};
  ck_assert_uint_eq(fread(magic, 1, 2, f), 2);
  fclose(f);
  ck_assert(magic[0] == 0x1f && magic[1] == 0x8b);
  gr_load_options o = gt_options();
  gr_graph *h = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
#else
  fprintf(stderr, "skip: built without zlib\n");
#endif
}
END_TEST

static Suite *binary_suite(void) {
  Suite *s = suite_create("graph_binary_format");
  TCase *rt = gt_tcase("round_trip");
  tcase_add_test(rt, binary_round_trip_keeps_csr_weights_and_id_map);
  tcase_add_test(rt, binary_round_trip_keeps_undirected_edge_count);
  tcase_add_test(rt, binary_arrays_are_mapped_64_byte_aligned);
  tcase_add_test(rt, binary_is_found_by_format_option_or_content);
  tcase_add_test(rt, binary_save_over_its_own_mapped_file_works);
  tcase_add_test(rt, binary_save_to_a_missing_folder_is_an_io_error);
  suite_add_tcase(s, rt);

  TCase *bad = gt_tcase("corruption");
  tcase_add_test(bad, binary_truncated_file_is_bad_input);
  tcase_add_test(bad, binary_flipped_array_byte_is_bad_input);
  tcase_add_test(bad, binary_flipped_header_byte_is_bad_input);
  tcase_add_test(bad, binary_foreign_file_is_bad_input);
  suite_add_tcase(s, bad);

  TCase *sealed = gt_tcase("sealed_contents");
  tcase_add_test(sealed, binary_sealed_copy_loads_unchanged);
  tcase_add_test(sealed, binary_rows_out_of_order_are_bad_input);
  tcase_add_test(sealed, binary_neighbour_ids_out_of_range_are_bad_input);
  tcase_add_test(sealed, binary_duplicate_arcs_out_of_weight_order_are_bad_input);
  tcase_add_test(sealed, binary_wrong_self_loop_count_is_bad_input);
  tcase_add_test(sealed, binary_undirected_arc_without_its_reverse_is_bad_input);
  tcase_add_test(sealed, binary_undirected_weights_that_differ_by_direction_are_bad_input);
  suite_add_tcase(s, sealed);

  TCase *opts = gt_tcase("options");
  tcase_add_test(opts, binary_load_applies_undirected_and_weight_options);
  suite_add_tcase(s, opts);

  TCase *mtx = gt_tcase("mtx_writer");
  tcase_add_test(mtx, mtx_writer_writes_directed_graphs_as_general);
  tcase_add_test(mtx, mtx_writer_writes_undirected_graphs_as_lower_triangle);
  tcase_add_test(mtx, mtx_writer_round_trips_weights_exactly);
  tcase_add_test(mtx, mtx_writer_compresses_gz_paths);
  suite_add_tcase(s, mtx);
  return s;
}

int main(void) { return gr_test_run_suite(binary_suite(), 0); }
