/* SPDX-License-Identifier: Apache-2.0 */
/* gr_info: a graph's size and degrees and, with --packed, what its
 * neighbour lists take packed (gr/packed.h) against plain ids, for the out
 * CSR and, for a directed graph, the in CSC; the packed lists are decoded
 * and compared with the ids, so a wrong encoding fails the run. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/gen.h"
#include "gr/graph.h"
#include "gr/packed.h"
#include "gr/status.h"
#include "gr/util.h"

enum { GR_INFO_EXIT_OK = 0, GR_INFO_EXIT_USAGE = 2, GR_INFO_EXIT_RUNTIME = 3 };

static void usage(FILE *f) {
  fprintf(f,
          "Usage: gr_info [options] FILE\n"
          "       gr_info [options] --gen SPEC\n"
          "Prints a graph's vertices, arcs, degrees and the bytes of its neighbour ids;\n"
          "with --packed, also the size of the packed lists (payload of codes, a base\n"
          "id per 32-edge block, and the block index), the bytes per edge and the\n"
          "share saved against plain ids, for the out-CSR and, when the graph is\n"
          "directed, the in-CSC; and, for comparison, what byte-aligned varint\n"
          "differences with a row index would take.\n"
          "\n"
          "FILE: Matrix Market (.mtx, .mtx.gz), an edge list, or gr's binary .grb.\n"
          "\n"
          "Options:\n"
          "      --gen SPEC   generate the graph instead (kron:SCALE[:EF], uniform:...,\n"
          "                   grid2d:RxC, grid3d:XxYxZ; see gr_gen --help)\n"
          "      --packed     pack the lists, report their size and check they decode\n"
          "      --no-cache   do not read or write the binary load cache\n"
          "  -h, --help       print this help and exit\n"
          "\n"
          "Exit status: 0 success, 2 usage error, bad spec or unreadable graph file,\n"
          "3 runtime failure (memory, packed lists that do not decode).\n");
}

/* "12345 bytes (12.06 KiB)" */
static const char *bytes_text(char *buf, size_t len, uint64_t bytes) {
  char h[32];
  snprintf(buf, len, "%llu bytes (%s)", (unsigned long long)bytes, gr_format_bytes(h, sizeof h, bytes));
  return buf;
}

/* Bytes of an unsigned LEB128 varint (7 bits a byte). */
static unsigned varint_len(uint64_t x) {
  unsigned n = 1;
  while (x >= 0x80) {
    x >>= 7;
    n++;
  }
  return n;
}

/* What the byte-aligned alternative to packed lists would take: each
 * row's first id as a varint (its absolute id or its zig-zagged distance
 * to the row, whichever is shorter, the choice itself not counted), then
 * each next id's difference from the one before (zig-zagged where the row
 * is not sorted; differences modulo 2^GR_VID_BITS, as packed lists code
 * them), plus a row index like the packed block index: a 32-bit
 * byte offset per row relative to a 64-bit one every 512 rows. Without
 * the index a kernel could not find a row; even with it, edge e of a row
 * is found only by decoding the edges before it. */
typedef struct varint_size {
  uint64_t codes, index;
} varint_size;

static varint_size varint_size_of(const gr_csr *c) {
  varint_size r = {0, (uint64_t)c->n * 4 + ((uint64_t)c->n / 512 + 1) * 8};
  for (gr_vid v = 0; v < c->n; v++) {
    const gr_eid b = c->offsets[v], e = c->offsets[(size_t)v + 1];
    if (b == e) continue;
    const gr_vid first = c->indices[b];
    const unsigned a = varint_len(first), z = varint_len(gr_packed_zigzag((gr_vid)(first - v)));
    r.codes += a < z ? a : z;
    bool sorted = true;
    for (gr_eid i = b + 1; i < e && sorted; i++) sorted = c->indices[i] >= c->indices[i - 1];
    for (gr_eid i = b + 1; i < e; i++) {
      const gr_vid d = (gr_vid)(c->indices[i] - c->indices[i - 1]);
      r.codes += varint_len(sorted ? d : gr_packed_zigzag(d));
    }
  }
  return r;
}

/* Degrees, plain id bytes and, when asked, the packed sizes of one side
 * ("out" or "in"). Returns an exit code. */
