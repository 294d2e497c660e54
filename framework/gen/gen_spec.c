/* SPDX-License-Identifier: Apache-2.0 */
/* Generator specs: the text grammar of gen.h parsed strictly, the canonical
 * text that parses back to the same spec, and the checks of a spec's ranges
 * and sizes shared by the parser and the generators. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

/* Graph500 Kronecker initiator. */
#define GR__GEN_DEFAULT_A 0.57
#define GR__GEN_DEFAULT_B 0.19
#define GR__GEN_DEFAULT_C 0.19
#define GR__GEN_DEFAULT_EF 16.0
#define GR__GEN_DEFAULT_SEED 1ull
/* Rounding slack for a + b + c <= 1 ("0.7,0.2,0.1" sums to 1 + 1 ulp). */
#define GR__GEN_PROB_SLACK 1e-9

/* A piece of the spec text, not NUL-terminated. */
typedef struct gr__tok {
  const char *p;
  size_t len;
} gr__tok;

static bool gr__tok_is(gr__tok t, const char *s) {
  return t.len == strlen(s) && memcmp(t.p, s, t.len) == 0;
}

/* Splits t at the first sep: *head before it, *rest after it; returns
 * whether sep occurred (when not, *rest is empty). */
static bool gr__tok_split(gr__tok t, char sep, gr__tok *head, gr__tok *rest) {
  const char *q = memchr(t.p, sep, t.len);
  if (!q) {
    *head = t;
    rest->p = t.p + t.len;
    rest->len = 0;
    return false;
  }
  head->p = t.p;
  head->len = (size_t)(q - t.p);
  rest->p = q + 1;
  rest->len = t.len - head->len - 1;
  return true;
}

/* Decimal digits only (no sign, no blanks, no 0x); false on overflow. */
static bool gr__parse_u64(gr__tok t, uint64_t *out) {
  if (t.len == 0) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < t.len; i++) {
    unsigned d = (unsigned)(unsigned char)t.p[i] - '0';
    if (d > 9) return false;
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* A finite decimal number: digits with an optional point and exponent.
 * strtod alone would also take blanks, signs, "inf", "nan" and hex. */
static bool gr__parse_double(gr__tok t, double *out) {
  char buf[64];
  if (t.len == 0 || t.len >= sizeof buf) return false;
  if (!((t.p[0] >= '0' && t.p[0] <= '9') || t.p[0] == '.')) return false;
  for (size_t i = 0; i < t.len; i++)
    if (t.p[i] == 'x' || t.p[i] == 'X') return false;
  memcpy(buf, t.p, t.len);
  buf[t.len] = '\0';
  char *end = NULL;
  double v = strtod(buf, &end);
  if (end != buf + t.len || !isfinite(v)) return false;
  *out = v;
  return true;
}

static const char *gr__kind_name(gr_gen_kind k) {
  switch (k) {
    case GR_GEN_KRONECKER: return "kron";
    case GR_GEN_UNIFORM: return "uniform";
    case GR_GEN_GRID2D: return "grid2d";
    case GR_GEN_GRID3D: return "grid3d";
  }
  return "unknown";
}

/* a * b, false when it passes limit. */
static bool gr__mul_within(uint64_t a, uint64_t b, uint64_t limit, uint64_t *out) {
  if (a != 0 && b > limit / a) return false;
  *out = a * b;
  return true;
}

int gr__gen_team(int threads) { return threads > 0 ? threads : gr_host_threads(); }

static gr_status gr__grid_size(const gr_gen_spec *s, int dims, uint64_t *n, uint64_t *m) {
  for (int i = 0; i < dims; i++)
    if (s->dims[i] == 0)
      return gr_errorf(GR_ERR_INVALID_ARG, "%s dimension %d is zero", gr__kind_name(s->kind),
                       i + 1);
  uint64_t d0 = dims == 3 ? s->dims[0] : 1;
  uint64_t d1 = s->dims[dims - 2], d2 = s->dims[dims - 1];
  uint64_t plane = 0, nv = 0;
  if (!gr__mul_within(d1, d2, GR_MAX_VERTICES, &plane) ||
      !gr__mul_within(d0, plane, GR_MAX_VERTICES, &nv))
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "%s vertex count overflows the %d-bit vertex-id range (at most %llu vertices)",
                     gr__kind_name(s->kind), GR_VID_BITS, (unsigned long long)GR_MAX_VERTICES);
  /* Edges along each axis: the vertex count less one layer across it. Each
   * term is below nv, so only the sum can pass the limit. */
  uint64_t along[3] = {nv - plane, nv - d0 * d2, nv - d0 * d1};
  uint64_t total = 0;
  for (int i = 0; i < 3; i++) {
    if (along[i] > GR__GEN_MAX_EDGES - total)
      return gr_errorf(GR_ERR_INVALID_ARG, "%s has more than 2^61 edges", gr__kind_name(s->kind));
    total += along[i];
  }
  *n = nv;
  *m = total;
  return GR_SUCCESS;
}

