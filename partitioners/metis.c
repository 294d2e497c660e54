/* SPDX-License-Identifier: Apache-2.0 */
/* METIS k-way partitioner, the only file that sees METIS: it hands METIS
 * the symmetrized graph without self-loops or duplicate arcs (built here in
 * gr's own types, so tests check it in every build), weighting each vertex
 * by its out-degree + 1 so that parts balance edges (the work). */
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "partition_internal.h"

static int gr__vid_cmp(const void *a, const void *b) {
  const gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

/* Sorts a short row in place: insertion sort below a few dozen entries,
 * where it beats qsort's call per comparison. */
static void gr__sort_vids(gr_vid *a, size_t n) {
  if (n > 32) {
    qsort(a, n, sizeof *a, gr__vid_cmp);
    return;
  }
  for (size_t i = 1; i < n; i++) {
    const gr_vid x = a[i];
    size_t j = i;
    for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
    a[j] = x;
  }
}

gr_status gr__symmetric_adjacency(gr_eid **offsets, gr_vid **adj, gr_graph *g, int threads) {
  gr_status st = GR_SUCCESS;
  gr_eid *roff = NULL, *off = NULL; /* candidate rows: out- and in-neighbours */
  gr_vid *radj = NULL, *res = NULL;
  const gr_csr *out = gr_graph_out(g);
  const gr_csr *in = NULL;
  const uint64_t n = out->n;
  *offsets = NULL;
  *adj = NULL;
  if (gr_graph_is_directed(g)) GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&roff, (n + 1) * sizeof *roff, "symmetric adjacency"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&off, (n + 1) * sizeof *off, "symmetric adjacency"), st, cleanup);
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t v = 0; v < n; v++)
    roff[v] = gr_csr_degree(out, (gr_vid)v) + (in ? gr_csr_degree(in, (gr_vid)v) : 0);
  roff[n] = gr_prefix_sum_u64(roff, n);
  GR_CHECK_GOTO(gr_host_alloc((void **)&radj, roff[n] * sizeof *radj, "symmetric adjacency"), st, cleanup);
  /* Each row: out- and in-neighbours, self-loops dropped, sorted, unique.
   * The unique count goes to off[v] for the prefix sum below. */
  GR__PART_OMP(parallel for schedule(dynamic, 256) num_threads(threads))
  for (uint64_t v = 0; v < n; v++) {
    gr_vid *row = radj + roff[v];
    size_t k = 0;
    for (int dir = 0; dir < 2; dir++) {
      const gr_csr *c = dir == 0 ? out : in;
      if (!c) continue;
      for (gr_eid e = c->offsets[v]; e < c->offsets[v + 1]; e++)
        if (c->indices[e] != (gr_vid)v) row[k++] = c->indices[e];
    }
    gr__sort_vids(row, k);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
      if (u == 0 || row[i] != row[u - 1]) row[u++] = row[i];
    off[v] = u;
  }
  off[n] = gr_prefix_sum_u64(off, n);
  GR_CHECK_GOTO(gr_host_alloc((void **)&res, off[n] * sizeof *res, "symmetric adjacency"), st, cleanup);
  GR__PART_OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t v = 0; v < n; v++)
    memcpy(res + off[v], radj + roff[v], (off[v + 1] - off[v]) * sizeof *res);
  *offsets = off;
  *adj = res;
  off = NULL;
  res = NULL;
cleanup:
  free(roff);
  free(radj);
  free(off);
  free(res);
  return st;
}

#ifndef GR_HAVE_METIS

gr_status gr__partition_metis(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  return gr_errorf(GR_ERR_UNSUPPORTED,
                   "gr was built without METIS; install libmetis-dev and reconfigure");
}

#else

#include <metis.h>

static const char *gr__metis_rc_name(int rc) {
  switch (rc) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY";
    case METIS_ERROR: return "METIS_ERROR";
    default: return "unknown";
  }
}

