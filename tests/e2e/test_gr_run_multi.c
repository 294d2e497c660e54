/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run on several devices, end to end: every device count x partitioner x
 * proxy x exchange gives the one-device answer (depths, distances and
 * component labels equal vertex by vertex, PageRank within 1e-5, BC within
 * 1e-9) and passes
 * validation, on generated and real graphs; a failure on
 * one device (an allocation, a kernel launch, a transfer) ends the run
 * cleanly; a graph too large for the devices or for the host's memory limit
 * is refused with both figures; bad multi-device options exit 2. Runs on
 * CPU devices; GR_E2E_BACKEND=gpu runs the matrix on GPUs (logical devices
 * mapped onto the GPUs present with GR_DEVICE_MAP when there are fewer),
 * with the p2p transport and, where every device has a GPU of its own, NCCL. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gr/util.h"
#include "testutil.h"

static const char *gr_run_bin(void) {
  const char *p = getenv("GR_RUN");
  ck_assert_msg(p && *p, "GR_RUN (path of gr_run) is not set");
  return p;
}

static bool on_gpu(void) {
  const char *b = getenv("GR_E2E_BACKEND");
  return b && !strcmp(b, "gpu");
}

static int gpus_present(void) {
  const char *p = getenv("GR_E2E_GPUS");
  return p ? atoi(p) : 0;
}

static bool have_metis(void) {
  const char *p = getenv("GR_E2E_METIS");
  return p && !strcmp(p, "1");
}

/* NCCL needs a GPU per device, and a build with NCCL. A test that cannot
 * run says why, so that a runner tells a test that did nothing on purpose
 * from one never given what it needs. */
static bool nccl_usable(void) {
  if (on_gpu() && gpus_present() >= 2 && getenv("GR_E2E_NCCL")) return true;
  printf("skip: NCCL needs GPUs (GR_E2E_BACKEND=gpu: %s), 2 of them (GR_E2E_GPUS=%d) and a build with NCCL "
         "(GR_E2E_NCCL %s)\n",
         on_gpu() ? "yes" : "no", gpus_present(), getenv("GR_E2E_NCCL") ? "set" : "unset");
  return false;
}

static char *out_text, *err_text;

/* Limits of the runs that follow (the fault tests set them): a run past
 * run_timeout_s is killed and fails its test as a hang; run_address_space
 * is the child's RLIMIT_AS. 0: none. */
static double run_timeout_s;
static unsigned long long run_address_space;

/* Where a test's time goes: its gr_run processes, their seconds, the part
 * of them before the graph (gr_run's "start" phase: on GPUs the driver's
 * start and the exchange's set-up) and the slowest run. Printed when the
 * test ends (times_report) and, with GR_E2E_TIMES=1, one line a run: on a
 * GPU machine every run pays the start again, and a matrix of thousands of
 * runs is mostly that. With GR_E2E_JOBS > 1 runs overlap, so their
 * seconds add up to more than the test's, and a run's seconds last until
 * it is checked (in the order started). */
static struct {
  unsigned runs, summaries;
  double seconds, start_seconds, slowest;
  char slowest_what[1024];
} times;

/* GR_TEST_SLICE=K/N: the sliced tests (tagged "sliced") run only their
 * combinations K, K+N, ... (a matrix's runs, a fault scan's primitives),
 * so that N processes, at once or over several commands, share one test. */
static unsigned slice_combo;

static void times_reset(void) {
  memset(&times, 0, sizeof times);
  slice_combo = 0;
}

static void times_report(void) {
  if (!times.runs) return;
  fprintf(stderr, "gr_run: %u runs, %.1f s in all (%.1f s before the graph in the %u that reported it); slowest %.2f s: %s\n",
          times.runs, times.seconds, times.start_seconds, times.summaries, times.slowest, times.slowest_what);
}

/* A run as one line: its environment (the fault hooks) and its command. */
static void describe_run(char *what, size_t len, const char *const *envv, const char *const *argv) {
  size_t k = 0;
  what[0] = 0;
  for (int i = 0; envv[i] && k < len; i++) k += (size_t)snprintf(what + k, len - k, "%s ", envv[i]);
  for (int i = 0; argv[i] && k < len; i++) k += (size_t)snprintf(what + k, len - k, "%s%s", i ? " " : "", argv[i]);
}

static void times_add(double seconds, int rc, const char *what) {
  times.runs++;
  times.seconds += seconds;
  const char *w = out_text ? strstr(out_text, "\nwall time  ") : NULL;
  double total = 0, start = -1; /* -1: the run printed no summary */
  if (w && sscanf(w, "\nwall time  %lf s: start %lf,", &total, &start) == 2) {
    times.summaries++;
    times.start_seconds += start;
  }
  if (seconds > times.slowest) {
    times.slowest = seconds;
    snprintf(times.slowest_what, sizeof times.slowest_what, "%s", what);
  }
  const char *v = getenv("GR_E2E_TIMES");
  /* A line a run, as it is waited for: a test stopped by a limit or a
   * failed assertion (whose teardown does not run) still shows how far it
   * got. */
  if (v && !strcmp(v, "1")) {
    char st[32] = "-";
    if (start >= 0) snprintf(st, sizeof st, "%.3f", start);
    fprintf(stderr, "gr_run %.3f s, start %s s, exit %d: %s\n", seconds, st, rc, what);
  }
}

/* A gr_run command on `devices` devices of the test's backend with the
 * given arguments (NULL-terminated array) and extra environment entries.
 * argv and envv point into the struct: it is filled in place and not
 * copied. */
typedef struct run_cmd {
  const char *argv[64];
  const char *envv[8];
  char ndev[16], map[128];
  char what[1024]; /* the command as one line (describe_run) */
} run_cmd;

static void run_cmd_make(run_cmd *c, const char *const *env, int devices, const char *transport,
                         const char *const *args) {
  int n = 0, ne = 0;
  c->argv[n++] = gr_run_bin();
  snprintf(c->ndev, sizeof c->ndev, "%d", devices);
  if (!on_gpu()) c->argv[n++] = "--cpu";
  c->argv[n++] = "--gpus";
  c->argv[n++] = c->ndev;
  if (transport) {
    c->argv[n++] = "--transport";
    c->argv[n++] = transport;
  }
  if (on_gpu() && devices > gpus_present()) {
    /* More logical devices than GPUs: map them round-robin. */
    const int g = gpus_present() > 0 ? gpus_present() : 1;
    int k = snprintf(c->map, sizeof c->map, "GR_DEVICE_MAP=");
    for (int i = 0; i < devices && k < (int)sizeof c->map - 8; i++)
      k += snprintf(c->map + k, sizeof c->map - (size_t)k, "%s%d", i ? "," : "", i % g);
    c->envv[ne++] = c->map;
  }
  for (int i = 0; env && env[i] && ne < 7; i++) c->envv[ne++] = env[i];
  c->envv[ne] = NULL;
  for (int i = 0; args[i] && n < 62; i++) c->argv[n++] = args[i];
  c->argv[n] = NULL;
  describe_run(c->what, sizeof c->what, c->envv, c->argv);
}

/* Waits for a started run: its output in out_text and err_text, its time
 * counted. Returns its exit code as gr_test_finish does. */
static int run_end(gr_test_child *child, const run_cmd *c) {
  free(out_text);
  free(err_text);
  out_text = err_text = NULL;
  const int rc = gr_test_finish(child, &out_text, &err_text);
  times_add(child->seconds, rc, c->what);
  return rc;
}

/* Why a run's process did not end as a program does (run_end's rc): a
 * hang killed at its limit, or a signal. False for any exit code. */
static bool run_broke(int rc, char *why, size_t len) {
  if (rc == GR_TEST_TIMED_OUT)
    snprintf(why, len, "gr_run hung: killed after %.0f s", run_timeout_s * gr_test_timeout_scale());
  else if (rc < 0) snprintf(why, len, "gr_run did not exit normally (signal?)");
  return rc < 0;
}

/* Runs gr_run on `devices` devices of the test's backend with the given
 * arguments (NULL-terminated array) and extra environment entries. */
static int run_argv(const char *const *env, int devices, const char *transport, const char *const *args) {
  run_cmd c;
  run_cmd_make(&c, env, devices, transport, args);
  gr_test_child child;
  int rc = gr_test_spawn(&child, c.argv, c.envv, run_timeout_s, run_address_space);
  ck_assert_msg(rc == 0, "cannot start %s", c.what);
  rc = run_end(&child, &c);
  char why[96];
  if (run_broke(rc, why, sizeof why)) ck_abort_msg("%s: %s\nstderr: %s", why, c.what, err_text ? err_text : "");
  return rc;
}

static int run_dev(const char *const *env, int devices, const char *transport, const char *first, ...) {
  const char *args[48];
  int n = 0;
  va_list ap;
  va_start(ap, first);
  for (const char *a = first; a && n < 47; a = va_arg(ap, const char *)) args[n++] = a;
  va_end(ap);
  args[n] = NULL;
  return run_argv(env, devices, transport, args);
}

static void assert_err_has(const char *needle) {
  ck_assert_msg(err_text && strstr(err_text, needle), "stderr lacks \"%s\":\n%s", needle,
                err_text ? err_text : "(none)");
}

static void tmp_path(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%d-%s", gr_test_tmp_dir(), (int)getpid(), name);
}

/* Reads the first two columns (id, value) of an --out file. */
static long long *read_values(const char *path, size_t *n) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t cap = 1024, k = 0;
  long long *v = malloc(cap * sizeof *v);
  char line[256];
  while (fgets(line, sizeof line, f)) {
    unsigned long long id;
    long long x;
    ck_assert_int_eq(sscanf(line, "%llu %lld", &id, &x), 2);
    if (k == cap) v = realloc(v, (cap *= 2) * sizeof *v);
    ck_assert_ptr_nonnull(v);
    v[k++] = x;
  }
  fclose(f);
  *n = k;
  return v;
}

static void free_texts(char **v, size_t n) {
  for (size_t i = 0; v && i < n; i++) free(v[i]);
  free(v);
}

/* The value column of an --out file as text, one entry per line: equal
 * text is the same number, integer (depths) or float (distances). NULL
 * when the file cannot be read or a line has no value. */
static char **value_texts(const char *path, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1024, k = 0;
  char **v = malloc(cap * sizeof *v);
  char line[256];
  bool ok = v != NULL;
  while (ok && fgets(line, sizeof line, f)) {
    char value[64];
    ok = sscanf(line, "%*s %63s", value) == 1;
    if (ok && k == cap) {
      char **w = realloc(v, (cap *= 2) * sizeof *v);
      ok = w != NULL;
      if (ok) v = w;
    }
    if (ok) ok = (v[k] = strdup(value)) != NULL;
    if (ok) k++;
  }
  fclose(f);
  if (!ok) {
    free_texts(v, k);
    return NULL;
  }
  *n = k;
  return v;
}

