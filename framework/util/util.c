/* SPDX-License-Identifier: Apache-2.0 */
/* Host utilities: clocks, thread counts, host memory, checked allocation,
 * strict number parsing, prefix sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef GR_HAVE_OPENMP
#include <omp.h>
#endif

#include "gr/util.h"

double gr_time_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gr_host_threads(void) {
#ifdef GR_HAVE_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int gr_host_thread_id(void) {
#ifdef GR_HAVE_OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

int64_t gr__fault_hook(const char *var, int ordinal, unsigned *delay_ms) {
  *delay_ms = 0;
  const char *s = getenv(var);
  if (!s || !*s) return -1;
  int dev = -1, used = 0;
  long long n = -1;
  unsigned ms = 0;
  const int k = sscanf(s, "%d:%lld%n:%u%n", &dev, &n, &used, &ms, &used);
  if (k < 2 || n < 1 || dev < 0 || s[used] != '\0') {
    fprintf(stderr, "gr: warning: %s=%s is not DEVICE:N or DEVICE:N:MS; ignored\n", var, s);
    return -1;
  }
  if (dev != ordinal) return -1;
  *delay_ms = k == 3 ? ms : 0;
  return (int64_t)n;
}

void gr__fault_delay(unsigned ms) {
  if (!ms) return;
  struct timespec ts = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

/* Set once by the embedding program, read by any thread. */
static uint64_t gr__host_memory_cap;

void gr_host_memory_limit(uint64_t bytes) { __atomic_store_n(&gr__host_memory_cap, bytes, __ATOMIC_RELAXED); }

void gr_fill_parallel(int threads, void *to, size_t off, size_t len, gr_fill_fn fill, void *ctx) {
  const size_t piece = (size_t)1 << 20;
  const long long pieces = (long long)((len + piece - 1) / piece);
  if (threads <= 0) threads = gr_host_threads();
  (void)threads;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (long long i = 0; i < pieces; i++) {
    const size_t at = (size_t)i * piece, n = len - at < piece ? len - at : piece;
    fill(ctx, (char *)to + at, off + at, n);
  }
}

void gr_fill_copy(void *ctx, void *to, size_t off, size_t len) { memcpy(to, (const char *)ctx + off, len); }

uint64_t gr_host_memory_bytes(void) {
  const uint64_t cap = __atomic_load_n(&gr__host_memory_cap, __ATOMIC_RELAXED);
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return cap;
  uint64_t phys = (uint64_t)pages * (uint64_t)page;
  /* An address-space limit (ulimit -v) bounds what this process can
   * allocate below the physical memory: planning against it turns a load
   * that cannot fit into one clear error instead of a failed allocation
   * somewhere inside it. */
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (uint64_t)rl.rlim_cur < phys)
    phys = (uint64_t)rl.rlim_cur;
  return cap && cap < phys ? cap : phys;
}

bool gr_parse_count(const char *s, size_t len, uint64_t *out) {
  if (!s || len == 0) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    const unsigned d = (unsigned)(unsigned char)s[i] - '0';
    if (d > 9 || v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

bool gr_parse_real(const char *s, size_t len, bool allow_negative, double *out, bool *integer) {
  size_t i = 0, digits = 0;
  bool point = false, exponent = false;
  if (!s || len == 0) return false;
  if (s[i] == '-' && allow_negative) i++;
  for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++;
  if (i < len && s[i] == '.') {
    point = true;
    for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++;
  }
  if (digits == 0) return false;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    size_t e = 0;
    exponent = true;
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) e++;
    if (e == 0) return false;
  }
  if (i != len) return false;
  /* The text is now plain decimal: strtod reads it exactly as written,
   * from a terminated copy (on the heap when long: any length is valid). */
  char small[64], *buf = len < sizeof small ? small : malloc(len + 1);
  if (!buf) return false;
  memcpy(buf, s, len);
  buf[len] = '\0';
  const double v = strtod(buf, NULL);
  if (buf != small) free(buf);
  if (!isfinite(v)) return false;
  *out = v;
  if (integer) *integer = !point && !exponent;
  return true;
}

