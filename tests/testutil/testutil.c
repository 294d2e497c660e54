/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the Check tests. */
#include "testutil.h"

#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "gr/packed.h"
#include "gr/util.h"

#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *gr_test_tmp_dir(void) {
  const char *d = getenv("GR_TEST_TMP_DIR");
  if (d && *d) {
    mkdir(d, 0777);
    return d;
  }
  return "/tmp";
}

const char *gr_test_write_file(char *buf, size_t len, const char *name, const char *text) {
  snprintf(buf, len, "%s/%d-%s", gr_test_tmp_dir(), (int)getpid(), name);
  FILE *f = fopen(buf, "wb");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return buf;
}

const char *gr_test_data_file(char *buf, size_t len, const char *name) {
  const char *d = getenv("GR_TEST_DATA_DIR");
  if (!d || !*d) {
    fprintf(stderr, "skip: GR_TEST_DATA_DIR is not set, so %s is not tested\n", name);
    return NULL;
  }
  snprintf(buf, len, "%s/%s", d, name);
  if (access(buf, R_OK) != 0) {
    fprintf(stderr, "skip: %s is absent (the real graphs live in %s, beside the checkout)\n", buf, d);
    return NULL;
  }
  return buf;
}

/* Installs handler for sig (with flags), only where sig is still at its
 * default: compute-sanitizer's library is loaded before main, and a
 * handler of its own (or anyone's) is kept and named, so that a report of
 * ours never stands in for the tool's handling. Returns whether it did. */