gr_status gr__gen_size(const gr_gen_spec *s, uint64_t *n, uint64_t *m) {
  if (!s) return gr_errorf(GR_ERR_INVALID_ARG, "generator spec is NULL");
  switch (s->kind) {
    case GR_GEN_KRONECKER:
    case GR_GEN_UNIFORM: {
      if (s->scale < 1 || s->scale >= GR_VID_BITS)
        return gr_errorf(GR_ERR_INVALID_ARG,
                         "scale %d is out of range: %d-bit vertex ids allow scale 1 to %d",
                         s->scale, GR_VID_BITS, GR_VID_BITS - 1);
      if (!(s->edge_factor > 0.0) || !isfinite(s->edge_factor))
        return gr_errorf(GR_ERR_INVALID_ARG, "edge factor %g is not a positive number",
                         s->edge_factor);
      double edges = ldexp(s->edge_factor, s->scale);
      if (!(edges <= (double)GR__GEN_MAX_EDGES))
        return gr_errorf(GR_ERR_INVALID_ARG,
                         "edge factor %g at scale %d asks for %.3g edges, more than 2^61",
                         s->edge_factor, s->scale, edges);
      if (s->kind == GR_GEN_KRONECKER) {
        const double p[3] = {s->a, s->b, s->c};
        static const char names[3] = {'a', 'b', 'c'};
        for (int i = 0; i < 3; i++)
          if (!(p[i] >= 0.0 && p[i] <= 1.0))
            return gr_errorf(GR_ERR_INVALID_ARG, "probability %c=%g is outside [0, 1]", names[i],
                             p[i]);
        if (s->a + s->b + s->c > 1.0 + GR__GEN_PROB_SLACK)
          return gr_errorf(GR_ERR_INVALID_ARG,
                           "probabilities a=%g, b=%g, c=%g sum to %g, more than 1", s->a, s->b,
                           s->c, s->a + s->b + s->c);
      }
      *n = 1ull << s->scale;
      *m = (uint64_t)llround(edges);
      return GR_SUCCESS;
    }
    case GR_GEN_GRID2D: return gr__grid_size(s, 2, n, m);
    case GR_GEN_GRID3D: return gr__grid_size(s, 3, n, m);
  }
  return gr_errorf(GR_ERR_INVALID_ARG, "unknown generator kind %d", (int)s->kind);
}

static void gr__spec_defaults(gr_gen_spec *s, gr_gen_kind kind) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->edge_factor = GR__GEN_DEFAULT_EF;
  s->a = GR__GEN_DEFAULT_A;
  s->b = GR__GEN_DEFAULT_B;
  s->c = GR__GEN_DEFAULT_C;
  s->seed = GR__GEN_DEFAULT_SEED;
  s->permute = true;
}

/* SCALE[:EF] of kron and uniform. */
static gr_status gr__parse_scale_ef(gr_gen_spec *s, gr__tok head) {
  gr__tok scale_t, ef_t;
  bool has_ef = gr__tok_split(head, ':', &scale_t, &ef_t);
  uint64_t scale = 0;
  if (scale_t.len == 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "missing scale (%s:SCALE[:EF])", gr__kind_name(s->kind));
  bool digits = strspn(scale_t.p, "0123456789") >= scale_t.len;
  if (!digits)
    return gr_errorf(GR_ERR_INVALID_ARG, "bad scale \"%.*s\" (a whole number)", (int)scale_t.len,
                     scale_t.p);
  if (!gr__parse_u64(scale_t, &scale) || scale < 1 || scale >= GR_VID_BITS)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "scale %.*s is out of range: %d-bit vertex ids allow scale 1 to %d",
                     (int)scale_t.len, scale_t.p, GR_VID_BITS, GR_VID_BITS - 1);
  s->scale = (int)scale;
  if (has_ef) {
    if (memchr(ef_t.p, ':', ef_t.len))
      return gr_errorf(GR_ERR_INVALID_ARG, "unexpected ':' in \"%.*s\" (%s:SCALE[:EF])",
                       (int)head.len, head.p, gr__kind_name(s->kind));
    if (!gr__parse_double(ef_t, &s->edge_factor) || !(s->edge_factor > 0.0))
      return gr_errorf(GR_ERR_INVALID_ARG, "bad edge factor \"%.*s\" (a positive number)",
                       (int)ef_t.len, ef_t.p);
  }
  return GR_SUCCESS;
}

