/* SPDX-License-Identifier: Apache-2.0 */
/* The logging module: reads GR_DEBUG and GR_DEBUG_SUBSYS once, writes to
 * stderr one whole line at a time so device threads do not interleave. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gr/log.h"

static gr_log_level gr__level = GR_LOG_NONE;
static unsigned gr__subsys = GR_SUBSYS_ALL;
static pthread_once_t gr__once = PTHREAD_ONCE_INIT;

static const struct {
  const char *name;
  unsigned bit;
} gr__subsys_names[] = {{"INIT", GR_SUBSYS_INIT},   {"GRAPH", GR_SUBSYS_GRAPH},
                        {"PART", GR_SUBSYS_PART},   {"COMM", GR_SUBSYS_COMM},
                        {"PRIM", GR_SUBSYS_PRIM},   {"ALLOC", GR_SUBSYS_ALLOC},
                        {"ALL", GR_SUBSYS_ALL}};

static void gr__log_init(void) {
  const char *lv = getenv("GR_DEBUG");
  if (lv) {
    if (!strcasecmp(lv, "WARN")) gr__level = GR_LOG_WARN;
    else if (!strcasecmp(lv, "INFO")) gr__level = GR_LOG_INFO;
    else if (!strcasecmp(lv, "TRACE")) gr__level = GR_LOG_TRACE;
    else fprintf(stderr, "gr: warning: GR_DEBUG=%s is not WARN, INFO or TRACE\n", lv);
  }
  const char *ss = getenv("GR_DEBUG_SUBSYS");
  if (ss && *ss) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", ss);
    gr__subsys = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      unsigned bit = 0;
      for (size_t i = 0; i < sizeof gr__subsys_names / sizeof gr__subsys_names[0]; i++)
        if (!strcasecmp(tok, gr__subsys_names[i].name)) bit = gr__subsys_names[i].bit;
      if (!bit) fprintf(stderr, "gr: warning: GR_DEBUG_SUBSYS names unknown subsystem %s\n", tok);
      gr__subsys |= bit;
    }
  }
}

bool gr_log_enabled(gr_log_level level, unsigned subsys) {
  pthread_once(&gr__once, gr__log_init);
  return level != GR_LOG_NONE && level <= gr__level && (subsys & gr__subsys);
}

void gr_log(gr_log_level level, unsigned subsys, const char *fmt, ...) {
  if (!gr_log_enabled(level, subsys)) return;
  static const char *names[] = {"", "WARN", "INFO", "TRACE"};
  char line[1024];
  int k = snprintf(line, sizeof line, "gr %s: ", names[level]);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", line);
}