static int report(const char *side, const gr_csr *c, bool packed) {
  gr_eid max = 0;
  for (gr_vid v = 0; v < c->n; v++)
    if (gr_csr_degree(c, v) > max) max = gr_csr_degree(c, v);
  const uint64_t plain = (uint64_t)c->m * sizeof(gr_vid);
  char b[96];
  printf("%s degree: max %llu, avg %.2f\n", side, (unsigned long long)max,
         c->n ? (double)c->m / (double)c->n : 0.0);
  printf("%s ids: %s, %u B/arc\n", side, bytes_text(b, sizeof b, plain), (unsigned)sizeof(gr_vid));
  if (!packed) return GR_INFO_EXIT_OK;

  int rc = GR_INFO_EXIT_OK;
  gr_packed p = GR_PACKED_INIT;
  gr_vid *back = NULL;
  const double t0 = gr_time_now();
  gr_status st = gr_packed_encode(&p, c);
  const double t1 = gr_time_now();
  if (st < 0) {
    fprintf(stderr, "gr_info: packing the %s lists: %s\n", side, gr_error_message());
    rc = GR_INFO_EXIT_RUNTIME;
    goto cleanup;
  }
  st = gr_host_alloc((void **)&back, (size_t)c->m * sizeof *back, "the decoded ids");
  if (st >= 0) st = gr_packed_decode_all(back, &p, c->offsets);
  const double t2 = gr_time_now();
  if (st < 0) {
    fprintf(stderr, "gr_info: decoding the packed %s lists: %s\n", side, gr_error_message());
    rc = GR_INFO_EXIT_RUNTIME;
    goto cleanup;
  }
  for (gr_eid e = 0; e < c->m; e++)
    if (back[e] != c->indices[e]) {
      fprintf(stderr, "gr_info: the packed %s lists decode edge %llu to %llu, not %llu\n", side,
              (unsigned long long)e, (unsigned long long)back[e], (unsigned long long)c->indices[e]);
      rc = GR_INFO_EXIT_RUNTIME;
      goto cleanup;
    }
  const gr_packed_sizes s = gr_packed_get_sizes(&p);
  const double per = c->m ? (double)s.total / (double)c->m : 0.0;
  const double saved = plain ? 100.0 * (1.0 - (double)s.total / (double)plain) : 0.0;
  printf("%s packed: %s, %.3f B/arc, %.1f%% saved; codes %llu, bases %llu, index %llu bytes; "
         "encode %.1f ms, decode %.1f ms\n",
         side, bytes_text(b, sizeof b, s.total), per, saved, (unsigned long long)s.codes,
         (unsigned long long)s.bases, (unsigned long long)s.index, 1e3 * (t1 - t0), 1e3 * (t2 - t1));
  const varint_size vs = varint_size_of(c);
  const uint64_t vt = vs.codes + vs.index;
  printf("%s varint: %s, %.3f B/arc, %.1f%% saved; codes %llu, row index %llu bytes\n", side,
         bytes_text(b, sizeof b, vt), c->m ? (double)vt / (double)c->m : 0.0,
         plain ? 100.0 * (1.0 - (double)vt / (double)plain) : 0.0, (unsigned long long)vs.codes,
         (unsigned long long)vs.index);
cleanup:
  gr_host_free(back);
  gr_packed_free(&p);
  return rc;
}

int main(int argc, char **argv) {
  enum { OPT_GEN = 256, OPT_PACKED, OPT_NO_CACHE };
  static const struct option longopts[] = {{"gen", required_argument, NULL, OPT_GEN},
                                           {"packed", no_argument, NULL, OPT_PACKED},
                                           {"no-cache", no_argument, NULL, OPT_NO_CACHE},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *gen = NULL;
  bool packed = false;
  gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  int opt;
  while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (opt) {
      case OPT_GEN: gen = optarg; break;
      case OPT_PACKED: packed = true; break;
      case OPT_NO_CACHE: lo.use_cache = false; break;
      case 'h': usage(stdout); return GR_INFO_EXIT_OK;
      default:
        fprintf(stderr, "Try 'gr_info --help' for the options.\n");
        return GR_INFO_EXIT_USAGE;
    }
  }
  const int files = argc - optind;
  if ((gen && files > 0) || (!gen && files != 1)) {
    fprintf(stderr, "gr_info: give one graph FILE or --gen SPEC\nTry 'gr_info --help'.\n");
    return GR_INFO_EXIT_USAGE;
  }

  int rc = GR_INFO_EXIT_OK;
  gr_graph *g = NULL;
  gr_status st;
  if (gen) {
    gr_gen_spec spec;
    st = gr_gen_parse(&spec, gen);
    if (st >= 0) st = gr_gen_graph(&g, &spec, &lo);
  } else {
    st = gr_graph_load(&g, argv[optind], &lo);
  }
  if (st < 0) {
    /* The message names the file or the spec and the problem. */
    fprintf(stderr, "gr_info: %s\n", gr_error_message());
    rc = st == GR_ERR_HOST_OOM ? GR_INFO_EXIT_RUNTIME : GR_INFO_EXIT_USAGE;
    goto cleanup;
  }
  const bool directed = gr_graph_is_directed(g);
  printf("graph: %s (%s%s)\n", gr_graph_name(g), directed ? "directed" : "undirected",
         gr_graph_has_weights(g) ? ", weighted" : "");
  printf("vertices: %llu\n", (unsigned long long)gr_graph_num_vertices(g));
  printf("arcs: %llu\n", (unsigned long long)gr_graph_num_arcs(g));
  rc = report("out", gr_graph_out(g), packed);
  if (rc == GR_INFO_EXIT_OK && directed) {
    const gr_csr *in = NULL;
    st = gr_graph_in(g, &in);
    if (st < 0) {
      fprintf(stderr, "gr_info: building the in-edges: %s\n", gr_error_message());
      rc = GR_INFO_EXIT_RUNTIME;
      goto cleanup;
    }
    rc = report("in", in, packed);
  }
cleanup:
  gr_graph_destroy(&g);
  return rc;
}
