/* SPDX-License-Identifier: Apache-2.0 */
/* gr_gen: generates a graph from a spec (kron, rmat, uniform, grid2d,
 * grid3d) and writes it as Matrix Market or gr's binary CSR format. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gr/gen.h"
#include "gr/graph.h"
#include "gr/status.h"
#include "gr/util.h"

enum { GR_GEN_EXIT_OK = 0, GR_GEN_EXIT_USAGE = 2, GR_GEN_EXIT_RUNTIME = 3 };

static void usage(FILE *f) {
  fprintf(f,
          "Usage: gr_gen [options] SPEC -o FILE\n"
          "Generates a graph and writes it to FILE.\n"
          "\n"
          "SPEC:\n"
          "  kron:SCALE[:EF][,a=A,b=B,c=C][,seed=S][,permute=0|1][,directed]\n"
          "      Kronecker/R-MAT graph of 2^SCALE vertices and EF*2^SCALE edges\n"
          "      (EF 16, a=0.57 b=0.19 c=0.19 as Graph500, seed 1, permute=1)\n"
          "  rmat:...                        the same as kron\n"
          "  uniform:SCALE[:EF][,seed=S][,directed]\n"
          "      uniform random graph of 2^SCALE vertices and EF*2^SCALE edges\n"
          "  grid2d:ROWSxCOLS                2D grid, 4-neighbourhood\n"
          "  grid3d:XxYxZ                    3D grid, 6-neighbourhood\n"
          "  Graphs are undirected unless the spec says directed; self-loops and\n"
          "  duplicate edges are removed from undirected graphs.\n"
          "\n"
          "Options:\n"
          "  -o, --output FILE   file to write (required)\n"
          "  -f, --format FMT    mtx or binary (default: from FILE's extension,\n"
          "                      .mtx for mtx, .grb for binary)\n"
          "  -s, --seed S        random seed, overriding the spec's (default: the\n"
          "                      spec's seed, 1 when it names none)\n"
          "  -t, --threads N     host threads (default: 0, all of them)\n"
          "  -w, --weights W     none or random:LO:HI (seeded, equal on both arcs of\n"
          "                      an edge; written as Matrix Market values; default: none)\n"
          "  -q, --quiet         print no summary line (default: print one)\n"
          "  -h, --help          print this help and exit\n"
          "\n"
          "Exit status: 0 success, 2 usage error or bad spec, 3 runtime failure\n"
          "(memory, input/output).\n");
}

/* Whole-string unsigned decimal; false on anything else or overflow. */
static bool parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s) return false;
  uint64_t v = 0;
  for (; *s; s++) {
    unsigned d = (unsigned)(unsigned char)*s - '0';
    if (d > 9 || v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* Whether the folder that will hold path exists and may be written to
 * (errno says why not). */
static bool writable_dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return access(".", W_OK) == 0;
  if (slash == path) return access("/", W_OK) == 0;
  char dir[4096];
  size_t len = (size_t)(slash - path);
  if (len >= sizeof dir) return true;
  memcpy(dir, path, len);
  dir[len] = '\0';
  return access(dir, W_OK) == 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"format", required_argument, NULL, 'f'},
                                           {"seed", required_argument, NULL, 's'},
                                           {"threads", required_argument, NULL, 't'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"weights", required_argument, NULL, 'w'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *output = NULL, *format = NULL;
  uint64_t seed = 0, threads = 0;
  bool has_seed = false, quiet = false;
  gr_weight_spec weights;
  memset(&weights, 0, sizeof weights);
  weights.kind = GR_WEIGHTS_NONE;
  int opt;
  while ((opt = getopt_long(argc, argv, "o:f:s:t:w:qh", longopts, NULL)) != -1) {
    switch (opt) {
      case 'o': output = optarg; break;
      case 'f': format = optarg; break;
      case 's':
        if (!parse_u64(optarg, &seed)) {
          fprintf(stderr, "gr_gen: --seed must be a whole number below 2^64, got '%s'\n", optarg);
          return GR_GEN_EXIT_USAGE;
        }
        has_seed = true;
        break;
      case 't':
        if (!parse_u64(optarg, &threads) || threads > 65536) {
          fprintf(stderr, "gr_gen: --threads must be a whole number from 0 to 65536, got '%s'\n",
                  optarg);
          return GR_GEN_EXIT_USAGE;
        }
        break;
      case 'q': quiet = true; break;
      case 'w':
        if (gr_weight_spec_parse(&weights, optarg) < 0 || weights.kind == GR_WEIGHTS_FILE) {
          fprintf(stderr, "gr_gen: --weights must be none or random:LO:HI, got '%s'\n", optarg);
          return GR_GEN_EXIT_USAGE;
        }
        break;
      case 'h': usage(stdout); return GR_GEN_EXIT_OK;
      default:
        fprintf(stderr, "Try 'gr_gen --help' for the options.\n");
        return GR_GEN_EXIT_USAGE;
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "gr_gen: missing SPEC (e.g. kron:20)\nTry 'gr_gen --help'.\n");
    return GR_GEN_EXIT_USAGE;
  }
  if (argc - optind > 1) {
    fprintf(stderr, "gr_gen: one SPEC expected, got '%s' and '%s'\n", argv[optind],
            argv[optind + 1]);
    return GR_GEN_EXIT_USAGE;
  }
  if (!output) {
    fprintf(stderr, "gr_gen: missing -o FILE\nTry 'gr_gen --help'.\n");
    return GR_GEN_EXIT_USAGE;
  }
  bool binary;
  if (format) {
    if (!strcmp(format, "mtx")) binary = false;
    else if (!strcmp(format, "binary")) binary = true;
    else {
      fprintf(stderr, "gr_gen: --format must be mtx or binary, got '%s'\n", format);
      return GR_GEN_EXIT_USAGE;
    }
  } else if (ends_with(output, ".mtx")) {
    binary = false;
  } else if (ends_with(output, ".grb")) {
    binary = true;
  } else {
    fprintf(stderr,
            "gr_gen: cannot tell the format from '%s': name it .mtx or .grb, or give --format\n",
            output);
    return GR_GEN_EXIT_USAGE;
  }

  gr_gen_spec spec;
  if (gr_gen_parse(&spec, argv[optind]) < 0) {
    fprintf(stderr, "gr_gen: %s\n", gr_error_message());
    return GR_GEN_EXIT_USAGE;
  }
  if (has_seed) spec.seed = seed;
  char text[256];
  gr_gen_format(&spec, text, sizeof text);
  /* A large graph takes minutes to make: find an unwritable destination
   * before, not after. */
  if (!writable_dir_of(output)) {
    fprintf(stderr, "gr_gen: cannot write %s: %s\n", output, strerror(errno));
    return GR_GEN_EXIT_RUNTIME;
  }

  int rc = GR_GEN_EXIT_OK;
  gr_graph *g = NULL;
  gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  lo.threads = (int)threads;
  lo.use_cache = false;
  lo.weights = weights;
  if (quiet) lo.progress = -1;
  const double t0 = gr_time_now();
  gr_status st = gr_gen_graph(&g, &spec, &lo);
  if (st < 0) {
    fprintf(stderr, "gr_gen: generating %s: %s\n", text, gr_error_message());
    rc = st == GR_ERR_INVALID_ARG ? GR_GEN_EXIT_USAGE : GR_GEN_EXIT_RUNTIME;
    goto cleanup;
  }
  const double t1 = gr_time_now();
  st = binary ? gr_graph_save_binary(g, output) : gr_graph_save_mtx(g, output);
  const double t2 = gr_time_now();
  if (st < 0) {
    fprintf(stderr, "gr_gen: writing %s: %s\n", output, gr_error_message());
    rc = GR_GEN_EXIT_RUNTIME;
    goto cleanup;
  }
  if (!quiet)
    printf("%s: %llu vertices, %llu edges, %.2f s (generate and build %.2f s, write %.2f s) -> %s\n",
           text, (unsigned long long)gr_graph_num_vertices(g),
           (unsigned long long)gr_graph_num_edges(g), t2 - t0, t1 - t0, t2 - t1, output);
cleanup:
  gr_graph_destroy(&g);
  return rc;
}
