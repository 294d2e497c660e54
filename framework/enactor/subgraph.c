/* SPDX-License-Identifier: Apache-2.0 */
/* The one-device "partition": the whole graph, arrays aliased. */
#include <stdlib.h>

#include "gr/subgraph.h"
#include "gr/util.h"

gr_status gr_subgraph_whole(gr_subgraph **out, gr_graph *g, bool needs_in, bool needs_weights) {
  *out = NULL;
  gr_subgraph *s = NULL;
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "subgraph"));
  s->part = 0;
  s->n_parts = 1;
  s->proxy = GR_PROXY_ALL;
  s->n_global = s->n_local = s->n_owned = gr_graph_num_vertices(g);
  s->out = *gr_graph_out(g);
  if (!needs_weights) s->out.weights = NULL;
  if (needs_in) {
    const gr_csr *in = NULL;
    gr_status st = gr_graph_in(g, &in);
    if (st < 0) {
      free(s);
      return st;
    }
    s->in = *in;
    if (!needs_weights) s->in.weights = NULL;
  }
  s->owns_arrays = false;
  *out = s;
  return GR_SUCCESS;
}

void gr_subgraph_destroy(gr_subgraph **sp) {
  if (!sp || !*sp) return;
  gr_subgraph *s = *sp;
  if (s->owns_arrays) {
    /* An undirected graph's in-edges may be its out-edges (aliased). */
    if (s->in.offsets != s->out.offsets) free(s->in.offsets);
    if (s->in.indices != s->out.indices) free(s->in.indices);
    if (s->in.weights != s->out.weights) free(s->in.weights);
    free(s->out.offsets);
    free(s->out.indices);
    free(s->out.weights);
  }
  free(s->local_to_global);
  free(s->global_to_local);
  free(s->owner);
  free(s->owner_local);
  free(s->peer_begin);
  free(s);
  *sp = NULL;
}
