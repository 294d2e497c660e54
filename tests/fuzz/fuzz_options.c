/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the option strings gr_run and gr_gen hand to the library's
 * parsers (--mem, --comm, --comm-format, --transport, --partitioner,
 * --weights, --graph-memory, --compress, and the byte counts of --device-memory-limit
 * and GR_DEVICE_MEMORY_LIMIT). The first byte picks the parser, the rest is the string. Each
 * parser is held to a reference written from the documented grammar: it
 * must accept exactly what the grammar accepts, with the same value, and
 * refuse the rest with an invalid-argument error and a message, leaving its
 * output untouched. Numbers are decimal: digits with an optional point and
 * exponent (a leading '-' only where negative values make sense); no
 * blanks, '+' signs, hexadecimal, infinities or NaNs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "fuzz.h"
#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/primitive.h"
#include "partitioner.h"

enum {
  OPT_MEM,
  OPT_COMM,
  OPT_COMM_FORMAT,
  OPT_TRANSPORT,
  OPT_PARTITIONER,
  OPT_WEIGHTS,
  OPT_GRAPH_MEMORY,
  OPT_BYTES,
  OPT_COMPRESS,
  OPT_COUNT
};

/* [-]digits[.digits]|[-].digits, then [eE][+-]digits; *integer when it is
 * [-]digits alone. */
static bool ref_number(const char *s, size_t len, bool allow_minus, double *out, bool *integer) {
  size_t i = 0, digits = 0;
  bool point = false, exponent = false;
  if (i < len && s[i] == '-' && allow_minus) i++;
  for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++;
  if (i < len && s[i] == '.') {
    point = true;
    for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) digits++;
  }
  if (digits == 0) return false;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    exponent = true;
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    size_t e = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) e++;
    if (e == 0) return false;
  }
  if (i != len) return false;
  char *buf = malloc(len + 1);
  if (!buf) abort();
  memcpy(buf, s, len);
  buf[len] = '\0';
  const double v = strtod(buf, NULL);
  free(buf);
  if (!isfinite(v)) return false;
  *out = v;
  if (integer) *integer = !point && !exponent;
  return true;
}

static void expect_refusal(gr_status st, const char *text, const char *what) {
  FZ_ASSERT(st == GR_ERR_INVALID_ARG, "%s \"%s\" refused with %s", what, text, gr_status_name(st));
  FZ_ASSERT(gr_error_message()[0] != '\0', "%s \"%s\" refused without a message", what, text);
}

static void fz_mem(const char *s) {
  gr_mem_policy got = {GR_MEM_MAX, 7.0}, want = got;
  bool ok = true;
  if (!strcmp(s, "just-enough")) {
    want.kind = GR_MEM_JUST_ENOUGH;
    want.factor = 1.0;
  } else if (!strcmp(s, "max")) {
    want.kind = GR_MEM_MAX;
    want.factor = 1.0;
  } else if (!strncmp(s, "prealloc:", 9)) {
    want.kind = GR_MEM_PREALLOC;
    ok = ref_number(s + 9, strlen(s + 9), false, &want.factor, NULL) && want.factor >= 1.0 && want.factor <= 64.0;
  } else {
    ok = false;
  }
  const gr_mem_policy before = got;
  gr_status st = gr_mem_policy_parse(&got, s);
  if (st == GR_SUCCESS) {
    FZ_ASSERT(ok, "--mem accepted \"%s\"", s);
    FZ_ASSERT(got.kind == want.kind && (got.kind != GR_MEM_PREALLOC || got.factor == want.factor),
              "--mem \"%s\": kind %d factor %g, expected %d %g", s, (int)got.kind, got.factor, (int)want.kind,
              want.factor);
  } else {
    FZ_ASSERT(!ok, "--mem refused \"%s\": %s", s, gr_error_message());
    expect_refusal(st, s, "--mem");
    FZ_ASSERT(got.kind == before.kind && got.factor == before.factor, "a refused --mem changed its output");
  }
}

