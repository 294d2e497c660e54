/* SPDX-License-Identifier: Apache-2.0 */
/* Status table, per-thread error detail, prefix sums, counter-based RNG. */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gr/status.h"
#include "gr/util.h"
#include "testutil.h"

START_TEST(status_names_and_strings_come_from_one_table) {
  ck_assert_str_eq(gr_status_name(GR_SUCCESS), "GR_SUCCESS");
  ck_assert_str_eq(gr_status_name(GR_ERR_BAD_INPUT), "GR_ERR_BAD_INPUT");
  ck_assert_str_eq(gr_status_string(GR_ERR_DEVICE_OOM), "out of device memory");
  ck_assert_int_gt(GR_ITERATION_LIMIT, 0);
  ck_assert_int_lt(GR_ERR_INVALID_ARG, 0);
  ck_assert_str_eq(gr_status_name((gr_status)-999), "GR_UNKNOWN_STATUS");
}
END_TEST

START_TEST(errorf_keeps_detail_and_prefix_adds_context) {
  gr_error_clear();
  ck_assert_str_eq(gr_error_message(), "");
  gr_status st = gr_errorf(GR_ERR_BAD_INPUT, "line %d: bad token '%s'", 12, "x");
  ck_assert_int_eq(st, GR_ERR_BAD_INPUT);
  ck_assert_int_eq(gr_error_status(), GR_ERR_BAD_INPUT);
  ck_assert_str_eq(gr_error_message(), "line 12: bad token 'x'");
  gr_error_prefix(st, "%s:", "g.mtx");
  ck_assert_str_eq(gr_error_message(), "g.mtx:line 12: bad token 'x'");
}
END_TEST

static void *other_thread(void *arg) {
  (void)arg;
  return (void *)(intptr_t)(gr_error_message()[0] == '\0');
}

START_TEST(error_detail_is_per_thread) {
  gr_errorf(GR_ERR_IO, "mine");
  pthread_t t;
  void *clean = NULL;
  pthread_create(&t, NULL, other_thread, NULL);
  pthread_join(t, &clean);
  ck_assert(clean != NULL);
  ck_assert_str_eq(gr_error_message(), "mine");
}
END_TEST

START_TEST(prefix_sum_is_exclusive_and_returns_the_total) {
  for (size_t n = 0; n < 300000; n = n * 3 + 1) {
    uint64_t *a = malloc((n + 1) * sizeof *a), expect = 0;
    for (size_t i = 0; i < n; i++) a[i] = gr_rand64(1, 2, i) % 100;
    uint64_t *b = malloc((n + 1) * sizeof *b);
    memcpy(b, a, n * sizeof *a);
    uint64_t total = gr_prefix_sum_u64(a, n);
    for (size_t i = 0; i < n; i++) {
      ck_assert_uint_eq(a[i], expect);
      expect += b[i];
    }
    ck_assert_uint_eq(total, expect);
    free(a);
    free(b);
  }
}
END_TEST

START_TEST(rand64_depends_on_every_input) {
  ck_assert_uint_eq(gr_rand64(1, 2, 3), gr_rand64(1, 2, 3));
  ck_assert_uint_ne(gr_rand64(1, 2, 3), gr_rand64(2, 2, 3));
  ck_assert_uint_ne(gr_rand64(1, 2, 3), gr_rand64(1, 3, 3));
  ck_assert_uint_ne(gr_rand64(1, 2, 3), gr_rand64(1, 2, 4));
  double sum = 0;
  for (int i = 0; i < 100000; i++) {
    double u = gr_u01(gr_rand64(9, 0, (uint64_t)i));
    ck_assert(u >= 0.0 && u < 1.0);
    sum += u;
  }
  ck_assert(sum / 100000 > 0.49 && sum / 100000 < 0.51);
}
END_TEST

START_TEST(format_bytes_picks_units) {
  char b[32];
  ck_assert_str_eq(gr_format_bytes(b, sizeof b, 512), "512 B");
  ck_assert_str_eq(gr_format_bytes(b, sizeof b, 1536), "1.50 KiB");
  ck_assert_str_eq(gr_format_bytes(b, sizeof b, 3ull << 30), "3.00 GiB");
}
END_TEST

