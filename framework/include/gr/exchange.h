/* SPDX-License-Identifier: Apache-2.0 */
/* The seam between the enactor and the communication layer. The enactor
 * (framework) runs the bulk-synchronous loop and lends the exchange a
 * barrier; the exchange (comm/, a layer above) splits each iteration's
 * output, moves the remote part between devices and combines what arrives.
 * The framework only knows this table of functions, so arrows keep pointing
 * down: tools hand comm's implementation to the enactor. */
#ifndef GR_EXCHANGE_H
#define GR_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "gr/frontier.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run's barrier, lent by the enactor to code that runs on every device
 * thread. Every thread must call gr_sync_wait the same number of times in
 * the same order, whether or not it failed; a thread that failed first calls
 * gr_sync_fail. gr_sync_wait returns true when some device has failed: every
 * thread then sees true at the same barrier and must leave (returning
 * GR_ERR_ABORTED) without waiting again. */
typedef struct gr_sync gr_sync;
bool gr_sync_wait(gr_sync *s);
/* Barriers this thread has passed so far. */
uint64_t gr_sync_count(const gr_sync *s);
void gr_sync_fail(gr_sync *s, gr_status st);
/* Whether some device has failed so far (without waiting): lets a thread
 * blocked on a collective with its peers give up instead of hanging. */
bool gr_sync_failed(gr_sync *s);
/* Milliseconds this thread has spent waiting in gr_sync_wait so far. */
double gr_sync_waited_ms(const gr_sync *s);

/* One device's share of one iteration (gr_run --timeline): the wall time
 * of each step and what the host asked of the device meanwhile, so fixed
 * costs (launches, host waits, allocations, barriers) show per iteration. */
typedef struct gr_timeline_entry {
  int iteration;
  double compute_ms, package_ms, transfer_ms, combine_ms, wait_ms;
  /* The iteration's wall time less its waiting: what this device itself
   * took (its kernels, launches and host waits). Alone on its GPU only
   * where devices have one each, or take turns (gr_enactor_config.turns). */
  double work_ms;
  uint32_t launches, waits, copies, memsets, allocations, barriers;
  uint64_t bytes;    /* put on the wire by this device */
  uint64_t bytes_in; /* received by this device */
} gr_timeline_entry;

/* Where the time and bytes of one device went during a run. */
typedef struct gr_device_run_stats {
  double compute_ms;  /* the primitive's iterate */
  double package_ms;  /* splitting the output, packaging the remote part */
  double transfer_ms; /* moving packages between devices */
  double combine_ms;  /* applying what arrived */
  double wait_ms;     /* barriers: waiting for the slowest device */
  double work_ms;     /* the run's wall time less wait_ms (gr_timeline_entry.work_ms) */
  uint64_t items_sent;
  uint64_t items_received;
  uint64_t *bytes_to; /* per peer device: bytes this device sent to it */
  uint64_t bytes_received; /* from all peers */
  /* What the host asked of the device during the run's iterations. */
  uint64_t launches, waits, allocations, barriers;
  /* Per iteration, when the enactor was asked to keep a timeline. */
  gr_timeline_entry *timeline;
  int timeline_len, timeline_capacity;
} gr_device_run_stats;

/* One exchange step on one device, after its iterate. `out` holds the
 * iteration's output frontier (local ids, each vertex once); the exchange
 * fills `next` with the next input frontier: the owned vertices of `out`
 * plus the owned vertices whose state improved by what peers sent, each
 * once. */
typedef struct gr_exchange_step {
  int iteration;
  gr_frontier *out;
  gr_frontier *next;
  gr_sync *sync;
  gr_device_run_stats *stats;
  /* This device's iterate failed: take part in the barriers only. */
  bool skip;
  /* The iteration's own combine operator (gr_iter.combine), when set;
   * otherwise the spec's. */
  bool combine_set;
  gr_combine_op combine;
  /* gr_iter.values, guard and stamp. */
  void *values;
  gr_svid *guard;
  gr_svid stamp;
  /* gr_iter.out_owned and its figures. */
  bool out_owned;
  gr_eid out_edges, out_max_degree;
  /* gr_iter.routed: the outputs are in the bitmaps the exchange's route
   * lent (the next frontier is this device's; the others are the
   * messages). */
  bool routed;
  /* gr_iter.out_counts: out->size is a bound, the output's size is
   * out_counts[0] (device memory) and the edges its advance visited
   * out_counts[1]. The exchange sets out->size and out_visited from them. */
  const gr_eid *out_counts;
  gr_eid out_visited; /* result, with out_counts */
  /* gr_iter.claim_bits: the step's claims put in (never cleared here)
   * when this device's outputs go to every peer under duplicate-all
   * proxies (routed into one bitmap of global ids, or tell_all). */
  uint32_t *claim_bits;
  /* gr_iter.tell_all: every output vertex goes to every peer, as under the
   * broadcast exchange (duplicate-all proxies only); a routed step's
   * bitmaps go as they are (to every peer under duplicate-all proxies). */
  bool tell_all;
  /* gr_iter.or_bits, or_union, or_words, or_bits_whole, or_kept, or_also
   * and or_packed. */
  const uint32_t *or_bits;
  uint32_t *or_union;
  uint64_t or_words;
  bool or_bits_whole;
  bool or_kept;
  uint32_t *or_also;
  bool or_packed;
  /* gr_iter.settled and settle_copies_bare. */
  uint32_t *settled;
  bool settle_copies_bare;
  /* gr_iter.min_ties. */
  bool min_ties;
  /* Results: the out-degrees of `next` over the device's CSR, summed and
   * the largest (what a traversal's direction test and advance choose
   * from, without a pass of their own). */
  gr_eid next_edges, next_max_degree;
  /* Result: every vertex this device's output held went to every device
   * (a broadcast; claims routed into one bitmap of global ids, sent whole
   * to every peer; or no output), so every device knows it. */
  bool told_all;
  /* Result: the primitive's `arriving` ran (gr_iter.arriving_ran) and
   * what its work counted. */
  bool arriving_ran;
  gr_eid arriving_counts[GR_ARRIVING_COUNTS];
} gr_exchange_step;

