/* SPDX-License-Identifier: Apache-2.0 */
/* Partitioners: each assigns every vertex an owner part (random, biased
 * random, METIS k-way, and the static and range baselines), and the partition
 * carries a quality report (balance, edge cut, border and proxy counts). */
#ifndef GR_PARTITIONER_H
#define GR_PARTITIONER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gr_partitioner_kind {
  GR_PART_RANDOM = 0, /* uniform, seeded (the default) */
  GR_PART_BIASED = 1, /* greedy: prefers the part holding v's neighbours */
  GR_PART_METIS = 2,  /* METIS k-way (optional at build time) */
  GR_PART_STATIC = 3, /* v mod parts */
  GR_PART_RANGE = 4   /* contiguous ranges of about n/parts vertices */
} gr_partitioner_kind;

typedef struct gr_partition_options {
  gr_partitioner_kind kind;
  int parts;          /* 1 .. n */
  uint64_t seed;      /* random, biased, metis */
  double bias_factor; /* biased: weight of the balance term (>= 0) */
  double imbalance;   /* biased, metis: allowed max part size over the
                         average (>= 1) */
  int threads;        /* 0: all host threads */
  uint32_t block;     /* random: parts drawn for aligned blocks of this many
                         ids (0: gr_partition_random_block's choice) */
} gr_partition_options;
#define GR_PARTITION_OPTIONS_INIT {GR_PART_RANDOM, 1, 1, 0.5, 1.05, 0, 0}

/* The random partitioner's block on its own: GR_PARTITION_BLOCK ids (a
 * 32-bit bitmap word of one owner, a 128-byte line of a 4-byte per-vertex
 * array) where every part gets at least GR_PARTITION_BLOCKS_PER_PART of
 * them on average, else single ids (a small graph would come out
 * unbalanced). */
#define GR_PARTITION_BLOCK 32u
#define GR_PARTITION_BLOCKS_PER_PART 16384u
uint32_t gr_partition_random_block(uint64_t n, int parts, uint32_t requested);

/* "random", "biased", "metis", "static" or "range"; anything else is
 * GR_ERR_INVALID_ARG naming the accepted names. */
gr_status gr_partitioner_parse(gr_partitioner_kind *out, const char *name);
/* The name gr_partitioner_parse accepts ("?" for an unknown kind). */
const char *gr_partitioner_name(gr_partitioner_kind k);

typedef struct gr_partition {
  gr_partitioner_kind kind;
  int parts;
  gr_vid n;
  gr_eid m;           /* arcs of the graph */
  int32_t *owner;     /* n entries in [0, parts) */
  uint32_t block;     /* random: the block of ids drawn at once; else 1 */
  double seconds;     /* time the partitioner took to fill owner */
  /* quality, per part (parts entries each) and in total */
  gr_vid *vertices;   /* owned vertices */
  gr_eid *edges;      /* out-edges of owned vertices */
  gr_eid edge_cut;    /* arcs whose ends have different owners */
  gr_vid *border;     /* owned vertices with an arc to or from another part */
  gr_vid *proxies;    /* distinct remote vertices adjacent to the part (what
                         1-hop proxies must hold) */
  gr_vid border_total;
  gr_vid proxies_total;
  /* What the quality pass learned, kept for the subgraph builder so that it
   * need not walk every arc again: owners as bytes (parts <= 255; a
   * quarter of the cache lines for random look-ups), and for each vertex a
   * bitmask of the other parts holding a neighbour (parts <= 64; for an
   * undirected graph, exactly the parts that need it as a 1-hop proxy).
   * NULL where they do not apply. */
  uint8_t *part8;
  uint64_t *adjacent;
} gr_partition;

/* Partitions g (options NULL: GR_PARTITION_OPTIONS_INIT). g is not const
 * because biased and metis read the in-edges of directed graphs, which the
 * graph builds on first use. parts < 1, or parts > n when n > 0, is
 * GR_ERR_INVALID_ARG; metis in a build without METIS GR_ERR_UNSUPPORTED. */
gr_status gr_partition_create(gr_partition **out, gr_graph *g, const gr_partition_options *o);
void gr_partition_destroy(gr_partition **p);
/* After the caller changed p->owner (a partition computed elsewhere, a
 * test's edit): recomputes the quality report and the tables derived from
 * owner, which the subgraph builder trusts. */
gr_status gr_partition_update(gr_partition *p, gr_graph *g);
/* Whether duplicate-1-hop proxies pay on this partition. They hold each
 * device's owned vertices plus its proxies, with two id tables (local to
 * global, owner-local: 8 bytes a vertex) and a conversion of every arc at
 * build time that duplicate-all does without; they pay when every part
 * holds at most half of the graph's vertices that way (a mesh cut by METIS,
 * many devices), not on a power-law graph split at random, where nearly
 * every vertex is a neighbour of every part. */
bool gr_partition_1hop_pays(const gr_partition *p);

/* A short quality table: per part vertices, edges, border and proxies, then
 * the edge cut and the imbalance. */
void gr_partition_print(FILE *f, const gr_partition *p);

#ifdef __cplusplus
}
#endif

#endif
