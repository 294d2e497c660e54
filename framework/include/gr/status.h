/* SPDX-License-Identifier: Apache-2.0 */
/* One status enum, made from a single table that also yields the names and
 * messages. 0 is success, negative an error, positive information. The detail
 * of the last error (what, where, which value) is kept per thread. */
#ifndef GR_STATUS_H
#define GR_STATUS_H

#include <stdarg.h>

#define GR_STATUS_TABLE(X)                                                    \
  X(GR_SUCCESS, 0, "success")                                                 \
  X(GR_ITERATION_LIMIT, 1, "iteration limit reached")                         \
  X(GR_ERR_INVALID_ARG, -1, "invalid argument")                               \
  X(GR_ERR_BAD_INPUT, -2, "bad input")                                        \
  X(GR_ERR_IO, -3, "input/output error")                                      \
  X(GR_ERR_HOST_OOM, -4, "out of host memory")                                \
  X(GR_ERR_DEVICE_OOM, -5, "out of device memory")                            \
  X(GR_ERR_CUDA, -6, "CUDA error")                                            \
  X(GR_ERR_NCCL, -7, "NCCL error")                                            \
  X(GR_ERR_METIS, -8, "METIS error")                                          \
  X(GR_ERR_PTHREAD, -9, "pthread error")                                      \
  X(GR_ERR_UNSUPPORTED, -10, "unsupported")                                   \
  X(GR_ERR_NO_DEVICE, -11, "no such device")                                  \
  X(GR_ERR_TOO_LARGE, -12, "too large")                                       \
  X(GR_ERR_VALIDATION, -13, "validation failed")                              \
  X(GR_ERR_ABORTED, -14, "stopped because another device failed")             \
  X(GR_ERR_INTERNAL, -15, "internal error")

typedef enum gr_status {
#define GR__STATUS_ENUM(name, value, text) name = value,
  GR_STATUS_TABLE(GR__STATUS_ENUM)
#undef GR__STATUS_ENUM
} gr_status;

#ifdef __cplusplus
extern "C" {
#endif

/* "GR_ERR_BAD_INPUT" */
const char *gr_status_name(gr_status s);
/* "bad input" */
const char *gr_status_string(gr_status s);

/* Records the detail of an error for the calling thread and returns s, so
 * that `return gr_errorf(GR_ERR_BAD_INPUT, "%s:%d: ...", ...)` reads well. */
gr_status gr_errorf(gr_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
gr_status gr_verrorf(gr_status s, const char *fmt, va_list ap);
/* Prepends context ("loading x.mtx: ") to the calling thread's last error. */
gr_status gr_error_prefix(gr_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The calling thread's last error detail, or "" when there is none. */
const char *gr_error_message(void);
gr_status gr_error_status(void);
void gr_error_clear(void);
/* Copies the calling thread's last error to another thread's view (used by
 * the enactor to carry a device thread's failure to the caller). */
void gr_error_restore(gr_status s, const char *message);

#ifdef __cplusplus
}
#endif

/* Checking macros: they only check and return or jump; one cleanup label per
 * function does the freeing. */
#define GR_CHECK(call)                                                        \
  do {                                                                        \
    gr_status gr__st = (call);                                                \
    if (gr__st < 0) return gr__st;                                            \
  } while (0)

#define GR_CHECK_GOTO(call, st, label)                                        \
  do {                                                                        \
    (st) = (call);                                                            \
    if ((st) < 0) goto label;                                                 \
  } while (0)

#endif
