/* SPDX-License-Identifier: Apache-2.0 */
/* Runs the exchange's split, pack and combine on one device from host inputs
 * and brings the results back, so that one case is checked on the CPU against
 * the definition and on a GPU against the CPU; builds and reads messages on
 * the host; runs BFS through the enactor on one or several devices. */
#ifndef GR_COMM_HARNESS_H
#define GR_COMM_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "comm.h"
#include "exchange_kernels.h"
#include "gr/device.h"
#include "gr/enactor.h"
#include "gr/graph.h"
#include "partitioner.h"

/* Checks for loops over items and vertices: Check's own assertions record
 * the place of every passing call, which costs seconds in long loops. */
#define XH_CHECK(cond, ...)                 \
  do {                                      \
    if (!(cond)) ck_abort_msg(__VA_ARGS__); \
  } while (0)

/* One message item: its id and payloads. Values are kept as their raw bytes
 * (value_bytes of them, zero-extended), so items compare with memcmp. */
typedef struct xh_item {
  uint64_t id;
  uint64_t val[GR_MAX_PAYLOADS];
  int64_t vtx[GR_MAX_PAYLOADS];
} xh_item;

/* Sorts items by id, then by payloads. */
void xh_sort_items(xh_item *it, uint64_t n);
/* A list message of `count` records (malloc'd, gr_xk_list_bytes long;
 * padding zero). */
unsigned char *xh_message_build(const gr_xk_layout *l, const xh_item *items, uint64_t count);
/* The records of a list message, in slot order (malloc'd; count may be 0). */
xh_item *xh_message_items(const gr_xk_layout *l, const unsigned char *msg, uint64_t count);
/* A bitmap message over [0, universe) holding `ids` with the value's raw
 * bytes (malloc'd, gr_xk_bitmap_bytes long). */
unsigned char *xh_bitmap_build(gr_vid universe, uint64_t value_bits, int value_bytes, const gr_vid *ids, uint64_t n);
/* The ids set in a bitmap message, ascending (malloc'd), and its value. */
gr_vid *xh_bitmap_ids(const unsigned char *msg, gr_vid universe, int value_bytes, uint64_t *n, uint64_t *value_bits);
/* Value bytes of a type. */
int xh_value_bytes(gr_value_type t);
/* Raw bytes of a value given as a double (converted to the type). */
uint64_t xh_value_bits(gr_value_type t, double x);
/* The value of raw bytes as a double. */
double xh_value_of(gr_value_type t, uint64_t bits);

/* Host-side per-vertex state: the payload arrays of n vertices. */
typedef struct xh_state {
  gr_vid n;
  gr_value_type type;
  gr_xk_layout layout;
  void *values[GR_MAX_PAYLOADS];
  gr_svid *vertices[GR_MAX_PAYLOADS];
} xh_state;
/* Zeroed arrays; returns false when out of memory. */
bool xh_state_alloc(xh_state *s, gr_vid n, gr_value_type type, int n_values, int n_vertices);
bool xh_state_copy(xh_state *dst, const xh_state *src);
void xh_state_free(xh_state *s);
uint64_t xh_state_get(const xh_state *s, int k, gr_vid v);
void xh_state_set(xh_state *s, int k, gr_vid v, uint64_t bits);

/* Random inputs shared by the CPU and GPU tests (seeded): a state whose
 * values suit `op` (small integers and -1 for SVID min/max, bit masks for OR,
 * quarters for floating sums so every order of additions is exact), and
 * `count` items with distinct ids below id_range and values of the same
 * kind. */
void xh_state_random(xh_state *s, gr_combine_op op, uint64_t seed);
xh_item *xh_items_random(const xh_state *shape, gr_combine_op op, gr_vid id_range, uint64_t count, uint64_t seed);
/* Owner parts in [0, parts), seeded. */
int32_t *xh_owner_random(gr_vid n, int parts, uint64_t seed);
/* Owners as duplicate-1-hop proxies lay them out: `me`'s vertices first
 * (about a third), then every other part's in ascending order, each a run
 * of random length (parts of no vertex too). */
int32_t *xh_owner_runs(gr_vid n, int parts, int me, uint64_t seed);
/* `count` distinct vertices below n in random order, seeded. */
gr_vid *xh_vertices_random(gr_vid n, gr_eid count, uint64_t seed);