START_TEST(host_alloc_failure_says_how_much) {
  void *p = (void *)1;
  gr_status st = gr_host_calloc(&p, SIZE_MAX / 2, 4, "a giant table");
  ck_assert_int_eq(st, GR_ERR_HOST_OOM);
  ck_assert_ptr_null(p);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "a giant table"));
}
END_TEST

START_TEST(parse_count_takes_decimal_digits_only) {
  uint64_t v = 7;
  ck_assert(gr_parse_count("0", 1, &v) && v == 0);
  ck_assert(gr_parse_count("18446744073709551615", 20, &v) && v == UINT64_MAX);
  /* strtoull took all of these: a blank, a sign (" -5" was 2^64 - 5),
   * hexadecimal digits after 0, and it wrapped past 2^64 with ERANGE. */
  const char *bad[] = {"", " 5", "+5", "-5", " -5", "5 ", "0x10", "18446744073709551616", "1e3", "5,"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(!gr_parse_count(bad[i], strlen(bad[i]), &v), "'%s' was taken", bad[i]);
  ck_assert_uint_eq(v, UINT64_MAX);
  /* Only the given length counts. */
  ck_assert(gr_parse_count("12,34", 2, &v) && v == 12);
}
END_TEST

START_TEST(parse_real_takes_plain_decimals_only) {
  double v = 0;
  bool integer = false;
  ck_assert(gr_parse_real("1.5", 3, false, &v, &integer) && v == 1.5 && !integer);
  ck_assert(gr_parse_real("-7", 2, true, &v, &integer) && v == -7.0 && integer);
  ck_assert(gr_parse_real(".25", 3, false, &v, &integer) && v == 0.25 && !integer);
  ck_assert(gr_parse_real("5.", 2, false, &v, &integer) && v == 5.0 && !integer);
  ck_assert(gr_parse_real("1e2", 3, false, &v, &integer) && v == 100.0 && !integer);
  ck_assert(gr_parse_real("2E-1", 4, false, &v, NULL) && v == 0.2);
  /* An integer beyond 64 bits is still an integer, with its own value
   * (strtoll clamped it to 2^63 - 1 and reported no error). */
  ck_assert(gr_parse_real("100000000000000000000", 21, true, &v, &integer) && v == 1e20 && integer);
  /* Any length: a long decimal is still a number. */
  char longnum[300];
  memset(longnum, '1', sizeof longnum);
  ck_assert(gr_parse_real(longnum, sizeof longnum, false, &v, &integer) && integer && v > 1e299);
  const char *bad[] = {"", " 1", "\r1", "+1", "1 ", "0x10", "inf", "nan", "1e", "1e+", ".", "-", "1.2.3", "1e999", "--1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(!gr_parse_real(bad[i], strlen(bad[i]), true, &v, NULL), "'%s' was taken", bad[i]);
  ck_assert(!gr_parse_real("-1", 2, false, &v, NULL));
}
END_TEST

/* Sets var to "K/N", as GR_TEST_SLICE and GR_TEST_SOURCES are written. */
static void set_fraction(const char *var, unsigned k, unsigned n) {
  char v[32];
  snprintf(v, sizeof v, "%u/%u", k, n);
  setenv(var, v, 1);
}

/* The tests' slices (GR_TEST_SLICE=K/N): unset every combination; set,
 * combinations K, K+N, ...; every slice together covers each once. */
START_TEST(test_slices_cover_each_combination_once) {
  unsetenv("GR_TEST_SLICE");
  unsigned c = 0;
  for (int i = 0; i < 10; i++) ck_assert(gr_test_in_slice(&c));
  ck_assert_uint_eq(c, 10);
  int seen[10] = {0};
  for (unsigned k = 0; k < 3; k++) {
    set_fraction("GR_TEST_SLICE", k, 3);
    c = 0;
    for (int i = 0; i < 10; i++)
      if (gr_test_in_slice(&c)) {
        ck_assert_int_eq(i % 3, (int)k);
        seen[i]++;
      }
  }
  for (int i = 0; i < 10; i++) ck_assert_int_eq(seen[i], 1);
  unsetenv("GR_TEST_SLICE");
}
END_TEST

/* A combination's sources in parts (GR_TEST_SOURCES=J/M): unset all of
 * them, untouched; set, positions J, J+M, ... in their order at the front;
 * over the M parts each source is kept once; parts past the last source
 * keep none. */
START_TEST(source_parts_keep_each_source_once) {
  unsetenv("GR_TEST_SOURCES");
  gr_vid src[7] = {70, 71, 72, 73, 74, 75, 76};
  ck_assert_uint_eq(gr_test_keep_sources(src, 7), 7);
  for (int i = 0; i < 7; i++) ck_assert_uint_eq(src[i], (gr_vid)(70 + i));
  for (size_t n = 0; n <= 7; n++)
    for (unsigned m = 1; m <= 5; m++) {
      int seen[7] = {0};
      for (unsigned j = 0; j < m; j++) {
        set_fraction("GR_TEST_SOURCES", j, m);
        gr_vid s[7];
        for (size_t i = 0; i < n; i++) s[i] = (gr_vid)(70 + i);
        const size_t kept = gr_test_keep_sources(s, n);
        ck_assert_uint_eq(kept, n > j ? (n - j + m - 1) / m : 0);
        for (size_t i = 0; i < kept; i++) {
          ck_assert_uint_eq(s[i], (gr_vid)(70 + j + i * m));
          seen[s[i] - 70]++;
        }
      }
      for (size_t i = 0; i < n; i++)
        ck_assert_msg(seen[i] == 1, "%zu sources in %u parts: source %zu kept %d times", n, m, i, seen[i]);
    }
  unsetenv("GR_TEST_SOURCES");
}
END_TEST

/* A test's loops as blocks of a few combinations (a graph's, say): a block
 * with none of the slice's combinations is skipped whole and counted, one
 * with any is entered; over every slice each combination runs once, at the
 * same counter value as without blocks. */
START_TEST(slice_enter_skips_blocks_with_none_of_the_slice) {
  unsetenv("GR_TEST_SLICE");
  unsigned c = 0;
  ck_assert(gr_test_slice_enter(&c, 5));
  ck_assert_uint_eq(c, 0);
  static const unsigned sizes[] = {1, 8, 3, 8, 2, 16, 1, 1};
  for (unsigned n = 1; n <= 34; n++) {
    int seen[40] = {0};
    for (unsigned k = 0; k < n; k++) {
      set_fraction("GR_TEST_SLICE", k, n);
      c = 0;
      for (int b = 0; b < 8; b++) {
        const unsigned at = c;
        int any = 0;
        for (unsigned i = 0; i < sizes[b]; i++) any |= (at + i) % n == k;
        if (!gr_test_slice_enter(&c, sizes[b])) {
          ck_assert_msg(!any, "slice %u/%u skipped a block holding one of its combinations", k, n);
          ck_assert_uint_eq(c, at + sizes[b]);
          continue;
        }
        ck_assert_msg(any, "slice %u/%u entered a block with none of its combinations", k, n);
        ck_assert_uint_eq(c, at);
        for (unsigned i = 0; i < sizes[b]; i++)
          if (gr_test_in_slice(&c)) seen[at + i]++;
      }
      ck_assert_uint_eq(c, 40);
    }
    for (int i = 0; i < 40; i++) ck_assert_msg(seen[i] == 1, "%u slices: combination %d ran %d times", n, i, seen[i]);
  }
  unsetenv("GR_TEST_SLICE");
}
END_TEST

START_TEST(host_memory_limit_caps_what_gr_plans_with) {
  const uint64_t whole = gr_host_memory_bytes();
  gr_host_memory_limit(1u << 20);
  ck_assert_uint_eq(gr_host_memory_bytes(), whole && whole < (1u << 20) ? whole : (1u << 20));
  /* A limit above the host changes nothing; 0 removes it. */
  gr_host_memory_limit(UINT64_MAX);
  ck_assert_uint_eq(gr_host_memory_bytes(), whole);
  gr_host_memory_limit(0);
  ck_assert_uint_eq(gr_host_memory_bytes(), whole);
}
END_TEST

/* The test programs' child runner: output captured, exit codes passed on,
 * a run past its limit killed (the limit counted from its own start),
 * several at once, and one given up on killed and reaped. */
START_TEST(test_children_run_at_once_within_their_limits) {
  const char *echo[] = {"/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL};
  char *out = NULL, *err = NULL;
  ck_assert_int_eq(gr_test_run_limited(echo, NULL, &out, &err, 10, 0), 3);
  ck_assert_str_eq(out, "out\n");
  ck_assert_str_eq(err, "err\n");
  free(out);
  free(err);
  const char *env[] = {"GR_TEST_CHILD_WORD=seen", NULL};
  const char *show[] = {"/bin/sh", "-c", "echo $GR_TEST_CHILD_WORD", NULL};
  ck_assert_int_eq(gr_test_run_limited(show, env, &out, NULL, 10, 0), 0);
  ck_assert_str_eq(out, "seen\n");
  free(out);
  const char *hang[] = {"/bin/sh", "-c", "exec sleep 30", NULL};
  double t0 = gr_time_now();
  ck_assert_int_eq(gr_test_run_limited(hang, NULL, NULL, NULL, 0.3, 0), GR_TEST_TIMED_OUT);
  ck_assert(gr_time_now() - t0 < 10);
  /* Three runs of 1 s at once take about 1 s, not 3. */
  const char *nap[] = {"/bin/sh", "-c", "exec sleep 1", NULL};
  gr_test_child c[3];
  t0 = gr_time_now();
  for (int i = 0; i < 3; i++) ck_assert_int_eq(gr_test_spawn(&c[i], nap, NULL, 10, 0), 0);
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(gr_test_finish(&c[i], NULL, NULL), 0);
    ck_assert(c[i].seconds >= 0.9);
    ck_assert_int_eq(c[i].pid, -1);
  }
  ck_assert(gr_time_now() - t0 < 2.6);
  /* Given up on: killed at once; finishing it afterwards is an error, and
   * giving it up again does nothing. */
  gr_test_child h;
  ck_assert_int_eq(gr_test_spawn(&h, hang, NULL, 0, 0), 0);
  t0 = gr_time_now();
  gr_test_abandon(&h);
  ck_assert(gr_time_now() - t0 < 10);
  ck_assert_int_eq(h.pid, -1);
  gr_test_abandon(&h);
  ck_assert_int_eq(gr_test_finish(&h, NULL, NULL), -1);
}
END_TEST

/* A child's limit stretches with CK_TIMEOUT_MULTIPLIER, as Check's per-case
 * timeouts do (sanitized builds set it); 0 is no limit, as for Check; what
 * Check would not take counts as 1. */
START_TEST(test_child_limits_follow_the_timeout_multiplier) {
  const char *was = getenv("CK_TIMEOUT_MULTIPLIER");
  char *saved = was ? strdup(was) : NULL;
  const struct {
    const char *value;
    double scale;
  } cases[] = {{"3", 3}, {"2.5", 2.5}, {"0", 0}, {"-2", 1}, {"4x", 1}, {"", 1}};
  const char *quick[] = {"/bin/sh", "-c", "exit 0", NULL};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    setenv("CK_TIMEOUT_MULTIPLIER", cases[i].value, 1);
    ck_assert_double_eq(gr_test_timeout_scale(), cases[i].scale);
    gr_test_child c;
    ck_assert_int_eq(gr_test_spawn(&c, quick, NULL, 10, 0), 0);
    ck_assert_double_eq(c.timeout_s, 10 * cases[i].scale);
    ck_assert_int_eq(gr_test_finish(&c, NULL, NULL), 0);
  }
  unsetenv("CK_TIMEOUT_MULTIPLIER");
  ck_assert_double_eq(gr_test_timeout_scale(), 1);
  if (saved) setenv("CK_TIMEOUT_MULTIPLIER", saved, 1);
  free(saved);
}
END_TEST

START_TEST(crash_on_purpose) { raise(SIGSEGV); }
END_TEST

/* A case that runs on for 1.5 s beside a thread of its own, both asleep. */
/* Sleeps the whole time, though a signal (the watchdog's) cut it short. */
static void nap(time_t s, long ns) {
  struct timespec t = {s, ns};
  while (nanosleep(&t, &t) != 0) continue;
}

static void *nap_3s(void *arg) {
  (void)arg;
  nap(3, 0);
  return NULL;
}

START_TEST(runs_on_beside_a_thread) {
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, nap_3s, NULL), 0);
  pthread_detach(th);
  nap(1, 500000000);
}
END_TEST

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define GR_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GR_TEST_SANITIZED 1
#endif
#endif
#ifndef GR_TEST_SANITIZED
#define GR_TEST_SANITIZED 0
#endif

