/* SPDX-License-Identifier: Apache-2.0 */
/* The subgraph builder: from a partition, one gr_subgraph per part with its
 * owned vertices' out-edges (and in-edges), its proxies and id maps. */
#ifndef GR_SUBGRAPH_BUILDER_H
#define GR_SUBGRAPH_BUILDER_H

#include <stdbool.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "gr/subgraph.h"
#include "partitioner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One gr_subgraph per part (array of p->parts pointers, free with
 * gr_subgraphs_destroy). Every arc lands in the CSR of the part owning its
 * source; needs_in: also build each part's CSC (in-edges of its owned
 * vertices), where every arc lands in the part owning its destination.
 * GR_PROXY_ALL keeps global ids (rows of non-owned vertices empty);
 * GR_PROXY_1HOP renumbers: owned vertices first (ascending global id), then
 * the remote neighbours grouped by owner (peer_begin). needs_weights: the
 * parts keep the arcs' weights (where the graph has them), else none. */
gr_status gr_subgraphs_build(gr_subgraph ***out, gr_graph *g, const gr_partition *p,
                             gr_proxy_mode proxy, bool needs_in, bool needs_weights);
/* As gr_subgraphs_build, but each part's lists (ids and weights, CSR and
 * CSC) stay in the graph, which must outlive the parts: only their offsets
 * (and under 1-hop proxies the id maps) are built, and the upload gathers
 * the lists from the graph's rows into its staging buffers, converting
 * 1-hop ids on the way (gr_subgraph_fill_lists): one host copy where the
 * part's arrays and their upload take two, with no host memory of their
 * own. gr_subgraph_materialize builds them where the host's are read. An
 * undirected graph missing reverse arcs is then refused at the upload. */
gr_status gr_subgraphs_build_lazy(gr_subgraph ***out, gr_graph *g, const gr_partition *p, gr_proxy_mode proxy,
                                  bool needs_in, bool needs_weights);
/* Frees the subgraphs and the array, sets *subs to NULL; accepts NULL. */
void gr_subgraphs_destroy(gr_subgraph ***subs, int parts);

#ifdef __cplusplus
}
#endif

#endif
