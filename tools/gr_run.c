/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run: loads or generates a graph, runs a primitive on one or more devices
 * (GPUs, or CPU devices with --cpu), validates against the CPU reference and
 * reports. Exit codes: 0 ok; 1 validation failed; 2 usage or bad input;
 * 3 runtime failure (device, memory). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "gr/log.h"
#include "gr/subgraph.h"
#include "gr/util.h"
#include "partitioner.h"
#include "registry.h"
#include "run_report.h"
#include "subgraph_builder.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

typedef enum { SRC_ID, SRC_RANDOM, SRC_MAX_DEGREE } src_kind;

typedef struct run_options {
  const char *primitive;
  int gpus;
  bool gpus_given;
  bool cpu;
  int cpu_threads;
  src_kind src;
  bool src_given;
  unsigned long long src_id;
  unsigned long long sources; /* --sources K; 0: one source per run */
  bool sources_all;
  int runs;
  unsigned long long seed;
  bool validate;
  bool validate_first;
  const char *json;
  const char *out;
  const char *gen;
  const char *file;
  bool quiet;
  gr_prim_options popts;
  gr_load_options load;
  gr_mem_policy mem;
  gr_partition_options part;
  const char *proxy;     /* NULL: auto (chosen from the partition) */
  const char *comm;      /* NULL: the primitive's default */
  gr_transport_kind transport;
  gr_comm_format comm_format;
  bool timeline;
} run_options;

enum {
  OPT_CPU = 256,
  OPT_CPU_THREADS,
  OPT_SRC,
  OPT_RUNS,
  OPT_SEED,
  OPT_VALIDATE,
  OPT_JSON,
  OPT_OUT,
  OPT_UNDIRECTED,
  OPT_GEN,
  OPT_QUIET,
  OPT_MARK_PRED,
  OPT_SELF_LOOPS,
  OPT_DUPLICATES,
  OPT_WEIGHTS,
  OPT_NO_CACHE,
  OPT_CACHE_DIR,
  OPT_PROGRESS,
  OPT_MAX_ITER,
  OPT_MEM,
  OPT_FORMAT,
  OPT_PARTITIONER,
  OPT_PROXY,
  OPT_COMM,
  OPT_TRANSPORT,
  OPT_COMM_FORMAT,
  OPT_BIAS,
  OPT_TUNE,
  OPT_VALIDATE_FIRST,
  OPT_DIRECTION,
  OPT_DO_A,
  OPT_DO_B,
  OPT_TIMELINE,
  OPT_DELTA,
  OPT_TOLERANCE,
  OPT_SOURCES,
  OPT_NORMALIZE,
  OPT_VERSION
};

static const struct option long_options[] = {
    {"primitive", required_argument, NULL, 'p'},
    {"gpus", required_argument, NULL, 'g'},
    {"cpu", no_argument, NULL, OPT_CPU},
    {"cpu-threads", required_argument, NULL, OPT_CPU_THREADS},
    {"src", required_argument, NULL, OPT_SRC},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"validate", no_argument, NULL, OPT_VALIDATE},
    {"json", required_argument, NULL, OPT_JSON},
    {"out", required_argument, NULL, OPT_OUT},
    {"undirected", no_argument, NULL, OPT_UNDIRECTED},
    {"gen", required_argument, NULL, OPT_GEN},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"mark-pred", no_argument, NULL, OPT_MARK_PRED},
    {"self-loops", required_argument, NULL, OPT_SELF_LOOPS},
    {"duplicates", required_argument, NULL, OPT_DUPLICATES},
    {"weights", required_argument, NULL, OPT_WEIGHTS},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"max-iter", required_argument, NULL, OPT_MAX_ITER},
    {"mem", required_argument, NULL, OPT_MEM},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"partitioner", required_argument, NULL, OPT_PARTITIONER},
    {"proxy", required_argument, NULL, OPT_PROXY},
    {"comm", required_argument, NULL, OPT_COMM},
    {"transport", required_argument, NULL, OPT_TRANSPORT},
    {"comm-format", required_argument, NULL, OPT_COMM_FORMAT},
    {"bias", required_argument, NULL, OPT_BIAS},
    {"tune", required_argument, NULL, OPT_TUNE},
    {"validate-first", no_argument, NULL, OPT_VALIDATE_FIRST},
    {"direction", required_argument, NULL, OPT_DIRECTION},
    {"do-a", required_argument, NULL, OPT_DO_A},
    {"do-b", required_argument, NULL, OPT_DO_B},
    {"timeline", no_argument, NULL, OPT_TIMELINE},
    {"delta", required_argument, NULL, OPT_DELTA},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"sources", required_argument, NULL, OPT_SOURCES},
    {"normalize", no_argument, NULL, OPT_NORMALIZE},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

