/* SPDX-License-Identifier: Apache-2.0 */
/* gr's public C interface: the one header a program includes to load or hand
 * over a graph and run a primitive on GPUs or CPU devices. It depends on no
 * other gr header but gr/status.h (the status codes), and on no build option:
 * vertex ids cross it as 64-bit integers whatever width the library keeps.
 *
 *   gr_options  settings by name ("devices" = "2", "direction" = "pull"),
 *               checked when set; one handle serves the calls below
 *   gr_context  the devices (backend, count), the exchange between them and
 *               how a graph is split over them
 *   gr_graph    a graph read from a file, generated, or built from arrays
 *   gr_problem  a primitive set up on a graph over a context's devices:
 *               partitioned, uploaded, ready to run again and again
 *   gr_stats    the figures of one run (time, iterations, edges, per
 *               device time split and bytes)
 *
 * Conventions: every function returns a gr_status (0 success, negative an
 * error, positive information) unless it only reads a handle; the detail of
 * the last error of the calling thread is gr_error_message(). Handles are
 * made by gr_X_create (or gr_graph_open/generate) and freed by gr_X_destroy,
 * which takes the address of the handle, sets it to NULL and accepts NULL.
 * The library runs one thread per device internally; calls on one handle
 * must not overlap, and nothing else about threads concerns the caller.
 * Vertex ids are as the input names them: 1-based for Matrix Market files,
 * the file's own ids for edge lists, 0-based for generated graphs and
 * arrays. Arrays of per-vertex results are indexed by the graph's vertex
 * index 0..n-1 (gr_graph_ids gives each index's input id). */
#ifndef GR_GR_H
#define GR_GR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GR_API_VERSION_MAJOR 0
#define GR_API_VERSION_MINOR 1

/* ---- the library ------------------------------------------------------- */

typedef struct gr_library_info {
  const char *version;  /* "0.1.0" */
  int vertex_id_bits;   /* 32, or 64 for a GR_VERTEX_64 build */
  bool cuda;            /* built with the CUDA backend */
  bool nccl;            /* built with the NCCL transport */
  bool metis;           /* built with the METIS partitioner */
  int cuda_runtime;     /* CUDA runtime and driver versions (13000); 0 without */
  int cuda_driver;
} gr_library_info;

/* Fills *out with what this build of the library has. Never fails. */
void gr_library_get_info(gr_library_info *out);

/* The GPUs this process can use (0 without a GPU, a driver or a CUDA build;
 * that is not an error). Errors: GR_ERR_INVALID_ARG for a NULL count,
 * GR_ERR_CUDA when the driver fails. */
gr_status gr_gpu_count(int *count);

/* ---- options ------------------------------------------------------------ */

typedef struct gr_options gr_options;

/* A set of settings, all at their defaults. Caller owns *out and frees it
 * with gr_options_destroy. Errors: GR_ERR_INVALID_ARG (NULL out),
 * GR_ERR_HOST_OOM. */
gr_status gr_options_create(gr_options **out);
void gr_options_destroy(gr_options **o);

