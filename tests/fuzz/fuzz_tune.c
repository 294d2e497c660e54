/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: gr_run --tune strings, against a reference parser written
 * from the documented grammar (KEY=VALUE pairs separated by commas, empty
 * pairs ignored; counts are decimal digits that fit in 64 bits; pull-light
 * at least 1). gr_tuning_parse must accept exactly what the reference
 * accepts, with the same result, and leave its output untouched when it
 * refuses (with an invalid-argument error that names --tune). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gr/workspace.h"

/* Decimal digits only, no sign or blanks, within 64 bits. */
static bool ref_count(const char *v, size_t len, gr_eid *out) {
  if (len == 0) return false;
  uint64_t x = 0;
  for (size_t i = 0; i < len; i++) {
    const unsigned d = (unsigned)(unsigned char)v[i] - '0';
    if (d > 9 || x > (UINT64_MAX - d) / 10) return false;
    x = x * 10 + d;
  }
  *out = x;
  return true;
}

static bool eq(const char *p, size_t len, const char *word) { return strlen(word) == len && !memcmp(p, word, len); }

/* One KEY=VALUE pair [p, p + len). */
static bool ref_pair(gr_tuning *r, const char *p, size_t len) {
  const char *eqs = memchr(p, '=', len);
  if (!eqs) return false;
  const char *k = p, *v = eqs + 1;
  const size_t kl = (size_t)(eqs - p), vl = len - kl - 1;
  if (eq(k, kl, "advance")) {
    if (eq(v, vl, "chunked")) r->advance = GR_ADVANCE_CHUNKED;
    else if (eq(v, vl, "serial")) r->advance = GR_ADVANCE_SERIAL;
    else if (eq(v, vl, "twc")) r->advance = GR_ADVANCE_TWC;
    else if (eq(v, vl, "auto")) r->advance = GR_ADVANCE_AUTO;
    else return false;
  } else if (eq(k, kl, "pull")) {
    if (eq(v, vl, "hybrid")) r->pull = GR_PULL_HYBRID;
    else if (eq(v, vl, "warp")) r->pull = GR_PULL_WARP;
    else return false;
  } else if (eq(k, kl, "small")) {
    if (eq(v, vl, "on")) r->small_loop = true;
    else if (eq(v, vl, "off")) r->small_loop = false;
    else return false;
  } else if (eq(k, kl, "small-vertices")) {
    return ref_count(v, vl, &r->small_vertices);
  } else if (eq(k, kl, "small-edges")) {
    return ref_count(v, vl, &r->small_edges);
  } else if (eq(k, kl, "small-degree")) {
    return ref_count(v, vl, &r->small_degree);
  } else if (eq(k, kl, "status")) {
    if (eq(v, vl, "atomic")) r->idempotent = false;
    else if (eq(v, vl, "idempotent")) r->idempotent = true;
    else return false;
  } else if (eq(k, kl, "pull-light")) {
    return ref_count(v, vl, &r->pull_light) && r->pull_light >= 1;
  } else if (eq(k, kl, "pull-try")) {
    return ref_count(v, vl, &r->pull_try);
  } else if (eq(k, kl, "visited")) {
    if (eq(v, vl, "bitmap")) r->visited_bitmap = true;
    else if (eq(v, vl, "state")) r->visited_bitmap = false;
    else return false;
  } else if (eq(k, kl, "relabel")) {
    if (eq(v, vl, "auto")) r->relabel = GR_SORT_AUTO;
    else if (eq(v, vl, "on")) r->relabel = GR_SORT_ON;
    else if (eq(v, vl, "off")) r->relabel = GR_SORT_OFF;
    else return false;
  } else if (eq(k, kl, "hot")) {
    return ref_count(v, vl, &r->hot);
  } else if (eq(k, kl, "hub")) {
    return ref_count(v, vl, &r->hub);
  } else if (eq(k, kl, "long-rows")) {
    if (eq(v, vl, "auto")) {
      r->long_rows = GR_LONG_ROWS_AUTO;
      return true;
    }
    return ref_count(v, vl, &r->long_rows) && r->long_rows != GR_LONG_ROWS_AUTO;
  } else if (eq(k, kl, "walk-stage")) {
    if (eq(v, vl, "auto")) r->walk_stage = GR_SORT_AUTO;
    else if (eq(v, vl, "on")) r->walk_stage = GR_SORT_ON;
    else if (eq(v, vl, "off")) r->walk_stage = GR_SORT_OFF;
    else return false;
  } else if (eq(k, kl, "bc-counts")) {
    if (eq(v, vl, "log")) r->bc_log = true;
    else if (eq(v, vl, "auto")) r->bc_log = false;
    else return false;
  } else if (eq(k, kl, "sssp-heavy")) {
    if (eq(v, vl, "once")) r->sssp_heavy_once = true;
    else if (eq(v, vl, "always")) r->sssp_heavy_once = false;
    else return false;
  } else if (eq(k, kl, "sssp-tail")) {
    return ref_count(v, vl, &r->sssp_tail);
  } else if (eq(k, kl, "sssp-early")) {
    return ref_count(v, vl, &r->sssp_early);
  } else if (eq(k, kl, "sssp-peers")) {
    if (eq(v, vl, "on")) r->sssp_peers = true;
    else if (eq(v, vl, "off")) r->sssp_peers = false;
    else return false;
  } else if (eq(k, kl, "owner-words")) {
    if (eq(v, vl, "on")) r->owner_words = true;
    else if (eq(v, vl, "off")) r->owner_words = false;
    else return false;
  } else if (eq(k, kl, "cc-one-label")) {
    if (eq(v, vl, "on")) r->cc_one_label = true;
    else if (eq(v, vl, "off")) r->cc_one_label = false;
    else return false;
  } else if (eq(k, kl, "sort")) {
    if (eq(v, vl, "auto")) r->sort_input = GR_SORT_AUTO;
    else if (eq(v, vl, "on")) r->sort_input = GR_SORT_ON;
    else if (eq(v, vl, "off")) r->sort_input = GR_SORT_OFF;
    else return false;
  } else {
    return false;
  }
  return true;
}