static void usage(FILE *f) {
  fprintf(f,
          "usage: gr_run [options] FILE\n"
          "       gr_run [options] --gen SPEC\n"
          "\n"
          "Runs a graph primitive on GPUs (or CPU devices) and reports times, GTEPS and memory.\n"
          "\n"
          "Primitive and devices:\n"
          "  -p, --primitive NAME   primitive to run (default: bfs); one of:");
  for (const gr_primitive *const *p = gr_primitive_list(); *p; p++) fprintf(f, " %s", (*p)->name);
  fprintf(f,
          "\n"
          "  -g, --gpus N           number of devices (default: 1)\n"
          "      --cpu              run on CPU devices instead of GPUs (default: GPUs when\n"
          "                         present, else the CPU backend)\n"
          "      --cpu-threads N    threads per CPU device (default: host threads / devices)\n"
          "      --mem POLICY       buffer growth: just-enough, prealloc:FACTOR or max\n"
          "                         (default: just-enough)\n"
          "      --tune K=V[,K=V]   operator variants, for comparing them (defaults: the\n"
          "                         fastest measured):\n"
          "                         advance=chunked|serial|twc|auto (edge-balanced\n"
          "                         with a chunk pre-pass or a per-block search,\n"
          "                         thread/warp/block per vertex, or chosen per level),\n"
          "                         pull=hybrid|warp (thread or warp per pull candidate),\n"
          "                         pull-light=64 (hybrid: most in-edges a thread takes),\n"
          "                         small=on|off (device-side loop over small frontiers),\n"
          "                         small-vertices=16384, small-edges=131072,\n"
          "                         small-degree=512, visited=bitmap|state (test a\n"
          "                         visited bitmap before the per-vertex state),\n"
          "                         status=atomic|idempotent (claim vertices with\n"
          "                         compare-and-swap, or without and cull duplicates)\n"
          "\n"
          "Several devices (--gpus N > 1, GPUs or with --cpu CPU devices):\n"
          "      --partitioner P    random, biased, metis, static or range (default: random)\n"
          "      --bias F           biased: weight of the balance term against neighbours\n"
          "                         (default: 0.5)\n"
          "      --proxy M          auto, all (duplicate-all) or 1hop (duplicate-1-hop)\n"
          "                         (default: auto: 1hop under selective exchange when\n"
          "                         each device then holds at most half the vertices)\n"
          "      --comm M           selective or broadcast (default: the primitive's)\n"
          "      --transport T      auto, host, p2p or nccl (default: auto: host for CPU\n"
          "                         devices, p2p for GPUs)\n"
          "      --comm-format F    broadcast packages of BFS/DOBFS depths: list, bitmap\n"
          "                         (one bit per vertex and the depth) or auto (the\n"
          "                         smaller, per iteration; default)\n"
          "\n"
          "Runs:\n"
          "      --src S            source vertex: an ID as in the input file, random or\n"
          "                         max-degree (default: random, a vertex with out-edges)\n"
          "      --runs N           number of runs, each from the next source of the seeded\n"
          "                         sequence (default: 1)\n"
          "      --seed S           seed for sources, generators and random weights (default: 1)\n"
          "      --mark-pred        record predecessors (bfs, dobfs, sssp)\n"
          "      --direction D      dobfs, pr: auto, push or pull (default: auto; pr: pull on\n"
          "                         one device and under broadcast, push otherwise)\n"
          "      --do-a F           dobfs: push -> pull when the frontier's edges exceed the\n"
          "                         unvisited part's edges / F (default: 15)\n"
          "      --do-b F           dobfs: pull -> push when the frontier shrinks to at most\n"
          "                         vertices / F (default: 18)\n"
          "      --delta D          sssp: bucket width, a positive number or auto (32 x mean\n"
          "                         weight / mean out-degree; default: auto)\n"
          "      --tolerance T      pr: stop when the L1 change of the ranks falls below T\n"
          "                         (default: 1e-4)\n"
          "      --sources K|all    bc: each run sums the dependencies from K distinct sources\n"
          "                         of the seeded sequence (an estimate), or from every vertex\n"
          "                         (exact; prints an estimate of the time first when long)\n"
          "                         (default: one source per run, as --src says)\n"
          "      --normalize        bc: scale the sums to all sources and divide by the\n"
          "                         (n-1)(n-2) pairs of other vertices (networkx's\n"
          "                         normalized betweenness)\n"
          "      --max-iter N       stop after N iterations (default: 0, no limit; pr: 100)\n"
          "      --validate         check every run against the CPU reference\n"
          "      --validate-first   check the first run only (benchmarks)\n"
          "\n"
          "Input:\n"
          "      FILE               .mtx, .mtx.gz, edge list (.txt, .el, .csv, .gz) or .grb\n"
          "      --gen SPEC         generate the graph instead: kron:SCALE[:EF], rmat:...,\n"
          "                         uniform:SCALE[:EF], grid2d:RxC, grid3d:XxYxZ\n"
          "      --format F         input format: auto, mtx, edgelist or binary (default: auto)\n"
          "      --undirected       treat edges as undirected (symmetric files always are)\n"
          "      --self-loops M     keep or remove (default: remove when undirected, else keep)\n"
          "      --duplicates M     keep or remove (default: remove when undirected, else keep)\n"
          "      --weights W        file, none or random:LO:HI (default: file)\n"
          "      --no-cache         do not read or write the binary load cache\n"
          "      --cache-dir DIR    where the load cache lives (default: beside the input when\n"
          "                         writable)\n"
          "      --progress         show load progress even when stderr is not a terminal\n"
          "\n"
          "Output:\n"
          "      --json FILE        write the report as JSON\n"
          "      --out FILE         write one line per vertex: input id, value (-1 unreached)\n"
          "                         [, predecessor]\n"
          "      --timeline         keep and print every iteration's time split and host\n"
          "                         work per device (launches, waits, copies, barriers)\n"
          "      --quiet            print nothing but errors\n"
          "  -h, --help             this text\n"
          "      --version          print the version\n"
          "\n"
          "Exit codes: 0 ok, 1 validation failed, 2 usage or bad input, 3 runtime failure.\n");
}

