/* SPDX-License-Identifier: Apache-2.0 */
/* Checking macros for CUDA runtime calls (host code only; include after the
 * CUDA runtime header). A failed call's sticky error is cleared so that the
 * next check reports its own. Launchers use GR_CUDA_CHECK_LAUNCH after a
 * kernel launch. */
#ifndef GR_CUDA_CHECK_H
#define GR_CUDA_CHECK_H

#include "gr/device.h"
#include "gr/status.h"

#define GR_CUDA_CHECK(call)                                                    \
  do {                                                                         \
    cudaError_t gr__e = (call);                                                \
    if (gr__e != cudaSuccess) {                                                \
      (void)cudaGetLastError();                                                \
      return gr_errorf(gr__e == cudaErrorMemoryAllocation ? GR_ERR_DEVICE_OOM  \
                                                          : GR_ERR_CUDA,       \
                       "%s:%d: %s: %s", __FILE__, __LINE__, #call,             \
                       cudaGetErrorString(gr__e));                             \
    }                                                                          \
  } while (0)

#define GR__CUDA_STR2(x) #x
#define GR__CUDA_STR(x) GR__CUDA_STR2(x)

/* Counts the launch on `dev` for the per-iteration timeline, lets the
 * launch fault hook fail it (gr__device_launch, GR_FAULT_LAUNCH), then
 * checks it. Library calls that launch kernels are counted and checked
 * with GR_CUDA_CHECK_LIB. */
#define GR_CUDA_CHECK_LAUNCH(dev)                                                   \
  do {                                                                             \
    GR_CHECK(gr__device_launch((dev), __func__, __FILE__ ":" GR__CUDA_STR(__LINE__))); \
    GR_CUDA_CHECK(cudaGetLastError());                                             \
  } while (0)
#define GR_CUDA_CHECK_LIB(dev, call)                                               \
  do {                                                                             \
    GR_CHECK(gr__device_launch((dev), __func__, __FILE__ ":" GR__CUDA_STR(__LINE__))); \
    GR_CUDA_CHECK(call);                                                           \
  } while (0)

/* In a .cu file, GR_CUDA_PRELOAD(name) defines
 *   extern "C" gr_status name(gr_device *dev);
 * which loads every kernel of that file on dev's GPU (gr_device_preload),
 * found through an empty kernel of its own: a primitive's operators are
 * template instances of that file, known to no list. */
#define GR_CUDA_PRELOAD(name)                                                  \
  __global__ void name##_anchor() {}                                           \
  extern "C" gr_status name(gr_device *dev) {                                  \
    return gr_device_preload(dev, (const void *)name##_anchor);                \
  }

#endif
