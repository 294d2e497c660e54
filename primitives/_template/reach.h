/* SPDX-License-Identifier: Apache-2.0 */
/* Reach: from one source, 1 for every vertex reachable along out-edges and
 * -1 for the rest. The smallest complete primitive, kept as the template:
 * to add a primitive <p>, copy this folder to primitives/<p>/, rename
 * reach/REACH, and follow this recipe.
 *
 * Files
 *   <p>.h            the kernel context (device pointers and scalars, copied
 *                    into kernels) and the per-element GR_HD functions: the
 *                    whole algorithm, built by the C compiler and by nvcc,
 *                    atomics only from gr/atomic.h; the ops table type.
 *   <p>_cpu.c        GR_CPU_ADVANCE_PUSH / _PULL, GR_CPU_FILTER,
 *                    GR_CPU_FOR_EACH (gr/operators_cpu.h) around those
 *                    functions; fills gr__<p>_ops_cpu.
 *   <p>_cuda.cu      functors calling the same functions, passed to
 *                    gr_cuda::advance_push etc.
 *                    (framework/operators/cuda/operators.cuh); fills
 *                    extern "C" gr__<p>_ops_cuda, and ends with
 *                    GR_CUDA_PRELOAD(gr__<p>_cuda_preload), the spec's
 *                    preload in a CUDA build: the file's kernels load
 *                    before the first run instead of inside it.
 *   <p>.c            the gr_primitive spec, per-device state (gr_buffer)
 *                    and the life cycle: reset (gr_part_seed: the
 *                    source's value wherever it is held, the first frontier
 *                    only on the device owning it); iterate,
 *                    written once with the ops table picked by
 *                    gr_device_backend, reserving it->out for all the
 *                    operator may emit (operators refuse to overflow);
 *                    payload, the device arrays that travel with a frontier
 *                    vertex between devices (values[0] is what combine
 *                    applies to); extract, owned vertices at global ids
 *                    (gr_part_gather_svid).
 *   <p>_reference.c  a serial reference on the host graph (gr_graph_out),
 *                    a validator accepting every correct answer (asking the
 *                    reference only what invariants cannot tell, such as the
 *                    reached set), and traversed_edges for TEPS.
 *
 * Spec (gr_primitive, gr/primitive.h)
 *   proxy, comm      default proxies and exchange; gr_run --proxy and
 *                    --comm override them.
 *   n_value_assoc    value arrays payload() names (at least 1);
 *   n_vertex_assoc   vertex-id arrays (at most; 0 under SUM and OR; > 0
 *                    gives results a preds array with --mark-pred).
 *   combine          how an arriving value meets the local one; an owned
 *                    vertex it changes joins the next frontier.
 *   value_type, needs_source, needs_in_edges (CSC, for pulls),
 *   needs_weights, reads_packed_lists (true when the kernels read lists
 *   only through the framework's operators: --compress packed then
 *   works), skips_global_ids (set only where nothing on the device reads
 *   gr_part.local_to_global, which then stays NULL under 1-hop proxies,
 *   as PageRank and BC do; reach leaves it unset, the safe default),
 *   skips_in_edges (set only where the iterate never reads
 *   gr_iter.in_edges, in_max_degree or global_in_edges: the exchange then
 *   sums no out-degrees of the next frontier, as for SSSP, CC and
 *   PageRank; reach leaves it unset, the safe default),
 *   state_bytes_per_vertex (what a run holds per local vertex
 *   beside the graph, one device and several: --graph-memory auto counts
 *   it; measure the peak with the lists in host memory, as
 *   docs/architecture.md's Placement says), and the functions init, release, reset, iterate,
 *   converged (NULL: stop when every frontier is empty), payload (NULL: one
 *   device only), extract, prepare (optional, host: checks the input and
 *   fills options from the whole graph), reference, validate,
 *   traversed_edges, finish (optional, host: figures of the whole answer
 *   after every device's extract). An iterate that holds work back for
 *   later sets gr_iter.pending (primitives/sssp/ does).
 *
 * An all-vertex primitive (no source; every vertex works every round, as
 * primitives/cc/ and primitives/pr/ do) fills in, beyond the above:
 *   needs_source     false; gr_run passes no source and prints none.
 *   reset            starts from no frontier (first->size = 0) and leaves
 *                    the per-vertex set-up to the first iterate, so that it
 *                    is timed.
 *   iterate          works over every local vertex: the for-each operator
 *                    (in = NULL) and the filter over every id (in = NULL)
 *                    need no list of all vertices. It tells owned vertices
 *                    from proxies with gr_part_owners (1-hop: a range;
 *                    duplicate-all: a device owner table). Its output
 *                    frontier is only what must travel (cc: proxies whose
 *                    label fell; pr: the vertices whose values peers need).
 *   converged,       a run that does not end when the frontiers empty (pr)
 *   pending          reports work pending while it goes on, and a global
 *                    measure decides the stop: gr_part_sum_double sums
 *                    doubles over the devices in device order, so every
 *                    device takes the same decision (gr_part_sum and
 *                    gr_part_min for integers); converged returns it. Every
 *                    device calls these the same number of times.
 *   combine          SUM adds into the receiver's slot: a proxy slot zeroed
 *                    before the exchange receives a copy (pr's pull).
 *   finish           figures that need the whole answer (cc: components,
 *                    the largest one) into r->extra; results whose values
 *                    are vertex ids set r->values_are_ids, and --out writes
 *                    them as input ids.
 *   options          read from gr_prim_options (pr: tolerance,
 *                    max_iterations, direction); prepare checks them and
 *                    fills defaults that the enactor must see (pr: the
 *                    iteration limit).
 *
 * A primitive that sums over several sources in one run (as primitives/bc/
 * does) sets accumulates_sources (gr_run then takes --sources and
 * --normalize), reads the list from gr_run_args.sources (NULL: the one
 * source), keeps it from reset and starts the next source from iterate
 * (the owner puts it into it->out). A primitive that works in passes (bc:
 * forward, then backward over stored levels) decides each turn from global
 * figures (gr_iter.global_in, gr_part_sum) so every device turns alike, and
 * reports pending work while a pass moves no frontier. Per-vertex figures
 * beside the values (bc: depths and path counts, which the validator
 * checks) are named in the spec's aux; extract fills r->aux_values[k] at
 * the owned vertices (gr_part_gather_*).
 *
 * Registration
 *   primitives/registry.c      &gr_<p>_primitive in the list: gr_run
 *                              --primitive <p> finds it there.
 *   primitives/CMakeLists.txt  <p>.c <p>_cpu.c <p>_reference.c in
 *                              gr_primitives; <p>_cuda.cu only inside
 *                              if(GR_HAVE_CUDA).
 *
 * Tests
 *   tests/unit/primitives/test_<p>.c (gr_add_unit_test, LIBS gr_primitives
 *     gr_comm gr_partitioners), as test_reach.c: the validator rejects wrong
 *     answers; one CPU device equals the reference on gr_gen_graph graphs;
 *     2, 3 and 4 CPU devices equal one device under every partitioner,
 *     proxy and comm mode.
 *   tests/e2e: gr_run --primitive <p> --validate, on one device
 *     (test_gr_run.c) and in the multi-device matrix (test_gr_run_multi.c).
 *   tests/gpu: the CUDA run against the CPU one on the same inputs (exit 77
 *     skips where there is no GPU). */