static int exit_code_for(gr_status st) {
  switch (st) {
    case GR_ERR_INVALID_ARG:
    case GR_ERR_BAD_INPUT:
    case GR_ERR_IO:
    case GR_ERR_TOO_LARGE:
    case GR_ERR_UNSUPPORTED:
    case GR_ERR_NO_DEVICE:
      return EXIT_USAGE;
    case GR_ERR_VALIDATION:
      return EXIT_INVALID;
    default:
      return EXIT_RUNTIME;
  }
}

static int fail(gr_status st, const char *what) {
  const char *msg = gr_error_message();
  fprintf(stderr, "gr_run: %s%s%s\n", what ? what : "", what ? ": " : "",
          msg && *msg ? msg : gr_status_string(st));
  return exit_code_for(st);
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "gr_run: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gr_run --help'.\n");
  return EXIT_USAGE;
}

static bool parse_u64(const char *s, unsigned long long *out) {
  uint64_t v = 0;
  if (!s || !gr_parse_count(s, strlen(s), &v)) return false;
  *out = v;
  return true;
}

/* A decimal number (gr_parse_real: no blanks, signs, hex or infinities). */
static bool parse_real(const char *s, double *out) { return s && gr_parse_real(s, strlen(s), false, out, NULL); }

static bool parse_int(const char *s, int lo, int hi, int *out) {
  unsigned long long v = 0;
  if (!parse_u64(s, &v) || v < (unsigned long long)lo || v > (unsigned long long)hi) return false;
  *out = (int)v;
  return true;
}

static bool parse_clean(const char *s, gr_clean_mode *out) {
  if (!strcmp(s, "keep")) *out = GR_CLEAN_KEEP;
  else if (!strcmp(s, "remove")) *out = GR_CLEAN_REMOVE;
  else return false;
  return true;
}