/* One ",key[=value]" option of kron or uniform. */
static gr_status gr__parse_option(gr_gen_spec *s, gr__tok opt, unsigned *seen) {
  static const char *kron_keys[] = {"a", "b", "c", "seed", "permute", "directed"};
  static const char *uniform_keys[] = {"seed", "directed"};
  const bool kron = s->kind == GR_GEN_KRONECKER;
  const char **keys = kron ? kron_keys : uniform_keys;
  const int nkeys = kron ? 6 : 2;
  const char *allowed = kron ? "a, b, c, seed, permute, directed" : "seed, directed";
  gr__tok key, val;
  bool has_val = gr__tok_split(opt, '=', &key, &val);
  if (opt.len == 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "empty option (options are ,key=value)");
  int k = -1;
  for (int i = 0; i < nkeys; i++)
    if (gr__tok_is(key, keys[i])) k = i;
  if (k < 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "unknown option \"%.*s\" for %s (it takes %s)",
                     (int)key.len, key.p, gr__kind_name(s->kind), allowed);
  const char *name = keys[k];
  if (*seen & (1u << k))
    return gr_errorf(GR_ERR_INVALID_ARG, "option %s given twice", name);
  *seen |= 1u << k;
  if (!strcmp(name, "directed")) {
    if (has_val)
      return gr_errorf(GR_ERR_INVALID_ARG, "option directed takes no value (got \"%.*s\")",
                       (int)opt.len, opt.p);
    s->directed = true;
    return GR_SUCCESS;
  }
  if (!has_val || val.len == 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "option %s needs a value (%s=...)", name, name);
  if (!strcmp(name, "seed")) {
    if (!gr__parse_u64(val, &s->seed))
      return gr_errorf(GR_ERR_INVALID_ARG, "bad seed \"%.*s\" (a whole number below 2^64)",
                       (int)val.len, val.p);
  } else if (!strcmp(name, "permute")) {
    if (gr__tok_is(val, "0")) s->permute = false;
    else if (gr__tok_is(val, "1")) s->permute = true;
    else
      return gr_errorf(GR_ERR_INVALID_ARG, "bad permute \"%.*s\" (0 or 1)", (int)val.len, val.p);
  } else {
    double *p = name[0] == 'a' ? &s->a : name[0] == 'b' ? &s->b : &s->c;
    if (!gr__parse_double(val, p))
      return gr_errorf(GR_ERR_INVALID_ARG, "bad probability %s=\"%.*s\" (a number in [0, 1])",
                       name, (int)val.len, val.p);
  }
  return GR_SUCCESS;
}

/* RxC or XxYxZ. */
static gr_status gr__parse_dims(gr_gen_spec *s, gr__tok body, int dims) {
  const char *form = dims == 2 ? "grid2d:ROWSxCOLS" : "grid3d:XxYxZ";
  gr__tok rest = body;
  for (int i = 0; i < dims; i++) {
    gr__tok d;
    bool more = gr__tok_split(rest, 'x', &d, &rest);
    if (more != (i < dims - 1) || !gr__parse_u64(d, &s->dims[i]))
      return gr_errorf(GR_ERR_INVALID_ARG, "bad dimensions \"%.*s\" (%s, whole numbers)",
                       (int)body.len, body.p, form);
    if (s->dims[i] == 0)
      return gr_errorf(GR_ERR_INVALID_ARG, "zero dimension in \"%.*s\" (%s)", (int)body.len,
                       body.p, form);
  }
  return GR_SUCCESS;
}

