/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run: loads or generates a graph, runs a primitive on one or more devices
 * (GPUs, or CPU devices with --cpu), validates against the CPU reference and
 * reports. A client of the public interface (gr/gr.h): it parses the command
 * line, calls the library and writes the reports. Exit codes: 0 ok;
 * 1 validation failed; 2 usage or bad input; 3 runtime failure (device,
 * memory). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/gr.h"
#include "gr/util.h"
#include "run_report.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

typedef enum { SRC_ID, SRC_RANDOM, SRC_MAX_DEGREE } src_kind;

typedef struct run_options {
  const char *primitive;
  int gpus;
  bool gpus_given;
  bool cpu;
  src_kind src;
  bool src_given;
  unsigned long long src_id;
  unsigned long long sources; /* --sources K; 0: one source per run */
  bool sources_all;
  bool normalize;
  int runs;
  unsigned long long seed;
  bool validate;
  bool validate_first;
  const char *json;
  const char *out;
  const char *gen;
  const char *file;
  bool quiet;
  bool progress_given;
  bool weights_none;
  bool timeline;
  bool turns;
  gr_options *set; /* everything the library reads */
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
  OPT_PART_BLOCK,
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
  OPT_TURNS,
  OPT_DELTA,
  OPT_TOLERANCE,
  OPT_DAMPING,
  OPT_SOURCES,
  OPT_NORMALIZE,
  OPT_GRAPH_MEMORY,
  OPT_COMPRESS,
  OPT_DEVICE_MEMORY_LIMIT,
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
    {"partition-block", required_argument, NULL, OPT_PART_BLOCK},
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
    {"turns", no_argument, NULL, OPT_TURNS},
    {"delta", required_argument, NULL, OPT_DELTA},
    {"tolerance", required_argument, NULL, OPT_TOLERANCE},
    {"damping", required_argument, NULL, OPT_DAMPING},
    {"sources", required_argument, NULL, OPT_SOURCES},
    {"normalize", no_argument, NULL, OPT_NORMALIZE},
    {"graph-memory", required_argument, NULL, OPT_GRAPH_MEMORY},
    {"compress", required_argument, NULL, OPT_COMPRESS},
    {"device-memory-limit", required_argument, NULL, OPT_DEVICE_MEMORY_LIMIT},
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
  for (int i = 0; i < gr_primitive_count(); i++) fprintf(f, " %s", gr_primitive_name(i));
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
          "                         pull-try=8 (hybrid: in-edges a heavy candidate's\n"
          "                         thread tests before a warp walks the rest; 0 none),\n"
          "                         small=on|off (device-side loop over small frontiers),\n"
          "                         small-vertices=16384, small-edges=131072,\n"
          "                         small-degree=512, visited=bitmap|state (test a\n"
          "                         visited bitmap before the per-vertex state),\n"
          "                         status=atomic|idempotent (claim vertices with\n"
          "                         compare-and-swap, or without and cull duplicates)\n"
          "                         sort=auto|on|off (GPU push sorts a large input),\n"
          "                         relabel=auto|on|off, hot=32768, hub=4096 (PageRank's\n"
          "                         GPU pull reads sources renumbered by in-edges fed;\n"
          "                         the first hub positions from shared memory),\n"
          "                         long-rows=auto|N (GPU edge-balanced push: rows of\n"
          "                         at least N edges walked a thread per 32-edge block;\n"
          "                         0 off; auto: 32 with packed lists on levels of 2^25\n"
          "                         arcs or more averaging 32+ a row, off with plain ids)\n"
          "                         walk-stage=auto|on|off (the walk's packed blocks\n"
          "                         copied to shared memory first; auto: the vertices'\n"
          "                         4-byte states 8x the GPU's L2 and memory under 4 TB/s)\n"
          "                         bc-counts=auto|log (bc: path counts in double until\n"
          "                         they outgrow it, or as logarithms from the start)\n"
          "                         sssp-heavy=once|always (sssp: arcs of weight delta\n"
          "                         or more relaxed once a vertex at its bucket's end,\n"
          "                         or at every expansion with the others)\n"
          "                         sssp-tail=N (sssp: the last buckets as one, every\n"
          "                         arc at every expansion, once the work left is 1/N\n"
          "                         of the largest bucket or less; default 16, 0 never)\n"
          "                         sssp-early=N (sssp between devices: a bucket ends\n"
          "                         once its tail holds N vertices or fewer on all\n"
          "                         devices, its last ones relaxed with the next\n"
          "                         bucket's first; default 16384, 0 never)\n"
          "                         sssp-peers=on|off (sssp between devices that reach\n"
          "                         each other's memory: a copy lowered is lowered on\n"
          "                         its owner too, in place; default off)\n"
          "                         owner-words=on|off (dobfs between devices: a pull's\n"
          "                         finds kept and sent as the words of each device's\n"
          "                         own ids; off: bitmaps of every id; default on)\n"
          "                         cc-one-label=on|off (cc between devices whose\n"
          "                         largest trees are one component: their label\n"
          "                         never crosses between devices; off: every changed\n"
          "                         copy and every copy's label do; default on)\n"
          "\n"
          "Several devices (--gpus N > 1, GPUs or with --cpu CPU devices):\n"
          "      --partitioner P    random, biased, metis, static or range (default: random)\n"
          "      --partition-block N  random: parts drawn for aligned blocks of N ids\n"
          "                         (default: auto: 32 where every part gets 16384\n"
          "                         blocks or more, else 1)\n"
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
          "      --direction D      dobfs, pr: auto, push or pull (default: auto; pr: pull,\n"
          "                         its copies refreshed by their owners between devices)\n"
          "      --do-a F           dobfs: push -> pull when the frontier's edges exceed the\n"
          "                         unvisited part's edges / F (default: 15)\n"
          "      --do-b F           dobfs: pull -> push when the frontier shrinks to at most\n"
          "                         vertices / F (default: 18)\n"
          "      --delta D          sssp: bucket width, a positive number or auto (32 x mean\n"
          "                         weight / mean out-degree; default: auto)\n"
          "      --tolerance T      pr: stop when the L1 change of the ranks falls below T\n"
          "                         (default: 1e-4)\n"
          "      --damping D        pr: the probability of following an out-edge rather\n"
          "                         than jumping to a random vertex, 0 <= D < 1 (default:\n"
          "                         0.85; NetworkX's alpha)\n"
          "      --sources K|all    bc: each run sums the dependencies from K distinct sources\n"
          "                         of the seeded sequence (an estimate), or from every vertex\n"
          "                         (exact; prints an estimate of the time first when long)\n"
          "                         (default: one source per run, as --src says)\n"
          "      --normalize        bc: scale the sums to all sources and divide by the\n"
          "                         (n-1)(n-2) pairs of other vertices (networkx's\n"
          "                         normalized betweenness)\n"
          "      --max-iter N       stop after N iterations (default: 0, no limit; pr: 100)\n"
          "      --graph-memory M   where each device keeps its part's column indices and\n"
          "                         weights: device, host (pinned host memory the kernels\n"
          "                         read directly; offsets and state stay on the device) or\n"
          "                         auto (host only when the part does not fit; default)\n"
          "      --compress C       how each device stores its part's neighbour ids: none\n"
          "                         (default) or packed (bit-packed 32-edge blocks, decoded\n"
          "                         as the operators read them; every primitive, CPU and\n"
          "                         GPU devices, device or host memory)\n"
          "      --device-memory-limit B  use at most B bytes per device (e.g. 8G), as if\n"
          "                         the GPU were that small\n"
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
          "      --turns            the devices take turns during runs, so that each\n"
          "                         one's work is timed alone even where several share\n"
          "                         a GPU (GR_DEVICE_MAP): per-device work and the\n"
          "                         scaling model's input; slower runs; not with nccl\n"
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

/* Decimal digits only, that fit in 64 bits: the library's grammar for
 * counts (no blanks, signs or hexadecimal, which strtoull would take). */
static bool parse_u64(const char *s, unsigned long long *out) {
  if (!s || !*s) return false;
  unsigned long long v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    const unsigned d = (unsigned)(*s - '0');
    if (v > (ULLONG_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
  unsigned long long v = 0;
  if (!parse_u64(s, &v) || v < (unsigned long long)lo || v > (unsigned long long)hi) return false;
  *out = (int)v;
  return true;
}

/* Hands an option to the library, which checks it again; its message names
 * what is wrong. */
static int set_option(run_options *o, const char *key, const char *value) {
  if (gr_options_set(o->set, key, value) < 0) return usage_error("%s", gr_error_message());
  return -1;
}

/* A number option: the library parses it (plain decimals in its range) and
 * a refusal gets gr_run's message, which names the flag. */
static int set_number(run_options *o, const char *key, const char *value, const char *message) {
  if (gr_options_set(o->set, key, value) < 0) return usage_error(message, value);
  return -1;
}

static int parse_options(int argc, char **argv, run_options *o) {
  gr_options *set = o->set;
  memset(o, 0, sizeof *o);
  o->set = set;
  o->primitive = "bfs";
  o->gpus = 1;
  o->src = SRC_RANDOM;
  o->runs = 1;
  o->seed = 1;
  int c, rc = -1;
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
        rc = set_option(o, "devices", optarg);
        break;
      case OPT_CPU:
        o->cpu = true;
        break;
      case OPT_CPU_THREADS: {
        int n = 0;
        if (!parse_int(optarg, 1, 4096, &n))
          return usage_error("--cpu-threads needs a whole number from 1 to 4096, got '%s'", optarg);
        rc = set_option(o, "cpu-threads", optarg);
        break;
      }
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
        rc = set_option(o, "seed", optarg);
        break;
      case OPT_VALIDATE:
        o->validate = true;
        break;
      case OPT_VALIDATE_FIRST:
        o->validate = true;
        o->validate_first = true;
        break;
      case OPT_DIRECTION:
        if (strcmp(optarg, "auto") && strcmp(optarg, "push") && strcmp(optarg, "pull"))
          return usage_error("--direction must be auto, push or pull, got '%s'", optarg);
        rc = set_option(o, "direction", optarg);
        break;
      case OPT_DO_A:
        rc = set_number(o, "do-a", optarg, "--do-a needs a positive number, got '%s'");
        break;
      case OPT_DO_B:
        rc = set_number(o, "do-b", optarg, "--do-b needs a positive number, got '%s'");
        break;
      case OPT_DELTA:
        rc = set_number(o, "delta", optarg, "--delta needs a positive number or auto, got '%s'");
        break;
      case OPT_TOLERANCE:
        rc = set_number(o, "tolerance", optarg,
                        "--tolerance needs a number above 0 and below 2 (the largest L1 change of ranks "
                        "summing to 1), got '%s'");
        break;
      case OPT_DAMPING:
        rc = set_number(o, "damping", optarg, "--damping needs a number from 0 up to (not including) 1, got '%s'");
        break;
      case OPT_TUNE:
        rc = set_option(o, "tune", optarg);
        break;
      case OPT_COMPRESS:
        rc = set_option(o, "compress", optarg);
        break;
      case OPT_GRAPH_MEMORY:
        rc = set_option(o, "graph-memory", optarg);
        break;
      case OPT_DEVICE_MEMORY_LIMIT:
        rc = set_number(o, "device-memory-limit", optarg,
                        "--device-memory-limit needs a byte count such as 8G or 512M, got '%s'");
        break;
      case OPT_JSON:
        o->json = optarg;
        break;
      case OPT_OUT:
        o->out = optarg;
        break;
      case OPT_UNDIRECTED:
        rc = set_option(o, "undirected", "on");
        break;
      case OPT_GEN:
        o->gen = optarg;
        break;
      case OPT_QUIET:
        o->quiet = true;
        break;
      case OPT_MARK_PRED:
        rc = set_option(o, "mark-pred", "on");
        break;
      case OPT_SELF_LOOPS:
        if (strcmp(optarg, "keep") && strcmp(optarg, "remove"))
          return usage_error("--self-loops must be keep or remove, got '%s'", optarg);
        rc = set_option(o, "self-loops", optarg);
        break;
      case OPT_DUPLICATES:
        if (strcmp(optarg, "keep") && strcmp(optarg, "remove"))
          return usage_error("--duplicates must be keep or remove, got '%s'", optarg);
        rc = set_option(o, "duplicates", optarg);
        break;
      case OPT_WEIGHTS:
        rc = set_option(o, "weights", optarg);
        o->weights_none = !strcmp(optarg, "none");
        break;
      case OPT_NO_CACHE:
        rc = set_option(o, "cache", "off");
        break;
      case OPT_CACHE_DIR:
        rc = set_option(o, "cache-dir", optarg);
        break;
      case OPT_PROGRESS:
        o->progress_given = true;
        rc = set_option(o, "progress", "on");
        break;
      case OPT_MAX_ITER: {
        int n = 0;
        if (!parse_int(optarg, 0, INT_MAX, &n)) return usage_error("--max-iter needs a whole number, got '%s'", optarg);
        rc = set_option(o, "max-iter", optarg);
        break;
      }
      case OPT_MEM:
        rc = set_option(o, "mem", optarg);
        break;
      case OPT_FORMAT:
        if (strcmp(optarg, "auto") && strcmp(optarg, "mtx") && strcmp(optarg, "edgelist") && strcmp(optarg, "binary"))
          return usage_error("--format must be auto, mtx, edgelist or binary, got '%s'", optarg);
        rc = set_option(o, "format", optarg);
        break;
      case OPT_PARTITIONER:
        rc = set_option(o, "partitioner", optarg);
        break;
      case OPT_PART_BLOCK:
        rc = set_option(o, "partition-block", optarg);
        break;
      case OPT_PROXY:
        if (strcmp(optarg, "all") && strcmp(optarg, "1hop") && strcmp(optarg, "auto"))
          return usage_error("--proxy must be auto, all or 1hop, got '%s'", optarg);
        rc = set_option(o, "proxy", optarg);
        break;
      case OPT_COMM:
        rc = set_option(o, "comm", optarg);
        break;
      case OPT_TRANSPORT:
        rc = set_option(o, "transport", optarg);
        break;
      case OPT_COMM_FORMAT:
        rc = set_option(o, "comm-format", optarg);
        break;
      case OPT_BIAS:
        rc = set_number(o, "bias", optarg, "--bias needs a number from 0 to 1e6, got '%s'");
        break;
      case OPT_TIMELINE:
        o->timeline = true;
        rc = set_option(o, "timeline", "on");
        break;
      case OPT_TURNS:
        o->turns = true;
        rc = set_option(o, "turns", "on");
        break;
      case OPT_SOURCES:
        o->sources_all = !strcmp(optarg, "all");
        /* The problem's "sources" option checks the count against the
         * graph; gr_run draws each run's sources itself (the same draws),
         * so that it can time the first one alone. */
        if ((!o->sources_all && (!parse_u64(optarg, &o->sources) || o->sources < 1)) ||
            gr_options_set(o->set, "sources", optarg) < 0)
          return usage_error("--sources needs a whole number of at least 1 or all, got '%s'", optarg);
        break;
      case OPT_NORMALIZE:
        o->normalize = true;
        rc = set_option(o, "normalize", "on");
        break;
      case OPT_VERSION: {
        gr_library_info li;
        gr_library_get_info(&li);
        printf("gr_run %s\n", li.version);
        return EXIT_OK;
      }
      case 'h':
        usage(stdout);
        return EXIT_OK;
      case ':':
        return usage_error("option %s needs a value", argv[optind - 1]);
      default:
        return usage_error("unknown option '%s'", argv[optind - 1]);
    }
    if (rc >= 0) return rc;
  }
  if (o->quiet && !o->progress_given && (rc = set_option(o, "progress", "off")) >= 0) return rc;
  if (optind < argc) o->file = argv[optind++];
  if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
  if (!o->file && !o->gen) return usage_error("%s", "no input: give a graph FILE or --gen SPEC");
  if (o->file && o->gen) return usage_error("%s", "give either a graph FILE or --gen SPEC, not both");
  return -1;
}

int main(int argc, char **argv) {
  const double t_start = gr_time_now();
  run_options o;
  memset(&o, 0, sizeof o);
  gr_status st = gr_options_create(&o.set);
  if (st < 0) return fail(st, NULL);
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) {
    gr_options_destroy(&o.set);
    return rc;
  }
  rc = EXIT_OK;

  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *prob = NULL;
  gr_run_record *records = NULL;
  gr_device_info *devs = NULL;
  gr_part_info *parts = NULL;
  int64_t *sources = NULL;
  gr_run_report rep;
  memset(&rep, 0, sizeof rep);
  gr_run_phases *ph = &rep.phases;
  double t_phase = 0;
  gr_primitive_info prim;
  /* --sources: the input ids of one run's sources. */
  int64_t *src_list = NULL;
  uint64_t n_src = 0;

  if (gr_primitive_get_info(o.primitive, &prim) < 0) {
    rc = usage_error("unknown primitive '%s' (see --help)", o.primitive);
    goto done;
  }
  const bool several = o.sources > 0 || o.sources_all;
  if ((several || o.normalize) && !prim.accumulates_sources) {
    rc = usage_error("--sources and --normalize apply to primitives that sum over sources (bc), not %s", prim.name);
    goto done;
  }
  if (several && o.src_given) {
    rc = usage_error("%s", "--sources draws the sources itself: give --src or --sources, not both");
    goto done;
  }

  /* Devices first: a request that cannot be met fails before a long load. */
  bool on_gpu = false;
  if (!o.cpu) {
    int gpus = 0;
    st = gr_gpu_count(&gpus);
    if (st < 0) {
      rc = fail(st, "counting GPUs");
      goto done;
    }
    if (gpus == 0 && !o.gpus_given) {
      if (!o.quiet) {
        gr_library_info li;
        gr_library_get_info(&li);
        fprintf(stderr, "gr_run: no GPU found%s; running on the CPU backend\n",
                li.cuda ? "" : " (this build has no CUDA backend)");
      }
    } else if (o.gpus > gpus) {
      fprintf(stderr, "gr_run: %d GPU%s asked for, but %d exist%s on this machine%s\n", o.gpus,
              o.gpus == 1 ? " was" : "s were", gpus, gpus == 1 ? "s" : "",
              gpus == 0 ? "; use --cpu for CPU devices" : "");
      rc = EXIT_USAGE;
      goto done;
    } else {
      on_gpu = true;
    }
  }
  if ((rc = set_option(&o, "backend", on_gpu ? "gpu" : "cpu")) >= 0) goto done;
  rc = EXIT_OK;
  /* The context opens the exchange before the long load, so that a
   * transport that cannot work here (NCCL missing, more devices than it
   * takes) is reported at once. */
  st = gr_context_create(&ctx, o.set);
  if (st < 0) {
    rc = fail(st, o.gpus > 1 ? "--transport" : NULL);
    goto done;
  }
  /* What a process pays before it reads a byte of the graph (on GPUs, the
   * driver's start and the exchange's set-up): shown apart, since a sweep
   * of many short runs pays it every time. */
  ph->start = gr_time_now() - t_start;

  if (prim.needs_in_edges && (rc = set_option(&o, "in-edges", "on")) >= 0) goto done;
  rc = EXIT_OK;
  t_phase = gr_time_now();
  if (prim.needs_weights && o.weights_none) {
    rc = usage_error("%s needs edge weights; --weights none is not allowed", prim.name);
    goto done;
  }
  if (o.gen) {
    st = gr_graph_generate(&g, o.gen, o.set);
    if (st < 0) {
      rc = fail(st, st == GR_ERR_INVALID_ARG ? "--gen" : "generating the graph");
      goto done;
    }
  } else {
    st = gr_graph_open(&g, o.file, o.set);
    if (st < 0) {
      rc = fail(st, NULL);
      goto done;
    }
  }
  ph->load = gr_time_now() - t_phase;
  gr_graph_get_info(g, &rep.graph);
  if (rep.graph.vertices == 0) {
    fprintf(stderr, "gr_run: the graph has no vertices\n");
    rc = EXIT_USAGE;
    goto done;
  }
  if (prim.needs_weights && !rep.graph.weighted) {
    fprintf(stderr, "gr_run: %s needs edge weights; %s has none (use --weights random:LO:HI)\n", prim.name,
            rep.graph.name);
    rc = EXIT_USAGE;
    goto done;
  }

  /* The sources of the runs, as input ids. */
  sources = calloc((size_t)o.runs, sizeof *sources);
  if (!sources) {
    fprintf(stderr, "gr_run: out of host memory for %d sources\n", o.runs);
    rc = EXIT_RUNTIME;
    goto done;
  }
  if (several) {
    /* Draw 0 now: a count the graph cannot give fails before the set-up. */
    n_src = o.sources_all ? rep.graph.vertices : o.sources;
    src_list = calloc((size_t)n_src, sizeof *src_list);
    if (!src_list) {
      fprintf(stderr, "gr_run: out of host memory for %llu sources\n", (unsigned long long)n_src);
      rc = EXIT_RUNTIME;
      goto done;
    }
    st = o.sources_all ? gr_graph_ids(g, src_list) : gr_graph_sample_sources(g, o.seed, 0, n_src, src_list);
    if (st == GR_ERR_INVALID_ARG) {
      fprintf(stderr, "gr_run: --sources %llu: %s; use --sources all\n", o.sources, gr_error_message());
      rc = EXIT_USAGE;
      goto done;
    }
    if (st < 0) goto runtime_fail;
  } else if (prim.needs_source) {
    if (o.src == SRC_ID) {
      uint64_t index = 0;
      if (o.src_id > (unsigned long long)INT64_MAX) {
        fprintf(stderr, "gr_run: --src: vertex %llu is not in %s\n", o.src_id, rep.graph.name);
        rc = EXIT_USAGE;
        goto done;
      }
      st = gr_graph_find(g, (int64_t)o.src_id, &index);
      if (st < 0) {
        rc = fail(st, "--src");
        goto done;
      }
      for (int r = 0; r < o.runs; r++) sources[r] = (int64_t)o.src_id;
    } else {
      st = gr_graph_sources(g, o.src == SRC_RANDOM ? "random" : "max-degree", o.seed, o.runs, sources);
      if (st < 0) goto runtime_fail;
    }
  }

  /* Checks of the input (sssp: weights of at least 0), the partition, each
   * device's subgraph, the devices opened with their parts uploaded. */
  t_phase = gr_time_now();
  st = gr_problem_create(&prob, ctx, g, prim.name, o.set);
  if (st < 0) goto runtime_fail;
  const double t_create = gr_time_now() - t_phase;
  gr_problem_get_info(prob, &rep.info);
  ph->build = rep.info.build_seconds;
  ph->setup = rep.info.setup_seconds;
  if (rep.info.partitioner) ph->partition = fmax(0.0, t_create - ph->build - ph->setup);

  records = calloc((size_t)o.runs, sizeof *records);
  if (!records) {
    fprintf(stderr, "gr_run: out of host memory for %d run records\n", o.runs);
    rc = EXIT_RUNTIME;
    goto done;
  }
  if (several && n_src >= 16 && !o.quiet) {
    /* A long run is announced first: one source is timed alone and the
     * time scaled (a handful of sources is not worth the probe). What
     * scales is the run itself: gathering its results to the host, once
     * per run, is left out. */
    gr_stats *probe = NULL;
    gr_run_summary ps;
    t_phase = gr_time_now();
    st = gr_problem_run_sources(prob, src_list, 1, &probe);
    const double wall = gr_time_now() - t_phase;
    if (st < 0) goto runtime_fail;
    gr_stats_get_summary(probe, &ps);
    gr_stats_destroy(&probe);
    const double one = fmax(0.0, wall - ps.extract_seconds);
    const double total = one * (double)n_src * (double)o.runs;
    if (total > 3.0)
      fprintf(stderr, "gr_run: %s over %llu sources: about %.0f s (%.3f s for one source, %d run%s)\n", prim.name,
              (unsigned long long)n_src, total, one, o.runs, o.runs == 1 ? "" : "s");
  }
  for (int r = 0; r < o.runs; r++) {
    gr_run_record *x = &records[r];
    if (several && !o.sources_all && r > 0) {
      st = gr_graph_sample_sources(g, o.seed, r, n_src, src_list);
      if (st < 0) goto runtime_fail;
    }
    t_phase = gr_time_now();
    st = several ? gr_problem_run_sources(prob, src_list, n_src, &x->stats)
                 : gr_problem_run(prob, sources[r], &x->stats);
    const double t_run = gr_time_now() - t_phase;
    if (st < 0) goto runtime_fail;
    rep.n_runs = r + 1;
    gr_stats_get_summary(x->stats, &x->sum);
    ph->runs += t_run - x->sum.extract_seconds;
    ph->extract += x->sum.extract_seconds;
    if (o.validate && (!o.validate_first || r == 0)) {
      t_phase = gr_time_now();
      st = gr_problem_validate(prob);
      if (st < 0 && st != GR_ERR_VALIDATION) goto runtime_fail;
      x->validated = st < 0 ? -1 : 1;
      if (st < 0 && !rep.validation_error[0]) {
        if (prim.needs_source)
          snprintf(rep.validation_error, sizeof rep.validation_error, "run %d (source %lld): %s", r,
                   (long long)x->sum.source, gr_error_message());
        else
          snprintf(rep.validation_error, sizeof rep.validation_error, "run %d: %s", r, gr_error_message());
      }
      ph->validate += gr_time_now() - t_phase;
    }
  }

  rep.primitive = prim.name;
  rep.sourceless = !prim.needs_source;
  rep.problem = prob;
  rep.n_devices = rep.info.devices;
  devs = calloc((size_t)rep.n_devices, sizeof *devs);
  if (rep.info.partitioner) parts = calloc((size_t)rep.n_devices, sizeof *parts);
  if (!devs || (rep.info.partitioner && !parts)) {
    fprintf(stderr, "gr_run: out of host memory for the device reports\n");
    rc = EXIT_RUNTIME;
    goto done;
  }
  for (int i = 0; i < rep.n_devices; i++) {
    gr_problem_get_device(prob, i, &devs[i]);
    if (parts) gr_problem_get_part(prob, i, &parts[i]);
  }
  rep.devices = devs;
  rep.parts = parts;
  rep.runs = records;
  rep.validate = o.validate;
  rep.timeline = o.timeline;
  rep.turns = o.turns;
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
    st = gr_report_write_out(o.out, g, prob);
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
    for (int r = 0; r < o.runs; r++) gr_stats_destroy(&records[r].stats);
  free(records);
  free(devs);
  free(parts);
  free(sources);
  free(src_list);
  gr_problem_destroy(&prob);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o.set);
  return rc;
}