const char *gr_format_bytes(char *buf, size_t len, uint64_t bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    u++;
  }
  if (u == 0) snprintf(buf, len, "%llu B", (unsigned long long)bytes);
  else snprintf(buf, len, "%.2f %s", v, units[u]);
  return buf;
}

static gr_status gr__oom(size_t bytes, const char *what) {
  char b[32], h[32];
  return gr_errorf(GR_ERR_HOST_OOM, "cannot allocate %s of host memory for %s (host has %s)",
                   gr_format_bytes(b, sizeof b, bytes), what ? what : "data",
                   gr_format_bytes(h, sizeof h, gr_host_memory_bytes()));
}

/* Asks for transparent huge pages on a large array not yet touched (8
 * MiB or more). Where they are opt-in (the common default, and the GPU
 * machines'), each 4 KiB page faults at its first touch and a table read
 * at random over more 4 KiB pages than the TLB holds misses it on most
 * reads. Measured on two H200s' 32-core host, Kronecker 27: the subgraphs
 * of 2 GPUs 2.9 -> 2.0 s, BFS's check 4.7 -> 3.4 s, PageRank's setup on
 * one GPU 3.8 -> 2.8 s (the partition's report did not change). Advice
 * only; failure changes nothing. */
static void gr__advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  if (!p || bytes < 4 * huge) return;
  uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

gr_status gr_host_alloc(void **out, size_t bytes, const char *what) {
  *out = malloc(bytes ? bytes : 1);
  if (!*out) return gr__oom(bytes, what);
  gr__advise_huge(*out, bytes);
  return GR_SUCCESS;
}

gr_status gr_host_calloc(void **out, size_t count, size_t size, const char *what) {
  if (size && count > SIZE_MAX / size) {
    *out = NULL;
    return gr__oom(SIZE_MAX, what);
  }
  *out = calloc(count ? count : 1, size ? size : 1);
  if (!*out) return gr__oom(count * size, what);
  gr__advise_huge(*out, count * size);
  return GR_SUCCESS;
}

gr_status gr_host_realloc(void **p, size_t bytes, const char *what) {
  void *q = realloc(*p, bytes ? bytes : 1);
  if (!q) return gr__oom(bytes, what);
  *p = q;
  return GR_SUCCESS;
}

void gr_host_free(void *p) { free(p); }

int gr_stderr_is_tty(void) { return isatty(STDERR_FILENO); }

uint64_t gr_prefix_sum_u64(uint64_t *a, size_t n) {
#ifdef GR_HAVE_OPENMP
  if (n < (1u << 16)) {
#endif
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t x = a[i];
      a[i] = s;
      s += x;
    }
    return s;
#ifdef GR_HAVE_OPENMP
  }
  int nt = omp_get_max_threads();
  if (nt > 64) nt = 64;
  uint64_t part[65];
  memset(part, 0, sizeof part);
#pragma omp parallel num_threads(nt)
  {
    int t = omp_get_thread_num();
    int T = omp_get_num_threads();
    size_t lo = n * (size_t)t / (size_t)T, hi = n * (size_t)(t + 1) / (size_t)T;
    uint64_t s = 0;
    for (size_t i = lo; i < hi; i++) s += a[i];
    part[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int i = 1; i <= T; i++) part[i] += part[i - 1];
    s = part[t];
    for (size_t i = lo; i < hi; i++) {
      uint64_t x = a[i];
      a[i] = s;
      s += x;
    }
  }
  /* part[T] is the total; T may be less than nt. */
  uint64_t total = 0;
  for (int i = 64; i >= 0; i--)
    if (part[i]) {
      total = part[i];
      break;
    }
  return total;
#endif
}