static int parse_options(int argc, char **argv, run_options *o) {
  gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  gr_mem_policy mp = GR_MEM_POLICY_INIT;
  memset(o, 0, sizeof *o);
  o->primitive = "bfs";
  o->gpus = 1;
  o->src = SRC_RANDOM;
  o->runs = 1;
  o->seed = 1;
  o->load = lo;
  o->popts = po;
  o->mem = mp;
  gr_partition_options pd = GR_PARTITION_OPTIONS_INIT;
  o->part = pd;
  o->transport = GR_TRANSPORT_AUTO;
  o->comm_format = GR_COMM_FORMAT_AUTO;
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":p:g:h", long_options, NULL)) != -1) {
    switch (c) {
      case 'p':
        o->primitive = optarg;
        break;
      case 'g':
        if (!parse_int(optarg, 1, 1024, &o->gpus))
          return usage_error("--gpus needs a whole number from 1 to 1024, got '%s'", optarg);
        o->gpus_given = true;
        break;
      case OPT_CPU:
        o->cpu = true;
        break;
      case OPT_CPU_THREADS:
        if (!parse_int(optarg, 1, 4096, &o->cpu_threads))
          return usage_error("--cpu-threads needs a whole number from 1 to 4096, got '%s'", optarg);
        break;
      case OPT_SRC:
        o->src_given = true;
        if (!strcmp(optarg, "random")) o->src = SRC_RANDOM;
        else if (!strcmp(optarg, "max-degree")) o->src = SRC_MAX_DEGREE;
        else if (parse_u64(optarg, &o->src_id)) o->src = SRC_ID;
        else return usage_error("--src must be a vertex id, random or max-degree, got '%s'", optarg);
        break;
      case OPT_RUNS:
        if (!parse_int(optarg, 1, 1000000, &o->runs))
          return usage_error("--runs needs a whole number from 1 to 1000000, got '%s'", optarg);
        break;
      case OPT_SEED:
        if (!parse_u64(optarg, &o->seed)) return usage_error("--seed needs a whole number, got '%s'", optarg);
        break;
      case OPT_VALIDATE:
        o->validate = true;
        break;
      case OPT_VALIDATE_FIRST:
        o->validate = true;
        o->validate_first = true;
        break;
      case OPT_DIRECTION:
        if (!strcmp(optarg, "auto")) o->popts.direction = GR_DIRECTION_AUTO;
        else if (!strcmp(optarg, "push")) o->popts.direction = GR_DIRECTION_PUSH;
        else if (!strcmp(optarg, "pull")) o->popts.direction = GR_DIRECTION_PULL;
        else return usage_error("--direction must be auto, push or pull, got '%s'", optarg);
        break;
      case OPT_DO_A:
      case OPT_DO_B: {
        double f = 0.0;
        if (!parse_real(optarg, &f) || !(f > 0.0) || f > 1e9)
          return usage_error(c == OPT_DO_A ? "--do-a needs a positive number, got '%s'"
                                           : "--do-b needs a positive number, got '%s'",
                             optarg);
        if (c == OPT_DO_A) o->popts.do_a = f;
        else o->popts.do_b = f;
        break;
      }
      case OPT_DELTA: {
        if (!strcmp(optarg, "auto")) {
          o->popts.delta = 0.0;
          break;
        }
        double f = 0.0;
        if (!parse_real(optarg, &f) || !(f > 0.0) || f > 3e38)
          return usage_error("--delta needs a positive number or auto, got '%s'", optarg);
        o->popts.delta = f;
        break;
      }
      case OPT_TOLERANCE: {
        double f = 0.0;
        if (!parse_real(optarg, &f) || !(f > 0.0) || !isfinite(f) || f >= 2.0)
          return usage_error("--tolerance needs a number above 0 and below 2 (the largest L1 change of ranks "
                             "summing to 1), got '%s'", optarg);
        o->popts.tolerance = f;
        break;
      }
      case OPT_TUNE:
        if (gr_tuning_parse(&o->popts.tune, optarg) < 0) return usage_error("%s", gr_error_message());
        break;
      case OPT_JSON:
        o->json = optarg;
        break;
      case OPT_OUT:
        o->out = optarg;
        break;
      case OPT_UNDIRECTED:
        o->load.undirected = true;
        break;
      case OPT_GEN:
        o->gen = optarg;
        break;
      case OPT_QUIET:
        o->quiet = true;
        break;
      case OPT_MARK_PRED:
        o->popts.mark_pred = true;
        break;
      case OPT_SELF_LOOPS:
        if (!parse_clean(optarg, &o->load.self_loops))
          return usage_error("--self-loops must be keep or remove, got '%s'", optarg);
        break;
      case OPT_DUPLICATES:
        if (!parse_clean(optarg, &o->load.duplicates))
          return usage_error("--duplicates must be keep or remove, got '%s'", optarg);
        break;
      case OPT_WEIGHTS:
        if (gr_weight_spec_parse(&o->load.weights, optarg) < 0)
          return usage_error("%s", gr_error_message());
        break;
      case OPT_NO_CACHE:
        o->load.use_cache = false;
        break;
      case OPT_CACHE_DIR:
        o->load.cache_dir = optarg;
        break;
      case OPT_PROGRESS:
        o->load.progress = 1;
        break;
      case OPT_MAX_ITER:
        if (!parse_int(optarg, 0, INT_MAX, &o->popts.max_iterations))
          return usage_error("--max-iter needs a whole number, got '%s'", optarg);
        break;
      case OPT_MEM:
        if (gr_mem_policy_parse(&o->mem, optarg) < 0) return usage_error("%s", gr_error_message());
        break;
      case OPT_FORMAT:
        if (!strcmp(optarg, "auto")) o->load.format = GR_FORMAT_AUTO;
        else if (!strcmp(optarg, "mtx")) o->load.format = GR_FORMAT_MTX;
        else if (!strcmp(optarg, "edgelist")) o->load.format = GR_FORMAT_EDGELIST;
        else if (!strcmp(optarg, "binary")) o->load.format = GR_FORMAT_BINARY;
        else return usage_error("--format must be auto, mtx, edgelist or binary, got '%s'", optarg);
        break;
      case OPT_PARTITIONER:
        if (gr_partitioner_parse(&o->part.kind, optarg) < 0) return usage_error("%s", gr_error_message());
        break;
      case OPT_PROXY:
        if (strcmp(optarg, "all") && strcmp(optarg, "1hop") && strcmp(optarg, "auto"))
          return usage_error("--proxy must be auto, all or 1hop, got '%s'", optarg);
        o->proxy = strcmp(optarg, "auto") ? optarg : NULL;
        break;
      case OPT_COMM: {
        gr_comm_mode m;
        if (gr_comm_mode_parse(&m, optarg) < 0) return usage_error("%s", gr_error_message());
        o->comm = optarg;
        break;
      }
      case OPT_TRANSPORT:
        if (gr_transport_parse(&o->transport, optarg) < 0) return usage_error("%s", gr_error_message());
        break;
      case OPT_COMM_FORMAT:
        if (gr_comm_format_parse(&o->comm_format, optarg) < 0) return usage_error("%s", gr_error_message());
        break;
      case OPT_BIAS: {
        double f = 0.0;
        if (!parse_real(optarg, &f) || !(f >= 0.0) || f > 1e6)
          return usage_error("--bias needs a number from 0 to 1e6, got '%s'", optarg);
        o->part.bias_factor = f;
        break;
      }
      case OPT_TIMELINE:
        o->timeline = true;
        break;
      case OPT_SOURCES:
        o->sources_all = !strcmp(optarg, "all");
        if (!o->sources_all && (!parse_u64(optarg, &o->sources) || o->sources < 1 || o->sources > GR_MAX_VERTICES))
          return usage_error("--sources needs a whole number of at least 1 or all, got '%s'", optarg);
        break;
      case OPT_NORMALIZE:
        o->popts.normalize = true;
        break;
      case OPT_VERSION:
        printf("gr_run %s\n", GR_VERSION);
        exit(EXIT_OK);
      case 'h':
        usage(stdout);
        exit(EXIT_OK);
      case ':':
        return usage_error("option %s needs a value", argv[optind - 1]);
      default:
        return usage_error("unknown option '%s'", argv[optind - 1]);
    }
  }
  o->load.seed = o->seed;
  o->part.seed = o->seed;
  if (o->quiet && o->load.progress == 0) o->load.progress = -1;
  if (optind < argc) o->file = argv[optind++];
  if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
  if (!o->file && !o->gen) return usage_error("%s", "no input: give a graph FILE or --gen SPEC");
  if (o->file && o->gen) return usage_error("%s", "give either a graph FILE or --gen SPEC, not both");
  return -1;
}