/* Sets option `key` to `value` (text, copied). The value is checked now:
 * an unknown key or a value out of range is GR_ERR_INVALID_ARG with a
 * message naming both, and leaves the options as they were. Booleans accept
 * on/off, true/false, yes/no, 1/0.
 *
 * Devices (read by gr_context_create):
 *   backend       auto (GPUs when present, else CPU devices), cpu or gpu
 *   devices       number of devices, 1..1024 (default 1)
 *   gpu-ids       the GPU of each device, e.g. "1,3" (physical ordinals;
 *                 repeats put several devices on one GPU; sets devices to
 *                 its length; "default": device i on GPU i). GPUs only:
 *                 gr_context_create refuses it with the cpu backend and
 *                 names an ordinal the machine lacks
 *   cpu-threads   threads per CPU device (0: host threads / devices)
 *   mem           buffer growth: just-enough, prealloc:FACTOR or max
 *   partitioner   random, biased, metis, static or range (default random)
 *   partition-block  random: the parts are drawn for aligned blocks of this
 *                 many ids, 1..2^30, or auto (default): 32 where every part
 *                 gets 16384 blocks or more on average, else 1
 *   bias          biased partitioner: weight of the balance term (0.5)
 *   proxy         auto, all or 1hop (default auto)
 *   comm          default (the primitive's), selective or broadcast
 *   transport     auto, host, p2p or nccl
 *   comm-format   auto, list or bitmap
 *   timeline      keep every iteration's figures per device (off)
 *   turns         the devices take turns during runs, so that each one's
 *                 work (gr_device_split.work_ms) is timed alone even where
 *                 several share one GPU; runs take longer; not with the
 *                 nccl transport (off)
 *   seed          seed of partitioners, generators, random weights and
 *                 random sources (default 1)
 * Graphs (read by gr_graph_open, gr_graph_generate, gr_graph_create_*):
 *   undirected    symmetrize the input (off; symmetric files always are)
 *   self-loops    default, keep or remove (default: remove when undirected)
 *   duplicates    default, keep or remove (default: remove when undirected)
 *   weights       file (as given), none, or random:LO:HI (seeded)
 *   format        auto, mtx, edgelist or binary (files)
 *   cache         read and write the binary load cache beside a file (on)
 *   cache-dir     where the load cache lives
 *   progress      auto, on or off: load progress on stderr (auto: on a
 *                 terminal)
 *   in-edges      build the in-edges (CSC) at load rather than on first use
 * Primitives (read by gr_problem_create):
 *   mark-pred     record predecessors (bfs, dobfs, sssp)
 *   max-iter      stop after N iterations (0: until convergence)
 *   direction     auto, push or pull (dobfs, pr)
 *   do-a, do-b    dobfs switching factors (positive numbers)
 *   delta         sssp bucket width: a positive number or auto
 *   tolerance     pr: stop when the L1 change falls below it (0 < T < 2)
 *   damping       pr: the probability of following an out-edge rather than
 *                 jumping to a random vertex (0 <= D < 1; default 0.85);
 *                 NetworkX's alpha
 *   graph-memory  where each device's column indices and weights live:
 *                 auto (device when its part fits, else host), device or
 *                 host (pinned host memory the kernels read directly;
 *                 offsets and per-vertex state stay on the device)
 *   device-memory-limit  the most device memory gr may use per device,
 *                 e.g. 8G (K, M, G, T: powers of 1024); default none
 *   tune          operator variants, "K=V,K=V" (see gr_run --help)
 *   sources       primitives that sum over sources (bc): what one
 *                 gr_problem_run takes: 1 (default) the source it is
 *                 given, K a draw of K distinct vertices with out-edges
 *                 (gr_graph_sample_sources; the problem's k-th run, every
 *                 run counted from 0, takes draw k), or all (exact)
 *   normalize     bc: scale the sums to all n sources (n / K) and divide by
 *                 the (n - 1)(n - 2) ordered pairs of other vertices
 *                 (networkx's normalized betweenness, directed or not)
 * Numbers are plain decimals: digits with an optional point and exponent;
 * blanks, '+' signs, hexadecimal, infinities and NaNs are refused.
 */
gr_status gr_options_set(gr_options *o, const char *key, const char *value);

/* ---- primitives ----------------------------------------------------------- */

/* Number of primitives in the library, and the name of the i-th (NULL when
 * i is out of range). Names are static strings. */
int gr_primitive_count(void);
const char *gr_primitive_name(int i);

typedef enum gr_values_type {
  GR_VALUES_INT64 = 0,   /* depths, labels; -1 for unreached */
  GR_VALUES_FLOAT32 = 1, /* distances (+inf unreached), ranks */
  GR_VALUES_FLOAT64 = 2  /* double-precision values */
} gr_values_type;

typedef struct gr_primitive_info {
  const char *name;
  const char *summary;     /* one line */
  bool needs_source;
  bool needs_weights;
  bool needs_in_edges;
  gr_values_type values;   /* what its results hold */
  bool accumulates_sources; /* a run may sum over several sources (bc):
                               gr_problem_run_sources, "sources", "normalize" */
} gr_primitive_info;

/* Describes primitive `name`. Errors: GR_ERR_INVALID_ARG for an unknown
 * name (the message lists the known ones). */
gr_status gr_primitive_get_info(const char *name, gr_primitive_info *out);

/* ---- contexts ------------------------------------------------------------ */

typedef struct gr_context gr_context;

/* Picks the devices and opens the exchange between them, as the device keys
 * of `o` say (o NULL: defaults). Devices themselves are opened by each
 * problem, one thread each. Errors: GR_ERR_NO_DEVICE when more GPUs are
 * asked for than exist; GR_ERR_INVALID_ARG / GR_ERR_UNSUPPORTED for a
 * transport that does not fit the devices or the build; GR_ERR_NCCL.
 * The context keeps a copy of the settings; o may be destroyed after. */