static bool gr__take_signal(int sig, void (*handler)(int), int flags, const char *why) {
  struct sigaction old;
  if (sigaction(sig, NULL, &old) != 0) return false;
  const bool info = (old.sa_flags & SA_SIGINFO) != 0;
  if (info || old.sa_handler != SIG_DFL) {
    void *h = info ? (void *)old.sa_sigaction : (void *)old.sa_handler;
    Dl_info where;
    const char *lib = h && !(!info && old.sa_handler == SIG_IGN) && dladdr(h, &where) && where.dli_fname
                          ? where.dli_fname
                          : "(ignored or unknown)";
    fprintf(stderr, "gr_test: %s: signal %d already has a handler, in %s: left to it\n", why, sig, lib);
    return false;
  }
  /* backtrace() loads libgcc's unwinder on its first call, which may
   * allocate: call it here, not first inside a handler. */
  void *pc;
  (void)backtrace(&pc, 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  return sigaction(sig, &sa, NULL) == 0;
}

/* Writes line (len bytes) and the calling thread's return addresses to
 * stderr, with nothing but write() and the unwinder (a handler's use). */
static void gr__write_frames(const char *line, size_t len) {
  void *pcs[64];
  if (write(STDERR_FILENO, line, len) >= 0) backtrace_symbols_fd(pcs, backtrace(pcs, 64), STDERR_FILENO);
}

/* GR_TEST_BACKTRACE=1: a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) prints the crashing thread's return addresses to stderr before
 * the process dies of it as it would have. The GPU tests run in one
 * process (no fork) and buffer their output, so a crash, under
 * compute-sanitizer say, leaves nothing to say where it was; each frame's
 * "binary(+offset)" goes to addr2line -e binary. Opt-in: the
 * sanitizers' own reports (ASan, TSan) are better and would be replaced.
 * No alternate stack: a stack overflow dies without the report. */
static void gr__fatal_signal(int sig) {
  /* backtrace() takes the loader's locks: a crash inside the unwinder or
   * the loader would hang here, so the alarm ends the process anyway. */
  alarm(10);
  static const char head[] = "gr_test: fatal signal, the crashing thread's frames:\n";
  gr__write_frames(head, sizeof head - 1);
  /* SA_RESETHAND restored the default action, and the signal stays
   * blocked until the handler returns: a raised one is then delivered, a
   * fault happens again, and the process dies of it as it would have. */
  raise(sig);
}

static void gr__backtrace_on_crash(void) {
  const char *v = getenv("GR_TEST_BACKTRACE");
  if (!v || strcmp(v, "1") != 0) return;
  const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    (void)gr__take_signal(sigs[i], gr__fatal_signal, SA_RESETHAND, "GR_TEST_BACKTRACE");
}

/* GR_TEST_WATCHDOG=S (seconds): a program still running S seconds after
 * its start prints every thread's frames to stderr, one thread at a time,
 * and runs on. For a run that stalls where it is cut off (under
 * compute-sanitizer, by racecheck-slices.sh's deadline): whether gr's
 * threads wait in a barrier, in a CUDA call or in the tool's code. Only
 * where the cases run in this process (no fork: the GPU tests): a forked
 * case's threads are not this process's. The signal interrupts each
 * thread once: a sleep or wait that is not restarted returns early
 * (gr's own loops go on waiting), and a thread stopped inside the
 * unwinder could hang in backtrace(); it is meant for runs about to be
 * killed. tools/offline/thread-stacks.py reads a hung process from
 * outside, guessing frames from stack words; this unwinds each thread
 * from inside, and racecheck-slices.sh need not find the sanitizer's
 * child process to use it. */

/* The id of the last thread that printed its frames: the watchdog waits
 * for the one it signalled, so a late answer is not taken for the next. */
static int gr__watchdog_answer;

/* "gr_test: watchdog: thread TID frames:" without stdio (a handler). */
static void gr__watchdog_frames(int sig) {
  (void)sig;
  const int saved = errno;
  const long me = (long)syscall(SYS_gettid);
  char line[64] = "gr_test: watchdog: thread ";
  size_t at = strlen(line);
  char digits[24];
  int nd = 0;
  for (long tid = me; nd == 0 || tid > 0; tid /= 10) digits[nd++] = (char)('0' + tid % 10);
  while (nd > 0) line[at++] = digits[--nd];
  memcpy(line + at, " frames:\n", 9);
  gr__write_frames(line, at + 9);
  __atomic_store_n(&gr__watchdog_answer, (int)me, __ATOMIC_RELEASE);
  errno = saved;
}

static void gr__watchdog_say(const char *text) {
  if (write(STDERR_FILENO, text, strlen(text)) < 0) return;
}

/* Whether thread tid blocks signal sig (its SigBlk mask): such a thread
 * (a sanitizer's or a driver's own, often) would never answer. */
static bool gr__thread_blocks(long tid, int sig) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/self/task/%ld/status", tid);
  FILE *f = fopen(path, "r");
  if (!f) return false;
  bool blocks = false;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "SigBlk:", 7)) {
      const unsigned long long mask = strtoull(line + 7, NULL, 16);
      blocks = sig >= 1 && sig <= 64 && (mask >> (sig - 1) & 1ull);
      break;
    }
  fclose(f);
  return blocks;
}

static void *gr__watchdog(void *arg) {
  const double seconds = *(const double *)arg;
  struct timespec t = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  while (nanosleep(&t, &t) != 0) continue;
  char head[160];
  snprintf(head, sizeof head, "gr_test: watchdog: still running after %g s; every thread's frames:\n", seconds);
  gr__watchdog_say(head);
  const long self = (long)syscall(SYS_gettid);
  DIR *d = opendir("/proc/self/task");
  if (!d) {
    gr__watchdog_say("gr_test: watchdog: /proc/self/task unreadable\n");
    return NULL;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char *end = NULL;
    const long tid = strtol(e->d_name, &end, 10);
    if (*e->d_name == '.' || *end || tid == self) continue;
    if (gr__thread_blocks(tid, SIGRTMIN + 3)) {
      snprintf(head, sizeof head, "gr_test: watchdog: thread %ld blocks the signal: no frames\n", tid);
      gr__watchdog_say(head);
      continue;
    }
    if (syscall(SYS_tgkill, (long)getpid(), tid, SIGRTMIN + 3) != 0) continue;  /* it ended meanwhile */
    /* One that has not answered in a second is given up on. */
    for (int ms = 0; ms < 1000 && __atomic_load_n(&gr__watchdog_answer, __ATOMIC_ACQUIRE) != (int)tid; ms++) {
      struct timespec m = {0, 1000000};
      nanosleep(&m, NULL);
    }
    if (__atomic_load_n(&gr__watchdog_answer, __ATOMIC_ACQUIRE) != (int)tid) {
      snprintf(head, sizeof head, "gr_test: watchdog: thread %ld did not answer\n", tid);
      gr__watchdog_say(head);
    }
  }
  closedir(d);
  gr__watchdog_say("gr_test: watchdog: end of the frames\n");
  return NULL;
}

