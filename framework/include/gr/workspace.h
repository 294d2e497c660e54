/* SPDX-License-Identifier: Apache-2.0 */
/* Per-device scratch space for operators: degree scans, library temporary
 * storage and small counters read back by the host. Grown just enough by the
 * operator that needs it; one per device thread. */
#ifndef GR_WORKSPACE_H
#define GR_WORKSPACE_H

#include "gr/buffer.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GR_WS_COUNTERS = 16 };

/* Choices among the operators' variants, for comparing them (gr_run
 * --tune); the defaults are the fastest measured (docs/performance.md). */
typedef enum gr_advance_mode {
  GR_ADVANCE_CHUNKED = 0, /* edge-balanced; chunk starts found by a parallel pre-pass */
  GR_ADVANCE_SERIAL = 1,  /* edge-balanced; each block searches its chunk's start itself */
  GR_ADVANCE_TWC = 2,     /* thread/warp/block mapping per vertex, no pre-pass */
  GR_ADVANCE_AUTO = 3     /* per level: TWC when no vertex dominates the frontier, else chunked */
} gr_advance_mode;

typedef enum gr_pull_mode {
  GR_PULL_HYBRID = 0, /* a thread per light candidate, a warp per heavy one */
  GR_PULL_WARP = 1    /* a warp per candidate */
} gr_pull_mode;

typedef enum gr_sort_mode { GR_SORT_AUTO = 0, GR_SORT_ON = 1, GR_SORT_OFF = 2 } gr_sort_mode;

#define GR_LONG_ROWS_AUTO UINT64_MAX

typedef struct gr_tuning {
  gr_advance_mode advance;
  gr_pull_mode pull;
  /* Small frontiers run many levels in one device-side loop (one launch,
   * no host round trip per level) while the frontier has at most
   * small_vertices vertices, small_edges out-edges and no vertex of degree
   * above small_degree; larger ones go back to the load-balanced advance. */
  bool small_loop;
  gr_eid small_vertices;
  gr_eid small_edges;
  gr_eid small_degree;
  /* Traversals that keep a visited bitmap (n/8 bytes, small enough for the
   * caches) test it before the per-vertex state (n words, random reads). */
  bool visited_bitmap;
  /* pull=hybrid: candidates of at most pull_light in-edges get a thread,
   * heavier ones a warp. */
  gr_eid pull_light;
  /* Push levels claim vertices without compare-and-swap where the output
   * has room for duplicates (BFS, DOBFS), culling most of them. */
  bool idempotent;
  /* The edge-balanced push reads its input's lists in id order (the input
   * sorted first): for graphs in host memory, whose lists then come over
   * the host link in address order. Auto: where the graph is in host
   * memory. */
  gr_sort_mode sort_input;
  /* Pulls that sum over every in-edge of every vertex (PageRank) read the
   * sources renumbered by how many in-edges they feed: the values of the
   * hubs, which most in-edges read, share cache lines and stay in each
   * SM's L1, and positions at or past `hot` bypass it. Costs a second copy
   * of the in-edge ids on the device. Auto: on a GPU whose graph is in
   * device memory, when the top 1% of sources feed a fifth of the in-edges
   * or more and the copy fits. Positions below `hub` are read from a copy
   * in each GPU block's shared memory (at most what a block can hold). */
  gr_sort_mode relabel;
  gr_eid hot;
  gr_eid hub;
  /* The edge-balanced push (advance=chunked|serial) gives rows of at least
   * long_rows edges a thread per 32-edge block of their list, which walks
   * the block in order (packed lists then decode one code a step, with no
   * warp-wide sum), and the other rows a thread per edge; 0: a thread per
   * edge for every row. GR_LONG_ROWS_AUTO: rows of 32 edges or more with
   * packed lists, on levels whose input holds 2^25 arcs or more and
   * averages 32 or more a row; never with plain ids (docs/performance.md
   * has the measurements). */
  gr_eid long_rows;
  /* The walked rows' packed blocks (32-bit ids) are copied by each warp to
   * shared memory in coalesced runs before the walk, rather than read word
   * by word by each block's thread, whose loads then touch 32 sectors a
   * warp. Auto: where the device's vertices' 4-byte states take at least
   * eight times its L2 and its memory is slower than 4 TB/s, the walk's
   * scattered reads then competing with the states' misses for the L2
   * (docs/performance.md). */
  gr_sort_mode walk_stage;
  /* BC counts each source's shortest paths in double and, where a count
   * outgrows it, runs the source again with the counts as logarithms
   * (bc-counts=auto); bc-counts=log takes logarithms from the start for
   * every source. Slower and a little less exact; it exists so that the
   * logarithm kernels run on graphs of any size, small ones included
   * (their tests, compute-sanitizer over them), not only on graphs whose
   * counts pass 1.8e308 (grids of 600 x 600 and more). */
  bool bc_log;
  /* SSSP relaxes an arc of weight delta or more (heavy) once per vertex
   * and bucket, at the bucket's end (sssp-heavy=once), or with the light
   * ones at every expansion of its vertex (sssp-heavy=always; sssp/sssp.h). */
  bool sssp_heavy_once;
  /* SSSP's last buckets go as one, every arc relaxed at every expansion
   * (a Bellman-Ford over what is left), once the work left (the far piles,
   * and between devices the heavy arcs' sources in flight) holds at most
   * 1/sssp_tail of the largest bucket so far: the buckets of a search's
   * tail hold few vertices each and cost their iterations' launches and
   * round trips (sssp/sssp.c). 0: never. */
  gr_eid sssp_tail;
  /* Between devices, SSSP ends a bucket early once at most sssp_early
   * vertices are left in it on all devices together: the iteration that
   * relaxes them takes the bucket's heavy arcs and the next bucket's first
   * vertices too (sssp/sssp.c, "A bucket's early end"). A bucket's last
   * levels hold a handful of vertices, and each cost an iteration of
   * launches, round trips and barriers that one device's device-side loop
   * does not pay. 0: never. */
  gr_eid sssp_early;
  /* Between devices whose kernels reach each other's memory (CPU devices;
   * GPUs under the peer-to-peer transport), SSSP's relax lowers a copy's
   * distance on its owner too, in place, so that the owner's relax in the
   * same level reads it (sssp-peers=on; sssp/sssp.h); off (the default):
   * owners learn of it at the exchange only. On logical devices of one
   * H200 taking turns it neither gained nor lost: the first device's
   * writes help the second alone (docs/performance.md, "SSSP's copies
   * lowered on their owners in place"). */
  bool sssp_peers;
  /* Between devices where every word of 32 ids has one owner (duplicate-all
   * proxies, the random partition's blocks of 32 ids), DOBFS's pulls keep
   * and send their finds as the words of the device's own ids alone
   * (gr_part_owner_words; owner-words=on, the default), 1/N of a bitmap of
   * every id; off: bitmaps of every id. */
  bool owner_words;
  /* Between devices, where CC's join finds every device's largest tree in
   * one component (one label), no label of those trees crosses between
   * devices: the first take sends no copy of the largest tree, and the
   * merge's refresh sends records of the other owned labels, every copy
   * taking the one label first (cc-one-label=on, the default; cc/cc.c,
   * gr__cc_merge); off: every copy whose label fell goes to its owner and
   * every border vertex's label to its copies. */
  bool cc_one_label;
  /* pull=hybrid: a heavy candidate's thread first tests its first pull_try
   * in-edges itself and hands the rest of its row to the warp kernel only
   * where none of them is a parent (default 8; 0: heavy candidates go to
   * the warp kernel untested). Where most in-edges come from the frontier
   * (a big pull of a Kronecker graph) a hub finds its parent among its
   * first few in-edges, which a warp walks 32 lanes wide; where few do (web
   * graphs' pulls) the warp walks long rows faster than a thread. 8 took
   * one H200's DOBFS on Kronecker 25 from 1.86-1.96 to 1.49-1.54 ms and
   * left the web graphs' as they were (docs/performance.md, "A heavy pull
   * candidate's tries"). */
  gr_eid pull_try;
} gr_tuning;
#define GR_TUNING_INIT                                                                                              \
  {GR_ADVANCE_CHUNKED, GR_PULL_HYBRID, true, 16384, 131072, 512, true, 64, false, GR_SORT_AUTO, GR_SORT_AUTO, 32768, \
   4096, GR_LONG_ROWS_AUTO, GR_SORT_AUTO, false, true, 16, 16384, false, true, true, 8}