static char **read_value_texts(const char *path, size_t *n) {
  char **v = value_texts(path, n);
  ck_assert_msg(v != NULL, "cannot read the values in %s", path);
  return v;
}

static const char *const partitioners[] = {"random", "biased", "metis", "static", "range"};
static const char *const proxies[] = {"all", "1hop"};
static const char *const comms[] = {"selective", "broadcast"};

/* Whether two value columns agree: as text (rel_tol 0: depths, labels,
 * distances, bit for bit), or as numbers within a relative tolerance
 * (PageRank, whose sums run in another order on every device count). */
static bool values_agree(const char *have, const char *want, double rel_tol) {
  if (rel_tol <= 0) return !strcmp(have, want);
  const double x = strtod(have, NULL), y = strtod(want, NULL);
  return fabs(x - y) <= rel_tol * fabs(y);
}

/* Runs of a matrix at once: GR_E2E_JOBS (1 to 16, default 1). On GPUs a
 * short run is mostly the driver's start and the exchange's set-up on the
 * host (0.5 s, 1.2 s with NCCL; docs/reliability.md), so a machine's cores
 * run several such starts in the time of one. */
static int e2e_jobs(void) {
  const char *v = getenv("GR_E2E_JOBS");
  const int j = v && *v ? atoi(v) : 1;
  return j < 1 ? 1 : j > 16 ? 16 : j;
}

/* One combination of a matrix, started and not yet checked. */
typedef struct matrix_job {
  const char *args[48];
  char got[512];
  char label[160]; /* devices, partitioner, proxy, exchange */
  run_cmd cmd;
  gr_test_child child;
} matrix_job;

/* What a matrix compares each run against. */
typedef struct matrix_ref {
  const char *primitive, *input, *transport;
  char **want;
  size_t n;
  double rel_tol;
} matrix_ref;

/* Kills the started runs of jobs[0..n_jobs) and removes their files, before
 * a failure is reported: none outlives the test. */
static void matrix_abandon(matrix_job *jobs, int n_jobs) {
  for (int i = 0; i < n_jobs; i++) {
    gr_test_abandon(&jobs[i].child);
    if (jobs[i].got[0]) unlink(jobs[i].got);
  }
}

/* Waits for job and checks it against the one-device values; on any
 * failure abandons the other started runs first. */
static void matrix_job_check(matrix_job *job, matrix_job *jobs, int n_jobs, const matrix_ref *ref) {
  const int rc = run_end(&job->child, &job->cmd);
  char why[768] = "";
  size_t ngot = 0;
  char **have = rc == 0 ? value_texts(job->got, &ngot) : NULL;
  unlink(job->got);
  if (!run_broke(rc, why, sizeof why)) {
    if (rc != 0) snprintf(why, sizeof why, "exit %d", rc);
    else if (!have) snprintf(why, sizeof why, "no values in its --out file");
    else if (ngot != ref->n) snprintf(why, sizeof why, "%zu values, one device %zu", ngot, ref->n);
  }
  for (size_t v = 0; !why[0] && v < ref->n; v++)
    if (!values_agree(have[v], ref->want[v], ref->rel_tol))
      snprintf(why, sizeof why, "line %zu: %s, one device %s", v + 1, have[v], ref->want[v]);
  free_texts(have, ngot);
  if (!why[0]) return;
  matrix_abandon(jobs, n_jobs);
  ck_abort_msg("%s %s: %s, %s: %s\n%s\nstderr: %s", ref->primitive, ref->input, job->label,
               ref->transport ? ref->transport : "auto", why, job->cmd.what, err_text ? err_text : "");
}

/* Whether the matrix's runs record predecessors (--mark-pred): a test of
 * what predecessors turn off (SSSP's copies lowered on their owners in
 * place) clears it around its matrices. */
static bool matrix_preds = true;

/* The arguments of a run compared with one device's: the primitive from
 * the highest-degree source, validated, with predecessors (matrix_preds), seed 7; `extra`
 * (NULL-terminated, or NULL; at most 20); the input (a file with its
 * cache folder, or a generator spec when path is NULL); and "--out", whose
 * file the caller appends. Returns the count. */
static int compare_args(const char **args, const char *primitive, const char *path, const char *cache,
                        const char *spec, const char *const *extra) {
  int n = 0;
  args[n++] = "--primitive";
  args[n++] = primitive;
  args[n++] = "--src";
  args[n++] = "max-degree";
  args[n++] = "--validate";
  if (matrix_preds) args[n++] = "--mark-pred";
  args[n++] = "--seed";
  args[n++] = "7";
  for (int i = 0; extra && extra[i] && n < 30; i++) args[n++] = extra[i];
  if (path) {
    args[n++] = path;
    args[n++] = "--cache-dir";
    args[n++] = cache;
  } else {
    args[n++] = "--gen";
    args[n++] = spec;
  }
  args[n++] = "--out";
  return n;
}

/* The matrix on one input (a file path, or a generator spec when path is
 * NULL): the same source on one device and on every combination; `extra`
 * (NULL-terminated, or NULL) goes to every run; values compared as
 * values_agree does. GR_E2E_JOBS combinations run at once, each checked
 * in the order started. */
static void matrix_cmp(const char *primitive, const char *path, const char *spec, const char *const *extra,
                       const char *transport, int max_devices, double rel_tol) {
  char ref[512], cache[512];
  tmp_path(ref, sizeof ref, "ref.out");
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  const char *args[40];
  int n = compare_args(args, primitive, path, cache, spec, extra);
  const int base = n;
  args[n++] = ref;
  args[n] = NULL;
  int rc = run_argv(NULL, 1, NULL, args);
  ck_assert_msg(rc == 0, "one device: exit %d\n%s", rc, err_text);
  matrix_ref mr = {primitive, path ? path : spec, transport, NULL, 0, rel_tol};
  mr.want = read_value_texts(ref, &mr.n);
  unlink(ref);
  const int n_jobs = e2e_jobs();
  matrix_job *jobs = calloc((size_t)n_jobs, sizeof *jobs);
  ck_assert_ptr_nonnull(jobs);
  for (int i = 0; i < n_jobs; i++) jobs[i].child.pid = -1;
  int oldest = 0, running = 0;
  for (int d = 2; d <= max_devices; d++)
    for (size_t p = 0; p < sizeof partitioners / sizeof *partitioners; p++) {
      if (!strcmp(partitioners[p], "metis") && !have_metis()) continue;
      for (size_t x = 0; x < 2; x++)
        for (size_t c = 0; c < 2; c++) {
          if (!gr_test_in_slice(&slice_combo)) continue;
          if (running == n_jobs) {
            matrix_job_check(&jobs[oldest], jobs, n_jobs, &mr);
            oldest = (oldest + 1) % n_jobs;
            running--;
          }
          const int slot = (oldest + running) % n_jobs;
          matrix_job *job = &jobs[slot];
          char name[32];
          snprintf(name, sizeof name, "got-%d.out", slot);
          tmp_path(job->got, sizeof job->got, name);
          unlink(job->got);
          memcpy(job->args, args, (size_t)base * sizeof *args);
          n = base;
          job->args[n++] = job->got;
          job->args[n++] = "--partitioner";
          job->args[n++] = partitioners[p];
          job->args[n++] = "--proxy";
          job->args[n++] = proxies[x];
          job->args[n++] = "--comm";
          job->args[n++] = comms[c];
          job->args[n] = NULL;
          snprintf(job->label, sizeof job->label, "%d devices, %s, %s, %s", d, partitioners[p], proxies[x], comms[c]);
          run_cmd_make(&job->cmd, NULL, d, transport, job->args);
          if (gr_test_spawn(&job->child, job->cmd.argv, job->cmd.envv, run_timeout_s, run_address_space) < 0) {
            matrix_abandon(jobs, n_jobs);
            ck_abort_msg("cannot start %s", job->cmd.what);
          }
          running++;
        }
    }
  for (; running > 0; running--, oldest = (oldest + 1) % n_jobs)
    matrix_job_check(&jobs[oldest], jobs, n_jobs, &mr);
  free(jobs);
  free_texts(mr.want, mr.n);
}

static void matrix_with(const char *primitive, const char *path, const char *spec, const char *const *extra,
                        const char *transport, int max_devices) {
  matrix_cmp(primitive, path, spec, extra, transport, max_devices, 0.0);
}

static void matrix(const char *primitive, const char *path, const char *spec, const char *transport,
                   int max_devices) {
  matrix_with(primitive, path, spec, NULL, transport, max_devices);
}

static int max_devices(void) { return 4; }

START_TEST(bfs_on_many_devices_equals_one_device_on_generated_graphs) {
  const char *specs[] = {"kron:11:8", "uniform:10:4,directed", "grid2d:24x30", "kron:9:4,directed"};
  /* On GPUs every run pays for a CUDA context: two graphs are enough there
   * (the CPU variant covers the rest). */
  const size_t n = on_gpu() ? 2 : sizeof specs / sizeof *specs;
  for (size_t i = 0; i < n; i++)
    matrix("bfs", NULL, specs[i], on_gpu() ? "p2p" : NULL, max_devices());
}
END_TEST

START_TEST(bfs_on_many_devices_equals_one_device_on_real_graphs) {
  const char *files[] = {"cit-hepph.mtx.gz", "email-enron.mtx.gz", "karate.mtx", "luxembourg_osm.mtx.gz"};
  char path[1024];
  const size_t n = on_gpu() ? 1 : sizeof files / sizeof *files;
  for (size_t i = 0; i < n; i++) {
    if (!gr_test_data_file(path, sizeof path, files[i])) continue;
    matrix("bfs", path, NULL, on_gpu() ? "p2p" : NULL, max_devices());
  }
}
END_TEST