static void gr__watchdog_start(int no_fork) {
  static double seconds;
  const char *v = getenv("GR_TEST_WATCHDOG"), *f = getenv("CK_FORK");
  if (!v || !*v) return;
  char *end = NULL;
  seconds = strtod(v, &end);
  if (*end || !(seconds > 0) || seconds > 1e7) {
    fprintf(stderr, "gr_test: GR_TEST_WATCHDOG=%s: give seconds, more than 0\n", v);
    exit(EXIT_FAILURE);
  }
  if (!(no_fork || (f && !strcmp(f, "no")))) return;
  if (!gr__take_signal(SIGRTMIN + 3, gr__watchdog_frames, SA_RESTART, "GR_TEST_WATCHDOG")) return;
  pthread_attr_t a;
  pthread_t th;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&th, &a, gr__watchdog, &seconds) != 0) fprintf(stderr, "gr_test: no watchdog thread\n");
  pthread_attr_destroy(&a);
}

int gr_test_run_suite(Suite *s, int no_fork) {
  gr__backtrace_on_crash();
  gr__watchdog_start(no_fork);
  /* Check's message limit stays at its default: its receiver moves the
   * whole message buffer for every message it reads (one per assertion), so
   * a large limit makes a test with many assertions crawl. A killed child's
   * long stderr goes to this process's stderr instead (gr_test_run_limited). */
  SRunner *sr = srunner_create(s);
  if (no_fork) srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void gr_test_add_cases(Suite *s, const gr_test_case *cases, size_t n, void (*setup)(void), void (*teardown)(void),
                       double timeout_s) {
  for (size_t i = 0; i < n; i++) {
    TCase *tc = tcase_create(cases[i].name);
    tcase_set_timeout(tc, timeout_s);
    tcase_add_checked_fixture(tc, setup, teardown);
    if (cases[i].loops > 0) tcase_add_loop_test(tc, cases[i].test, 0, cases[i].loops);
    else tcase_add_test(tc, cases[i].test);
    suite_add_tcase(s, tc);
  }
}

/* How many combinations this process's slice ran, said at its exit: a
 * slice past a test's last combination runs none, and its clean result
 * must not read as coverage (racecheck-slices.sh reports it "empty"). */
static unsigned gr__slice_ran;
static char gr__slice_name[32];
static void gr__slice_report(void) {
  printf("gr_test_slice %s ran %u combinations\n", gr__slice_name, gr__slice_ran);
  fflush(stdout);
}

/* A K/N setting (GR_TEST_SLICE, GR_TEST_SOURCES) as K and N; 0 when
 * unset. A malformed value fails the test. The first time it is read
 * set, its value goes into name and report is called at exit. */
static int gr__test_fraction(const char *var, unsigned *k, unsigned *n, char name[32], void (*report)(void)) {
  const char *v = getenv(var);
  if (!v || !*v) return 0;
  char end = 0;
  /* %u would take "-1" as UINT_MAX. */
  ck_assert_msg(!strchr(v, '-') && sscanf(v, "%u/%u%c", k, n, &end) == 2 && *n > 0 && *k < *n,
                "%s must be K/N with 0 <= K < N, got '%s'", var, v);
  if (!name[0]) {
    snprintf(name, 32, "%u/%u", *k, *n);
    atexit(report);
  }
  return 1;
}

/* GR_TEST_SLICE as K and N; 0 when unset (every combination). */
static int gr__test_slice(unsigned *k, unsigned *n) {
  return gr__test_fraction("GR_TEST_SLICE", k, n, gr__slice_name, gr__slice_report);
}

int gr_test_in_slice(unsigned *counter) {
  const unsigned at = (*counter)++;
  unsigned k = 0, n = 0;
  if (!gr__test_slice(&k, &n)) return 1;
  if (at % n != k) return 0;
  gr__slice_ran++;
  return 1;
}

int gr_test_slice_enter(unsigned *counter, unsigned count) {
  unsigned k = 0, n = 0;
  if (!gr__test_slice(&k, &n)) return 1;
  /* How far past *counter the next combination K mod N is (no overflow). */
  const unsigned r = *counter % n, d = k >= r ? k - r : n - (r - k);
  if (d < count) return 1;
  *counter += count;
  return 0;
}

/* How many sources this process kept of how many, said at its exit: a
 * part that kept none ran nothing, and its clean result must not read as
 * coverage (racecheck-slices.sh reports it "empty"). */
static unsigned long long gr__sources_kept, gr__sources_seen;
static char gr__sources_name[32];
static void gr__sources_report(void) {
  printf("gr_test_sources %s kept %llu of %llu sources\n", gr__sources_name, gr__sources_kept, gr__sources_seen);
  fflush(stdout);
}

size_t gr_test_keep_sources(gr_vid *src, size_t n) {
  unsigned j = 0, m = 0;
  if (!gr__test_fraction("GR_TEST_SOURCES", &j, &m, gr__sources_name, gr__sources_report)) return n;
  size_t kept = 0;
  for (size_t p = j; p < n; p += m) src[kept++] = src[p];
  gr__sources_kept += kept;
  gr__sources_seen += n;
  return kept;
}

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return strdup("");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  size_t got = b ? fread(b, 1, (size_t)n, f) : 0;
  if (b) b[got] = '\0';
  fclose(f);
  return b;
}