/* ---- package ------------------------------------------------------------ */
typedef struct xh_package_in {
  const xh_state *state;
  const int32_t *owner; /* per vertex */
  int parts, me;
  bool broadcast;
  const gr_vid *convert; /* host table or NULL */
  /* The pass gets convert from this id on (every item owned elsewhere is
   * at or past it: the 1-hop layout, owned vertices first). */
  gr_vid convert_first;
  const gr_vid *out;
  gr_eid n_out;
  gr_eid next_capacity; /* 0: the vertex count */
  const gr_eid *deg;    /* host CSR offsets (n + 1), or NULL */
  uint64_t list_capacity[GR_COMM_MAX_DEVICES]; /* per message: records; 0: no list */
  gr_vid universe[GR_COMM_MAX_DEVICES];        /* per message: bitmap id space; 0: no bitmap */
  bool claims;                                 /* the output's ids set in a claims bitmap (gr_xk_package_args) */
  bool ranges; /* the owners given as runs (gr_xk_ranges) instead of the table: the owner table must be few runs */
  /* Above n_out: the output's size left on the device as an advance leaves
   * it (gr_xk_package_args.counts, beside an edge count of XH_OUT_EDGES),
   * the pass told this bound; the output's room up to the bound holds ids
   * that are not the output's (a pass that read past the size would send
   * them). */
  gr_eid bound;
  /* Or NULL: the step's settled bits (a bit per vertex), the pass run with
   * no culling bitmap (gr_xk_package_args.cull). */
  const uint32_t *settled;
} xh_package_in;
enum { XH_OUT_EDGES = 987654321 };
typedef struct xh_package_out {
  gr_vid *next; /* sorted */
  gr_eid n_next;
  uint32_t *cull;
  unsigned long long counters[3 + 3 * GR_COMM_MAX_DEVICES + 2];
  xh_item *items[GR_COMM_MAX_DEVICES]; /* records written, in slot order */
  uint64_t written[GR_COMM_MAX_DEVICES];
  gr_vid *bit_ids[GR_COMM_MAX_DEVICES]; /* ids set in the bitmap, ascending */
  uint64_t n_bit_ids[GR_COMM_MAX_DEVICES];
  uint64_t bit_value[GR_COMM_MAX_DEVICES];
  bool guard_intact; /* nothing written past a list's capacity */
  bool claims_exact; /* the claims bitmap holds the output's ids and no other (true when not asked for) */
} xh_package_out;
/* A package's inputs with everything else cleared: no ids converted, no
 * lists or bitmaps (set list_capacity and universe per message), the owners
 * as a table. */
void xh_package_in_init(xh_package_in *in, const xh_state *s, const int32_t *owner, int parts, int me, bool broadcast,
                        const gr_vid *out, gr_eid n_out, const gr_eid *deg);
gr_status xh_run_package(const gr_xk_ops *ops, gr_device *dev, const xh_package_in *in, xh_package_out *r);
void xh_package_free(xh_package_out *r);

/* ---- combine ------------------------------------------------------------- */
typedef struct xh_combine_in {
  const xh_state *state; /* the local state before */
  gr_combine_op op;
  const int32_t *owner; /* NULL: every vertex is owned */
  int me;
  const gr_vid *g2l; /* NULL: ids are local; else n_global entries */
  gr_vid n_global;
  const uint32_t *cull; /* initial bitmap, or NULL: clear */
  int n_msgs;
  const unsigned char *msg[GR_COMM_MAX_DEVICES];
  uint64_t count[GR_COMM_MAX_DEVICES];   /* list records */
  gr_vid universe[GR_COMM_MAX_DEVICES];  /* non-zero: message j is a bitmap over [0, universe) */
  const gr_eid *deg;                     /* host CSR offsets (n + 1), or NULL */
  const gr_svid *guard;                  /* a guarded combine's stamps (n), or NULL */
  gr_svid stamp;
  const uint32_t *settled;               /* initial settled bitmap (gr_exchange_step.settled), or NULL */
  bool settle_copies_bare;               /* gr_exchange_step.settle_copies_bare */
} xh_combine_in;
typedef struct xh_combine_out {
  xh_state state; /* the local state after */
  gr_vid *next;   /* sorted */
  gr_eid n_next;
  uint32_t *cull;
  unsigned long long next_edges, next_max_degree;
  unsigned long long found[GR_COMM_MAX_DEVICES]; /* ids counted in each bitmap */
  gr_svid *guard;                                /* the stamps after (with in->guard) */
  uint32_t *settled;                             /* the settled bitmap after (with in->settled) */
} xh_combine_out;
/* Pass 1 over every message, then pass 2 over every message where the
 * operator has followers (as the exchange runs them). */