START_TEST(ill_on_purpose) { raise(SIGILL); }
END_TEST

/* A SIGILL handler of the program's own, installed before the harness's
 * (SIGILL: the sanitizers leave it alone, where they keep SIGSEGV and
 * SIGFPE to themselves whatever the program installs). */
static void own_ill_handler(int sig) {
  (void)sig;
  static const char said[] = "own handler\n";
  if (write(STDERR_FILENO, said, sizeof said - 1) < 0) _exit(8);
  _exit(7);
}

/* Runs a suite of the one case test in a child process, in one process as
 * the GPU tests run, with var set to value (NULL: unset) and, with
 * own_ill, a SIGILL handler of its own first; returns what the child
 * wrote to stdout and stderr and how it ended (waitpid's status). */
static char *suite_in_child(const TTest *test, const char *var, const char *value, bool own_ill, int *status) {
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(fds[1], STDERR_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    /* No core file from the crash on purpose; and none of the settings
     * that would make Check run another case (or none) of this suite. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    const char *drop[] = {"CK_RUN_CASE",      "CK_RUN_SUITE", "CK_INCLUDE_TAGS", "CK_EXCLUDE_TAGS",
                          "GR_TEST_BACKTRACE", "GR_TEST_WATCHDOG"};
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++) unsetenv(drop[i]);
    if (value) setenv(var, value, 1);
    if (own_ill) signal(SIGILL, own_ill_handler);
    Suite *s = suite_create("child");
    TCase *tc = tcase_create("child");
    tcase_add_test(tc, test);
    suite_add_tcase(s, tc);
    _exit(gr_test_run_suite(s, 1) == EXIT_SUCCESS ? 0 : 1);
  }
  close(fds[1]);
  size_t len = 0, cap = 4096;
  char *text = malloc(cap);
  ck_assert_ptr_nonnull(text);
  for (ssize_t got; (got = read(fds[0], text + len, cap - 1 - len)) > 0;) {
    len += (size_t)got;
    if (len + 1 == cap) {
      cap *= 2;
      text = realloc(text, cap);
      ck_assert_ptr_nonnull(text);
    }
  }
  text[len] = '\0';
  close(fds[0]);
  ck_assert_int_eq(waitpid(pid, status, 0), pid);
  return text;
}

/* GR_TEST_BACKTRACE=1: a test program that dies of a signal first prints
 * the crashing thread's frames, and still dies of that signal; unset (or
 * anything but 1), it prints nothing of the kind. A handler already there
 * (the program's own, or a sanitized build's) is left to handle it, and
 * named. */
START_TEST(a_crash_prints_its_frames_when_asked) {
  int status = 0;
  struct sigaction before;
  ck_assert_int_eq(sigaction(SIGSEGV, NULL, &before), 0);
  const bool sanitizer_handles = (before.sa_flags & SA_SIGINFO) || before.sa_handler != SIG_DFL;
  char *text = suite_in_child(crash_on_purpose, "GR_TEST_BACKTRACE", "1", false, &status);
  if (sanitizer_handles) {
    /* The sanitizer reports the SEGV and aborts (abort_on_error=1): that
     * SIGABRT, which it leaves free, may then get the harness's report. */
    ck_assert_msg(WIFSIGNALED(status) && strstr(text, "signal 11 already has a handler"), "status %d: %.400s", status,
                  text);
  } else {
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "status %d: %.400s", status, text);
    ck_assert_msg(strstr(text, "gr_test: fatal signal") != NULL, "no report in: %.400s", text);
    /* At least the handler's frame and the test's below it. */
    const char *frames = strstr(text, "frames:\n");
    ck_assert_ptr_nonnull(frames);
    int lines = 0;
    for (const char *c = frames + 8; *c; c++) lines += *c == '\n';
    ck_assert_msg(lines >= 2, "%d frames in: %.400s", lines, text);
  }
  free(text);
  /* The sanitizers stand between a program and its signal handlers (they
   * keep some, wrap others): the program's own handler is checked in the
   * plain build only. */
  if (!GR_TEST_SANITIZED) {
    text = suite_in_child(ill_on_purpose, "GR_TEST_BACKTRACE", "1", true, &status);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 7, "status %d: %.400s", status, text);
    ck_assert_msg(strstr(text, "signal 4 already has a handler") && strstr(text, "own handler") &&
                      !strstr(text, "gr_test: fatal signal"),
                  "%.400s", text);
    free(text);
  }
  const char *off[] = {NULL, "0"};
  for (int i = 0; i < 2; i++) {
    text = suite_in_child(crash_on_purpose, "GR_TEST_BACKTRACE", off[i], false, &status);
    /* Left to itself, a sanitized build's own handler reports the SEGV and
     * aborts (abort_on_error=1 in tools/run-sanitizers.sh). */
    ck_assert_msg(WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGABRT),
                  "status %d: %.400s", status, text);
    ck_assert_msg(strstr(text, "gr_test: fatal signal") == NULL, "a report unasked: %.400s", text);
    free(text);
  }
}
END_TEST