gr_status gr_context_create(gr_context **out, const gr_options *o);
/* Frees the context; while problems made on it are alive, it stays with
 * them (they still run) and goes with the last, so contexts and problems
 * may be destroyed in any order. */
void gr_context_destroy(gr_context **c);

typedef struct gr_context_info {
  const char *backend;   /* "cuda" or "cpu" */
  int devices;
  const char *transport; /* "host", "p2p", "nccl"; NULL with one device */
} gr_context_info;
gr_status gr_context_get_info(const gr_context *c, gr_context_info *out);

/* ---- graphs --------------------------------------------------------------- */

typedef struct gr_graph gr_graph;

/* Reads a graph file: Matrix Market (.mtx, .mtx.gz), an edge list (.txt,
 * .el, .csv, .gz) or gr's binary format (.grb); the graph keys of `o` apply.
 * Errors: GR_ERR_IO (missing file), GR_ERR_BAD_INPUT (the message names the
 * file, the line and the problem), GR_ERR_TOO_LARGE, GR_ERR_HOST_OOM. */
gr_status gr_graph_open(gr_graph **out, const char *path, const gr_options *o);

/* Generates a graph: kron:SCALE[:EF], rmat:..., uniform:SCALE[:EF],
 * grid2d:RxC, grid3d:XxYxZ, with ",directed", ",seed=S" (else the "seed"
 * option). Errors: GR_ERR_INVALID_ARG naming the bad part of the spec. */
gr_status gr_graph_generate(gr_graph **out, const char *spec, const gr_options *o);

/* Builds a graph of n vertices (ids 0..n-1) from arrays the caller keeps
 * (they are copied; the caller may free them on return).
 *   CSR: offsets has n + 1 non-decreasing entries from 0, indices
 *        offsets[n] entries in [0, n).
 *   COO: m arcs src[k] -> dst[k], both in [0, n).
 * weights (one per entry, finite) may be NULL. Arcs are directed unless the
 * "undirected" option is on (each arc then stands for an edge). Errors:
 * GR_ERR_INVALID_ARG naming the first bad entry, GR_ERR_TOO_LARGE,
 * GR_ERR_HOST_OOM. */
gr_status gr_graph_create_csr(gr_graph **out, uint64_t n, const int64_t *offsets, const int64_t *indices,
                              const float *weights, const gr_options *o);
gr_status gr_graph_create_coo(gr_graph **out, uint64_t n, uint64_t m, const int64_t *src, const int64_t *dst,
                              const float *weights, const gr_options *o);

/* Frees the graph; while problems made on it are alive, it stays with
 * them (they still run) and goes with the last. */
void gr_graph_destroy(gr_graph **g);

typedef struct gr_graph_info {
  const char *name;    /* the file's name, the generator spec or "edge list"; owned by the graph */
  uint64_t vertices;
  uint64_t edges;      /* as the user counts them: undirected edges once */
  uint64_t arcs;       /* stored arcs: an undirected edge counts twice */
  bool directed;
  bool weighted;
  double load_seconds;
  bool from_cache;     /* read from the binary load cache */
} gr_graph_info;
gr_status gr_graph_get_info(const gr_graph *g, gr_graph_info *out);

/* The input id of every vertex index into ids (vertices entries, caller's
 * memory). */
gr_status gr_graph_ids(const gr_graph *g, int64_t *ids);
/* The vertex index of input id `id`. Errors: GR_ERR_INVALID_ARG when the
 * graph has no such vertex. */
gr_status gr_graph_find(const gr_graph *g, int64_t id, uint64_t *index);
/* Picks `count` sources (input ids) into ids: how = "random" (the seeded
 * sequence of vertices with out-edges that gr_run uses) or "max-degree"
 * (the vertex of largest out-degree, count times). Errors:
 * GR_ERR_INVALID_ARG for another `how`, an empty graph or count < 0. */
gr_status gr_graph_sources(const gr_graph *g, const char *how, uint64_t seed, int count, int64_t *ids);
/* `count` distinct vertices with out-edges (input ids) into ids: draw
 * `draw` of the seeded sequence of draws, each the first `count` of a
 * seeded shuffle of those vertices (gr_run --sources K takes draw r for its
 * run r). Errors: GR_ERR_INVALID_ARG for count 0, a negative draw, or more
 * sources than vertices with out-edges (the message says how many have);
 * GR_ERR_HOST_OOM. */
gr_status gr_graph_sample_sources(const gr_graph *g, uint64_t seed, int draw, uint64_t count, int64_t *ids);

/* ---- problems and runs ------------------------------------------------------ */

