/* SPDX-License-Identifier: Apache-2.0 */
/* 2D and 3D grids: vertex (x, y, z) of an X x Y x Z grid is (x*Y + y)*Z + z
 * (a ROWS x COLS grid is 1 x ROWS x COLS), with one edge to the next vertex
 * along each axis. Deterministic; edges are numbered so that any thread can
 * write any range of them. */
#include "gen_internal.h"

/* Edges a thread writes between two decodings of an edge index. */
#define GR__GEN_GRID_CHUNK 65536u

/* The edges along one axis: one per vertex of the box bx x by x bz (the grid
 * less its last layer across the axis), from v to v + step. */
typedef struct gr__grid_axis {
  uint64_t bx, by, bz;
  uint64_t step;
  uint64_t first; /* index of its first edge */
} gr__grid_axis;

static void gr__grid_axis_fill(gr_vid *src, gr_vid *dst, const gr__grid_axis *ax,
                               uint64_t ny, uint64_t nz, int threads) {
  const uint64_t count = ax->bx * ax->by * ax->bz;
  const uint64_t chunks = (count + GR__GEN_GRID_CHUNK - 1) / GR__GEN_GRID_CHUNK;
#ifdef GR_HAVE_OPENMP
#pragma omp parallel for schedule(static) num_threads(gr__gen_team(threads)) if (chunks > 1)
#endif
  for (uint64_t ch = 0; ch < chunks; ch++) {
    const uint64_t lo = ch * GR__GEN_GRID_CHUNK;
    const uint64_t hi = lo + GR__GEN_GRID_CHUNK < count ? lo + GR__GEN_GRID_CHUNK : count;
    uint64_t z = lo % ax->bz, y = (lo / ax->bz) % ax->by, x = lo / ax->bz / ax->by;
    uint64_t v = (x * ny + y) * nz + z;
    for (uint64_t i = lo; i < hi; i++) {
      src[ax->first + i] = (gr_vid)v;
      dst[ax->first + i] = (gr_vid)(v + ax->step);
      if (++z < ax->bz) {
        v++;
        continue;
      }
      z = 0;
      if (++y == ax->by) {
        y = 0;
        x++;
      }
      v = (x * ny + y) * nz;
    }
  }
}

void gr__gen_grid(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec, int threads) {
  const bool three = spec->kind == GR_GEN_GRID3D;
  const uint64_t nx = three ? spec->dims[0] : 1;
  const uint64_t ny = three ? spec->dims[1] : spec->dims[0];
  const uint64_t nz = three ? spec->dims[2] : spec->dims[1];
  /* Right (z), then down (y), then across layers (x). */
  gr__grid_axis axes[3] = {{nx, ny, nz - 1, 1, 0},
                           {nx, ny - 1, nz, nz, 0},
                           {nx - 1, ny, nz, ny * nz, 0}};
  uint64_t first = 0;
  for (int a = 0; a < 3; a++) {
    axes[a].first = first;
    first += axes[a].bx * axes[a].by * axes[a].bz;
    if (axes[a].bx && axes[a].by && axes[a].bz)
      gr__grid_axis_fill(src, dst, &axes[a], ny, nz, threads);
  }
}