START_TEST(sssp_on_many_devices_equals_one_device) {
  /* Distances of integer and real weights; the far pile and the buckets
   * agreed between devices. */
  const char *int_w[] = {"--weights", "random:1:255", NULL};
  const char *real_w[] = {"--weights", "random:0.25:9.75", NULL};
  const char *zero_w[] = {"--weights", "random:0:3", "--delta", "2", NULL};
  /* Copies lowered on their owners in place (where the devices reach each
   * other's memory: CPU devices, GPUs over p2p; elsewhere the switch does
   * nothing), the owners' combines taking the ties. */
  const char *peers_w[] = {"--weights", "random:1:255", "--tune", "sssp-peers=on", NULL};
  const char *t = on_gpu() ? "p2p" : NULL;
  matrix_with("sssp", NULL, "kron:11:8", int_w, t, max_devices());
  matrix_preds = false;
  matrix_with("sssp", NULL, "kron:11:8", peers_w, t, max_devices());
  matrix_preds = true;
  matrix_with("sssp", NULL, "grid2d:24x30", real_w, t, max_devices());
  if (!on_gpu()) {
    matrix_with("sssp", NULL, "uniform:10:4,directed", zero_w, t, max_devices());
    matrix_with("sssp", NULL, "kron:9:4,directed", real_w, t, max_devices());
  }
  char path[1024];
  if (gr_test_data_file(path, sizeof path, "luxembourg_osm.mtx.gz")) matrix_with("sssp", path, NULL, int_w, t, 3);
  if (!on_gpu() && gr_test_data_file(path, sizeof path, "cit-hepph.mtx.gz")) matrix_with("sssp", path, NULL, real_w, t, 3);
}
END_TEST

START_TEST(reach_on_many_devices_equals_one_device) {
  /* The template primitive goes through the same layer (MAX combine). */
  matrix("reach", NULL, "kron:10:8,directed", on_gpu() ? "p2p" : NULL, max_devices());
}
END_TEST

START_TEST(dobfs_on_many_devices_equals_one_device) {
  /* Pulls under broadcast (the default), push only under selective. */
  matrix("dobfs", NULL, "kron:11:16", on_gpu() ? "p2p" : NULL, max_devices());
  if (!on_gpu()) matrix("dobfs", NULL, "uniform:10:8,directed", NULL, max_devices());
}
END_TEST

/* A small text file for a test. */
static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

/* --compress packed: each device's part packed on its own (local ids, its
 * own CSC where directed), every run validated and equal to one device's
 * packed run (on GPUs too: GR_E2E_BACKEND=gpu). */
START_TEST(packed_lists_on_many_devices_equal_one_device) {
  const char *pk[] = {"--compress", "packed", NULL};
  const char *pkw[] = {"--compress", "packed", "--weights", "random:1:255", NULL};
  const char *t = on_gpu() ? "p2p" : NULL;
  matrix_with("bfs", NULL, "uniform:10:4,directed", pk, t, 3);
  matrix_with("dobfs", NULL, "kron:11:16", pk, t, 3);
  matrix_with("sssp", NULL, "grid2d:24x30", pkw, t, 3);
  matrix_with("reach", NULL, "kron:10:8,directed", pk, t, 3);
  /* The primitives that decode lists in loops of their own. */
  matrix_with("cc", NULL, "kron:10:8,directed", pk, t, 3);
  matrix_cmp("pr", NULL, "kron:10:8", pk, t, 3, 1e-5);
  matrix_cmp("bc", NULL, "kron:9:8", pk, t, 3, 1e-9);
  if (on_gpu()) return; /* the file below costs a CUDA context per run */
  /* Parts without edges: arcs only among the first three of nine
   * vertices, cut by id range over three devices (the others' lists are
   * empty, packed into no blocks). */
  char path[512];
  snprintf(path, sizeof path, "%s/%d-packed-edgeless.mtx", gr_test_tmp_dir(), (int)getpid());
  write_text(path, "%%MatrixMarket matrix coordinate pattern general\n9 9 3\n1 2\n2 3\n3 1\n");
  const char *prims[] = {"bfs", "dobfs", "reach"};
  for (size_t i = 0; i < 3; i++)
    for (size_t x = 0; x < 2; x++) {
      const int rc = run_dev(NULL, 3, NULL, "--primitive", prims[i], "--partitioner", "range", "--proxy", proxies[x],
                             "--compress", "packed", "--src", "1", "--runs", "2", "--validate", path, NULL);
      ck_assert_msg(rc == 0, "%s on parts without edges, %s proxies: exit %d\n%s", prims[i], proxies[x], rc, err_text);
    }
  unlink(path);
}
END_TEST

/* Graphs so small that DOBFS pulls in the first iteration: a device that
 * holds the source as a proxy must see it in that pull's frontier (its
 * owned neighbours were found a level late once). */
START_TEST(dobfs_pulling_at_once_on_many_devices_equals_one_device) {
  char tri[512], path9[512];
  tmp_path(tri, sizeof tri, "two-triangles.mtx");
  tmp_path(path9, sizeof path9, "path9.mtx");
  write_text(tri, "%%MatrixMarket matrix coordinate pattern symmetric\n7 7 7\n2 1\n3 1\n3 2\n4 3\n5 4\n6 4\n6 5\n");
  write_text(path9, "%%MatrixMarket matrix coordinate pattern symmetric\n9 9 8\n2 1\n3 2\n4 3\n5 4\n6 5\n7 6\n8 7\n9 8\n");
  matrix("dobfs", tri, NULL, on_gpu() ? "p2p" : NULL, max_devices());
  matrix("dobfs", path9, NULL, on_gpu() ? "p2p" : NULL, max_devices());
  /* Every source of the triangles, forced to pull, on 3 devices: under
   * broadcast, and from or'ed bitmaps under selective exchange. */
  for (size_t c = 0; c < 2; c++)
    for (int src = 1; src <= 7; src++) {
      char s[8];
      snprintf(s, sizeof s, "%d", src);
      const int rc = run_dev(NULL, 3, on_gpu() ? "p2p" : NULL, "--primitive", "dobfs", "--direction", "pull", "--comm",
                             comms[c], "--proxy", "all", "--src", s, "--validate", "--mark-pred", "--no-cache", tri,
                             NULL);
      ck_assert_msg(rc == 0, "dobfs --direction pull from %d on 3 devices, %s: exit %d\n%s", src, comms[c], rc,
                    err_text);
    }
  unlink(tri);
  unlink(path9);
}
END_TEST

START_TEST(cc_on_many_devices_equals_one_device) {
  /* Labels between devices: MIN on each proxy's way to its owner; weak
   * components of directed graphs through the in-edges. */
  const char *t = on_gpu() ? "p2p" : NULL;
  const char *specs[] = {"kron:11:8", "grid2d:24x30", "uniform:10:1", "kron:9:4,directed"};
  const size_t n = on_gpu() ? 2 : sizeof specs / sizeof *specs;
  for (size_t i = 0; i < n; i++) matrix("cc", NULL, specs[i], t, max_devices());
  const char *files[] = {"cit-hepph.mtx.gz", "email-enron.mtx.gz", "luxembourg_osm.mtx.gz"};
  char path[1024];
  for (size_t i = 0; i < (on_gpu() ? 1 : 3); i++)
    if (gr_test_data_file(path, sizeof path, files[i])) matrix("cc", path, NULL, t, 3);
}
END_TEST

/* Two grids whose ids interleave (even ids one grid, odd the other) and one
 * arc between them that neither end links in its sampling rounds: under
 * the static partition (owner = id mod 2) each device's vote picks its own
 * grid, both skip the arc, the largest trees end with different labels, and
 * only the repair (linking what the votes skipped) finds one component. */
START_TEST(cc_links_the_arcs_every_device_skipped) {
  enum { K = 16 };
  char path[512];
  tmp_path(path, sizeof path, "interleaved.mtx");
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  const int arcs = 2 * 2 * K * (K - 1) + 1;
  fprintf(f, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d %d\n", 2 * K * K, 2 * K * K, arcs);
  for (int g = 0; g < 2; g++)
    for (int r = 0; r < K; r++)
      for (int c = 0; c < K; c++) {
        const int v = 2 * (r * K + c) + g + 1; /* 1-based */
        if (c + 1 < K) fprintf(f, "%d %d\n", v + 2, v);
        if (r + 1 < K) fprintf(f, "%d %d\n", v + 2 * K, v);
      }
  /* Grid 0's (8, 8) and grid 1's (8, 8): each has two neighbours of its own
   * grid with smaller ids, so the other end is its third. */
  const int a = 2 * (8 * K + 8) + 1;
  fprintf(f, "%d %d\n", a + 1, a);
  fclose(f);
  const char *t = on_gpu() ? "p2p" : NULL;
  const char *env[] = {"GR_DEBUG=INFO", "GR_DEBUG_SUBSYS=PRIM", NULL};
  for (size_t x = 0; x < 2; x++) {
    const int rc = run_dev(env, 2, t, "--primitive", "cc", path, "--no-cache", "--partitioner", "static", "--proxy",
                           proxies[x], "--validate", NULL);
    ck_assert_msg(rc == 0, "%s proxies: exit %d\n%s", proxies[x], rc, err_text);
    assert_err_has("linking the arcs they skipped");
  }
  unlink(path);
}
END_TEST

/* One way of running several devices: its device count, an environment
 * entry and arguments added to every primitive's run (empty: none), a
 * text its output must hold (NULL: none) and its name in messages. */
typedef struct variant {
  int devices;
  char env[64];
  const char *args[3];
  const char *out_has;
  char what[64];
} variant;

/* Each primitive with its default exchange (DOBFS with duplicate-all
 * proxies, so that it pulls between devices) on Kronecker 11 from its
 * largest-degree source, once on one device and then under each variant,
 * every value against one device's (PageRank within 1e-5, BC within
 * 1e-9). `tag` names the output files. */
static void every_primitive_equals_one_device(const char *tag, const variant *vs, size_t nv) {
  static const struct {
    const char *primitive;
    const char *extra[3];
    double rel_tol;
  } cases[] = {{"bfs", {NULL}, 0},
               {"dobfs", {"--proxy", "all", NULL}, 0},
               {"sssp", {"--weights", "random:1:255", NULL}, 0},
               {"cc", {NULL}, 0},
               {"pr", {NULL}, 1e-5},
               {"bc", {NULL}, 1e-9}};
  char ref[512], got[512], name[64];
  snprintf(name, sizeof name, "%s-ref.out", tag);
  tmp_path(ref, sizeof ref, name);
  snprintf(name, sizeof name, "%s-got.out", tag);
  tmp_path(got, sizeof got, name);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const char *args[40];
    int n = compare_args(args, cases[k].primitive, NULL, NULL, "kron:11:16", cases[k].extra);
    const int at = n;
    args[n++] = ref;
    args[n] = NULL;
    int rc = run_argv(NULL, 1, NULL, args);
    ck_assert_msg(rc == 0, "%s, one device: exit %d\n%s", cases[k].primitive, rc, err_text);
    size_t nw = 0, nh = 0;
    char **want = read_value_texts(ref, &nw);
    unlink(ref);
    args[at] = got;
    for (size_t i = 0; i < nv; i++) {
      const variant *v = &vs[i];
      int m = at + 1;
      for (int a = 0; a < 3 && v->args[a]; a++) args[m++] = v->args[a];
      args[m] = NULL;
      const char *env[] = {v->env[0] ? v->env : NULL, NULL};
      rc = run_argv(env, v->devices, on_gpu() ? "p2p" : NULL, args);
      ck_assert_msg(rc == 0, "%s, %s: exit %d\n%s", cases[k].primitive, v->what, rc, err_text);
      if (v->out_has)
        ck_assert_msg(out_text && strstr(out_text, v->out_has), "%s, %s: no \"%s\" in the output:\n%s",
                      cases[k].primitive, v->what, v->out_has, out_text ? out_text : "");
      char **have = read_value_texts(got, &nh);
      unlink(got);
      ck_assert_msg(nh == nw, "%s, %s: %zu values, one device %zu", cases[k].primitive, v->what, nh, nw);
      for (size_t x = 0; x < nw; x++)
        ck_assert_msg(values_agree(have[x], want[x], cases[k].rel_tol), "%s, %s: line %zu: %s, one device %s",
                      cases[k].primitive, v->what, x + 1, have[x], want[x]);
      free_texts(have, nh);
    }
    free_texts(want, nw);
  }
}

