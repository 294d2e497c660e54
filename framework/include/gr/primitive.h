/* SPDX-License-Identifier: Apache-2.0 */
/* A primitive is a spec plus a single-device core. The enactor calls the
 * life-cycle functions on each device's thread; the multi-device layer splits
 * each iteration's output frontier, sends the remote part with the payloads
 * the spec names, and combines what arrives with the spec's operator. A
 * one-device run uses the same iterate function with no exchange. */
#ifndef GR_PRIMITIVE_H
#define GR_PRIMITIVE_H

#include <stdbool.h>

#include "gr/buffer.h"
#include "gr/frontier.h"
#include "gr/graph.h"
#include "gr/owner_words.h"
#include "gr/subgraph.h"
#include "gr/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a value that arrives from a peer meets the local one. The operator
 * applies to the first value payload; a vertex whose value changed (and that
 * this device owns) joins the next frontier once.
 *   MIN, MAX  the smaller / larger wins; the other payloads travel with the
 *             winner. For GR_VALUE_SVID, -1 means "no value" and loses to
 *             every value under both.
 *   SUM       added (every value payload); changed when non-zero.
 *   OR        bitwise or (GR_VALUE_SVID only); changed when a bit was new.
 *   REPLACE   the arriving payloads overwrite; always changed.
 *   LOGADD    the values are natural logarithms of non-negative numbers
 *             (-inf is 0) and are added as numbers: ln(e^a + e^b), taken
 *             from the larger term so that nothing overflows (every value
 *             payload; FLOAT and DOUBLE only); changed when the arriving
 *             one is not -inf. For counts beyond double's exponent range
 *             (bc's path counts on deep graphs).
 * SUM, OR and LOGADD carry no vertex payloads. An iteration may ask for
 * another operator than the spec's for its exchange (gr_iter.combine). */
typedef enum gr_combine_op {
  GR_COMBINE_MIN = 0,
  GR_COMBINE_MAX = 1,
  GR_COMBINE_SUM = 2,
  GR_COMBINE_OR = 3,
  GR_COMBINE_REPLACE = 4,
  GR_COMBINE_LOGADD = 5
} gr_combine_op;

typedef enum gr_value_type {
  GR_VALUE_SVID = 0,  /* gr_svid: depths, labels (-1 = unreached) */
  GR_VALUE_FLOAT = 1,
  GR_VALUE_DOUBLE = 2
} gr_value_type;

/* Options of every primitive, parsed by the tools; each primitive documents
 * the fields it reads. */
typedef enum gr_direction {
  GR_DIRECTION_AUTO = 0, /* dobfs: switch by the frontier's and the unvisited part's edges */
  GR_DIRECTION_PUSH = 1,
  GR_DIRECTION_PULL = 2
} gr_direction;

typedef enum gr_graph_memory {
  GR_GRAPH_MEMORY_AUTO = 0,
  GR_GRAPH_MEMORY_DEVICE = 1,
  GR_GRAPH_MEMORY_HOST = 2
} gr_graph_memory;
/* "auto", "device" or "host". */
gr_status gr_graph_memory_parse(gr_graph_memory *out, const char *name);
const char *gr_graph_memory_name(gr_graph_memory m);

/* How each device stores its part's neighbour ids (--compress): as 4-byte
 * (or 8-byte) ids, or as packed lists (packed.h: 32-edge blocks of
 * bit-packed differences), decoded where the framework's operators read
 * them. Offsets and weights stay plain. */
typedef enum gr_compress { GR_COMPRESS_NONE = 0, GR_COMPRESS_PACKED = 1 } gr_compress;
/* "none" or "packed". */
gr_status gr_compress_parse(gr_compress *out, const char *name);
const char *gr_compress_name(gr_compress c);

typedef struct gr_prim_options {
  bool mark_pred;      /* bfs, dobfs, sssp: record predecessors */
  int max_iterations;  /* 0: until convergence */
  gr_tuning tune;      /* operator variants (gr_run --tune) */
  gr_direction direction; /* dobfs */
  double do_a;         /* dobfs: push -> pull when frontier edges > unvisited edges / do_a */
  double do_b;         /* dobfs: pull -> push when frontier vertices < vertices / do_b */
  double delta;        /* sssp: bucket width; 0 = auto (the primitive's prepare picks it) */
  double tolerance;    /* pr: stop when the L1 change of the ranks is below it; 0 = the default */
  /* pr: the probability of following an out-edge, 0 <= d < 1 (GR_PR_DAMPING
   * by default). Not "0 = the default" as tolerance: 0 is a valid damping
   * (every rank 1/n), so the default is spelt out in GR_PRIM_OPTIONS_INIT. */
  double damping;
  bool normalize;      /* bc: scale the sums to all pairs and divide by the pairs (gr_run --normalize) */
  /* Where each device's graph arrays live (--graph-memory): the column
   * indices and weights in device memory, in host memory the kernels read
   * directly (zero-copy, offsets and all per-vertex state stay on the
   * device), or the first when the part fits and the second otherwise. */
  gr_graph_memory graph_memory;
  uint64_t device_memory_limit; /* bytes gr may use per device (--device-memory-limit); 0: no limit */
  gr_compress compress;         /* --compress */
} gr_prim_options;
/* PageRank's default damping (pr/pr.h), here because GR_PRIM_OPTIONS_INIT
 * spells it out for every caller, including those that never include pr.h. */
#define GR_PR_DAMPING 0.85
#define GR_PRIM_OPTIONS_INIT                                                                                    \
  {false, 0, GR_TUNING_INIT, GR_DIRECTION_AUTO, 15.0, 18.0, 0.0, 0.0, GR_PR_DAMPING, false, GR_GRAPH_MEMORY_AUTO, 0, \
   GR_COMPRESS_NONE}

typedef struct gr_run_args {
  gr_vid source; /* global dense id, for primitives with a source */
  int run;       /* index of this run */
  /* A run over several sources (primitives with accumulates_sources): the
   * global ids in the order they are taken, host memory every device reads;
   * source is sources[0]. NULL / 0: the one source above. */
  const gr_vid *sources;
  gr_vid n_sources;
} gr_run_args;

/* The run's barrier (gr/exchange.h). */
typedef struct gr_sync gr_sync;

/* What one device's thread hands to every spec call. */
typedef struct gr_part {
  int index;               /* this device among the run's devices */
  int count;               /* devices in the run */
  gr_device *dev;
  const gr_subgraph *sub;  /* host-side description, local ids */
  gr_csr out;              /* device-resident local CSR */
  gr_csr in;               /* device-resident local CSC (needs_in_edges) */
  const gr_vid *local_to_global; /* device copy; NULL when local ids are global (or skips_global_ids) */
  gr_workspace *ws;
  const gr_prim_options *opts;
  gr_mem_policy mem;
  /* Every device learns every change of every iteration (one device, or
   * the broadcast exchange): what a pull needs to see the whole frontier. */
  bool global_view;
  gr_sync *sync;           /* for gr_part_sum; NULL on one device */
  gr_eid m_global;         /* arcs of all devices' CSRs together */
  /* Host memory the framework keeps for this device's transfers of
   * results (pinned where the backend benefits): reused run after run. */
  void *host_stage;
  size_t host_stage_bytes;
} gr_part;

/* The sum of `local` over the run's devices, for decisions every device
 * must take alike (e.g. a traversal's direction). Every device must call it
 * the same number of times per iteration (or in its reset, before the
 * run). GR_ERR_ABORTED when another device failed: return it from iterate
 * (or reset) at once. */
gr_status gr_part_sum(gr_part *p, gr_eid local, gr_eid *total);

/* Starts a run from `source` (global id): sets values[source] (a device
 * array over local ids) to `value` on every device that holds the source,
 * owner and proxies, and makes it the first frontier, which the caller has
 * reserved, on its owner only. Other devices start with an empty frontier,
 * so the source is expanded once; their copy of its value lets a pull in
 * the first iteration see it. */
gr_status gr_part_seed(gr_part *p, gr_vid source, gr_svid *values, gr_svid value, gr_frontier *first);

/* The smallest `local` over the run's devices, called like gr_part_sum
 * (the same number of calls per iteration on every device, counted with
 * gr_part_sum's). */
gr_status gr_part_min(gr_part *p, gr_eid local, gr_eid *least);

/* How a primitive tells the vertices this device owns from proxies on the
 * device: under duplicate-1-hop proxies the owned vertices are the local
 * ids [0, *owned_first) and no table is needed; under duplicate-all
 * proxies between devices, *table is the part owning each local vertex
 * (bytes, uploaded into b, which the caller releases); on one device
 * neither (every vertex is owned here). */
gr_status gr_part_owners(gr_part *p, gr_buffer *b, const uint8_t **table, gr_vid *owned_first);

/* The sums of n doubles (1 <= n <= GR_PART_SUM_DOUBLES) over the run's
 * devices, for global measures every device must agree on bit for bit
 * (pr: the change of the rank vector and the dangling rank). Added in
 * device order, so every device gets the same result. Called like
 * gr_part_sum (the calls of the three count together). */
enum { GR_PART_SUM_DOUBLES = 4 };
gr_status gr_part_sum_double(gr_part *p, const double *local, double *total, int n);

/* Every device's n values (1 <= n <= GR_PART_GATHER_VALUES), in device
 * order: all[d * n + i] is device d's local[i] (p->count * n entries).
 * Called like gr_part_sum (the calls count together). */
enum { GR_PART_GATHER_VALUES = 4 };
gr_status gr_part_gather(gr_part *p, const gr_eid *local, int n, gr_eid *all);
/* In `arrived`: every device's words posted at this iteration's exchange
 * (gr_iter.post), in device order, as gr_part_gather gives them (p->count *
 * n_post entries). No barrier: the exchange's published them. An error
 * where this device posted none or the devices' counts differ. */
gr_status gr_part_posted(gr_part *p, gr_eid *all);

/* Owner -> copy: after the owners changed the entries of `arrays` (device
 * arrays over local ids, elem_bytes each: 4 or 8), every copy of a vertex
 * that another device holds (its proxy, where an arc of that device's
 * owned vertices reaches it) takes its owner's entries. Only values
 * travel, in an order both sides know (border lists, made before the
 * first run for primitives with refreshes_copies set). Every device calls
 * it the same number of times per iteration; GR_ERR_ABORTED as
 * gr_part_sum. One device: nothing to do. */
gr_status gr_part_refresh(gr_part *p, void *const *arrays, int n_arrays, int elem_bytes);
/* gr_part_refresh for the owned vertices in `changed` only (n_lists device
 * lists of local ids, repeats allowed; each device its own): an owner
 * sends those that peers copy as (position, values) records, so the bytes
 * and the passes follow the changes, not the copies. *written receives the
 * local ids of the copies written on this device (device memory the
 * exchange keeps until its next step), *n_written their count (both
 * NULL: not wanted). Every
 * device calls it where the others call it; the copies end as a full
 * refresh would leave them when no other owned entry changed since the
 * last refresh. */
gr_status gr_part_refresh_some(gr_part *p, void *const *arrays, int n_arrays, int elem_bytes,
                               const gr_vid *const *changed, const gr_eid *n_changed, int n_lists,
                               const gr_vid **written, gr_eid *n_written);

/* Every device's `bytes` bytes at `mine` (device memory), in device
 * order, into `all` on every device (reserved here, under `what`);
 * at[d] is where device d's bytes begin, at[p->count] their total (host,
 * p->count + 1 entries, the same on every device). For data every device
 * needs whole, which a few devices' worth of small lists is (CC's merge
 * of the labels its devices found joined). Every device calls it where
 * the others do; GR_ERR_ABORTED as gr_part_sum. One device: its own
 * bytes. */
gr_status gr_part_allgather(gr_part *p, const void *mine, uint64_t bytes, gr_buffer *all, const char *what,
                            uint64_t *at);

/* The vertices a refresh moves (device lists of local ids, valid for the
 * problem's life): this device's copies of other devices' vertices, and
 * its owned vertices that other devices copy, each once. Only they change
 * in a refresh, and only the owned ones receive what copies send to their
 * owners. One device: both empty. For primitives with refreshes_copies,
 * from the first iteration on. Under duplicate-1-hop proxies the copies
 * are the ids [copies_first, copies_first + n_copies) and not listed
 * (copies NULL: a device of 4 would hold a list as long as its copies);
 * otherwise the two lists are one array, owned after copies (owned ==
 * copies + n_copies). Either way one pass may take both (gr_split_args'
 * range and list). */
typedef struct gr_borders {
  const gr_vid *copies; /* NULL: the range from copies_first */
  gr_vid copies_first;
  gr_eid n_copies;
  const gr_vid *owned;
  gr_eid n_owned;
} gr_borders;
gr_status gr_part_borders(gr_part *p, gr_borders *b);

/* Outputs routed as they are made. Between devices under selective
 * exchange, an iterate whose payload is uniform (one value, the same for
 * every vertex it outputs: BFS's next depth) may set each vertex it would
 * output in its owner's bitmap instead, this device's own included, and
 * output nothing: the exchange makes the next frontier of this device's
 * bitmap and sends the others as they are, with no pass over a list that
 * sorts owned from remote (on a dense level that pass costs as much as the
 * claims). Owner j's bitmap is its message as it travels: `stride` words
 * per owner from `words`, the first two holding the value, then a bit per
 * id of the owner's id space: the local id for this device's own vertices,
 * convert[v - convert_first] for the others' where convert is given, else
 * v. */
typedef struct gr_route {
  /* device: the part owning each local vertex; NULL when one bitmap of
   * global ids (duplicate-all proxies: local ids are global) holds every
   * claim and goes to every peer */
  const uint8_t *owner;
  const gr_vid *convert; /* device: a copy's id on its owner, or NULL */
  gr_vid convert_first;  /* convert[0] is local id convert_first's (1-hop: the first copy) */
  uint32_t *words;       /* device: NULL when this iteration does not route */
  uint64_t stride;       /* words per owner */
  int me;
} gr_route;

/* Lends this iteration's bitmaps, cleared, with `value` (value_bytes: 4 or
 * 8) as their payload, when routing pays: the output (at most `bound`
 * vertices) as a list would take more bytes than the peers' bitmaps, or
 * --comm-format bitmap asks for them. Otherwise (one device, broadcast,
 * --comm-format list, a payload that is not uniform) r->words is NULL and
 * the iterate outputs every vertex as usual. An iterate that routes leaves
 * its output empty and sets gr_iter.routed. A bit set for a vertex this
 * device owns is the vertex's first claim: its payload value is still none
 * (all ones, a signed id's -1) or `value` itself, and the exchange stores
 * `value` there without comparing. Each device decides alone; no barrier. */
gr_status gr_part_route(gr_part *p, gr_eid bound, const void *value, int value_bytes, gr_route *r);

/* Peers' per-vertex arrays that this device's kernels write in place
 * (gr_part_peers). */
typedef struct gr_peers {
  /* device: every device's array by device index (this one's too); NULL
   * where peers cannot be written so, on every device alike */
  void *const *at;
  /* device, per copy (the local ids from `first` on; NULL without copies):
   * its owner's index and its id there */
  const uint8_t *owner;
  const gr_vid *convert;
  gr_vid first;
  int me;
} gr_peers;

/* Collective (every device calls it the same number of times, as
 * gr_part_sum): publishes `mine`, this device's array of per-vertex values,
 * and gives every device's, where each device's kernels reach every other
 * device's memory (CPU devices; GPUs under the peer-to-peer transport with
 * peer access between every pair, logical devices of one GPU included),
 * under duplicate-1-hop proxies and selective exchange. `table`: device
 * memory of the caller's that holds the arrays' addresses while r is
 * used. One device, or peers out of reach: r->at is NULL. */
gr_status gr_part_peers(gr_part *p, void *mine, gr_buffer *table, gr_peers *r);

/* Owner words (gr/owner_words.h) between devices: where every whole word of
 * 32 local ids has one owner and local ids are global (duplicate-all
 * proxies with the random partition's blocks of 32 ids or more), the same
 * on every device. */
typedef struct gr_owner_words {
  /* device: entry [g * parts + o] for part o's words in group g of 32
   * words; NULL where words have several owners (or one device) */
  const gr_word_group *groups;
  uint64_t words; /* whole words: ids below 32 * words */
  uint64_t whole; /* this part's whole words */
  /* This part's words: its whole ones, and one more (slot `whole`) for the
   * ids past 32 * words where n_local is no multiple of 32. */
  uint64_t count;
  int parts, me;
} gr_owner_words;

/* This device's owner words, or w->groups NULL; the same answer on every
 * device. Not collective. */
gr_status gr_part_owner_words(gr_part *p, gr_owner_words *w);

/* The slots a pull's finds take in this part's words (gr_advance_pull_args.
 * found_slots); groups NULL where w's are. */
gr_owner_slots gr_owner_words_slots(const gr_owner_words *w);

/* Copies a device array of local values into `global` (n_global entries,
 * host) at the global ids of the vertices this device owns; a proxy's copy
 * may lag behind its owner's, so only owners write. */
gr_status gr_part_gather_svid(gr_part *p, const gr_svid *values, gr_svid *global);
/* gr_part_seed and gr_part_gather_svid for float values (e.g. distances). */
gr_status gr_part_seed_float(gr_part *p, gr_vid source, float *values, float value, gr_frontier *first);
gr_status gr_part_gather_float(gr_part *p, const float *values, float *global);
/* gr_part_gather_svid for double values (e.g. centralities, path counts). */
gr_status gr_part_gather_double(gr_part *p, const double *values, double *global);

enum { GR_ITER_TALLIES = 2, GR_ARRIVING_COUNTS = 2 };

typedef struct gr_iter {
  int iteration;         /* 0 for the first */
  gr_frontier *in;       /* this iteration's frontier, local ids */
  gr_frontier *out;      /* to fill: vertices whose state changed */
  gr_eid edges;          /* to add: edges the operators visited */
  gr_eid global_in;      /* size of the input frontier over all devices */
  /* A one-device iterate may run several levels at once (a device-side
   * loop over small frontiers): it sets `levels` (0 counts as 1) and the
   * input sizes of the levels after the first in level_sizes (host memory
   * the primitive keeps). */
  int levels;
  const gr_eid *level_sizes;
  int max_levels;        /* at most this many levels in one call (0: no limit) */
  char tag;              /* to set, optional: shown per level (dobfs: 'P' push, 'U' pull) */
  /* What the exchange measured of this input while building it (several
   * devices, iterations after the first): its out-edges on this device and
   * on all devices, and its largest out-degree here. */
  bool in_measured;
  gr_eid in_edges, in_max_degree, global_in_edges;
  /* To set, optional: work this device holds back for a later iteration
   * (e.g. a pile of vertices whose turn has not come, or an all-vertex
   * primitive's owned vertices while it has not converged). The run goes
   * on while any device's next frontier or pending work is non-empty, so a
   * device with an empty frontier is still called to release it. */
  gr_eid pending;
  /* To set, optional: the operator that combines this iteration's output
   * between devices when it is not the spec's (bc: LOGADD while a source's
   * path counts are kept as logarithms). Every device must ask for the
   * same one in the same iteration. */
  bool combine_set;
  gr_combine_op combine;
  /* To set, optional: the array (one entry per local vertex) this
   * iteration's messages are read from and combined into, in place of the
   * payload's first value array (the payload names one value and no
   * vertex payloads). */
  void *values;
  /* To set, optional, with a SUM or LOGADD combine: a guarded combine
   * (bc's path counts, which a vertex takes only at the level it is first
   * reached). Per local vertex a stamp (-1: unset); an arriving record
   * whose vertex's stamp is unset sets it to `stamp` and is combined, one
   * whose stamp is `stamp` is combined, any other is dropped. An owned
   * vertex that is combined joins the next frontier (once), whatever its
   * sum. Every device sets the same stamp in the same iterations. */
  gr_svid *guard;
  gr_svid stamp;
  /* To set, optional: the output holds only vertices this device owns,
   * each once, and out_edges / out_max_degree are their out-degrees over
   * the device's CSR (summed, largest), as a pull that counts what it
   * emits knows them: between devices under selective exchange the
   * exchange then takes the output as the next frontier as it is, without
   * a pass over it (a broadcast still sends it to every peer). */
  bool out_owned;
  gr_eid out_edges, out_max_degree;
  /* To set, with the output left empty, when the iterate put its outputs
   * into the bitmaps gr_part_route lent. */
  bool routed;
  /* To set, optional, between devices with a list output (not routed, not
   * out_owned): the advance left its results in device memory
   * (gr_advance_push_args.counts: the output's size, then the edges it
   * visited), and out->size is a bound on the output. The exchange's
   * package reads the size there, on the stream (no host round trip
   * between the advance and the package), and brings both back with its
   * own counters: out->size is then the output's, and the edges are added
   * to the iteration's. The edges the iterate adds to `edges` exclude
   * them. */
  const gr_eid *out_counts;
  /* To set, optional, under duplicate-all proxies when this iteration's
   * outputs go to every peer (routed into one bitmap of global ids, or
   * tell_all): a bitmap over local ids (device memory, a bit per local
   * vertex) into which the exchange puts this device's claims (its routed
   * bitmap, written over the words it covers, or its output's ids, or'ed
   * in) and every peer's message, or'ed in by its combine as it reads it
   * (no pass of its own). When every device lends one, it holds every
   * vertex the step found on any device, and may still hold bits set
   * before the step: the exchange never clears it, the primitive does
   * when it must (DOBFS once a run: a pull takes it as its frontier, for
   * which vertices of earlier levels are harmless). Left as it was
   * otherwise. */
  uint32_t *claim_bits;
  /* To set, optional, with out_owned under selective exchange: a bitmap of
   * or_words words (device memory) the exchange ors over every device with
   * this iteration's step, into or_union (as many words, written whole):
   * afterwards or_union holds every device's bits, with no round of its
   * own (DOBFS: a pull's finds, the next pull's frontier). Every device
   * sets them in the same iterations, with the same words; or_bits is
   * read by peers until the iteration's last barrier. or_union may be
   * NULL where or_also is lent: the union then goes into or_also alone
   * (DOBFS with visited bits: they are the next pull's frontier). */
  const uint32_t *or_bits;
  uint32_t *or_union;
  uint64_t or_words;
  /* To set, optional, with or_bits: the iterate drained its stream after
   * its last write to or_bits (DOBFS: its pull set the bits and then read
   * its counters), so the exchange publishes them without draining it. */
  bool or_bits_whole;
  /* To set, optional, with or_bits: this device writes or_bits again only
   * past a later barrier before which every device that sets it drains
   * its stream (DOBFS keeps two bitmaps of finds, a pull's and the last
   * pull's, and every pull reads its counters, or has its package drain
   * the stream, before its exchange's barrier: a pull's bitmap is written
   * again at the pull after the next, past the next one's barrier).
   * Peers then may read the bitmap past this iteration's last barrier,
   * so a receive whose peers sent only such bitmaps leaves its or-round
   * running on the stream. The output, which goes in the bitmap's place
   * where its ids are fewer, is not kept: a receive that reads one ends
   * its reads before the barrier. Every device sets it alike. */
  bool or_kept;
  /* To set, optional, with or_bits: a bitmap of or_words words (device
   * memory) into which the exchange also ors the union as it writes it
   * (DOBFS: its visited bits, which then hold every device's finds with no
   * pass of their own). */
  uint32_t *or_also;
  /* To set, optional, with or_bits where gr_part_owner_words gave groups:
   * or_bits holds this part's owner words alone (its count of words), a
   * bit set only for ids it owns, and each peer's go to the union as they
   * are (1/N of the bitmap's bytes from each). Every device sets it alike. */
  bool or_packed;
  /* To set, optional, under selective exchange with duplicate-all proxies
   * (global ids): this iteration's output goes to every peer, as under
   * the broadcast exchange, so that every device learns every vertex found
   * (last_told_all at the next iteration); ignored when the outputs were
   * routed (gr_iter.routed), whose bitmaps go to every peer already. */
  bool tell_all;
  /* To set, optional, between devices with a uniform MIN payload: a bitmap
   * over local ids (device memory) whose set bits mark vertices that no
   * value of this step or a later one can lower (BFS: the visited bits;
   * every step's depth is at least every depth set before it). The
   * combine skips those vertices without reading their values, and sets
   * the bit of every vertex it combines, so the bitmap still holds every
   * vertex with a value afterwards when it held them all before. Every
   * vertex of the iteration's output has its bit set already (the claim
   * that output it set it), so the exchange keeps no culling bitmap for
   * the step: the bits let one record of each vertex into the next
   * frontier (a CPU device's package checks the owned vertices' bits). */
  uint32_t *settled;
  /* To set, optional, with settled: the primitive reads no value of a
   * copy whose bit is set (BFS: a set visited bit ends every test), so a
   * copy that arrives is settled without being given the value. */
  bool settle_copies_bare;
  /* To set, optional, with a MIN combine of one value payload: a record
   * whose value equals the vertex's own makes an owned vertex join the
   * next frontier as a lower one does (peers lowered it in place, through
   * gr_part_peers, and send their records for those they lowered). */
  bool min_ties;
  /* Several devices: the last iteration's exchange told every device every
   * vertex each device output (gr_exchange_step.told_all on all of them),
   * so each device holds the values the last iteration found. The same on
   * every device. */
  bool last_told_all;
  /* To set, optional (by iterate or arrived): counts the barrier that ends
   * the iteration sums over the devices, with no barrier of their own. The
   * next iteration reads the sums in last_tally, and the sum of
   * gr_iter.pending in last_pending (several devices or one; zero at the
   * first iteration). */
  gr_eid tally[GR_ITER_TALLIES];
  gr_eid last_tally[GR_ITER_TALLIES];
  gr_eid last_pending;
  /* To set, optional, several devices (by iterate): n_post words (at most
   * GR_PART_GATHER_VALUES) that the exchange's barrier publishes, which
   * `arrived` reads from every device with gr_part_posted: a decision
   * taken from every device's figures without a gr_part_gather (and its
   * barrier) of its own, where it can wait until the exchange is done (cc:
   * whether any label changed and the largest trees agree). Every device
   * posts the same count in an iteration. */
  gr_eid post[GR_PART_GATHER_VALUES];
  int n_post;
  /* Several devices, for `arrived`: the exchange called the primitive's
   * `arriving` (the next frontier's size was still on the device), and
   * these are the counts its work added, read with the exchange's own. */
  bool arriving_ran;
  gr_eid arriving_counts[GR_ARRIVING_COUNTS];
} gr_iter;

/* What gr_primitive.arriving gets: the next frontier's queue, whose size
 * the combines enqueued before it leave at *n_at (device memory, at most
 * `bound`), and GR_ARRIVING_COUNTS zeroed words of device memory for the
 * counts of the work it enqueues (gr_split_args.n_in_at and counts_at). */
typedef struct gr_arriving {
  gr_vid *next;
  const gr_eid *n_at;
  gr_eid bound;
  gr_eid *counts;
  bool ran; /* to set: work was enqueued (else arrived does it all) */
} gr_arriving;

/* For an iterate that wraps another and needs its output's size on the
 * host: where the advance left it on the device (gr_iter.out_counts), reads
 * it (a host round trip), sets out->size, adds the advance's edges to
 * `edges` and clears out_counts. Nothing to do otherwise. */
gr_status gr_iter_take_out_counts(gr_iter *it, gr_device *dev);

enum { GR_MAX_PAYLOADS = 4 };

/* The device-resident arrays (one entry per local vertex) whose entries
 * travel with a frontier vertex to a peer: values of the primitive's
 * value_type (the first is the one the combine operator applies to) and
 * vertex ids (global ids, e.g. predecessors). */
typedef struct gr_payload {
  int n_values;
  void *values[GR_MAX_PAYLOADS];
  int n_vertices;
  gr_svid *vertices[GR_MAX_PAYLOADS];
  /* Every vertex one iteration outputs carries the same values, on every
   * device (BFS: the next depth), so a broadcast may send the output as a
   * bitmap and one value when that is smaller than the list, and a combine
   * may take several devices' bitmaps under the first one's value. */
  bool uniform;
} gr_payload;

/* What a primitive reports about a run beyond the enactor's figures
 * (gr_run puts it in the --json run as "extra"): named numbers (sssp: the
 * bucket width) and named per-iteration series (sssp: bucket sizes). Names
 * are static strings; series are malloc'd, `series_len` entries each. */
enum { GR_EXTRA_MAX = 6 };
typedef struct gr_extra {
  int n_numbers;
  const char *number_names[GR_EXTRA_MAX];
  double numbers[GR_EXTRA_MAX];
  int n_series;
  const char *series_names[GR_EXTRA_MAX];
  double *series[GR_EXTRA_MAX];
  int series_len;
} gr_extra;
void gr_extra_free(gr_extra *x);

/* Per-vertex arrays a result may carry beside its values (bc: the depths
 * and path counts of the last source), named by the spec (gr_aux_spec). */
enum { GR_AUX_MAX = 2 };
typedef struct gr_aux_spec {
  int n;
  const char *names[GR_AUX_MAX];
  gr_value_type types[GR_AUX_MAX];
} gr_aux_spec;

/* Results in global ids on the host. */
typedef struct gr_result {
  gr_vid n;
  gr_value_type type;
  void *values;   /* n values of `type` */
  gr_svid *preds; /* n predecessors (-1 none) or NULL */
  gr_extra extra; /* filled by extract on device 0 or by finish, or empty */
  /* The values are vertex ids in the dense numbering (cc: each vertex's
   * label is a vertex of its component): reports write them as input ids. */
  bool values_are_ids;
  /* The spec's per-vertex arrays (aux.n of them, each n entries of
   * aux.types[k], unwritten entries all bytes 0xff), allocated with the
   * values and filled by extract at the owned vertices' global ids. */
  gr_aux_spec aux;
  void *aux_values[GR_AUX_MAX];
} gr_result;
#define GR_RESULT_INIT {0, GR_VALUE_SVID, NULL, NULL, {0, {NULL}, {0}, 0, {NULL}, {NULL}, 0}, false, {0, {NULL}, {GR_VALUE_SVID}}, {NULL}}
gr_status gr_result_alloc(gr_result *r, gr_vid n, gr_value_type type, bool preds);
/* Like gr_result_alloc, but keeps r's arrays when they already have the
 * size, type and predecessors asked for (a run after run). */
gr_status gr_result_reuse(gr_result *r, gr_vid n, gr_value_type type, bool preds);
/* Gives r the per-vertex arrays `aux` names (r->n entries each, all bytes
 * 0xff), keeping arrays of the same names and types (a run after run). */
gr_status gr_result_aux(gr_result *r, const gr_aux_spec *aux);
/* Frees the arrays (extra included). */
void gr_result_free(gr_result *r);

typedef struct gr_primitive {
  const char *name;
  const char *summary;
  /* multi-device spec */
  gr_proxy_mode proxy;     /* default proxies */
  /* gr_run --proxy auto takes 1-hop proxies under selective exchange on
   * every partition, not only where they halve the vertices a device holds
   * (gr_partition_1hop_pays): the primitive's passes per device then cover
   * its own vertices and their neighbours, not all |V|, which pays even on
   * a power-law graph split at random (docs/performance.md, "Work per
   * device"). */
  bool auto_1hop;
  gr_comm_mode comm;       /* default exchange */
  int n_vertex_assoc;      /* vertex-id payloads per frontier vertex (at most) */
  int n_value_assoc;       /* value payloads per frontier vertex (at least 1) */
  gr_combine_op combine;
  /* needs */
  gr_value_type value_type;
  bool needs_source;
  bool needs_in_edges;
  bool needs_weights;
  /* Its kernels read neighbour ids through the framework's operators
   * (advance push, levels, pull), which decode packed lists, or decode
   * them themselves (gr/packed.h; csr.packed set, csr.indices NULL): the
   * primitive runs with --compress packed. */
  bool reads_packed_lists;
  /* Its iterate refreshes copies from their owners (gr_part_refresh): the
   * exchange makes the border lists before the first run. */
  bool refreshes_copies;
  /* Nothing it runs reads its part's neighbour lists or weights on the
   * host (gr_part.sub's out and in), only the device's (gr_part.out, in):
   * a part's lists then stay in the whole graph until the upload gathers
   * them into its staging buffers (gr_subgraphs_build_lazy: one host copy
   * of the arcs where building the part's arrays and uploading them take
   * two); under duplicate-all proxies only without refreshes_copies,
   * whose border lists the exchange finds in the host's lists. */
  bool device_lists_only;
  /* Nothing it runs on a device reads gr_part.local_to_global (its values
   * are not global ids: ranks, path counts): under 1-hop proxies the table
   * stays on the host (4 bytes a local vertex; 64.5 MiB a device on 4
   * devices of Kronecker 25) and gr_part.local_to_global is NULL (the
   * exchange keeps its own where it sends global ids: broadcast). */
  bool skips_global_ids;
  /* Nothing it runs reads gr_iter.in_edges, in_max_degree or
   * global_in_edges (its advances measure their own inputs, or it has
   * none): between devices the exchange then sums no out-degrees of the
   * next frontier (two random reads of the offsets for each vertex it adds
   * there, in the package and in the combine) and in_measured stays
   * false. */
  bool skips_in_edges;
  /* One run may take several sources (gr_run_args.sources) and accumulate
   * over them (bc); gr_run's --sources and --normalize apply. */
  bool accumulates_sources;
  /* Per-vertex arrays the results carry beside the values (n = 0: none). */
  gr_aux_spec aux;
  /* Device bytes per local vertex a run holds at its peak beside the
   * graph's arrays and offsets (the primitive's state, the frontiers, the
   * operators' workspace and, on several devices, the exchange's
   * buffers): [0] on one device, [1] on several. --graph-memory auto
   * counts them before it keeps a part's lists in device memory, so that
   * the run does not end out of memory where host placement would have
   * run. Measured on gr's graphs, with half as much again to spare
   * (docs/architecture.md, Placement); 0: not known (the graph's arrays
   * alone decide). */
  unsigned state_bytes_per_vertex[2];
  /* life cycle, on each device's thread */
  gr_status (*init)(void **slice, gr_part *p);
  void (*release)(void *slice, gr_part *p);
  /* GPUs: loads the kernels of the primitive's CUDA files (the functions
   * their GR_CUDA_PRELOAD defines), so that none loads inside the first
   * run; the enactor calls it on each CUDA device before init. NULL:
   * none. */
  gr_status (*preload)(gr_device *dev);
  gr_status (*reset)(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first);
  gr_status (*iterate)(void *slice, gr_part *p, gr_iter *it);
  /* Local stop test; NULL: stop when every device's frontier is empty.
   * The run stops when every device's says so (or every frontier and all
   * pending work are empty); a decision taken from a global measure
   * (gr_part_sum_double) is the same on every device. */
  bool (*converged)(const void *slice, const gr_part *p, const gr_iter *it);
  /* Optional, between devices: after the exchange built `next` (the next
   * iteration's input) and before the barrier that ends the iteration, so
   * that what it counts of the input rides that barrier (gr_iter.tally)
   * instead of a gr_part_sum of the next iterate (sssp: the split of the
   * input into bucket and pile, and the bucket's size), and so that a
   * decision from the words iterate posted (gr_iter.post, read with
   * gr_part_posted) is taken before that barrier (cc: whether the run
   * ends). It must not call gr_part_sum or any other step that meets the
   * other devices. Not called when this device's iterate or exchange
   * failed. */
  gr_status (*arrived)(void *slice, gr_part *p, gr_iter *it, gr_frontier *next);
  /* Optional, with arrived: called inside the exchange once the combines
   * that build the next frontier are enqueued and before its one read of
   * its counters, so that the first of arrived's passes runs without a
   * host round trip of its own (sssp: the split of the input). It only
   * enqueues work that reads the input's size on the device and counts
   * into a->counts, and sets a->ran where it did; arrived then finds
   * gr_iter.arriving_ran and the counts (checked there against its
   * outputs' room). Where the exchange knows
   * the next frontier's size on the host already (nothing was combined
   * into it), or this device's iterate failed, it is not called and
   * arrived does all its work itself. */
  gr_status (*arriving)(void *slice, gr_part *p, gr_arriving *a);
  /* The payload arrays of this run (multi-device runs; e.g. predecessors
   * only with --mark-pred). */
  gr_status (*payload)(void *slice, gr_part *p, gr_payload *out);
  /* Writes the owned vertices' values into r (global ids). */
  gr_status (*extract)(void *slice, gr_part *p, gr_result *r);
  /* Host side, optional: after every device's extract, figures of the
   * whole answer that no single device holds (cc: the number of
   * components and the largest one's size, in r->extra). */
  gr_status (*finish)(gr_result *r);
  /* Host side, optional: before the devices open, checks that the input
   * suits the primitive (GR_ERR_BAD_INPUT with a message otherwise) and
   * fills options that depend on the whole graph (sssp: delta). */
  gr_status (*prepare)(gr_graph *g, gr_prim_options *o);
  /* Host side: the plain serial reference, and an invariant check that
   * accepts every correct answer (ref may be used for what only a reference
   * can tell, such as the reached set). */
  gr_status (*reference)(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                         gr_result *ref);
  gr_status (*validate)(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                        const gr_result *r, const gr_result *ref);
  /* Host side, optional: whether validate's invariant checks alone prove
   * this result right or wrong (validate then gets ref NULL and the
   * reference, serial and slow on large graphs, is not computed). sssp:
   * weights of at least 1 whose distances float holds exactly. */
  bool (*certifies)(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r);
  /* Edges counted for TEPS (Graph500: input edges in the traversed part). */
  gr_eid (*traversed_edges)(gr_graph *g, const gr_result *r);
} gr_primitive;

#ifdef __cplusplus
}
#endif

#endif