gr_status gr__partition_metis(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  gr_status st = GR_SUCCESS;
  gr_eid *soff = NULL;
  gr_vid *sadj = NULL;
  idx_t *xadj = NULL, *adjncy = NULL, *vwgt = NULL, *part = NULL;
  const gr_csr *out = gr_graph_out(g);
  const uint64_t n = out->n;
  const int threads = gr__part_threads(o->threads);
  if (n == 0) return GR_SUCCESS;
  if (o->parts == 1) {
    for (uint64_t v = 0; v < n; v++) owner[v] = 0;
    return GR_SUCCESS;
  }
  if (n > (uint64_t)IDX_MAX) {
    return gr_errorf(GR_ERR_TOO_LARGE,
                     "metis: %llu vertices exceed METIS's %d-bit index range (rebuild METIS with "
                     "IDXTYPEWIDTH=64)",
                     (unsigned long long)n, (int)(8 * sizeof(idx_t)));
  }
  /* Vertex weights sum to arcs + n inside METIS, in idx_t. */
  if (out->m > (uint64_t)IDX_MAX - n) {
    return gr_errorf(GR_ERR_TOO_LARGE,
                     "metis: %llu arcs exceed METIS's %d-bit index range for vertex weights "
                     "(rebuild METIS with IDXTYPEWIDTH=64)",
                     (unsigned long long)out->m, (int)(8 * sizeof(idx_t)));
  }
  GR_CHECK_GOTO(gr__symmetric_adjacency(&soff, &sadj, g, threads), st, cleanup);
  if (soff[n] > (uint64_t)IDX_MAX) {
    st = gr_errorf(GR_ERR_TOO_LARGE,
                   "metis: the symmetrized adjacency has %llu entries, beyond METIS's %d-bit index "
                   "range (rebuild METIS with IDXTYPEWIDTH=64)",
                   (unsigned long long)soff[n], (int)(8 * sizeof(idx_t)));
    goto cleanup;
  }
  GR_CHECK_GOTO(gr_host_alloc((void **)&xadj, (n + 1) * sizeof *xadj, "metis xadj"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&adjncy, soff[n] * sizeof *adjncy, "metis adjncy"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&vwgt, n * sizeof *vwgt, "metis vertex weights"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&part, n * sizeof *part, "metis parts"), st, cleanup);
  xadj[n] = (idx_t)soff[n];
  GR__PART_OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t v = 0; v < n; v++) {
    xadj[v] = (idx_t)soff[v];
    for (gr_eid e = soff[v]; e < soff[v + 1]; e++) adjncy[e] = (idx_t)sadj[e];
    vwgt[v] = (idx_t)gr_csr_degree(out, (gr_vid)v) + 1;
  }
  free(soff);
  free(sadj);
  soff = NULL;
  sadj = NULL;

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  /* METIS takes a non-negative idx_t seed; mixing keeps every bit of ours. */
  options[METIS_OPTION_SEED] = (idx_t)(gr_mix64(o->seed) >> 33);
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t nv = (idx_t)n, ncon = 1, nparts = (idx_t)o->parts, objval = 0;
  /* METIS wants a tolerance above 1; 1.001 is its smallest useful one. */
  real_t ubvec[1] = {(real_t)(o->imbalance < 1.001 ? 1.001 : o->imbalance)};
  const double t0 = gr_time_now();
  const int rc = METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, vwgt, NULL, NULL, &nparts, NULL,
                                     ubvec, options, &objval, part);
  if (rc != METIS_OK) {
    st = gr_errorf(GR_ERR_METIS, "METIS_PartGraphKway failed with %d (%s) on %llu vertices, %u parts",
                   rc, gr__metis_rc_name(rc), (unsigned long long)n, (unsigned)o->parts);
    goto cleanup;
  }
  gr_log(GR_LOG_INFO, GR_SUBSYS_PART, "metis: %d parts, cut %lld edges, %.3f s in METIS", o->parts,
         (long long)objval, gr_time_now() - t0);
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t v = 0; v < n; v++) owner[v] = (int32_t)part[v];
cleanup:
  free(soff);
  free(sadj);
  free(xadj);
  free(adjncy);
  free(vwgt);
  free(part);
  return st;
}

#endif