/* Every primitive with one device running late behind its host thread
 * (GR_FAULT_SLOW: its GPU stream holds 5 ms after each host wait): a
 * buffer a peer copies before the kernels that write it have run is then
 * read unwritten every time, where under load it was a race (DOBFS's
 * pulls lost finds in 1 run of 15 on 4 devices of 2 GPUs). On 2 and 4
 * devices, the first and the last device slow, against one device, each
 * primitive with its default exchange (DOBFS with duplicate-all proxies,
 * so that it pulls between devices). GPUs only: CPU devices run their
 * kernels before the host goes on. */
START_TEST(a_slow_device_gives_one_devices_answer_for_every_primitive) {
  if (!on_gpu()) {
    printf("skip: GPUs only (GR_E2E_BACKEND=gpu): CPU devices have no stream to hold back\n");
    return;
  }
  variant vs[4];
  size_t nv = 0;
  for (int d = 2; d <= 4; d += 2)
    for (int slow = 0; slow < d; slow += d - 1) {
      variant *v = &vs[nv++];
      memset(v, 0, sizeof *v);
      v->devices = d;
      snprintf(v->env, sizeof v->env, "GR_FAULT_SLOW=%d:5000", slow);
      snprintf(v->what, sizeof v->what, "%d devices, device %d slow", d, slow);
    }
  every_primitive_equals_one_device("slow", vs, nv);
}
END_TEST

START_TEST(pr_on_many_devices_equals_one_device) {
  /* Ranks within 1e-5 of one device's: pulled contributions (the owners
   * refresh the copies), and pushed partial sums. */
  const char *t = on_gpu() ? "p2p" : NULL;
  const char *push[] = {"--direction", "push", NULL};
  matrix_cmp("pr", NULL, "kron:11:8", NULL, t, max_devices(), 1e-5);
  matrix_cmp("pr", NULL, "grid2d:24x30", NULL, t, max_devices(), 1e-5);
  matrix_cmp("pr", NULL, "kron:10:8", push, t, 3, 1e-5);
  if (!on_gpu()) {
    matrix_cmp("pr", NULL, "uniform:10:4,directed", NULL, t, max_devices(), 1e-5);
    matrix_cmp("pr", NULL, "kron:9:4,directed", push, t, 3, 1e-5);
  }
  char path[1024];
  if (gr_test_data_file(path, sizeof path, "cit-hepph.mtx.gz")) matrix_cmp("pr", path, NULL, NULL, t, 3, 1e-5);
}
END_TEST

START_TEST(bc_on_many_devices_equals_one_device) {
  /* Centralities within 1e-9 of one device's (dependencies summed in
   * another order), path counts and depths validated on every run. */
  const char *t = on_gpu() ? "p2p" : NULL;
  matrix_cmp("bc", NULL, "kron:11:8", NULL, t, max_devices(), 1e-9);
  matrix_cmp("bc", NULL, "grid2d:24x30", NULL, t, max_devices(), 1e-9);
  if (!on_gpu()) {
    matrix_cmp("bc", NULL, "uniform:10:4,directed", NULL, t, max_devices(), 1e-9);
    matrix_cmp("bc", NULL, "kron:9:4,directed", NULL, t, 3, 1e-9);
  }
  char path[1024];
  if (gr_test_data_file(path, sizeof path, "cit-hepph.mtx.gz")) matrix_cmp("bc", path, NULL, NULL, t, 3, 1e-9);
  if (!on_gpu() && gr_test_data_file(path, sizeof path, "email-enron.mtx.gz"))
    matrix_cmp("bc", path, NULL, NULL, t, 2, 1e-9);
}
END_TEST

/* Several sources in one run: the sums of 12 sources on 3 devices equal
 * one device's, normalized, under either exchange. */
START_TEST(bc_sources_on_many_devices_equal_one_device) {
  char ref[512], got[512];
  tmp_path(ref, sizeof ref, "bc-ref.out");
  tmp_path(got, sizeof got, "bc-got.out");
  const char *t = on_gpu() ? "p2p" : NULL;
  int rc = run_dev(NULL, 1, NULL, "--primitive", "bc", "--gen", "kron:10:8,directed", "--sources", "12", "--normalize",
                   "--validate", "--out", ref, NULL);
  ck_assert_msg(rc == 0, "one device: exit %d\n%s", rc, err_text);
  size_t nref = 0, ngot = 0;
  char **want = read_value_texts(ref, &nref);
  for (size_t c = 0; c < 2; c++) {
    unlink(got);
    rc = run_dev(NULL, 3, t, "--primitive", "bc", "--gen", "kron:10:8,directed", "--sources", "12", "--normalize",
                 "--validate", "--comm", comms[c], "--out", got, NULL);
    ck_assert_msg(rc == 0, "3 devices, %s: exit %d\n%s", comms[c], rc, err_text);
    char **have = read_value_texts(got, &ngot);
    ck_assert_uint_eq(ngot, nref);
    for (size_t v = 0; v < nref; v++)
      ck_assert_msg(values_agree(have[v], want[v], 1e-9), "%s: line %zu: %s, one device %s", comms[c], v + 1, have[v],
                    want[v]);
    free_texts(have, ngot);
  }
  free_texts(want, nref);
  unlink(ref);
  unlink(got);
}
END_TEST

/* Devices taking turns (--turns) compute what one device does, every
 * primitive under every combination (SSSP's extract sums over the devices:
 * a barrier outside the run, which hung when only runs held the turn);
 * NCCL, whose transfers need every device at once, is refused with the
 * reason. */
START_TEST(devices_taking_turns_equal_one_device) {
  const char *t = on_gpu() ? "p2p" : NULL;
  const char *turns[] = {"--turns", "--timeline", NULL};
  const char *sssp_turns[] = {"--turns", "--timeline", "--weights", "random:1:255", NULL};
  const char *sssp_peers_turns[] = {"--turns", "--timeline", "--weights", "random:1:255", "--tune", "sssp-peers=on", NULL};
  matrix_with("bfs", NULL, "kron:10:8", turns, t, 3);
  matrix_cmp("pr", NULL, "kron:10:8", turns, t, 3, 1e-5);
  matrix_with("sssp", NULL, "kron:10:8", sssp_turns, t, 3);
  matrix_preds = false;
  matrix_with("sssp", NULL, "kron:10:8", sssp_peers_turns, t, 3);
  matrix_preds = true;
  matrix_with("dobfs", NULL, "kron:10:8", turns, t, 3);
  matrix_with("cc", NULL, "kron:10:8", turns, t, 3);
  matrix_cmp("bc", NULL, "kron:10:8", turns, t, 3, 1e-9);
  ck_assert_int_eq(run_dev(NULL, 2, "nccl", "--gen", "kron:8:4", "--turns", NULL), 2);
  assert_err_has("turns");
}
END_TEST

/* BFS and DOBFS between devices under each visited variant, every level's
 * claims routed into bitmaps (--comm-format bitmap): with visited bits the
 * push claims with bits and the exchange gives the owned claims their
 * depth; without them (visited=state) the push stores the depth itself,
 * and the exchange's store finds that value there. */
START_TEST(bfs_and_dobfs_route_under_every_visited_variant) {
  const char *variants[] = {"visited=state", "visited=bitmap", "visited=state,status=idempotent"};
  const char *prims[] = {"bfs", "dobfs"};
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
    for (size_t k = 0; k < 2; k++)
      for (int d = 2; d <= 3; d++) {
        ck_assert_msg(run_dev(NULL, d, on_gpu() ? "p2p" : NULL, "--primitive", prims[k], "--gen", "kron:11:16",
                              "--tune", variants[v], "--comm-format", "bitmap", "--runs", "3", "--validate", NULL) == 0,
                      "%s on %d devices, --tune %s: %s", prims[k], d, variants[v], err_text);
        ck_assert_msg(out_text && strstr(out_text, "validation passed (3 runs)"), "%s on %d devices, --tune %s: %s",
                      prims[k], d, variants[v], out_text ? out_text : "");
      }
}
END_TEST

/* The random partitioner's blocks of ids (gr_partition_options.block): a
 * graph of the size the tests use gets single ids by default, so the
 * blocks that big graphs get are asked for here. 32 (a bitmap word of one
 * owner) and 7 (blocks across words), on 2 to 4 devices, every primitive
 * with its default exchange, against one device. */
START_TEST(every_primitive_on_blocked_random_parts_equals_one_device) {
  static const char *const blocks[] = {"32", "7"};
  variant vs[6];
  size_t nv = 0;
  for (size_t b = 0; b < 2; b++)
    for (int d = 2; d <= 4; d++) {
      variant *v = &vs[nv++];
      memset(v, 0, sizeof *v);
      v->devices = d;
      v->args[0] = "--partition-block";
      v->args[1] = blocks[b];
      v->out_has = "blocks of";
      snprintf(v->what, sizeof v->what, "%d devices, blocks of %s", d, blocks[b]);
    }
  every_primitive_equals_one_device("blocks", vs, nv);
}
END_TEST

/* PageRank pulls (the owners refresh the copies) and pushes under either
 * exchange. */
START_TEST(pr_pulls_and_pushes_under_either_exchange) {
  for (size_t c = 0; c < 2; c++)
    for (int d = 0; d < 2; d++)
      ck_assert_msg(run_dev(NULL, 2, on_gpu() ? "p2p" : NULL, "--primitive", "pr", "--gen", "kron:9:4,directed",
                            "--comm", comms[c], "--direction", d ? "push" : "pull", "--validate", NULL) == 0,
                    "%s, %s: %s", comms[c], d ? "push" : "pull", err_text);
}
END_TEST