static bool ref_parse(gr_tuning *t, const char *text) {
  gr_tuning r = *t;
  const char *p = text;
  for (;;) {
    const char *c = strchr(p, ',');
    const size_t len = c ? (size_t)(c - p) : strlen(p);
    if (len && !ref_pair(&r, p, len)) return false;
    if (!c) break;
    p = c + 1;
  }
  *t = r;
  return true;
}

static bool same(const gr_tuning *a, const gr_tuning *b) {
  return a->advance == b->advance && a->pull == b->pull && a->small_loop == b->small_loop &&
         a->small_vertices == b->small_vertices && a->small_edges == b->small_edges &&
         a->small_degree == b->small_degree && a->visited_bitmap == b->visited_bitmap &&
         a->pull_light == b->pull_light && a->idempotent == b->idempotent && a->sort_input == b->sort_input &&
         a->relabel == b->relabel && a->hot == b->hot && a->hub == b->hub && a->long_rows == b->long_rows &&
         a->walk_stage == b->walk_stage && a->bc_log == b->bc_log &&
         a->sssp_heavy_once == b->sssp_heavy_once && a->sssp_tail == b->sssp_tail &&
         a->sssp_early == b->sssp_early && a->sssp_peers == b->sssp_peers && a->owner_words == b->owner_words &&
         a->cc_one_label == b->cc_one_label && a->pull_try == b->pull_try;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fz_string(data, size);
  if (!text) return 0;
  const gr_tuning init = GR_TUNING_INIT;
  gr_tuning got = init, want = init;
  const gr_status st = gr_tuning_parse(&got, text);
  /* The parser takes at most 511 bytes; longer strings are refused. */
  const bool ok = strlen(text) < 512 && ref_parse(&want, text);
  if (st == GR_SUCCESS) {
    FZ_ASSERT(ok, "--tune accepted \"%s\", which the grammar refuses", text);
    FZ_ASSERT(same(&got, &want), "--tune \"%s\" parsed to other values than the grammar's", text);
  } else {
    FZ_ASSERT(!ok, "--tune refused \"%s\", which the grammar accepts (%s)", text, gr_error_message());
    FZ_ASSERT(st == GR_ERR_INVALID_ARG, "--tune refused with %s", gr_status_name(st));
    FZ_ASSERT(!strncmp(gr_error_message(), "--tune", 6), "message without --tune: %s", gr_error_message());
    FZ_ASSERT(same(&got, &init), "a refused --tune \"%s\" changed the tuning", text);
  }
  free(text);
  return 0;
}