typedef struct gr_problem gr_problem;
typedef struct gr_stats gr_stats;

/* Sets primitive `primitive` up on graph g over the devices of ctx: checks
 * the input (sssp: weights present and non-negative), partitions the graph
 * when there are several devices, opens each device on a thread of its own,
 * uploads its part and initialises the primitive. The primitive keys of o
 * apply (o NULL: defaults). The problem holds g and ctx: either may be
 * destroyed first (each is freed with the last problem holding it); g must
 * not change meanwhile. Errors: GR_ERR_INVALID_ARG (unknown primitive, more
 * devices than vertices, options the primitive rejects), GR_ERR_BAD_INPUT
 * (no vertices, missing or negative weights), GR_ERR_UNSUPPORTED (metis in
 * a build without METIS), GR_ERR_DEVICE_OOM / GR_ERR_HOST_OOM /
 * GR_ERR_CUDA naming the device. */
gr_status gr_problem_create(gr_problem **out, gr_context *ctx, gr_graph *g, const char *primitive,
                            const gr_options *o);
void gr_problem_destroy(gr_problem **p);

/* One run from `source` (an input id; ignored by primitives without a
 * source). Results stay in the problem until the next run. When stats is
 * not NULL, *stats receives the run's figures, which the caller frees with
 * gr_stats_destroy. Returns GR_SUCCESS, or GR_ITERATION_LIMIT (information:
 * "max-iter" stopped the run). Errors: GR_ERR_INVALID_ARG (no such source),
 * device failures naming the device (every device stops cleanly; the
 * problem may be destroyed or run again). */
gr_status gr_problem_run(gr_problem *p, int64_t source, gr_stats **stats);

/* One run over `count` sources (input ids, in the order taken), for
 * primitives that sum over sources (gr_primitive_info.accumulates_sources:
 * bc sums every source's dependencies); sources NULL and count 0: every
 * vertex, the exact value. A primitive with one source per run takes a list
 * of one (as gr_problem_run). The "sources" option does not apply; the rest
 * is as gr_problem_run. Errors: GR_ERR_INVALID_ARG (no such source, a
 * primitive without sources, several sources for one that takes one),
 * GR_ERR_HOST_OOM, device failures. */
gr_status gr_problem_run_sources(gr_problem *p, const int64_t *sources, uint64_t count, gr_stats **stats);

typedef struct gr_values {
  uint64_t n;                /* vertices */
  gr_values_type type;
  const void *values;        /* n values of `type`, by vertex index */
  bool values_are_ids;       /* INT64 values are input ids (cc's labels) */
  const int64_t *predecessors; /* n input ids, -1 for none; NULL unless "mark-pred" */
} gr_values;
/* The last run's results (bc: each vertex's centrality, FLOAT64: the sum
 * of its dependencies over the run's sources, scaled under "normalize";
 * over all sources of an undirected graph each pair counts in both
 * directions, twice networkx's unnormalized value). The arrays belong to the problem and stay valid
 * until its next run or its destruction. Errors: GR_ERR_INVALID_ARG before
 * any run, GR_ERR_HOST_OOM. */
gr_status gr_problem_get_values(gr_problem *p, gr_values *out);

/* Checks the last run against the primitive's serial reference and its
 * invariants. GR_ERR_VALIDATION with a message naming the first wrong
 * vertex; other errors as the reference meets them (GR_ERR_HOST_OOM). */
gr_status gr_problem_validate(gr_problem *p);

typedef struct gr_problem_info {
  const char *primitive;
  const char *backend;      /* "cuda" or "cpu" */
  int devices;
  bool needs_source;
  /* several devices: how the graph was split and how the devices talk */
  const char *partitioner;  /* NULL on one device */
  const char *proxy;        /* "all" or "1hop" */
  const char *comm;         /* "selective" or "broadcast" */
  const char *transport;
  double partition_seconds; /* assigning owners */
  uint64_t edge_cut;        /* arcs between parts */
  uint64_t arcs;
  uint64_t border_total;
  uint64_t proxies_total;
  /* wall seconds of the set-up */
  double build_seconds;     /* the devices' subgraphs */
  double setup_seconds;     /* the exchange's set-up, opening devices, uploads, the primitive's init */
  uint32_t partition_block; /* several devices: ids the random partitioner placed at once (else 1) */
} gr_problem_info;
gr_status gr_problem_get_info(const gr_problem *p, gr_problem_info *out);

/* One part of the partition (several devices). GR_ERR_INVALID_ARG for a
 * part out of range or a one-device problem. */
