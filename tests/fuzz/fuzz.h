/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the fuzz targets: the libFuzzer entry points, the set-up every
 * target makes once, and the oracles that turn a wrong answer into a crash
 * (abort with a message): statuses a failing reader may return, CSR
 * invariants, and an exact comparison with a naive CSR build. The same
 * targets link against libFuzzer (GR_FUZZ builds, clang) or against
 * replay_main.c (every test build), which replays stored inputs. */
#ifndef GR_FUZZ_H
#define GR_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gr/graph.h"
#include "gr/status.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The host memory gr plans with in fuzz runs: a size a header declares
 * beyond it is refused (GR_ERR_HOST_OOM) instead of allocated. */
#define FZ_HOST_LIMIT ((uint64_t)32 << 20)

/* Once per process: the memory limit above. */
void fz_init(void);

/* Prints "fuzz oracle: ..." with the last gr error and aborts. */
void fz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#define FZ_ASSERT(cond, ...) \
  do {                       \
    if (!(cond)) fz_fail(__VA_ARGS__); \
  } while (0)

/* A failed read of untrusted bytes: the status is one a reader may give
 * (bad input, too large, unsupported, out of host memory: exit codes 2 and
 * 3 of gr_run), and the message is not empty and names the input. */
void fz_expect_input_error(gr_status st, const char *name);

/* A NUL-terminated copy of the input for the string parsers (malloc'd);
 * NULL when the input holds a NUL byte (C strings cannot carry one). */
char *fz_string(const uint8_t *data, size_t size);

/* A valid CSR: offsets from 0 to m, never decreasing, ids below n; with
 * `sorted`, every row in ascending order. */
void fz_check_csr(const gr_csr *c, bool sorted, const char *what);

/* Checks a graph that came out of gr's CSR build: a valid CSR with sorted
 * rows, the stored self-loop count, symmetry (arcs and weights) when
 * undirected, strictly increasing rows when `no_duplicates`, no self-loops
 * when `no_loops`, and the in-edges (built here) as the exact transpose. */
void fz_check_built_graph(gr_graph *g, bool no_duplicates, bool no_loops);

/* An edge list entry for the naive build. */
typedef struct fz_arc {
  gr_vid src, dst;
  gr_weight w;
} fz_arc;

/* Compares a CSR with the naive build of `count` entries: every entry an
 * arc (both directions when `undirected`; a self-loop once), loops dropped
 * with `drop_loops`, rows sorted by (neighbour, weight bits), repeated
 * neighbours dropped after the first with `drop_dups`; weights compared
 * when `weights` (the caller checks whether the CSR should have any). */
void fz_compare_naive(const gr_csr *c, uint64_t n, const fz_arc *entries, size_t count,
                      bool undirected, bool drop_loops, bool drop_dups, bool weights);

#endif
