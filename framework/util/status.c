/* SPDX-License-Identifier: Apache-2.0 */
/* Status names and messages from the one table, and the per-thread detail of
 * the last error. */
#include <stdio.h>
#include <string.h>

#include "gr/status.h"

#define GR__ERROR_LEN 1024

static _Thread_local char gr__error_text[GR__ERROR_LEN];
static _Thread_local gr_status gr__error_code = GR_SUCCESS;

const char *gr_status_name(gr_status s) {
  switch (s) {
#define GR__STATUS_NAME(name, value, text) \
  case name:                               \
    return #name;
    GR_STATUS_TABLE(GR__STATUS_NAME)
#undef GR__STATUS_NAME
  }
  return "GR_UNKNOWN_STATUS";
}

const char *gr_status_string(gr_status s) {
  switch (s) {
#define GR__STATUS_TEXT(name, value, text) \
  case name:                               \
    return text;
    GR_STATUS_TABLE(GR__STATUS_TEXT)
#undef GR__STATUS_TEXT
  }
  return "unknown status";
}

gr_status gr_verrorf(gr_status s, const char *fmt, va_list ap) {
  vsnprintf(gr__error_text, sizeof gr__error_text, fmt, ap);
  gr__error_code = s;
  return s;
}

gr_status gr_errorf(gr_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gr_verrorf(s, fmt, ap);
  va_end(ap);
  return s;
}

gr_status gr_error_prefix(gr_status s, const char *fmt, ...) {
  char prefix[GR__ERROR_LEN];
  char old[GR__ERROR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, gr__error_text, sizeof old);
  if (old[0] == '\0') snprintf(old, sizeof old, "%s", gr_status_string(s));
  /* Concatenate by hand: whatever does not fit is cut from the end. */
  size_t p = strlen(prefix), o = strlen(old);
  if (p > GR__ERROR_LEN - 1) p = GR__ERROR_LEN - 1;
  if (o > GR__ERROR_LEN - 1 - p) o = GR__ERROR_LEN - 1 - p;
  memcpy(gr__error_text, prefix, p);
  memcpy(gr__error_text + p, old, o);
  gr__error_text[p + o] = '\0';
  gr__error_code = s;
  return s;
}

const char *gr_error_message(void) { return gr__error_text; }
gr_status gr_error_status(void) { return gr__error_code; }

void gr_error_clear(void) {
  gr__error_text[0] = '\0';
  gr__error_code = GR_SUCCESS;
}

void gr_error_restore(gr_status s, const char *message) {
  snprintf(gr__error_text, sizeof gr__error_text, "%s", message ? message : "");
  gr__error_code = s;
}