#ifndef GR_REACH_H
#define GR_REACH_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernels see. */
typedef struct gr_reach_ctx {
  gr_svid *reached; /* per local vertex: 1 reached, -1 not yet */
} gr_reach_ctx;

/* Push: the first visitor of dst claims it (compare-and-swap), so each
 * vertex enters the next frontier exactly once. The plain load first skips
 * the atomic for vertices already reached, the common case late in a run. */
GR_HD bool gr_reach_visit(const gr_reach_ctx *c, gr_vid src, gr_vid dst, gr_eid e) {
  (void)src;
  (void)e;
  if (gr_load_relaxed_svid(&c->reached[dst]) > 0) return false;
  return gr_atomic_cas_svid(&c->reached[dst], -1, 1);
}

/* The operator instantiations of one backend. */
typedef struct gr_reach_ops {
  gr_status (*push)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_reach_ctx *);
} gr_reach_ops;

extern const gr_reach_ops gr__reach_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_reach_ops gr__reach_ops_cuda;
/* Loads reach_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__reach_cuda_preload(gr_device *dev);
#endif
const gr_reach_ops *gr__reach_ops(const gr_device *dev);

extern const gr_primitive gr_reach_primitive;

/* Plain serial reference: a breadth-first walk from the source. */
gr_status gr_reach_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                             gr_result *ref);
/* Every value is 1 or -1, the source is 1, the reached set equals the
 * reference's (when one is given) and no out-edge leads from a reached
 * vertex to an unreached one. */
gr_status gr_reach_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                            const gr_result *r, const gr_result *ref);
/* Graph500 TEPS count: input edges with a reached endpoint. */
gr_eid gr_reach_traversed_edges(gr_graph *g, const gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
