/* SPDX-License-Identifier: Apache-2.0 */
/* Host result arrays in global ids. */
#include <stdlib.h>
#include <string.h>

#include "gr/primitive.h"
#include "gr/util.h"

static size_t gr__value_size(gr_value_type t) {
  switch (t) {
    case GR_VALUE_SVID:
      return sizeof(gr_svid);
    case GR_VALUE_FLOAT:
      return sizeof(float);
    case GR_VALUE_DOUBLE:
      return sizeof(double);
  }
  return sizeof(double);
}

gr_status gr_result_alloc(gr_result *r, gr_vid n, gr_value_type type, bool preds) {
  gr_result z = GR_RESULT_INIT;
  *r = z;
  r->n = n;
  r->type = type;
  GR_CHECK(gr_host_alloc(&r->values, (size_t)n * gr__value_size(type), "results"));
  /* Unwritten entries read as "unreached" (-1) rather than garbage. */
  memset(r->values, 0xff, (size_t)n * gr__value_size(type));
  if (preds) {
    gr_status st = gr_host_alloc((void **)&r->preds, (size_t)n * sizeof(gr_svid), "predecessors");
    if (st < 0) {
      gr_result_free(r);
      return st;
    }
    memset(r->preds, 0xff, (size_t)n * sizeof(gr_svid));
  }
  return GR_SUCCESS;
}

void gr_result_free(gr_result *r) {
  free(r->values);
  free(r->preds);
  r->values = NULL;
  r->preds = NULL;
  r->n = 0;
}