/* A --json report, parsed (the caller deletes it). */
static cJSON *json_read(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
  const long len = ftell(f);
  ck_assert_msg(len > 0, "%s is empty", path);
  rewind(f);
  char *text = malloc((size_t)len);
  ck_assert_ptr_nonnull(text);
  ck_assert_uint_eq(fread(text, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  cJSON *j = cJSON_ParseWithLength(text, (size_t)len);
  free(text);
  ck_assert_msg(j != NULL, "%s is not JSON", path);
  return j;
}

/* Bytes the exchange moved over a run's levels, from the --json report. */
static double json_level_bytes(const char *path) {
  cJSON *j = json_read(path);
  double total = 0;
  const cJSON *runs = cJSON_GetObjectItem(j, "runs"), *run;
  cJSON_ArrayForEach(run, runs) {
    const cJSON *lv = cJSON_GetObjectItem(run, "levels"), *l;
    cJSON_ArrayForEach(l, lv) {
      const cJSON *b = cJSON_GetObjectItem(l, "bytes");
      ck_assert_msg(cJSON_IsNumber(b), "a level of %s lacks its bytes", path);
      total += b->valuedouble;
    }
  }
  cJSON_Delete(j);
  return total;
}

/* What an iteration between devices costs the host beyond its kernels is
 * mostly its round trips: reads that wait for the device (about 10 us each
 * on an H200) and barriers. Their counts per iteration and device, on CPU
 * devices (the exchange's and the primitives' host code, which GPUs run
 * too; a GPU's operators add reads of their own, counted by the GPU
 * timelines of docs/benchmarks.md), stay within what they are today, so
 * that a change adding one to every level is seen and argued for. The
 * budgets: BFS 3 reads (its first level 1) and 2 barriers (the exchange's
 * and the one that ends the iteration); DOBFS 3 reads and 2 barriers (3
 * in its first iteration); SSSP 2 reads and 3 barriers; PageRank 2 and 4;
 * BC 5 and 4 (where its forward pass turns into the backward one); CC 6
 * reads and 4 barriers an iteration after the first: its merge (the
 * refresh's first barrier, the all-gather's first, the exchange's, the
 * one that ends the iteration) and a label round (the refresh's, the
 * exchange's, the iteration's), with two of the refresh's reads. A
 * refresh and an all-gather pass one barrier of their own and leave
 * their second to the next step (comm/exchange.c, gr__direct): PageRank
 * and BC passed 5, CC's merge 6, before; what changed and
 * the largest trees' agreement ride the exchange's barrier, gr_iter.post;
 * one read of the largest tree's best after the round's lowers, which
 * spares the take a pass over that tree's border vertices where it did
 * not fall), and in its first iteration 5 reads (two of them the largest
 * trees' lookups, one each step whatever the count of peers) and 4
 * barriers. Every first iteration but CC's, PageRank's and DOBFS's reads
 * once; DOBFS's twice on the source's owner, whose output goes to its
 * peers as bare ids (GR_XK_IDS): its size is read before the peers are
 * told it, and the combine that puts its owned vertices in the next
 * frontier is read once more, where the package pass's one read covered
 * both when no peer sent anything back (at later levels every device
 * reads its output's size and the combine's counters, as before its
 * package's and the combine's). */
START_TEST(host_round_trips_per_iteration_stay_within_budget) {
  if (on_gpu()) {
    printf("skip: CPU devices count the host code's round trips alone; GPU timelines count a GPU's\n");
    return;
  }
  static const struct {
    const char *prim;
    int first_waits, waits, first_barriers, barriers;
  } budget[] = {{"bfs", 1, 3, 2, 2}, {"dobfs", 2, 3, 3, 2}, {"sssp", 1, 2, 3, 3},
                {"cc", 5, 6, 4, 4},  {"pr", 2, 2, 4, 4},    {"bc", 1, 5, 2, 4}};
  const char *graphs[] = {"kron:14:16", "uniform:14:8", "grid2d:64x64", "kron:12:8,directed"};
  char js[512];
  tmp_path(js, sizeof js, "round-trips.json");
  for (size_t b = 0; b < sizeof budget / sizeof *budget; b++)
    for (size_t g = 0; g < sizeof graphs / sizeof *graphs; g++)
      for (int d = 2; d <= 4; d++) {
        unlink(js);
        int rc = run_dev(NULL, d, NULL, "--primitive", budget[b].prim, "--gen", graphs[g], "--weights", "random:1:255",
                         "--runs", "3", "--timeline", "--quiet", "--json", js, NULL);
        ck_assert_msg(rc == 0, "%s on %s, %d devices: exit %d\n%s", budget[b].prim, graphs[g], d, rc, err_text);
        cJSON *j = json_read(js);
        int entries = 0;
        const cJSON *run;
        cJSON_ArrayForEach(run, cJSON_GetObjectItem(j, "runs")) {
          const cJSON *e;
          cJSON_ArrayForEach(e, cJSON_GetObjectItem(run, "timeline")) {
            const cJSON *it = cJSON_GetObjectItem(e, "iteration"), *dev = cJSON_GetObjectItem(e, "device"),
                        *w = cJSON_GetObjectItem(e, "waits"), *bar = cJSON_GetObjectItem(e, "barriers");
            ck_assert_msg(cJSON_IsNumber(it) && cJSON_IsNumber(dev) && cJSON_IsNumber(w) && cJSON_IsNumber(bar),
                          "%s: a timeline entry lacks its iteration, device, waits or barriers", js);
            const bool first = it->valueint == 0;
            int max_waits = first ? budget[b].first_waits : budget[b].waits;
            const int max_barriers = first ? budget[b].first_barriers : budget[b].barriers;
            ck_assert_msg(w->valueint <= max_waits && bar->valueint <= max_barriers,
                          "%s on %s, %d devices: device %d's iteration %d waited for it %d times (budget %d) and "
                          "passed %d barriers (budget %d)",
                          budget[b].prim, graphs[g], d, dev->valueint, it->valueint, w->valueint, max_waits,
                          bar->valueint, max_barriers);
            entries++;
          }
        }
        ck_assert_msg(entries >= 3 * d, "%s on %s, %d devices: %d timeline entries for 3 runs", budget[b].prim,
                      graphs[g], d, entries);
        cJSON_Delete(j);
      }
  unlink(js);
}
END_TEST

/* Broadcast packages of BFS/DOBFS depths as lists, bitmaps or whichever is
 * smaller: the one-device answer every way, and auto never moves more
 * bytes than either format alone (it picks per device and iteration). */
START_TEST(broadcast_formats_equal_one_device) {
  const char *prims[] = {"bfs", "dobfs"};
  const char *specs[] = {"kron:12:16", "grid2d:30x40"};
  const char *formats[] = {"list", "bitmap", "auto"};
  char ref[512], got[512], js[512];
  tmp_path(ref, sizeof ref, "fmt-ref.out");
  tmp_path(got, sizeof got, "fmt-got.out");
  tmp_path(js, sizeof js, "fmt.json");
  for (size_t p = 0; p < 2; p++)
    for (size_t g = 0; g < 2; g++) {
      int rc = run_dev(NULL, 1, NULL, "--primitive", prims[p], "--gen", specs[g], "--src", "max-degree", "--out",
                       ref, NULL);
      ck_assert_msg(rc == 0, "one device: exit %d\n%s", rc, err_text);
      size_t nref = 0, ngot = 0;
      long long *want = read_values(ref, &nref);
      for (int d = 2; d <= (on_gpu() ? 3 : 4); d++)
        for (size_t x = 0; x < 2; x++) {
          double bytes[3] = {0, 0, 0};
          for (size_t f = 0; f < 3; f++) {
            unlink(got);
            rc = run_dev(NULL, d, on_gpu() ? "p2p" : NULL, "--primitive", prims[p], "--gen", specs[g], "--src",
                         "max-degree", "--comm", "broadcast", "--proxy", proxies[x], "--comm-format", formats[f],
                         "--runs", "2", "--validate", "--json", js, "--out", got, NULL);
            ck_assert_msg(rc == 0, "%s %s, %d devices, %s, %s: exit %d\n%s", prims[p], specs[g], d, proxies[x],
                          formats[f], rc, err_text);
            long long *have = read_values(got, &ngot);
            ck_assert_uint_eq(ngot, nref);
            for (size_t v = 0; v < nref; v++)
              ck_assert_msg(have[v] == want[v], "%s %s, %d devices, %s, %s: line %zu: %lld, one device %lld",
                            prims[p], specs[g], d, proxies[x], formats[f], v + 1, have[v], want[v]);
            free(have);
            bytes[f] = json_level_bytes(js);
            ck_assert_msg(bytes[f] > 0, "%s %s, %d devices, %s: nothing exchanged", prims[p], specs[g], d,
                          formats[f]);
          }
          ck_assert_msg(bytes[2] <= bytes[0] && bytes[2] <= bytes[1],
                        "%s %s, %d devices, %s: auto moved %.0f bytes, list %.0f, bitmap %.0f", prims[p], specs[g],
                        d, proxies[x], bytes[2], bytes[0], bytes[1]);
        }
      free(want);
    }
  /* With predecessors the payload is not uniform: a bitmap cannot carry
   * it, so the list is used whatever is asked. */
  int rc = run_dev(NULL, 2, on_gpu() ? "p2p" : NULL, "--gen", "kron:10:8", "--comm", "broadcast",
                   "--comm-format", "bitmap", "--mark-pred", "--validate", NULL);
  ck_assert_msg(rc == 0, "bitmap asked with predecessors: exit %d\n%s", rc, err_text);
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--comm-format", "morse", NULL), 2);
  assert_err_has("--comm-format");
  unlink(ref);
  unlink(got);
  unlink(js);
}
END_TEST

START_TEST(bfs_over_nccl_equals_one_device) {
  if (!nccl_usable()) return;
  int d = gpus_present() < 4 ? gpus_present() : 4;
  matrix("bfs", NULL, "kron:12:8", "nccl", d);
}
END_TEST

START_TEST(summary_reports_partition_exchange_and_time_split) {
  char js[512];
  tmp_path(js, sizeof js, "multi.json");
  int rc = run_dev(NULL, 3, NULL, "--gen", "kron:10:8", "--partitioner", "biased", "--proxy", "1hop", "--comm",
                   "selective", "--json", js, "--runs", "2", NULL);
  ck_assert_msg(rc == 0, "exit %d\n%s", rc, err_text);
  ck_assert_ptr_nonnull(strstr(out_text, "partition biased: 3 parts"));
  ck_assert_ptr_nonnull(strstr(out_text, "edge cut"));
  ck_assert_ptr_nonnull(strstr(out_text, "exchange   selective, 1hop proxies"));
  ck_assert_ptr_nonnull(strstr(out_text, "time split"));
  ck_assert_ptr_nonnull(strstr(out_text, "bytes_sent"));
  FILE *f = fopen(js, "r");
  ck_assert_ptr_nonnull(f);
  char buf[1 << 16];
  size_t k = fread(buf, 1, sizeof buf - 1, f);
  buf[k] = '\0';
  fclose(f);
  const char *keys[] = {"\"multi_device\"", "\"partitioner\"", "\"edge_cut\"", "\"border_total\"", "\"bytes_to\"",
                        "\"transfer_ms\"", "\"wait_ms\"", "\"frontier_sizes\"", "\"levels\""};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    ck_assert_msg(strstr(buf, keys[i]) != NULL, "JSON lacks %s", keys[i]);
  unlink(js);
}
END_TEST

/* --proxy auto on a power-law graph split at random: 1-hop proxies for
 * the primitives whose passes they divide (sssp, cc, pr, bc), duplicate-all
 * for BFS (1-hop would hold more than half the vertices) and DOBFS (a pull
 * needs every vertex). */
START_TEST(proxy_auto_takes_1hop_where_it_divides_the_passes) {
  static const struct {
    const char *prim, *proxy;
  } want[] = {{"sssp", "1hop"}, {"cc", "1hop"}, {"pr", "1hop"}, {"bc", "1hop"}, {"bfs", "all"}, {"dobfs", "all"}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    int rc = run_dev(NULL, 2, NULL, "--gen", "kron:10:8", "--primitive", want[i].prim, "--weights", "random:1:9",
                     "--runs", "1", "--validate", NULL);
    ck_assert_msg(rc == 0, "%s: exit %d\n%s", want[i].prim, rc, err_text);
    char line[64];
    snprintf(line, sizeof line, "exchange   selective, %s proxies", want[i].proxy);
    ck_assert_msg(strstr(out_text, line) != NULL, "%s: no \"%s\" in\n%s", want[i].prim, line, out_text);
  }
  /* A mesh cut by METIS into 4: 1-hop halves what a device holds, so BFS
   * takes it; DOBFS keeps duplicate-all (under 1-hop it could not pull). */
  static const struct {
    const char *prim, *proxy;
  } mesh[] = {{"bfs", "1hop"}, {"dobfs", "all"}};
  for (size_t i = 0; i < sizeof mesh / sizeof *mesh; i++) {
    int rc = run_dev(NULL, 4, NULL, "--gen", "grid2d:64x64", "--partitioner", "metis", "--primitive", mesh[i].prim,
                     "--runs", "1", "--validate", NULL);
    ck_assert_msg(rc == 0, "%s on a mesh: exit %d\n%s", mesh[i].prim, rc, err_text);
    char line[64];
    snprintf(line, sizeof line, "exchange   selective, %s proxies", mesh[i].proxy);
    ck_assert_msg(strstr(out_text, line) != NULL, "%s on a mesh: no \"%s\" in\n%s", mesh[i].prim, line, out_text);
  }
}
END_TEST

START_TEST(failure_on_one_device_ends_the_run_cleanly) {
  /* Fail each allocation of device 1 in turn: the run either completes
   * (the failure comes after its last allocation) or exits 3 naming device
   * 1, writes no output, and never hangs; some failures happen mid-run, in
   * the exchange. */
  char o[512];
  tmp_path(o, sizeof o, "fault.out");
  bool mid_run = false, completed = false;
  for (int k = 1; k <= 40 && !completed; k++) {
    char fault[64];
    snprintf(fault, sizeof fault, "GR_FAULT_ALLOC=1:%d", k);
    const char *env[] = {fault, NULL};
    unlink(o);
    int rc = run_dev(env, 3, NULL, "--gen", "kron:10:8", "--runs", "2", "--mark-pred", "--proxy", "1hop", "--out", o,
                     "--validate", NULL);
    if (rc == 0) {
      completed = true;
      ck_assert_int_eq(access(o, F_OK), 0);
      continue;
    }
    ck_assert_msg(rc == 3, "fault %d: exit %d\n%s", k, rc, err_text);
    assert_err_has("device 1");
    assert_err_has("GR_FAULT_ALLOC");
    ck_assert_msg(access(o, F_OK) != 0, "fault %d left an output file", k);
    if (strstr(err_text, "exchange")) mid_run = true;
  }
  ck_assert_msg(mid_run, "no injected failure landed inside the exchange");
  ck_assert_msg(completed, "no run completed within 40 allocations");
}
END_TEST

/* The same for DOBFS, whose reset sums the source's edges over the
 * devices (a device that fails before it meets the others there), for the
 * all-vertex primitives, whose iterations meet at a sum over the devices
 * (PageRank) or run until no label changes (CC), and for BC, whose
 * backward levels move no frontier. */
START_TEST(failure_on_one_device_ends_dobfs_cc_pr_and_bc_cleanly) {
  const char *prims[] = {"dobfs", "cc", "pr", "bc"};
  char o[512];
  tmp_path(o, sizeof o, "fault-all.out");
  /* A run that hangs (peers left waiting at a barrier) is killed and fails
   * the test. */
  run_timeout_s = 60;
  for (int p = 0; p < 4; p++) {
    if (!gr_test_in_slice(&slice_combo)) continue;
    bool completed = false;
    int failed = 0;
    /* Every allocation of the first 24, then sparser (the count depends on
     * the backend: BC on 3 GPU devices makes more than 40), until a run
     * makes fewer than k and completes. */
    for (int k = 1; k <= 4096 && !completed; k = k < 24 ? k + 1 : k * 3 / 2) {
      char fault[64];
      snprintf(fault, sizeof fault, "GR_FAULT_ALLOC=1:%d", k);
      const char *env[] = {fault, NULL};
      unlink(o);
      int rc = run_dev(env, 3, NULL, "--primitive", prims[p], "--gen", "kron:10:8", "--runs", "2", "--proxy",
                       k % 2 ? "1hop" : "all", "--out", o, "--validate", NULL);
      if (rc == 0) {
        completed = true;
        ck_assert_int_eq(access(o, F_OK), 0);
        continue;
      }
      ck_assert_msg(rc == 3, "%s, fault %d: exit %d\n%s", prims[p], k, rc, err_text);
      assert_err_has("device 1");
      assert_err_has("GR_FAULT_ALLOC");
      ck_assert_msg(access(o, F_OK) != 0, "%s: fault %d left an output file", prims[p], k);
      failed++;
    }
    ck_assert_msg(failed > 3, "%s: only %d allocations could fail", prims[p], failed);
    ck_assert_msg(completed, "%s: no run completed within 4096 allocations", prims[p]);
  }
  run_timeout_s = 0;
}
END_TEST

/* A failed kernel launch (GR_FAULT_LAUNCH) or transfer (GR_FAULT_TRANSPORT)
 * on one device, for every primitive, on 2 and 3 devices, at points from
 * the first launch or exchange to the end of the second run (doubling until
 * a run completes): exit 3 naming the device and the cause, no --out or
 * --json file, no hang (each run is killed after 60 s, stretched in
 * sanitized builds, which fails the test). On 3 devices the failing device first sleeps 100 ms, so that its
 * peers are already waiting for it, in the exchange's barrier or the one
 * that ends the iteration, when it fails; the message says they were. */
static const char *const fault_prims[] = {"bfs", "dobfs", "sssp", "cc", "pr", "bc"};

typedef struct fault_scan {
  int failed, waited, first_failed;
  bool completed;
} fault_scan;

static fault_scan scan_faults_over(const char *prim, int devices, int dev, const char *hook, const char *cause,
                                   unsigned delay_ms, const char *transport) {
  char o[512], js[512], fault[96], devname[32];
  tmp_path(o, sizeof o, "fault-hook.out");
  tmp_path(js, sizeof js, "fault-hook.json");
  snprintf(devname, sizeof devname, "device %d", dev);
  fault_scan r = {0, 0, 0, false};
  const bool weighted = !strcmp(prim, "sssp");
  for (long n = 1; n <= 1L << 16 && !r.completed; n = n < 3 ? n + 1 : n * 2) {
    if (delay_ms)
      snprintf(fault, sizeof fault, "%s=%d:%ld:%u", hook, dev, n, delay_ms);
    else
      snprintf(fault, sizeof fault, "%s=%d:%ld", hook, dev, n);
    const char *env[] = {fault, NULL};
    unlink(o);
    unlink(js);
    const int rc = run_dev(env, devices, transport, "--primitive", prim, "--gen", "kron:9:8",
                           "--weights", weighted ? "random:1:63" : "none", "--runs", "2", "--src", "max-degree",
                           "--validate", "--out", o, "--json", js, NULL);
    if (rc == 0) {
      r.completed = true;
      ck_assert_int_eq(access(o, F_OK), 0);
      continue;
    }
    ck_assert_msg(rc == 3, "%s, %d devices, %s: exit %d\n%s", prim, devices, fault, rc, err_text);
    ck_assert_msg(strstr(err_text, devname), "%s, %d devices, %s: stderr does not name %s:\n%s", prim, devices,
                  fault, devname, err_text);
    ck_assert_msg(strstr(err_text, cause) && strstr(err_text, hook), "%s, %d devices, %s: stderr lacks the cause:\n%s",
                  prim, devices, fault, err_text);
    ck_assert_msg(access(o, F_OK) != 0 && access(js, F_OK) != 0, "%s, %d devices, %s left an output file", prim,
                  devices, fault);
    r.failed++;
    if (n == 1) r.first_failed = 1;
    if (strstr(err_text, "waiting for it at a barrier")) r.waited++;
  }
  ck_assert_msg(r.completed, "%s, %d devices, %s: no run completed", prim, devices, hook);
  unlink(o);
  unlink(js);
  return r;
}

/* On GPUs over peer copies (logical devices may share a GPU); on CPU
 * devices over the host transport. */
static fault_scan scan_faults(const char *prim, int devices, int dev, const char *hook, const char *cause,
                              unsigned delay_ms) {
  return scan_faults_over(prim, devices, dev, hook, cause, delay_ms, on_gpu() ? "p2p" : NULL);
}

START_TEST(launch_failure_on_one_device_ends_every_primitive_cleanly) {
  run_timeout_s = 60;
  for (size_t p = 0; p < sizeof fault_prims / sizeof *fault_prims; p++)
    for (int d = 2; d <= 3; d++) {
      if (!gr_test_in_slice(&slice_combo)) continue;
      const int dev = (int)(p + (size_t)d) % d;
      fault_scan r = scan_faults(fault_prims[p], d, dev, "GR_FAULT_LAUNCH", "kernel launch", d == 3 ? 100 : 0);
      /* The first launch (at set-up) and later ones, into the second run. */
      ck_assert_msg(r.first_failed && r.failed >= 4, "%s, %d devices: %d launches failed", fault_prims[p], d,
                    r.failed);
      if (d == 3)
        ck_assert_msg(r.waited > 0, "%s: no failed launch came while the other devices waited", fault_prims[p]);
    }
  run_timeout_s = 0;
}
END_TEST

/* The exchange's own barrier: each primitive's first failed launch of a
 * kernel that fills its messages on one device of 3 (device 1 where it
 * launches one), after a delay, comes while the two others have published
 * their packages and wait for it there. */
START_TEST(launch_failure_in_the_exchange_while_the_others_wait_ends_cleanly) {
  run_timeout_s = 60;
  char o[512];
  tmp_path(o, sizeof o, "fault-package.out");
  for (size_t p = 0; p < sizeof fault_prims / sizeof *fault_prims; p++) {
    if (!gr_test_in_slice(&slice_combo)) continue;
    bool found = false;
    /* Device 1 first, then the others: which device launches a package
     * step depends on the partition and on the id width (with 64-bit ids
     * DOBFS's device 1 sends lists, and its empty outputs launch no
     * package pass: its 7 launches on this graph hold none). A device
     * whose run ends before its n-th launch ends the scan over it; every
     * run that a failure reached exits 3. */
    static const int order[] = {1, 0, 2};
    for (int k = 0; k < 3 && !found; k++) {
      const int d = order[k];
      for (int n = 1; n <= 400 && !found; n++) {
        char fault[64];
        snprintf(fault, sizeof fault, "GR_FAULT_LAUNCH=%d:%d:100", d, n);
        const char *env[] = {fault, NULL};
        unlink(o);
        const int rc = run_dev(env, 3, on_gpu() ? "p2p" : NULL, "--primitive", fault_prims[p], "--gen", "kron:9:8",
                               "--weights", strcmp(fault_prims[p], "sssp") ? "none" : "random:1:63", "--src",
                               "max-degree", "--out", o, NULL);
        const bool injected = err_text && strstr(err_text, "[injected by GR_FAULT_LAUNCH]");
        if (rc == 0) {
          ck_assert_msg(!injected, "%s, %s: exit 0 after an injected failure\n%s", fault_prims[p], fault, err_text);
          break;
        }
        ck_assert_msg(rc == 3 && injected, "%s, %s: exit %d\n%s", fault_prims[p], fault, rc, err_text);
        ck_assert_msg(access(o, F_OK) != 0, "%s, %s left an output file", fault_prims[p], fault);
        /* The launchers that fill the messages before they are published:
         * the package pass (package_cuda on GPUs, gr__xk_package_cpu); for a
         * level the advance routed into bitmaps, the compaction of this
         * device's own bitmap and the seal of each message (compact_*,
         * seal_*: on GPUs every BFS level of this graph routes); for a
         * refresh of the copies (PageRank's), the owners' gather (gather_*).
         * On GPUs an empty output launches no package pass, so PageRank's
         * exchange launches only the refresh's kernels there. */
        static const char *const step[] = {"package_cuda", "package_cpu", "compact_cuda", "compact_cpu",
                                           "seal_cuda",    "seal_cpu",    "gather_cuda",  "gather_cpu"};
        bool in_step = false;
        for (size_t q = 0; q < sizeof step / sizeof *step; q++) in_step = in_step || strstr(err_text, step[q]);
        if (!in_step) continue;
        found = true;
        char who[32];
        snprintf(who, sizeof who, "device %d", d);
        assert_err_has(who);
        assert_err_has("2 other devices were waiting for it at a barrier");
      }
    }
    ck_assert_msg(found, "%s: no launch of a package step on any device among its first 400", fault_prims[p]);
  }
  run_timeout_s = 0;
}
END_TEST

START_TEST(transport_failure_on_one_device_ends_every_primitive_cleanly) {
  run_timeout_s = 60;
  for (size_t p = 0; p < sizeof fault_prims / sizeof *fault_prims; p++)
    for (int d = 2; d <= 3; d++) {
      if (!gr_test_in_slice(&slice_combo)) continue;
      const int dev = (int)(p + (size_t)d + 1) % d;
      fault_scan r = scan_faults(fault_prims[p], d, dev, "GR_FAULT_TRANSPORT", "transport failed", d == 3 ? 100 : 0);
      /* The first iteration's exchange and later ones. */
      ck_assert_msg(r.first_failed && r.failed >= 2, "%s, %d devices: %d transfers failed", fault_prims[p], d,
                    r.failed);
      /* Every transfer comes after the exchange's barrier: with the delay,
       * the peers have moved and combined and wait at the next one. */
      if (d == 3)
        ck_assert_msg(r.waited == r.failed, "%s: %d of %d failed transfers came while the others waited",
                      fault_prims[p], r.waited, r.failed);
    }
  run_timeout_s = 0;
}
END_TEST

/* The same faults over NCCL, which needs a GPU per device: for every
 * primitive on 2 GPUs, a failed allocation, kernel launch and transfer on
 * one device or the other, at once or after a 100 ms delay (the peer is then
 * already waiting: in the barrier, or inside an NCCL call for a part that
 * never comes, which it must abort). Each ends with exit 3 naming the device
 * and the cause, no output file and no hang. Skipped without 2 GPUs. */
START_TEST(faults_over_nccl_end_every_primitive_cleanly) {
  if (!nccl_usable()) return;
  run_timeout_s = 60;
  static const struct {
    const char *hook, *cause;
  } hooks[] = {{"GR_FAULT_ALLOC", "cannot allocate"},
               {"GR_FAULT_LAUNCH", "kernel launch"},
               {"GR_FAULT_TRANSPORT", "transport failed"}};
  for (size_t p = 0; p < sizeof fault_prims / sizeof *fault_prims; p++)
    for (size_t h = 0; h < sizeof hooks / sizeof *hooks; h++) {
      if (!gr_test_in_slice(&slice_combo)) continue;
      /* Each device and each of delay and none, across the primitives. */
      const int dev = (int)((p + h) % 2);
      const unsigned delay = p % 2 ? 100 : 0;
      fault_scan r = scan_faults_over(fault_prims[p], 2, dev, hooks[h].hook, hooks[h].cause, delay, "nccl");
      ck_assert_msg(r.first_failed && r.failed >= 2, "%s over nccl, %s on device %d: %d failures", fault_prims[p],
                    hooks[h].hook, dev, r.failed);
    }
  run_timeout_s = 0;
}
END_TEST

/* GR_DEVICE_MEMORY_LIMIT makes a device report that much memory: a graph
 * whose parts cannot fit fails before the uploads, saying what a part needs
 * and the most that fits; a graph that fits runs under the same limit. */
START_TEST(a_graph_too_large_for_the_devices_fails_before_the_runs) {
  const char *env[] = {"GR_DEVICE_MEMORY_LIMIT=1M", NULL};
  run_timeout_s = 120;
  for (int d = 2; d <= 3; d++) {
    /* Held to device memory: refused before the runs. */
    int rc = run_dev(env, d, on_gpu() ? "p2p" : NULL, "--gen", "kron:16:16", "--proxy", "1hop", "--graph-memory",
                     "device", NULL);
    ck_assert_msg(rc == 3, "%d devices: exit %d\n%s", d, rc, err_text);
    assert_err_has("needs at least");
    assert_err_has("of device memory");
    assert_err_has("the most that fits is");
    assert_err_has("free of 1.00 MiB total");
    assert_err_has("--graph-memory host");
    /* The default (auto) keeps the parts' arrays in host memory instead:
     * it runs, or (what stays on the device not fitting either) ends with
     * exit 3 and the limit named, never anything else. */
    rc = run_dev(env, d, on_gpu() ? "p2p" : NULL, "--gen", "kron:16:16", "--proxy", "1hop", "--validate", NULL);
    ck_assert_msg(rc == 0 || rc == 3, "auto, %d devices: exit %d\n%s", d, rc, err_text);
    if (rc == 3) assert_err_has("GR_DEVICE_MEMORY_LIMIT");
    else ck_assert_msg(out_text && strstr(out_text, "graph arrays in host memory"), "%s", out_text);
    rc = run_dev(env, d, on_gpu() ? "p2p" : NULL, "--gen", "kron:8:4", "--validate", NULL);
    ck_assert_msg(rc == 0, "a small graph under the limit, %d devices: exit %d\n%s", d, rc, err_text);
  }
  const char *bad[] = {"GR_DEVICE_MEMORY_LIMIT=12Q", NULL};
  ck_assert_int_eq(run_dev(bad, 2, on_gpu() ? "p2p" : NULL, "--gen", "kron:8:4", NULL), 0);
  assert_err_has("GR_DEVICE_MEMORY_LIMIT=12Q is not a byte count");
  run_timeout_s = 0;
}
END_TEST

/* --graph-memory auto counts the run's state (the primitive's estimate per
 * local vertex) beside the part's arrays: under every device memory limit
 * where host placement runs, auto runs too (it once kept the lists on the
 * device where they fitted alone, and the run then ran out of memory for
 * its state: exit 3 where --graph-memory host validated). Each primitive,
 * on one device and on three, over limits from where nothing fits to where
 * everything does. */
START_TEST(auto_placement_runs_wherever_host_placement_runs) {
  static const char *const prims[] = {"bfs", "dobfs", "sssp", "cc", "pr", "bc", "reach"};
  static const char *const limits[] = {"80K", "100K", "130K", "160K", "200K", "250K",
                                       "300K", "400K", "500K", "650K", "800K"};
  run_timeout_s = 120;
  for (size_t p = 0; p < sizeof prims / sizeof *prims; p++)
    for (int d = 1; d <= 3; d += 2) {
      if (!gr_test_in_slice(&slice_combo)) continue;
      int host_ran = 0, auto_on_host = 0;
      for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) {
        char lim[64];
        snprintf(lim, sizeof lim, "GR_DEVICE_MEMORY_LIMIT=%s", limits[l]);
        const char *env[] = {lim, NULL};
        const bool pr_multi = !strcmp(prims[p], "pr") && d > 1;
        const char *args[16];
        int n = 0;
        args[n++] = "--primitive";
        args[n++] = prims[p];
        args[n++] = "--gen";
        args[n++] = "kron:12:16";
        if (!strcmp(prims[p], "sssp")) {
          args[n++] = "--weights";
          args[n++] = "random:1:255";
        }
        if (pr_multi) {
          args[n++] = "--comm";
          args[n++] = "broadcast";
        }
        args[n++] = "--validate";
        args[n++] = "--graph-memory";
        args[n++] = "host";
        args[n] = NULL;
        const int rh = run_argv(env, d, NULL, args);
        ck_assert_msg(rh == 0 || rh == 3, "%s, %d devices, limit %s, host: exit %d\n%s", prims[p], d, limits[l], rh,
                      err_text);
        args[n - 2] = NULL; /* the same run without --graph-memory host: auto */
        const int ra = run_argv(env, d, NULL, args);
        ck_assert_msg(ra == 0 || ra == 3, "%s, %d devices, limit %s, auto: exit %d\n%s", prims[p], d, limits[l], ra,
                      err_text);
        if (ra == 0 && out_text && strstr(out_text, "graph arrays in host memory")) auto_on_host++;
        if (rh != 0) continue;
        host_ran++;
        ck_assert_msg(ra == 0, "%s, %d devices, limit %s: host placement ran, auto ended with exit %d\n%s", prims[p],
                      d, limits[l], ra, err_text);
      }
      /* Not vacuous: host placement ran under some limit, and auto took it. */
      ck_assert_msg(host_ran > 0 && auto_on_host > 0, "%s, %d devices: host ran under %d limits, auto took it %d times",
                    prims[p], d, host_ran, auto_on_host);
    }
  run_timeout_s = 0;
}
END_TEST

/* Loading under an address-space limit (ulimit -v): a graph that cannot fit
 * is refused by the loader's plan (a file whose header declares 800 M
 * vertices) or by the allocation that fails (a generated graph of 1 G
 * edges), with exit 3 and a message about host memory, not a crash; a small
 * graph runs under the same limit. Exit 3, not 2: the input is valid and
 * the command right, the machine lacks the memory (as for a device out of
 * memory). */
START_TEST(loading_under_a_host_memory_limit_fails_cleanly) {
#ifdef GR_TEST_SANITIZED
  printf("skip: sanitized builds reserve terabytes of address space for shadow memory, so an address-space "
         "limit stops them before main\n");
  return;
#endif
  /* CUDA reserves address space for every GPU when it starts. */
  if (on_gpu()) {
    printf("skip: CPU devices only: CUDA reserves address space for every GPU when it starts, so an address-space "
           "limit stops a GPU run before the graph\n");
    return;
  }
  char big[512];
  gr_test_write_file(big, sizeof big, "declared-huge.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n800000000 800000000 1\n1 2\n");
  run_timeout_s = 120;
  run_address_space = 4ull << 30;
  for (int d = 1; d <= 2; d++) {
    int rc = run_dev(NULL, d, NULL, "--gen", "kron:10:8", "--validate", NULL);
    ck_assert_msg(rc == 0, "a small graph under 4 GiB of address space, %d devices: exit %d\n%s", d, rc, err_text);
    rc = run_dev(NULL, d, NULL, "--no-cache", big, NULL);
    ck_assert_msg(rc == 3, "declared 800 M vertices, %d devices: exit %d\n%s", d, rc, err_text);
    assert_err_has("declared-huge.mtx");
    assert_err_has("of host memory, but this host has 4.00 GiB");
    rc = run_dev(NULL, d, NULL, "--gen", "kron:26:16", NULL);
    ck_assert_msg(rc == 3, "kron:26:16, %d devices: exit %d\n%s", d, rc, err_text);
    assert_err_has("of host memory");
  }
  run_address_space = 0;
  run_timeout_s = 0;
  unlink(big);
}
END_TEST

START_TEST(bad_multi_device_options_exit_2) {
  char g[512];
  gr_test_write_file(g, sizeof g, "pair.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--partitioner", "nosuch", NULL), 2);
  assert_err_has("nosuch");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--proxy", "some", NULL), 2);
  assert_err_has("--proxy");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--comm", "shout", NULL), 2);
  assert_err_has("--comm");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--transport", "pigeon", NULL), 2);
  assert_err_has("--transport");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--bias", "-1", NULL), 2);
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--partition-block", "0", NULL), 2);
  assert_err_has("partition-block");
  ck_assert_int_eq(
      run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--partitioner", "range", "--partition-block", "8", NULL), 2);
  assert_err_has("random partitioner only");
  ck_assert_int_eq(run_dev(NULL, 3, NULL, g, NULL), 2);
  assert_err_has("vertices");
  ck_assert_int_eq(run_dev(NULL, 33, on_gpu() ? "p2p" : NULL, "--gen", "kron:8:4", NULL), 2);
  assert_err_has("32");
  if (!on_gpu()) {
    /* CPU devices talk through host memory only. */
    ck_assert_int_eq(run_dev(NULL, 2, "p2p", "--gen", "kron:8:4", NULL), 2);
    assert_err_has("host");
    ck_assert_int_eq(run_dev(NULL, 2, "nccl", "--gen", "kron:8:4", NULL), 2);
  } else {
    ck_assert_int_eq(run_dev(NULL, 2, "host", "--gen", "kron:8:4", NULL), 2);
    assert_err_has("CPU devices");
  }
  if (!have_metis()) {
    ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:8:4", "--partitioner", "metis", NULL), 2);
    assert_err_has("METIS");
  }
}
END_TEST

/* Input that fails after the exchange is set up (a malformed or missing
 * file, a bad generator spec, weights a primitive cannot do without) exits
 * 2 like on one device. gr_run used to return without releasing the
 * exchange there: invisible in a plain build, a leak that turns the exit
 * code into 1 under AddressSanitizer's leak check (the sanitized CI run). */
START_TEST(bad_input_after_the_exchange_is_set_up_exits_2) {
  char g[512], missing[512];
  gr_test_write_file(g, sizeof g, "broken.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n");
  tmp_path(missing, sizeof missing, "no-such-graph.mtx");
  unlink(missing);
  ck_assert_int_eq(run_dev(NULL, 2, NULL, g, NULL), 2);
  assert_err_has("broken.mtx");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, missing, NULL), 2);
  assert_err_has("no-such-graph.mtx");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--gen", "kron:0", NULL), 2);
  assert_err_has("--gen");
  ck_assert_int_eq(run_dev(NULL, 2, NULL, "--primitive", "sssp", "--weights", "none", "--gen", "kron:6:4", NULL), 2);
  assert_err_has("weights");
}
END_TEST

