/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the Check tests: scratch paths, the real-graph folder
 * (with a stated reason when absent), small file writers. */
#ifndef GR_TESTUTIL_H
#define GR_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "gr/types.h"

struct gr_graph;
/* The graph of a generator spec ("kron:10:8", ...) with default load
 * options; a failure fails the calling test. */
struct gr_graph *gr_test_generated(const char *spec);

/* Scratch folder inside the build tree (GR_TEST_TMP_DIR) or /tmp. */
const char *gr_test_tmp_dir(void);
/* Writes `text` to a fresh file in the scratch folder named after `name`
 * and returns its path (static storage, one per call site is fine: it is
 * copied into buf). */
const char *gr_test_write_file(char *buf, size_t len, const char *name, const char *text);
/* Path of a file in the real-graph folder, or NULL (after printing why the
 * test skips) when the folder or file is absent. */
const char *gr_test_data_file(char *buf, size_t len, const char *name);
/* Runs a Check suite (CK_NOFORK when no_fork, needed for CUDA) and returns
 * the process exit code. */
/* Runs a program (argv[0] is its path) with extra environment entries
 * ("K=V", NULL-terminated, may be NULL), capturing stdout and stderr
 * (malloc'd, NUL-terminated). Returns the exit code, or -1 when it could not
 * run or was killed by a signal (which a test must treat as a failure). */
int gr_test_run(const char *const argv[], const char *const env[], char **out, char **err);
/* As gr_test_run, under limits: the child is killed after timeout_s
 * seconds (0: no limit; stretched by gr_test_timeout_scale, as Check's
 * per-case timeouts are), when gr_test_run_limited returns GR_TEST_TIMED_OUT,
 * so that a hang fails a test instead of stalling it; address_space > 0
 * sets the child's RLIMIT_AS (ulimit -v) before it execs. */
enum { GR_TEST_TIMED_OUT = -2 };
int gr_test_run_limited(const char *const argv[], const char *const env[], char **out, char **err,
                        double timeout_s, unsigned long long address_space);
/* CK_TIMEOUT_MULTIPLIER (Check's own setting, 0 for no limit; sanitized
 * builds set it in every test's environment, cmake/GrTesting.cmake) or 1. */
double gr_test_timeout_scale(void);
/* The same in two steps, so that several programs run at once: spawn
 * starts one (0, or -1 when it could not), finish waits for it (killing it
 * past timeout_s counted from its start) and returns what
 * gr_test_run_limited would, with its seconds in c->seconds (from its start
 * to finish's return, so a child finished while another was waited for
 * counts until its own finish); abandon kills
 * and reaps one not finished (a test giving up on the others of a batch). */
typedef struct gr_test_child {
  int pid; /* -1: none (finished or never started) */
  double started, timeout_s, seconds;
  char program[256];
  char out_path[512], err_path[512];
} gr_test_child;
int gr_test_spawn(gr_test_child *c, const char *const argv[], const char *const env[], double timeout_s,
                  unsigned long long address_space);
int gr_test_finish(gr_test_child *c, char **out, char **err);
void gr_test_abandon(gr_test_child *c);
struct Suite;
/* Runs the suite (no_fork: every case in this process) and returns
 * EXIT_SUCCESS or EXIT_FAILURE. With GR_TEST_BACKTRACE=1 a fatal signal
 * prints the crashing thread's frames first; with GR_TEST_WATCHDOG=S a
 * run still going after S seconds prints every thread's frames (no-fork
 * runs only). Neither takes over a signal something else already handles. */
int gr_test_run_suite(struct Suite *s, int no_fork);
/* A test of a program that gives each test a Check case of its own, named
 * after it, so that CK_RUN_CASE=name runs one (a long tool, such as
 * compute-sanitizer, runs each apart and several at once). */
struct TTest;
typedef struct gr_test_case {
  const char *name;
  const struct TTest *test;
  int loops; /* 0: one run; N: a loop test over 0..N-1 */
} gr_test_case;
/* Adds the n cases to s, each with the fixture (setup and teardown around
 * every test, in the test's process) and a timeout in seconds. */
void gr_test_add_cases(struct Suite *s, const gr_test_case *cases, size_t n, void (*setup)(void),
                       void (*teardown)(void), double timeout_s);

/* The GPU programs' first step: whether a CUDA GPU can be used; where none
 * can, says so ("skip: ...") and the program returns 77, which CTest
 * counts as skipped (SKIP_RETURN_CODE). */
bool gr_test_have_gpu(void);

/* Whether the next combination of a test's loops is this process's, then
 * counts it (*counter: the test's own, from 0). GR_TEST_SLICE=K/N keeps
 * combinations K, K+N, K+2N, ... (0 <= K < N), so that N processes run a
 * long test's whole matrix between them (compute-sanitizer's racecheck
 * takes more than a device command's 10 minutes over the whole of some);
 * unset, every combination. A malformed value fails the test. With a
 * slice, a process that took one says at its normal exit how many
 * combinations it ran ("gr_test_slice K/N ran M combinations": in Check's
 * fork mode each passing test's child, a failed one says nothing; the
 * count is over every test of the process, under the first K/N seen). */
int gr_test_in_slice(unsigned *counter);
/* Whether any of the next `count` combinations is this process's; when
 * none is, counts them all (moves *counter past them) and returns 0, so
 * that a test skips what only those combinations need (a graph, its
 * partition, a one-GPU answer): without it every slice pays for them. */
int gr_test_slice_enter(unsigned *counter, unsigned count);
/* Cuts finer than a slice, where one combination runs several sources:
 * GR_TEST_SOURCES=J/M keeps of a combination's n sources those at
 * positions J, J+M, ... (0 <= J < M), moved to the front of src in their
 * order; unset, all n. Returns how many it kept: 0 means the combination
 * has none of this process's sources and must run nothing. A malformed
 * value fails the test. With it set, a process says at its normal exit
 * how many it kept of how many it was given ("gr_test_sources J/M kept X
 * of Y sources", as gr_test_slice's line; a case that takes the parts per
 * graph counts a graph's sources once). Under racecheck one combination of
 * some cases runs longer than a device command; its M parts, each a run
 * of fewer sources (for BC one run of several sources becomes M runs of
 * fewer), cover every source between them. */
size_t gr_test_keep_sources(gr_vid *src, size_t n);

struct gr_device;
struct gr_buffer;
struct gr_csr;
struct gr_packed;
/* Host CSR h's ids onto dev as packed lists, the way --compress packed puts
 * them: gr_packed's three arrays in b[0..2] (the blocks followed by
 * GR_PACK_PAD_BYTES zero bytes, which the CUDA readers may touch), *p
 * their description with device pointers. Release with the buffers. */
int gr_test_upload_packed(struct gr_device *dev, const struct gr_csr *h, struct gr_buffer *b, struct gr_packed *p);

#endif