static int count_of(const char *text, const char *what) {
  int n = 0;
  for (const char *at = text; (at = strstr(at, what)) != NULL; at += strlen(what)) n++;
  return n;
}

/* Lines "gr_test: watchdog: thread N frames:": the threads that answered. */
static int threads_answered(const char *text) {
  int n = 0;
  for (const char *at = text; (at = strstr(at, "gr_test: watchdog: thread ")) != NULL;) {
    at += strlen("gr_test: watchdog: thread ");
    const char *digits = at;
    while (*at >= '0' && *at <= '9') at++;
    n += at > digits && !strncmp(at, " frames:\n", 9);
  }
  return n;
}

/* GR_TEST_WATCHDOG=S: a program still running after S s prints each of
 * its threads' frames (the case's and the one it started, at least) and
 * runs on to pass; a value that is not seconds is refused. */
START_TEST(a_watchdog_prints_every_threads_frames) {
  int status = 0;
  char *text = suite_in_child(runs_on_beside_a_thread, "GR_TEST_WATCHDOG", "0.3", false, &status);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %.400s", status, text);
  ck_assert_msg(count_of(text, "gr_test: watchdog: still running after 0.3 s") == 1, "%.400s", text);
  ck_assert_msg(threads_answered(text) >= 2, "%.400s", text);
  ck_assert_msg(count_of(text, " did not answer") == 0, "%.400s", text);
  ck_assert_msg(strstr(text, "gr_test: watchdog: end of the frames") != NULL, "%.400s", text);
  free(text);
  text = suite_in_child(runs_on_beside_a_thread, "GR_TEST_WATCHDOG", "soon", false, &status);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_FAILURE, "status %d", status);
  ck_assert_msg(strstr(text, "GR_TEST_WATCHDOG=soon: give seconds") != NULL, "%.400s", text);
  free(text);
}
END_TEST