int gr_test_run(const char *const argv[], const char *const env[], char **out, char **err) {
  return gr_test_run_limited(argv, env, out, err, 0, 0);
}

int gr_test_run_limited(const char *const argv[], const char *const env[], char **out, char **err,
                        double timeout_s, unsigned long long address_space) {
  gr_test_child c;
  if (gr_test_spawn(&c, argv, env, timeout_s, address_space) < 0) return -1;
  return gr_test_finish(&c, out, err);
}

double gr_test_timeout_scale(void) {
  /* Read as Check reads it: a number from 0 (0: no limit, as a Check
   * case's timeout of 0); anything else is 1. */
  const char *v = getenv("CK_TIMEOUT_MULTIPLIER");
  char *end = NULL;
  const double m = v ? strtod(v, &end) : -1;
  return v && end != v && *end == '\0' && m >= 0 ? m : 1;
}

int gr_test_spawn(gr_test_child *c, const char *const argv[], const char *const env[], double timeout_s,
                  unsigned long long address_space) {
  static int seq = 0;
  memset(c, 0, sizeof *c);
  c->pid = -1;
  snprintf(c->out_path, sizeof c->out_path, "%s/run-%d-%d.out", gr_test_tmp_dir(), (int)getpid(), seq);
  snprintf(c->err_path, sizeof c->err_path, "%s/run-%d-%d.err", gr_test_tmp_dir(), (int)getpid(), seq++);
  snprintf(c->program, sizeof c->program, "%s", argv[0]);
  c->timeout_s = timeout_s * gr_test_timeout_scale();
  c->started = gr_time_now();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fo = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fo < 0 || fe < 0) _exit(126);
    dup2(fo, 1);
    dup2(fe, 2);
    for (int i = 0; env && env[i]; i++) putenv((char *)env[i]);
    if (address_space) {
      struct rlimit rl = {(rlim_t)address_space, (rlim_t)address_space};
      if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(125);
    }
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  c->pid = (int)pid;
  return 0;
}