/* Parsers of one word out of a list; the lists follow the enums' order. */
static void fz_word(int which, const char *s) {
  static const char *const comm[] = {"selective", "broadcast", NULL};
  static const char *const format[] = {"auto", "list", "bitmap", NULL};
  static const char *const transport[] = {"auto", "host", "p2p", "nccl", NULL};
  static const char *const part[] = {"random", "biased", "metis", "static", "range", NULL};
  static const char *const placement[] = {"auto", "device", "host", NULL};
  static const char *const compress[] = {"none", "packed", NULL};
  const char *const *words = which == OPT_COMM ? comm : which == OPT_COMM_FORMAT ? format
                             : which == OPT_TRANSPORT ? transport : which == OPT_GRAPH_MEMORY ? placement
                             : which == OPT_COMPRESS ? compress : part;
  int want = -1;
  for (int i = 0; words[i]; i++)
    if (!strcmp(s, words[i])) want = i;
  int got = 77, before = 77;
  gr_status st;
  const char *name = NULL;
  switch (which) {
    case OPT_COMM: {
      gr_comm_mode m = (gr_comm_mode)before;
      st = gr_comm_mode_parse(&m, s);
      got = (int)m;
      if (st == GR_SUCCESS) name = gr_comm_mode_name(m);
      break;
    }
    case OPT_COMM_FORMAT: {
      gr_comm_format f = (gr_comm_format)before;
      st = gr_comm_format_parse(&f, s);
      got = (int)f;
      break;
    }
    case OPT_TRANSPORT: {
      gr_transport_kind t = (gr_transport_kind)before;
      st = gr_transport_parse(&t, s);
      got = (int)t;
      if (st == GR_SUCCESS) name = gr_transport_name(t);
      break;
    }
    case OPT_GRAPH_MEMORY: {
      gr_graph_memory m = (gr_graph_memory)before;
      st = gr_graph_memory_parse(&m, s);
      got = (int)m;
      if (st == GR_SUCCESS) name = gr_graph_memory_name(m);
      break;
    }
    case OPT_COMPRESS: {
      gr_compress c = (gr_compress)before;
      st = gr_compress_parse(&c, s);
      got = (int)c;
      if (st == GR_SUCCESS) name = gr_compress_name(c);
      break;
    }
    default: {
      gr_partitioner_kind k = (gr_partitioner_kind)before;
      st = gr_partitioner_parse(&k, s);
      got = (int)k;
      if (st == GR_SUCCESS) name = gr_partitioner_name(k);
      break;
    }
  }
  if (st == GR_SUCCESS) {
    FZ_ASSERT(want >= 0, "the word \"%s\" was accepted", s);
    FZ_ASSERT(want == got, "the word \"%s\" parsed to %d, expected %d", s, got, want);
    FZ_ASSERT(!name || !strcmp(name, s), "\"%s\" parsed to a value named \"%s\"", s, name);
  } else {
    FZ_ASSERT(want < 0, "the word \"%s\" was refused: %s", s, gr_error_message());
    expect_refusal(st, s, "a word option");
    FZ_ASSERT(got == before, "a refused word changed its output");
  }
}

static void fz_weights(const char *s) {
  gr_weight_spec got = {GR_WEIGHTS_NONE, 3.0, 4.0, true}, want = GR_WEIGHT_SPEC_INIT;
  const gr_weight_spec before = got;
  bool ok = true;
  if (!strcmp(s, "file")) {
    want.kind = GR_WEIGHTS_FILE;
  } else if (!strcmp(s, "none")) {
    want.kind = GR_WEIGHTS_NONE;
  } else if (!strncmp(s, "random:", 7)) {
    const char *lo = s + 7, *colon = *lo ? strchr(lo + 1, ':') : NULL;
    bool ilo = false, ihi = false;
    ok = colon && ref_number(lo, (size_t)(colon - lo), true, &want.lo, &ilo) &&
         ref_number(colon + 1, strlen(colon + 1), true, &want.hi, &ihi) && want.lo <= want.hi;
    want.kind = GR_WEIGHTS_RANDOM;
    want.integer = ilo && ihi;
  } else {
    ok = false;
  }
  gr_status st = gr_weight_spec_parse(&got, s);
  if (st == GR_SUCCESS) {
    FZ_ASSERT(ok, "--weights accepted \"%s\"", s);
    FZ_ASSERT(got.kind == want.kind, "--weights \"%s\": kind %d, expected %d", s, (int)got.kind, (int)want.kind);
    if (got.kind == GR_WEIGHTS_RANDOM)
      FZ_ASSERT(got.lo == want.lo && got.hi == want.hi && got.integer == want.integer,
                "--weights \"%s\": [%.17g, %.17g]%s, expected [%.17g, %.17g]%s", s, got.lo, got.hi,
                got.integer ? " integers" : "", want.lo, want.hi, want.integer ? " integers" : "");
  } else {
    FZ_ASSERT(!ok, "--weights refused \"%s\": %s", s, gr_error_message());
    expect_refusal(st, s, "--weights");
    FZ_ASSERT(got.kind == before.kind && got.lo == before.lo && got.hi == before.hi && got.integer == before.integer,
              "a refused --weights changed its output");
  }
}

/* Byte counts: decimal digits (fitting 64 bits) and at most one suffix of
 * K, M, G or T (either case, powers of 1024); more than 0 and no more than
 * 2^64 - 1 bytes once scaled. */
static void fz_bytes(const char *s) {
  const size_t len = strlen(s);
  size_t digits = len;
  unsigned shift = 0;
  if (len) switch (s[len - 1]) {
      case 'K': case 'k': shift = 10; digits--; break;
      case 'M': case 'm': shift = 20; digits--; break;
      case 'G': case 'g': shift = 30; digits--; break;
      case 'T': case 't': shift = 40; digits--; break;
      default: break;
    }
  bool ok = digits > 0;
  uint64_t v = 0;
  for (size_t i = 0; ok && i < digits; i++) {
    const unsigned d = (unsigned)(s[i] - '0');
    if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - d) / 10) ok = false;
    else v = v * 10 + d;
  }
  ok = ok && v > 0 && v <= (UINT64_MAX >> shift);
  uint64_t got = 77;
  const bool parsed = gr_parse_bytes(s, &got);
  FZ_ASSERT(parsed == ok, "byte count \"%s\" %s", s, parsed ? "accepted" : "refused");
  if (parsed) FZ_ASSERT(got == v << shift, "byte count \"%s\": %llu, expected %llu", s, (unsigned long long)got,
                        (unsigned long long)(v << shift));
  else FZ_ASSERT(got == 77, "a refused byte count changed its output");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *s = fz_string(data + 1, size - 1);
  if (!s) return 0;
  const int which = data[0] % OPT_COUNT;
  if (which == OPT_MEM) fz_mem(s);
  else if (which == OPT_WEIGHTS) fz_weights(s);
  else if (which == OPT_BYTES) fz_bytes(s);
  else fz_word(which, s);
  free(s);
  return 0;
}