gr_status xh_run_combine(const gr_xk_ops *ops, gr_device *dev, const xh_combine_in *in, xh_combine_out *r);
void xh_combine_free(xh_combine_out *r);

/* Random combine cases shared by the CPU and GPU tests. */
typedef struct xh_combine_kind {
  gr_value_type type;
  gr_combine_op op;
  int n_values, n_vertices;
} xh_combine_kind;
enum { XH_MAX_KINDS = 64 };
/* Every operator with every value type it supports, 1 or 2 value payloads
 * and 0 to 2 vertex payloads (none for SUM and OR); returns the count. */
int xh_combine_kinds(xh_combine_kind *out);
/* A global-to-local table of n_global entries: the first n global ids map
 * onto 0..n-1 (a permutation), the rest are GR_NO_VERTEX (malloc'd). */
gr_vid *xh_g2l_table(gr_vid n, gr_vid n_global);

enum { XH_CASE_LOCAL = 0, XH_CASE_OWNER = 1, XH_CASE_GLOBAL = 2 };
typedef struct xh_combine_case {
  xh_state state;
  unsigned char *msg[3];
  xh_combine_in in; /* points at state and msg: do not move the case */
} xh_combine_case;
/* A random state of n vertices and three messages of counts[j] items with
 * distinct ids. variant LOCAL: local ids, every vertex owned; OWNER: the
 * given owner table, me = 1; GLOBAL: ids below n_global through the given
 * g2l table. Returns false when out of memory. */
bool xh_combine_case_random(xh_combine_case *c, const xh_combine_kind *k, int variant, gr_vid n,
                            const int32_t *owner, const gr_vid *g2l, gr_vid n_global, const uint64_t counts[3],
                            uint64_t seed);
void xh_combine_case_free(xh_combine_case *c);

/* ---- BFS through the enactor --------------------------------------------- */
typedef struct xh_bfs_config {
  gr_backend backend;
  int n_devices;
  gr_partitioner_kind partitioner;
  gr_proxy_mode proxy;
  gr_comm_mode mode;
  gr_transport_kind transport;
  int cpu_threads;
  gr_comm_format format;
  bool no_preds; /* depths only: a uniform payload, so bitmaps may travel */
  const gr_primitive *prim; /* BFS when NULL; DOBFS works as well (the same answer) */
  uint32_t partition_block;  /* the random partition's block of ids (0: its choice) */
} xh_bfs_config;

typedef enum xh_stage {
  XH_DONE = 0,
  XH_SETUP = 1,  /* partition, subgraphs, comm */
  XH_CREATE = 2, /* gr_enactor_create */
  XH_RUN = 3,    /* gr_enactor_run */
  XH_EXTRACT = 4 /* gr_enactor_extract */
} xh_stage;

/* BFS (or c->prim; with predecessors unless no_preds) from each of n_sources sources: results (global
 * ids) and, when stats is given, each run's statistics (free with
 * gr_run_stats_free). On failure *stage says where (results and stats of
 * earlier runs are freed). */
gr_status xh_bfs_run(gr_graph *g, const xh_bfs_config *c, const gr_vid *sources, int n_sources, gr_result *results,
                     gr_run_stats *stats, xh_stage *stage);
/* A generated graph (gr_gen_parse spec); NULL on failure. */
gr_graph *xh_gen(const char *spec);

/* LOGADD through `ops` on `dev` (FLOAT and DOUBLE, two value payloads):
 * logarithms added as numbers from two messages (ln 0 = -inf neutral,
 * values near +-5000 whose numbers no double holds), a vertex that only
 * receives ln 0 unchanged and not in next, and 4,000 records of one
 * vertex in one message (the concurrent compare-and-swap loop): each
 * value within rel_tol of the sum taken in long double. */
