/* SPDX-License-Identifier: Apache-2.0 */
/* The CPU backend's device: a share of the host's threads. */
#include <stdio.h>

#include "device/device_internal.h"
#include "gr/util.h"

gr_status gr__cpu_device_count(int *count) {
  *count = gr_host_threads();
  return GR_SUCCESS;
}

gr_status gr__cpu_device_init(gr_device *d, const gr_device_options *o) {
  int threads = o->cpu_threads;
  if (threads <= 0) {
    int per = o->devices_in_run > 0 ? o->devices_in_run : 1;
    threads = gr_host_threads() / per;
    if (threads < 1) threads = 1;
  }
  d->cpu_threads = threads;
  snprintf(d->name, sizeof d->name, "CPU device %d (%d thread%s)", d->ordinal, threads,
           threads == 1 ? "" : "s");
  return GR_SUCCESS;
}