/* "advance=chunked|serial|twc|auto,pull=hybrid|warp,small=on|off,small-vertices=N,
 * small-edges=N,small-degree=N,visited=bitmap|state,pull-light=N,status=atomic|idempotent,sort=auto|on|off,
 * relabel=auto|on|off,hot=N,hub=N,long-rows=auto|N,walk-stage=auto|on|off,bc-counts=auto|log,
 * sssp-heavy=once|always,sssp-tail=N,sssp-early=N,sssp-peers=on|off,owner-words=on|off,
 * cc-one-label=on|off,pull-try=N" (any subset, comma separated). */
gr_status gr_tuning_parse(gr_tuning *t, const char *text);

/* Device memory bandwidth (bytes a second) under which walk-stage=auto
 * copies the walk's blocks. */
#define GR_WALK_STAGE_BANDWIDTH UINT64_C(4000000000000)
/* Whether the walk copies its packed blocks to shared memory: walk-stage=on,
 * or auto with n vertices whose 4-byte states take at least 8 times the
 * device's L2 (l2_bytes) and device memory slower than
 * GR_WALK_STAGE_BANDWIDTH (bandwidth, bytes a second). An L2 or bandwidth
 * of 0 (not known) never copies on auto. */
bool gr_tuning_walk_stage(const gr_tuning *t, uint64_t n, uint64_t l2_bytes, uint64_t bandwidth);

typedef struct gr_workspace {
  gr_device *dev;
  gr_buffer scan;     /* gr_eid per frontier item, plus one */
  gr_buffer temp;     /* library (CUB) temporary storage */
  gr_buffer words;    /* per-word counts for bitmap compaction */
  gr_buffer counters; /* GR_WS_COUNTERS device-side gr_eid counters */
  gr_buffer chunks;   /* advance: first frontier index of each edge chunk */
  gr_eid *host_counters; /* pinned mirror of the counters */
  gr_buffer sorted;   /* advance: the input sorted by id (tune.sort_input) */
  gr_mem_policy policy;
  gr_tuning tune;
  bool graph_on_host; /* the device's graph arrays are in host memory (--graph-memory) */
} gr_workspace;

gr_status gr_workspace_init(gr_workspace *ws, gr_device *dev, const gr_mem_policy *policy);
void gr_workspace_release(gr_workspace *ws);
/* Zeroes the first n device counters. */
gr_status gr_workspace_zero_counters(gr_workspace *ws, int n);
/* Copies the first n device counters to ws->host_counters (synchronizes). */
gr_status gr_workspace_read_counters(gr_workspace *ws, int n);

#ifdef __cplusplus
}
#endif

#endif