typedef struct gr_part_info {
  uint64_t vertices; /* owned */
  uint64_t edges;    /* out-edges of owned vertices */
  uint64_t border;   /* owned vertices with an arc to another part */
  uint64_t proxies;  /* remote vertices adjacent to the part */
} gr_part_info;
gr_status gr_problem_get_part(const gr_problem *p, int part, gr_part_info *out);

/* One device's memory so far: its name and peak bytes. */
typedef struct gr_device_info {
  char name[288];
  uint64_t peak_bytes;
  uint64_t allocations;
  uint64_t reallocations;
  /* graph-memory host (or auto that chose it): bytes of the graph's arrays
   * the kernels read from host memory; 0 when all are on the device */
  uint64_t host_graph_bytes;
  /* What the automatic tuning choices read (a GPU's; 0 on the CPU or where
   * the device does not say): its L2 in bytes and its memory's peak
   * bandwidth in bytes a second. */
  uint64_t l2_bytes;
  uint64_t memory_bandwidth;
} gr_device_info;
gr_status gr_problem_get_device(const gr_problem *p, int device, gr_device_info *out);

/* ---- the figures of a run ------------------------------------------------------ */

typedef struct gr_run_summary {
  int64_t source;           /* input id (the first of several); -1 for a primitive without one */
  double ms;                /* the traversal, reset excluded */
  int iterations;
  uint64_t edges_visited;   /* by the operators */
  uint64_t traversed_edges; /* Graph500: input edges in the traversed part */
  uint64_t reached;         /* vertices with a value (bc: reached from the last source) */
  double gteps;             /* traversed edges / time */
  bool iteration_limit;
  int devices;
  int levels;               /* entries for gr_stats_get_level */
  bool has_levels;          /* per-level edges, ms and tags were kept */
  bool has_level_bytes;     /* and bytes exchanged (several devices) */
  double extract_seconds;   /* gathering results to the host */
  uint64_t sources;         /* sources the run took: 1, K or n (bc), 0 without one */
} gr_run_summary;
gr_status gr_stats_get_summary(const gr_stats *s, gr_run_summary *out);

/* Level (iteration) k: input frontier over all devices, edges visited, ms,
 * the primitive's tag ('P' push, 'U' pull, 'L' a level of a device-side
 * loop, 'B' a new sssp bucket, 0 none) and bytes exchanged. */
typedef struct gr_level_info {
  uint64_t frontier;
  uint64_t edges;
  double ms;
  char tag;
  uint64_t bytes;
} gr_level_info;
gr_status gr_stats_get_level(const gr_stats *s, int k, gr_level_info *out);

/* Where one device's time went in the run, and what the host asked of it. */
typedef struct gr_device_split {
  double compute_ms, package_ms, transfer_ms, combine_ms, wait_ms;
  uint64_t items_sent, items_received;
  uint64_t launches, waits, allocations, barriers;
  int timeline_len;         /* entries for gr_stats_get_timeline ("timeline" on) */
  /* The run's wall time less wait_ms: what the device itself took (its
   * kernels, launches, host waits); alone on its GPU where devices have
   * one each or take turns ("turns"). */
  double work_ms;
  uint64_t bytes_received;  /* from all peers */
} gr_device_split;
gr_status gr_stats_get_device(const gr_stats *s, int device, gr_device_split *out);
/* Bytes device `device` sent to device `peer` (0 when out of range). */
uint64_t gr_stats_bytes_to(const gr_stats *s, int device, int peer);

typedef struct gr_timeline_step {
  int iteration;
  double compute_ms, package_ms, transfer_ms, combine_ms, wait_ms;
  uint32_t launches, waits, copies, memsets, allocations, barriers;
  uint64_t bytes;    /* sent */
  double work_ms;    /* as gr_device_split.work_ms, for this iteration */
  uint64_t bytes_in; /* received */
} gr_timeline_step;
gr_status gr_stats_get_timeline(const gr_stats *s, int device, int k, gr_timeline_step *out);

/* The primitive's own figures: named numbers (sssp: delta; cc: components)
 * and named series with one entry per iteration. Names and arrays belong
 * to the stats. */
int gr_stats_extra_numbers(const gr_stats *s);
gr_status gr_stats_get_extra_number(const gr_stats *s, int k, const char **name, double *value);
int gr_stats_extra_series(const gr_stats *s);
gr_status gr_stats_get_extra_series(const gr_stats *s, int k, const char **name, const double **values, int *len);

void gr_stats_destroy(gr_stats **s);

#ifdef __cplusplus
}
#endif

#endif