int main(void) {
  if (on_gpu()) {
    const char *bin = getenv("GR_RUN");
    const char *argv[] = {bin ? bin : "gr_run", "--gpus", "1", "--gen", "kron:4:4", "--quiet", NULL};
    if (gr_test_run(argv, NULL, NULL, NULL) != 0) {
      printf("skip: no GPU for the GPU variant of the multi-device gr_run tests\n");
      return 77;
    }
  }
  Suite *s = suite_create("gr_run_multi");
  /* One case per test, named after it and tagged with its group, so that a
   * GPU machine's command, which cannot hold the whole program, can run one
   * test (CK_RUN_CASE=name) or one group (CK_INCLUDE_TAGS=failures) apart
   * and several at once. nccl_failures starts about a hundred two-GPU
   * processes. The tests tagged "sliced" also split their combinations
   * among processes (GR_TEST_SLICE=K/N): on GPUs, where every run pays
   * the driver's start, the longest take more than one command may run. */
  const struct {
    const char *name, *group;
    const TTest *test;
    int timeout_s;
  } cases[] = {
#define GR__CASE(t, group, timeout_s) {#t, group, t, timeout_s}
      GR__CASE(bfs_on_many_devices_equals_one_device_on_generated_graphs, "multi_device sliced", 1800),
      GR__CASE(bfs_on_many_devices_equals_one_device_on_real_graphs, "multi_device sliced", 1800),
      GR__CASE(reach_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(sssp_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(dobfs_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(packed_lists_on_many_devices_equal_one_device, "multi_device sliced", 1800),
      GR__CASE(dobfs_pulling_at_once_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(cc_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(cc_links_the_arcs_every_device_skipped, "multi_device", 600),
      GR__CASE(a_slow_device_gives_one_devices_answer_for_every_primitive, "multi_device", 1800),
      GR__CASE(pr_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(bc_on_many_devices_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(bc_sources_on_many_devices_equal_one_device, "multi_device", 1800),
      GR__CASE(broadcast_formats_equal_one_device, "multi_device", 1800),
      GR__CASE(devices_taking_turns_equal_one_device, "multi_device sliced", 1800),
      GR__CASE(bfs_over_nccl_equals_one_device, "multi_device sliced", 1800),
      GR__CASE(summary_reports_partition_exchange_and_time_split, "multi_device", 1800),
      GR__CASE(proxy_auto_takes_1hop_where_it_divides_the_passes, "multi_device", 600),
      GR__CASE(host_round_trips_per_iteration_stay_within_budget, "multi_device", 900),
      GR__CASE(failure_on_one_device_ends_the_run_cleanly, "failures", 600),
      GR__CASE(failure_on_one_device_ends_dobfs_cc_pr_and_bc_cleanly, "failures sliced", 600),
      GR__CASE(launch_failure_on_one_device_ends_every_primitive_cleanly, "failures sliced", 600),
      GR__CASE(launch_failure_in_the_exchange_while_the_others_wait_ends_cleanly, "failures sliced", 600),
      GR__CASE(transport_failure_on_one_device_ends_every_primitive_cleanly, "failures sliced", 600),
      GR__CASE(a_graph_too_large_for_the_devices_fails_before_the_runs, "failures", 600),
      GR__CASE(auto_placement_runs_wherever_host_placement_runs, "failures sliced", 600),
      GR__CASE(loading_under_a_host_memory_limit_fails_cleanly, "failures", 600),
      GR__CASE(bad_multi_device_options_exit_2, "failures", 600),
      GR__CASE(bad_input_after_the_exchange_is_set_up_exits_2, "failures", 600),
      GR__CASE(pr_pulls_and_pushes_under_either_exchange, "multi_device", 600),
      GR__CASE(bfs_and_dobfs_route_under_every_visited_variant, "multi_device", 600),
      GR__CASE(every_primitive_on_blocked_random_parts_equals_one_device, "multi_device", 900),
      GR__CASE(faults_over_nccl_end_every_primitive_cleanly, "nccl_failures sliced", 900),
#undef GR__CASE
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TCase *tc = tcase_create(cases[i].name);
    tcase_set_tags(tc, cases[i].group);
    tcase_set_timeout(tc, cases[i].timeout_s);
    tcase_add_checked_fixture(tc, times_reset, times_report);
    tcase_add_test(tc, cases[i].test);
    suite_add_tcase(s, tc);
  }
  return gr_test_run_suite(s, 0);
}