void xh_check_logadd(const gr_xk_ops *ops, gr_device *dev, double rel_tol);
/* A guarded sum (gr_iter.guard), SUM and LOGADD: records of vertices
 * stamped otherwise are dropped, an unset stamp takes the step's, owned
 * vertices combined join next once (those already in the cull bitmap not
 * again), copies are combined but kept out of next. */
void xh_check_guard(const gr_xk_ops *ops, gr_device *dev);
/* MIN with settled vertices: those are skipped (even where the message
 * would lower them), the others combined and settled, from lists, local
 * bitmaps and global ids through g2l; with bare copies too (settled,
 * values unchanged). */
void xh_check_settled(const gr_xk_ops *ops, gr_device *dev);
/* Seal of routed bitmaps (gr_xk_ops.seal) on `dev`: 4 parts of uneven id
 * spaces in one buffer (messages only 4-byte aligned), this device part 2;
 * every other part's message gets the value and its ids counted, this
 * part's slot and every bit stay as they were. */
void xh_check_seal(const gr_xk_ops *ops, gr_device *dev);
/* Compact of a routed bitmap (gr_xk_ops.compact) on `dev`: every id once in
 * next (or every id an owner table gives to this part), the degrees summed
 * and maxed, ids past a small capacity counted but not written; those ids,
 * and no other, take the step's value where it is smaller as unsigned. */
void xh_check_compact(const gr_xk_ops *ops, gr_device *dev);
/* A combine of several bitmaps in one pass (n_more) equals one combine
 * each. */
void xh_check_combine_more(const gr_xk_ops *ops, gr_device *dev);
/* A combine of several lists in one launch (n_more, more_count) equals one
 * combine each, for MIN and SUM. */
void xh_check_combine_lists_more(const gr_xk_ops *ops, gr_device *dev);
/* mark sets the bits of a list with repeats (and no other); select takes,
 * from a border list, the positions and ids of exactly the entries whose
 * bit is set, counts past its capacity without writing them, and the
 * refresh's gather of copies' ids by position reads them back. */
void xh_check_mark_select(const gr_xk_ops *ops, gr_device *dev);
/* An or-round's union (gr_xk_ops.or_union) on `dev`: the base or'ed with 0
 * to GR_XK_OR_MAX sources, into a union of its own or into the base, the
 * bitmap that also takes it or'ed, nothing else written; more sources
 * refused. */
void xh_check_or_union(const gr_xk_ops *ops, gr_device *dev);
/* Owner words (gr_xk_word_groups, gr_xk_ops.or_owned) on `dev`: every part's
 * bits of a bitmap kept at their slots among its words (gr_owner_slot) and
 * the union read back from them equal the bitmap (each word from its owner
 * alone, the partial last word or'ed over every part), the bitmap that also
 * takes it or'ed; a part that sent none reads as zeros; 1 to 5 parts, with
 * and without a partial last word; a word owned by no part gets no groups. */
void xh_check_or_owned(const gr_xk_ops *ops, gr_device *dev);
/* A package told its output's size on the device (gr_xk_package_args
 * .counts, under a bound with other ids past the output) on `dev`: the
 * same next frontier, culling bits, claims, messages and counters as told
 * the size itself, the size and the advance's edges copied into the
 * counters; selective and broadcast, lists and bitmaps, owners as a table
 * and as runs, an empty output, a list that overflows. */
void xh_check_package_size_on_device(const gr_xk_ops *ops, gr_device *dev);
/* A package with no culling bitmap (the step's settled bits instead): the
 * owned outputs join next as with one, the peers' messages are the same,
 * and the culling bitmap is never written. checks_bits: the backend
 * checks that every owned output vertex has its settled bit (the CPU's),
 * failing with GR_ERR_INTERNAL where one lacks it. */
void xh_check_package_settled(const gr_xk_ops *ops, gr_device *dev, bool checks_bits);
/* A combine of bare ids (GR_XK_IDS) under settled bits: the peers' ids
 * take the named value where unsettled, an owned one joins next once, and
 * with own_first the first list's owned ids join next as they are. */
void xh_check_combine_ids(const gr_xk_ops *ops, gr_device *dev);

#endif
