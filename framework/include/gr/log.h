/* SPDX-License-Identifier: Apache-2.0 */
/* One logging module. GR_DEBUG=WARN|INFO|TRACE sets the level and
 * GR_DEBUG_SUBSYS=INIT,GRAPH,PART,COMM,PRIM,ALLOC (or ALL) the subsystems;
 * these are the only environment variables gr reads besides the documented
 * fault-injection hook. */
#ifndef GR_LOG_H
#define GR_LOG_H

#include <stdbool.h>

typedef enum gr_log_level {
  GR_LOG_NONE = 0,
  GR_LOG_WARN = 1,
  GR_LOG_INFO = 2,
  GR_LOG_TRACE = 3
} gr_log_level;

enum {
  GR_SUBSYS_INIT = 1u << 0,
  GR_SUBSYS_GRAPH = 1u << 1,
  GR_SUBSYS_PART = 1u << 2,
  GR_SUBSYS_COMM = 1u << 3,
  GR_SUBSYS_PRIM = 1u << 4,
  GR_SUBSYS_ALLOC = 1u << 5,
  GR_SUBSYS_ALL = 0xffffffffu
};

#ifdef __cplusplus
extern "C" {
#endif

bool gr_log_enabled(gr_log_level level, unsigned subsys);
void gr_log(gr_log_level level, unsigned subsys, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif
