/* SPDX-License-Identifier: Apache-2.0 */
/* Small host utilities: clocks, host parallelism, checked allocation,
 * counter-based random numbers (the same value for the same (seed, stream,
 * counter) on any thread, CPU or GPU), and human-readable sizes. */
#ifndef GR_UTIL_H
#define GR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gr/status.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic wall clock in seconds. */
double gr_time_now(void);

/* Threads the host offers to parallel loops (OpenMP's count when built with
 * OpenMP, else 1). */
int gr_host_threads(void);
/* The calling thread's number inside a parallel loop, 0..gr_host_threads()-1
 * (0 outside one, and always without OpenMP). */
int gr_host_thread_id(void);
/* Physical memory of the host in bytes (0 when unknown), or the process's
 * address-space limit (ulimit -v) or the limit set below when smaller. */
uint64_t gr_host_memory_bytes(void);
/* Makes gr plan with at most `bytes` of host memory (0: the whole host):
 * loads and builds that would need more fail early with GR_ERR_HOST_OOM
 * saying how much they need. A planning limit, not an allocator cap; the
 * fuzz targets use it to keep a declared size from turning into a huge
 * allocation. */
void gr_host_memory_limit(uint64_t bytes);

/* The fault-injection hooks (README, docs/reliability.md): the variable
 * `var`=DEVICE:N[:MS] arms the N-th event (1-based: an allocation, a
 * kernel launch, a transfer) on device ordinal DEVICE; with MS, the failing
 * thread first sleeps MS milliseconds, so that its peers are already
 * waiting for it (at a barrier, in a transfer) when it fails. Returns N for
 * device `ordinal`, or -1 when the variable is unset, names another device
 * or is malformed (then with a warning on stderr); *delay_ms gets MS or 0.
 * Read when a device or its exchange state is set up, never per event. */
int64_t gr__fault_hook(const char *var, int ordinal, unsigned *delay_ms);
/* Sleeps `ms` milliseconds (a hook's delay; nothing for 0). */
void gr__fault_delay(unsigned ms);

/* Data written piece by piece: bytes [off, off + len) of it to host memory
 * at `to`. Called from several host threads at once, on disjoint ranges. */
typedef void (*gr_fill_fn)(void *ctx, void *to, size_t off, size_t len);
/* Fills [to, to + len) with bytes [off, off + len) of the data, in pieces of
 * 1 MiB over `threads` host threads (0: the host's). */
void gr_fill_parallel(int threads, void *to, size_t off, size_t len, gr_fill_fn fill, void *ctx);
/* The fill that copies from an array (ctx, only read). */
void gr_fill_copy(void *ctx, void *to, size_t off, size_t len);

/* malloc/calloc that record a clear out-of-memory error saying how much was
 * asked for; *out is NULL on failure. Arrays of 8 MiB or more are advised
 * to take transparent huge pages (fewer first-touch faults and TLB misses
 * on the host's random reads). */
gr_status gr_host_alloc(void **out, size_t bytes, const char *what);
gr_status gr_host_calloc(void **out, size_t count, size_t size,
                         const char *what);
gr_status gr_host_realloc(void **p, size_t bytes, const char *what);
void gr_host_free(void *p);

/* Strict numbers for option strings, over the whole of [s, s + len):
 * gr_parse_count takes decimal digits that fit in 64 bits; gr_parse_real
 * takes [-]digits[.digits] or [-].digits with an optional exponent
 * e[+-]digits, finite ('-' only with allow_negative), and sets *integer
 * (when not NULL) to whether it was written as [-]digits alone. Neither
 * takes blanks, '+' signs, hexadecimal, infinities or NaNs, which strtod
 * and strtoull would. */
bool gr_parse_count(const char *s, size_t len, uint64_t *out);
bool gr_parse_real(const char *s, size_t len, bool allow_negative, double *out, bool *integer);

/* Fills buf with "1.50 GiB" style text and returns buf. */
const char *gr_format_bytes(char *buf, size_t len, uint64_t bytes);

/* Exclusive prefix sum of n 64-bit counts in place, in parallel; returns the
 * total. */
uint64_t gr_prefix_sum_u64(uint64_t *a, size_t n);

/* Whether stderr is a terminal (for progress output). */
int gr_stderr_is_tty(void);

#ifdef __cplusplus
}
#endif

/* SplitMix64 finaliser: a strong 64-bit mix used as a counter-based RNG. */
GR_HD uint64_t gr_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Random 64 bits for (seed, stream, counter): independent of thread count and
 * backend, which keeps generators and weights reproducible. */
GR_HD uint64_t gr_rand64(uint64_t seed, uint64_t stream, uint64_t counter) {
  return gr_mix64(gr_mix64(seed ^ gr_mix64(stream + 0x632be59bd9b4e019ull)) ^
                  counter);
}

/* Uniform double in [0, 1) from 53 random bits. */
GR_HD double gr_u01(uint64_t r) {
  return (double)(r >> 11) * (1.0 / 9007199254740992.0);
}

#endif