/* The k-th source of the seeded sequence: a random vertex with out-edges
 * (a vertex without any would make a trivial run). */
static gr_vid random_source(const gr_csr *c, unsigned long long seed, uint64_t *counter) {
  for (int tries = 0; tries < 1000; tries++) {
    gr_vid v = (gr_vid)(gr_rand64(seed, 0x5352435fULL, (*counter)++) % c->n);
    if (c->offsets[v + 1] > c->offsets[v]) return v;
  }
  return (gr_vid)(gr_rand64(seed, 0x5352435fULL, (*counter)++) % c->n);
}

static gr_vid max_degree_vertex(const gr_csr *c) {
  gr_vid best = 0;
  gr_eid bd = 0;
  for (gr_vid v = 0; v < c->n; v++) {
    gr_eid d = c->offsets[v + 1] - c->offsets[v];
    if (d > bd) {
      bd = d;
      best = v;
    }
  }
  return best;
}

/* Test hook (README, "fault injection"): GR_FAULT_RESULT=1 damages one
 * value of each result before validation, to prove a wrong answer is caught
 * and gives exit code 1. */
static void maybe_corrupt(gr_result *r, gr_vid source) {
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
    /* The first positive value (a centrality, a rank) grows by at least
     * 1; without one, vertex 0 gets 1. */
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

/* The sources of run `run` under --sources: k distinct vertices with
 * out-edges, a seeded draw per run (the first k of a shuffle of them), or
 * every vertex under --sources all. Returns 0, or a usage error. */
static int pick_sources(gr_vid *list, gr_vid *candidates, gr_vid n_candidates, const gr_csr *c, const run_options *o,
                        int run, gr_vid *count) {
  if (o->sources_all) {
    for (gr_vid v = 0; v < c->n; v++) list[v] = v;
    *count = c->n;
    return 0;
  }
  const gr_vid k = (gr_vid)o->sources;
  gr_vid m = 0;
  for (gr_vid v = 0; v < c->n; v++)
    if (c->offsets[v + 1] > c->offsets[v]) candidates[m++] = v;
  (void)n_candidates;
  for (gr_vid i = 0; i < k; i++) {
    const gr_vid j = i + (gr_vid)(gr_rand64(o->seed, 0x42435352ULL + (uint64_t)run, i) % (m - i));
    const gr_vid t = candidates[i];
    candidates[i] = candidates[j];
    candidates[j] = t;
    list[i] = candidates[i];
  }
  *count = k;
  return 0;
}

static gr_vid count_reached(const gr_result *r) {
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
    const float *x = r->values;
    for (gr_vid v = 0; v < r->n; v++) n += isfinite(x[v]) != 0;
    return n;
  }
  if (r->type != GR_VALUE_SVID) return r->n;
  const gr_svid *d = r->values;
#pragma omp parallel for reduction(+ : n) schedule(static)
  for (gr_vid v = 0; v < r->n; v++) n += d[v] >= 0;
  return n;
}