int main(void) {
  Suite *s = suite_create("util");
  TCase *tc = tcase_create("util");
  tcase_add_test(tc, status_names_and_strings_come_from_one_table);
  tcase_add_test(tc, errorf_keeps_detail_and_prefix_adds_context);
  tcase_add_test(tc, error_detail_is_per_thread);
  tcase_add_test(tc, prefix_sum_is_exclusive_and_returns_the_total);
  tcase_add_test(tc, rand64_depends_on_every_input);
  tcase_add_test(tc, format_bytes_picks_units);
  tcase_add_test(tc, host_alloc_failure_says_how_much);
  tcase_add_test(tc, parse_count_takes_decimal_digits_only);
  tcase_add_test(tc, parse_real_takes_plain_decimals_only);
  tcase_add_test(tc, host_memory_limit_caps_what_gr_plans_with);
  tcase_add_test(tc, test_slices_cover_each_combination_once);
  tcase_add_test(tc, slice_enter_skips_blocks_with_none_of_the_slice);
  tcase_add_test(tc, source_parts_keep_each_source_once);
  tcase_add_test(tc, test_children_run_at_once_within_their_limits);
  tcase_add_test(tc, test_child_limits_follow_the_timeout_multiplier);
  tcase_add_test(tc, a_crash_prints_its_frames_when_asked);
  tcase_add_test(tc, a_watchdog_prints_every_threads_frames);
  suite_add_tcase(s, tc);
  return gr_test_run_suite(s, 0);
}