/* Owner -> copy (gr_part_refresh): the arrays (one entry per local vertex,
 * elem_bytes each: 4 or 8) whose owned entries the owners send to the
 * devices holding copies. */
typedef struct gr_refresh_args {
  void *const *arrays;
  int n_arrays;
  int elem_bytes;
  /* gr_part_refresh_some: only the owned vertices in these n_lists device
   * lists of local ids (repeats allowed) are sent (changed NULL: every
   * owned vertex a peer copies). */
  const gr_vid *const *changed;
  const gr_eid *n_changed;
  int n_lists;
  /* gr_part_refresh_some, optional, set by the refresh: the local ids of
   * the copies written here (device memory the exchange keeps until its
   * next step) and their count. */
  const gr_vid **written;
  gr_eid *n_written;
} gr_refresh_args;

/* Every device's bytes to every device (gr_part_allgather). */
typedef struct gr_gather_args {
  const void *mine; /* this device's bytes (device memory, held until the call returns) */
  uint64_t bytes;
  gr_buffer *all;   /* receives every device's bytes, in device order (reserved here) */
  const char *what; /* names `all` in allocation errors */
  uint64_t *at;     /* host, count + 1 entries: where device d's bytes begin in all; at[count] the total */
} gr_gather_args;

typedef struct gr_exchange_ops {
  /* On each device thread after the primitive's init: per-device state
   * (tables, buffers) in *local. `shared` is what the caller gave in the
   * enactor's configuration. */
  gr_status (*attach)(void *shared, gr_part *p, const gr_primitive *prim, void *slice,
                      void **local);
  /* Calls gr_sync_wait on step->sync as described above, the same
   * barriers on every device, and at least one before the combines (the
   * words of gr_iter.post are read past it; where a step passes none, the
   * enactor passes one after it). */
  gr_status (*exchange)(void *local, gr_part *p, gr_exchange_step *step);
  void (*detach)(void *local, gr_part *p);
  /* Optional: at the start of every run, before its timed part, called by
   * every device between two barriers (so all take part, or none): work
   * that needs every device, such as a transport's first connections. */
  gr_status (*prepare)(void *local, gr_part *p, gr_sync *sync);
  /* Owner -> copy, called by every device the same number of times (from
   * a primitive's iterate, through gr_part_refresh): each device sends the
   * owned entries of the arrays that its peers hold copies of, and writes
   * what its peers send into its copies. Calls gr_sync_wait on sync as
   * `exchange` does; adds its time and bytes to stats. */
  gr_status (*refresh)(void *local, gr_part *p, gr_sync *sync, const gr_refresh_args *a, gr_device_run_stats *stats);
  /* Optional (NULL: never routes): gr_part_route on this device alone. */
  gr_status (*route)(void *local, gr_part *p, gr_eid bound, const void *value, int value_bytes, gr_route *r);
  /* Optional (NULL: none): the border lists `refresh` uses
   * (gr_part_borders), once they are made. */
  gr_status (*borders)(void *local, gr_part *p, gr_borders *b);
  /* Every device's bytes to every device (gr_part_allgather), called by
   * every device the same number of times, with the barriers and the
   * failure handling of `refresh`; adds its time and bytes to stats. */
  gr_status (*gather)(void *local, gr_part *p, gr_sync *sync, const gr_gather_args *a, gr_device_run_stats *stats);
  /* Optional (NULL: never): gr_part_peers's tables on this device alone
   * (r->owner, convert, first and me). *reach: whether this device's
   * kernels reach every peer's memory and the tables were made. */
  gr_status (*peers)(void *local, gr_part *p, gr_peers *r, bool *reach);
  /* Optional (NULL: none): gr_part_owner_words on this device alone. */
  gr_status (*owner_words)(void *local, gr_part *p, gr_owner_words *w);
} gr_exchange_ops;

#ifdef __cplusplus
}
#endif

#endif