int gr_test_finish(gr_test_child *c, char **out, char **err) {
  if (out) *out = NULL;
  if (err) *err = NULL;
  if (c->pid < 0) return -1;
  const pid_t pid = (pid_t)c->pid;
  c->pid = -1;
  int status = 0;
  bool timed_out = false, waited = false;
  pid_t r = -1;
  if (c->timeout_s > 0) {
    /* Polled: the child may be any program, and a test process may have
     * other children, so no SIGCHLD handler or alarm is installed. The
     * limit counts from the child's start, so children started together
     * and finished one after another each get their own. */
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (;;) {
      r = waitpid(pid, &status, WNOHANG);
      if (r < 0) break;
      if (r == pid) break;
      if (gr_time_now() - c->started > c->timeout_s) {
        kill(pid, SIGKILL);
        r = waitpid(pid, &status, 0);
        timed_out = true;
        break;
      }
      nanosleep(&nap, NULL);
    }
    waited = r == pid;
  } else {
    waited = waitpid(pid, &status, 0) == pid;
  }
  if (!waited) {
    unlink(c->out_path);
    unlink(c->err_path);
    return -1;
  }
  c->seconds = gr_time_now() - c->started;
  char *text = slurp(c->err_path);
  if (timed_out || !WIFEXITED(status))
    /* A sanitizer's report (tens of kilobytes) is longer than a Check
     * message may be; written here it reaches ctest's log whole. */
    fprintf(stderr, "%s %s; its stderr:\n%s\n", c->program, timed_out ? "timed out" : "ended by a signal",
            text ? text : "");
  if (err) *err = text;
  else free(text);
  if (out) *out = slurp(c->out_path);
  unlink(c->out_path);
  unlink(c->err_path);
  if (timed_out) return GR_TEST_TIMED_OUT;
  if (!WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

void gr_test_abandon(gr_test_child *c) {
  if (c->pid < 0) return;
  kill((pid_t)c->pid, SIGKILL);
  int status = 0;
  (void)waitpid((pid_t)c->pid, &status, 0);
  c->pid = -1;
  unlink(c->out_path);
  unlink(c->err_path);
}

gr_graph *gr_test_generated(const char *spec) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, spec), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_gen_graph(&g, &s, &o), GR_SUCCESS);
  return g;
}

int gr_test_upload_packed(gr_device *dev, const gr_csr *h, gr_buffer *b, gr_packed *p) {
  gr_packed hp = GR_PACKED_INIT;
  gr_status st = gr_packed_encode(&hp, h);
  if (st < 0) return st;
  const size_t sizes[3] = {hp.n_bytes, ((size_t)hp.n_blocks + 1) * sizeof *hp.block_offsets,
                           (size_t)gr_packed_groups(hp.n_blocks) * sizeof *hp.group_offsets};
  const void *src[3] = {hp.bytes, hp.block_offsets, hp.group_offsets};
  for (int i = 0; i < 3 && st >= 0; i++) {
    st = gr_buffer_resize(&b[i], dev, sizes[i] + (i ? 0 : GR_PACK_PAD_BYTES), 0, "test packed lists");
    if (st >= 0 && sizes[i]) st = gr_device_copy(dev, b[i].ptr, src[i], sizes[i], GR_COPY_H2D);
  }
  if (st >= 0) st = gr_device_memset(dev, (uint8_t *)b[0].ptr + sizes[0], 0, GR_PACK_PAD_BYTES);
  *p = hp;
  p->bytes = b[0].ptr;
  p->block_offsets = b[1].ptr;
  p->group_offsets = b[2].ptr;
  gr_packed_free(&hp);
  return st;
}

bool gr_test_have_gpu(void) {
  int gpus = 0;
  if (gr_device_count(GR_BACKEND_CUDA, &gpus) < 0 || gpus == 0) {
    printf("skip: no CUDA GPU on this machine\n");
    return false;
  }
  return true;
}
