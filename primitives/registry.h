/* SPDX-License-Identifier: Apache-2.0 */
/* The primitives gr knows, by name. */
#ifndef GR_REGISTRY_H
#define GR_REGISTRY_H

#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NULL when no primitive has that name. */
const gr_primitive *gr_primitive_find(const char *name);
/* NULL-terminated list. */
const gr_primitive *const *gr_primitive_list(void);

#ifdef __cplusplus
}
#endif

#endif