gr_status gr_gen_parse(gr_gen_spec *out, const char *text) {
  gr_status st = GR_SUCCESS;
  gr_gen_spec s;
  if (!out || !text) return gr_errorf(GR_ERR_INVALID_ARG, "gr_gen_parse: NULL argument");
  const gr__tok all = {text, strlen(text)};
  gr__tok kind_t, body;
  if (!gr__tok_split(all, ':', &kind_t, &body)) {
    st = gr_errorf(GR_ERR_INVALID_ARG,
                   "missing ':' after the kind (kron:SCALE[:EF], rmat:..., uniform:SCALE[:EF], "
                   "grid2d:RxC, grid3d:XxYxZ)");
    goto cleanup;
  }
  if (gr__tok_is(kind_t, "kron") || gr__tok_is(kind_t, "rmat")) {
    gr__spec_defaults(&s, GR_GEN_KRONECKER);
  } else if (gr__tok_is(kind_t, "uniform")) {
    gr__spec_defaults(&s, GR_GEN_UNIFORM);
  } else if (gr__tok_is(kind_t, "grid2d")) {
    gr__spec_defaults(&s, GR_GEN_GRID2D);
  } else if (gr__tok_is(kind_t, "grid3d")) {
    gr__spec_defaults(&s, GR_GEN_GRID3D);
  } else {
    st = gr_errorf(GR_ERR_INVALID_ARG,
                   "unknown kind \"%.*s\" (kron, rmat, uniform, grid2d or grid3d)",
                   (int)kind_t.len, kind_t.p);
    goto cleanup;
  }
  gr__tok head, opts;
  bool has_opts = gr__tok_split(body, ',', &head, &opts);
  if (s.kind == GR_GEN_GRID2D || s.kind == GR_GEN_GRID3D) {
    if (has_opts) {
      st = gr_errorf(GR_ERR_INVALID_ARG, "%s takes no options (got \",%.*s\")",
                     gr__kind_name(s.kind), (int)opts.len, opts.p);
      goto cleanup;
    }
    GR_CHECK_GOTO(gr__parse_dims(&s, head, s.kind == GR_GEN_GRID2D ? 2 : 3), st, cleanup);
  } else {
    GR_CHECK_GOTO(gr__parse_scale_ef(&s, head), st, cleanup);
    unsigned seen = 0;
    bool more = has_opts;
    while (more) {
      gr__tok opt;
      more = gr__tok_split(opts, ',', &opt, &opts);
      GR_CHECK_GOTO(gr__parse_option(&s, opt, &seen), st, cleanup);
    }
  }
  uint64_t n = 0, m = 0;
  GR_CHECK_GOTO(gr__gen_size(&s, &n, &m), st, cleanup);
  *out = s;
cleanup:
  if (st < 0) gr_error_prefix(st, "generator spec \"%.200s\": ", text);
  return st;
}

/* Shortest %g text that reads back as exactly v. */
static void gr__format_double(char *buf, size_t len, double v) {
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) return;
  }
}

void gr_gen_format(const gr_gen_spec *spec, char *buf, size_t len) {
  if (!buf || len == 0) return;
  if (!spec) {
    snprintf(buf, len, "(null)");
    return;
  }
  char ef[32], a[32], b[32], c[32];
  switch (spec->kind) {
    case GR_GEN_KRONECKER:
      gr__format_double(ef, sizeof ef, spec->edge_factor);
      gr__format_double(a, sizeof a, spec->a);
      gr__format_double(b, sizeof b, spec->b);
      gr__format_double(c, sizeof c, spec->c);
      snprintf(buf, len, "kron:%d:%s,a=%s,b=%s,c=%s,seed=%llu%s%s", spec->scale, ef, a, b, c,
               (unsigned long long)spec->seed, spec->permute ? "" : ",permute=0",
               spec->directed ? ",directed" : "");
      return;
    case GR_GEN_UNIFORM:
      gr__format_double(ef, sizeof ef, spec->edge_factor);
      snprintf(buf, len, "uniform:%d:%s,seed=%llu%s", spec->scale, ef,
               (unsigned long long)spec->seed, spec->directed ? ",directed" : "");
      return;
    case GR_GEN_GRID2D:
      snprintf(buf, len, "grid2d:%llux%llu", (unsigned long long)spec->dims[0],
               (unsigned long long)spec->dims[1]);
      return;
    case GR_GEN_GRID3D:
      snprintf(buf, len, "grid3d:%llux%llux%llu", (unsigned long long)spec->dims[0],
               (unsigned long long)spec->dims[1], (unsigned long long)spec->dims[2]);
      return;
  }
  snprintf(buf, len, "unknown:%d", (int)spec->kind);
}