int main(int argc, char **argv) {
  const double t_start = gr_time_now();
  run_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  rc = EXIT_OK;

  gr_graph *g = NULL;
  gr_subgraph *sub = NULL;
  gr_subgraph **subs = NULL;
  gr_partition *part = NULL;
  gr_comm *comm = NULL;
  gr_enactor *en = NULL;
  gr_run_record *records = NULL;
  gr_device_report *devs = NULL;
  gr_result res = GR_RESULT_INIT, ref = GR_RESULT_INIT;
  gr_run_report rep;
  memset(&rep, 0, sizeof rep);
  gr_run_phases *ph = &rep.phases;
  double t_phase = 0;
  gr_status st;
  char gen_name[256] = "";
  /* --sources: the candidates of the draw, and the list of a run. */
  gr_vid *src_list = NULL, *candidates = NULL, n_candidates = 0;

  const gr_primitive *prim = gr_primitive_find(o.primitive);
  if (!prim) return usage_error("unknown primitive '%s' (see --help)", o.primitive);
  const bool several = o.sources > 0 || o.sources_all;
  if ((several || o.popts.normalize) && !prim->accumulates_sources)
    return usage_error("--sources and --normalize apply to primitives that sum over sources (bc), not %s",
                       prim->name);
  if (several && o.src_given)
    return usage_error("%s", "--sources draws the sources itself: give --src or --sources, not both");

  /* Devices first: a request that cannot be met fails before a long load. */
  gr_backend backend = GR_BACKEND_CPU;
  if (!o.cpu) {
    int gpus = 0;
    st = gr_device_count(GR_BACKEND_CUDA, &gpus);
    if (st < 0) return fail(st, "counting GPUs");
    if (gpus == 0 && !o.gpus_given) {
      if (!o.quiet)
        fprintf(stderr, "gr_run: no GPU found%s; running on the CPU backend\n",
                gr_cuda_available() ? "" : " (this build has no CUDA backend)");
    } else if (o.gpus > gpus) {
      fprintf(stderr, "gr_run: %d GPU%s asked for, but %d exist%s on this machine%s\n", o.gpus,
              o.gpus == 1 ? " was" : "s were", gpus, gpus == 1 ? "s" : "",
              gpus == 0 ? "; use --cpu for CPU devices" : "");
      return EXIT_USAGE;
    } else {
      backend = GR_BACKEND_CUDA;
    }
  }
  gr_proxy_mode proxy = prim->proxy;
  gr_comm_mode cmode = prim->comm;
  if (o.proxy) proxy = strcmp(o.proxy, "1hop") ? GR_PROXY_ALL : GR_PROXY_1HOP;
  bool proxy_auto = !o.proxy;
  if (o.comm) gr_comm_mode_parse(&cmode, o.comm);
  if (o.gpus > 1) {
    /* The exchange is set up before the long load, so that a transport
     * that cannot work here (NCCL missing, more devices than it takes) is
     * reported at once. */
    gr_comm_options co = {cmode, o.transport, o.comm_format};
    st = gr_comm_create(&comm, backend, o.gpus, &co);
    if (st < 0) return fail(st, "--transport");
  }

  /* From here on every exit goes through done, which releases the
   * exchange created above. */
  o.load.build_csc = prim->needs_in_edges;
  t_phase = gr_time_now();
  if (prim->needs_weights && o.load.weights.kind == GR_WEIGHTS_NONE) {
    rc = usage_error("%s needs edge weights; --weights none is not allowed", prim->name);
    goto done;
  }
  if (o.gen) {
    gr_gen_spec spec;
    st = gr_gen_parse(&spec, o.gen);
    if (st < 0) {
      rc = fail(st, "--gen");
      goto done;
    }
    if (strstr(o.gen, "seed=") == NULL) spec.seed = o.seed;
    gr_gen_format(&spec, gen_name, sizeof gen_name);
    st = gr_gen_graph(&g, &spec, &o.load);
    if (st < 0) {
      rc = fail(st, "generating the graph");
      goto done;
    }
  } else {
    st = gr_graph_load(&g, o.file, &o.load);
    if (st < 0) {
      rc = fail(st, NULL);
      goto done;
    }
  }
  ph->load = gr_time_now() - t_phase;
  if (gr_graph_num_vertices(g) == 0) {
    fprintf(stderr, "gr_run: the graph has no vertices\n");
    rc = EXIT_USAGE;
    goto done;
  }
  if (prim->needs_weights && !gr_graph_has_weights(g)) {
    fprintf(stderr, "gr_run: %s needs edge weights; %s has none (use --weights random:LO:HI)\n", prim->name,
            gr_graph_name(g));
    rc = EXIT_USAGE;
    goto done;
  }

  /* What depends on the whole graph: checks of the input (sssp: weights of
   * at least 0) and options such as sssp's delta. */
  if (prim->prepare) {
    st = prim->prepare(g, &o.popts);
    if (st < 0) {
      rc = fail(st, NULL);
      goto done;
    }
  }

  const gr_csr *csr = gr_graph_out(g);
  gr_vid fixed_src = 0;
  if (prim->needs_source) {
    if (o.src == SRC_ID) {
      st = gr_graph_find_vertex(g, o.src_id, &fixed_src);
      if (st < 0) {
        rc = fail(st, "--src");
        goto done;
      }
    } else if (o.src == SRC_MAX_DEGREE) {
      fixed_src = max_degree_vertex(csr);
    }
  }

  if (several) {
    for (gr_vid v = 0; v < csr->n; v++) n_candidates += csr->offsets[v + 1] > csr->offsets[v];
    if (!o.sources_all && o.sources > n_candidates) {
      fprintf(stderr, "gr_run: --sources %llu, but only %llu vertices have out-edges; use --sources all\n",
              o.sources, (unsigned long long)n_candidates);
      rc = EXIT_USAGE;
      goto done;
    }
    const size_t len = o.sources_all ? (size_t)csr->n : (size_t)o.sources;
    GR_CHECK_GOTO(gr_host_alloc((void **)&src_list, len * sizeof *src_list, "source list"), st, runtime_fail);
    if (!o.sources_all)
      GR_CHECK_GOTO(gr_host_alloc((void **)&candidates, (size_t)n_candidates * sizeof *candidates, "source list"), st,
                    runtime_fail);
  }

  gr_enactor_config cfg = {prim, &o.popts, backend, o.gpus, o.cpu_threads, o.mem, NULL, NULL, NULL, false,
                           o.timeline};
  if (o.gpus == 1) {
    t_phase = gr_time_now();
    GR_CHECK_GOTO(gr_subgraph_whole(&sub, g, prim->needs_in_edges), st, runtime_fail);
    ph->build = gr_time_now() - t_phase;
    cfg.subs = &sub;
  } else {
    if ((gr_vid)o.gpus > gr_graph_num_vertices(g)) {
      fprintf(stderr, "gr_run: %d devices for a graph of %llu vertices; use at most one device per vertex\n",
              o.gpus, (unsigned long long)gr_graph_num_vertices(g));
      rc = EXIT_USAGE;
      goto done;
    }
    o.part.parts = o.gpus;
    t_phase = gr_time_now();
    st = gr_partition_create(&part, g, &o.part);
    if (st < 0) {
      rc = fail(st, "--partitioner");
      goto done;
    }
    ph->partition = gr_time_now() - t_phase;
    t_phase = gr_time_now();
    /* Auto: duplicate-1-hop only where it pays on this partition, and only
     * under selective exchange (a broadcast sends global ids, so every
     * device keeps a |V|-entry table either way). */
    if (proxy_auto) proxy = cmode == GR_COMM_SELECTIVE && gr_partition_1hop_pays(part) ? GR_PROXY_1HOP : GR_PROXY_ALL;
    GR_CHECK_GOTO(gr_subgraphs_build(&subs, g, part, proxy, prim->needs_in_edges), st, runtime_fail);
    ph->build = gr_time_now() - t_phase;
    cfg.subs = subs;
    cfg.exchange = &gr_comm_exchange_ops;
    cfg.exchange_shared = comm;
    cfg.broadcast = cmode == GR_COMM_BROADCAST;
  }
  t_phase = gr_time_now();
  GR_CHECK_GOTO(gr_enactor_create(&en, &cfg), st, runtime_fail);
  ph->setup = gr_time_now() - t_phase;

  GR_CHECK_GOTO(gr_host_calloc((void **)&records, (size_t)o.runs, sizeof *records, "run records"), st,
                runtime_fail);
  uint64_t counter = 0;
  if (several) {
    /* A long run is announced first: one source is timed alone and the
     * time scaled (a handful of sources is not worth the probe). */
    gr_vid k = 0;
    pick_sources(src_list, candidates, n_candidates, csr, &o, 0, &k);
    if (k >= 16 && !o.quiet) {
      gr_run_args probe = {src_list[0], 0, src_list, 1};
      gr_run_stats ps;
      t_phase = gr_time_now();
      st = gr_enactor_run(en, &probe, &ps);
      const double one = gr_time_now() - t_phase;
      gr_run_stats_free(&ps);
      if (st < 0) goto runtime_fail;
      const double total = one * (double)k * (double)o.runs;
      if (total > 3.0)
        fprintf(stderr, "gr_run: %s over %llu sources: about %.0f s (%.3f s for one source, %d run%s)\n", prim->name,
                (unsigned long long)k, total, one, o.runs, o.runs == 1 ? "" : "s");
    }
  }
  for (int r = 0; r < o.runs; r++) {
    gr_run_args args = {0, r, NULL, 0};
    if (several) {
      gr_vid k = 0;
      pick_sources(src_list, candidates, n_candidates, csr, &o, r, &k);
      args.sources = src_list;
      args.n_sources = k;
      args.source = src_list[0];
    } else if (prim->needs_source) {
      args.source = o.src == SRC_RANDOM ? random_source(csr, o.seed, &counter) : fixed_src;
    }
    gr_run_stats stats;
    t_phase = gr_time_now();
    st = gr_enactor_run(en, &args, &stats);
    ph->runs += gr_time_now() - t_phase;
    if (st < 0) {
      gr_run_stats_free(&stats);
      goto runtime_fail;
    }
    gr_run_record *x = &records[r];
    rep.n_runs = r + 1;
    x->source = prim->needs_source ? gr_graph_original_id(g, args.source) : 0;
    x->ms = stats.ms;
    x->iterations = stats.iterations;
    x->edges = stats.edges;
    x->frontier = stats.frontier;
    x->frontier_len = stats.frontier_len;
    x->level_edges = stats.level_edges;
    x->level_ms = stats.level_ms;
    x->level_tag = stats.level_tag;
    x->level_bytes = stats.level_bytes;
    x->dev = stats.devices;
    x->n_dev = stats.n_devices;
    x->iteration_limit = stats.status == GR_ITERATION_LIMIT;
    t_phase = gr_time_now();
    GR_CHECK_GOTO(gr_enactor_extract_reuse(en, &res), st, runtime_fail);
    maybe_corrupt(&res, args.source);
    x->reached = count_reached(&res);
    x->traversed = prim->traversed_edges ? prim->traversed_edges(g, &res) : gr_graph_num_edges(g);
    ph->extract += gr_time_now() - t_phase;
    x->gteps = x->ms > 0 ? (double)x->traversed / (x->ms * 1e-3) / 1e9 : 0.0;
    if (o.validate && (!o.validate_first || r == 0)) {
      t_phase = gr_time_now();
      gr_result_free(&ref);
      st = prim->reference(g, &args, &o.popts, &ref);
      if (st < 0) goto runtime_fail;
      st = prim->validate(g, &args, &o.popts, &res, &ref);
      x->validated = st < 0 ? -1 : 1;
      if (st < 0 && !rep.validation_error[0]) {
        if (prim->needs_source)
          snprintf(rep.validation_error, sizeof rep.validation_error, "run %d (source %llu): %s", r,
                   (unsigned long long)x->source, gr_error_message());
        else
          snprintf(rep.validation_error, sizeof rep.validation_error, "run %d: %s", r, gr_error_message());
      }
      ph->validate += gr_time_now() - t_phase;
    }
    /* The primitive's own figures (which the validator may read, pr: the
     * iterations) go with the run's record. */
    x->extra = res.extra;
    memset(&res.extra, 0, sizeof res.extra);
  }

  rep.primitive = prim->name;
  rep.sourceless = !prim->needs_source;
  rep.graph = gen_name[0] ? gen_name : gr_graph_name(g);
  rep.vertices = gr_graph_num_vertices(g);
  rep.edges = gr_graph_num_edges(g);
  rep.arcs = gr_graph_num_arcs(g);
  rep.directed = gr_graph_is_directed(g);
  rep.weighted = gr_graph_has_weights(g);
  rep.load_seconds = gr_graph_load_seconds(g);
  rep.from_cache = gr_graph_from_cache(g);
  rep.backend = backend == GR_BACKEND_CUDA ? "cuda" : "cpu";
  if (part) {
    rep.partition = part;
    rep.proxy = proxy == GR_PROXY_1HOP ? "1hop" : "all";
    rep.comm = gr_comm_mode_name(cmode);
    rep.transport = gr_transport_name(gr_comm_transport(comm));
  }
  rep.n_devices = gr_enactor_device_count(en);
  GR_CHECK_GOTO(gr_host_calloc((void **)&devs, (size_t)rep.n_devices, sizeof *devs, "device reports"),
                st, runtime_fail);
  for (int i = 0; i < rep.n_devices; i++) gr_enactor_device_report(en, i, &devs[i]);
  rep.devices = devs;
  rep.runs = records;
  rep.validate = o.validate;
  rep.timeline = o.timeline;
  ph->total = gr_time_now() - t_start;
  rep.argc = argc;
  rep.argv = argv;

  if (!o.quiet) gr_report_print(stdout, &rep);
  if (o.validate && rep.validation_error[0]) {
    if (o.quiet) fprintf(stderr, "gr_run: validation failed: %s\n", rep.validation_error);
    rc = EXIT_INVALID;
  }
  if (o.json) {
    st = gr_report_write_json(o.json, &rep);
    if (st < 0) {
      rc = fail(st, "--json");
      goto done;
    }
  }
  if (o.out) {
    st = gr_report_write_out(o.out, g, &res);
    if (st < 0) {
      rc = fail(st, "--out");
      goto done;
    }
  }
  goto done;

runtime_fail:
  rc = fail(st, NULL);
done:
  if (records)
    for (int r = 0; r < o.runs; r++) {
      gr_run_stats rs = {0};
      rs.frontier = records[r].frontier;
      rs.level_edges = records[r].level_edges;
      rs.level_ms = records[r].level_ms;
      rs.level_tag = records[r].level_tag;
      rs.level_bytes = records[r].level_bytes;
      rs.devices = records[r].dev;
      rs.n_devices = records[r].n_dev;
      gr_run_stats_free(&rs);
      gr_extra_free(&records[r].extra);
    }
  free(records);
  free(devs);
  free(src_list);
  free(candidates);
  gr_result_free(&res);
  gr_result_free(&ref);
  gr_enactor_destroy(&en);
  gr_comm_destroy(&comm);
  gr_subgraph_destroy(&sub);
  gr_subgraphs_destroy(&subs, part ? part->parts : 0);
  gr_partition_destroy(&part);
  gr_graph_destroy(&g);
  return rc;
}
