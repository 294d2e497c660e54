/* SPDX-License-Identifier: Apache-2.0 */
/* What the graph module's files share and nothing outside framework/ sees:
 * the gr_graph layout, whole-file input, chunked parallel parsing, progress
 * output, the CSR builder, weights, the binary format and the load cache. */
#ifndef GR_GRAPH_INTERNAL_H
#define GR_GRAPH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "gr/types.h"

/* OpenMP pragmas through a macro, so that a build without OpenMP neither
 * warns about unknown pragmas nor needs #ifdefs around every loop. */
#define GR__PRAGMA(x) _Pragma(#x)
#ifdef GR_HAVE_OPENMP
#define GR__OMP(x) GR__PRAGMA(omp x)
#else
#define GR__OMP(x)
#endif

#ifdef GR_HAVE_OPENMP
#include <omp.h>
static inline int gr__thread_id(void) { return omp_get_thread_num(); }
#else
static inline int gr__thread_id(void) { return 0; }
#endif

struct gr_graph {
  gr_csr out;
  gr_csr in;           /* directed graphs only, built on first use */
  bool directed;
  bool in_built;
  gr_eid self_loops;   /* self-loop arcs stored in out */
  int id_base;
  uint64_t *orig_ids;  /* n ascending original ids, or NULL */
  char *name;
  bool from_cache;
  double load_seconds;
  int threads;         /* as loaded; used to build the CSC later */
  void *map;           /* binary file the arrays may live in (mmap) */
  size_t map_bytes;
  int refs;            /* the handle's and each problem's (gr__graph_hold); atomic */
  /* The out-arcs' weight summary, once known (gr_graph_weight_summary;
   * generated weights bring theirs). */
  bool wsum_known;
  gr_weight_summary wsum;
};

/* Start of part k of `parts` equal parts of [0, total), without the
 * overflow of total * k. */
static inline uint64_t gr__part(uint64_t total, uint64_t k, uint64_t parts) {
  return total / parts * k + total % parts * k / parts;
}

/* --- graph.c --------------------------------------------------------------- */
/* Threads for a parallel loop: options->threads when positive, else all. */
int gr__threads(const gr_load_options *o);
gr_status gr__graph_alloc(gr_graph **out);
/* Replaces the name gr_graph_name reports (generators: "kron:22:16"). */
gr_status gr__graph_set_name(gr_graph *g, const char *name);
/* Frees an array unless it lives inside the graph's file mapping. */
void gr__graph_free_array(const gr_graph *g, void *p);
/* GR_ERR_TOO_LARGE for n vertices beyond GR_MAX_VERTICES, saying how to
 * rebuild for more; `what` says where ("karate.mtx:3", "edge list"). */
gr_status gr__vertex_limit_error(const char *what, uint64_t n);
/* The last path component: "karate.mtx" for "/data/karate.mtx". */
const char *gr__basename(const char *path);

/* --- progress.c ------------------------------------------------------------ */
typedef struct gr__progress {
  bool on;       /* allowed to print at all */
  bool shown;    /* something was printed: finish the line */
  int last;      /* last percentage printed */
  double t0;
  char label[160];
} gr__progress;
/* mode as gr_load_options.progress: 1 always, 0 when stderr is a terminal,
 * -1 never. Nothing is printed during the first second. */
void gr__progress_start(gr__progress *p, const char *label, int mode);
void gr__progress_update(gr__progress *p, double fraction);
void gr__progress_end(gr__progress *p);

/* --- file_input.c ---------------------------------------------------------- */
/* What the cache compares to decide whether its input changed. */
typedef struct gr__file_id {
  uint64_t size;
  int64_t mtime_sec;
  int64_t mtime_nsec;
} gr__file_id;
/* GR_ERR_IO "cannot open PATH: <strerror>" or "PATH is a directory". */
gr_status gr__file_identity(gr__file_id *out, const char *path);
/* Opens an input file read-only and stats it, with the same errors; on
 * failure nothing stays open. */
gr_status gr__open_input(const char *path, int *fd, struct stat *s);

/* A whole input file in memory: mapped when plain, inflated when gzip. */
typedef struct gr__text {
  const char *data;
  size_t len;
  void *map;
  size_t map_bytes;
  char *heap;
  gr__file_id id;
} gr__text;
#define GR__TEXT_INIT {NULL, 0, NULL, 0, NULL, {0, 0, 0}}
/* Reads (and decompresses) a whole file. Progress goes from lo to hi. */
gr_status gr__text_read(gr__text *t, const char *path, gr__progress *p, double lo,
                        double hi);
/* The same from bytes in memory: gzip data is inflated into t->heap, plain
 * data is used in place (it must outlive t). `name` stands for the path in
 * messages. */
gr_status gr__text_from_memory(gr__text *t, const void *data, size_t len, const char *name);
void gr__text_free(gr__text *t);

/* --- text_chunks.c --------------------------------------------------------- */
/* A text body split at line boundaries into chunks parsed in parallel. The
 * split and the counts never depend on the thread count, so neither do the
 * results or the error reported (always the first in file order). */
typedef struct gr__chunks {
  size_t count;
  size_t *begin;        /* byte offsets into the body; chunk c is */
  size_t *end;          /* [begin[c], end[c]) */
  uint64_t *first_line; /* file line number of each chunk's first line */
  uint64_t *first_entry;/* entries in the chunks before (prefix sum) */
  uint64_t *entries;    /* data lines in each chunk */
  uint64_t total_entries;
  uint64_t total_lines; /* lines in the body */
} gr__chunks;
#define GR__CHUNKS_INIT {0, NULL, NULL, NULL, NULL, NULL, 0, 0}
/* Splits body[0, len) and counts its data lines: lines that are neither
 * blank nor start (after blanks) with one of `comment`. first_line is the
 * file line number of body[0]. */
gr_status gr__chunks_split(gr__chunks *c, const char *body, size_t len, const char *comment,
                           uint64_t first_line, int threads);
void gr__chunks_free(gr__chunks *c);
/* Sets the smallest chunk (0: the default, 256 KiB). For tests and fuzz
 * targets only, before any parse: results must not depend on it. */
void gr__chunks_set_min(size_t bytes);
/* Whether [p, eol) is a data line under the rules above. */
bool gr__is_data_line(const char *p, const char *eol, const char *comment);

/* A parse error found inside a parallel region, reported afterwards by the
 * calling thread (error details are per thread). */
typedef struct gr__chunk_error {
  gr_status status;
  uint64_t line;
  char message[224];
} gr__chunk_error;
/* Reports the first error in chunk order as "PATH:LINE: message". */
gr_status gr__chunk_errors_report(const gr__chunk_error *e, size_t count, const char *path);

/* Token scanning shared by the readers. Tokens end at blanks, commas and
 * the end of the line. */
static inline bool gr__is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }
static inline bool gr__token_end(char ch) { return gr__is_blank(ch) || ch == ',' || ch == '\n'; }
/* Parses an unsigned decimal token; 0 on success, 1 not a number, 2 too
 * large for 64 bits, 3 negative. *next is the first byte after the token.
 * Inline: it runs twice per edge. */
static inline int gr__scan_u64(const char *p, const char *eol, uint64_t *out, const char **next) {
  const char *q = p;
  uint64_t v = 0;
  int code = 0;
  for (; q < eol; q++) {
    const unsigned d = (unsigned)(unsigned char)*q - (unsigned)'0';
    if (d > 9) break;
    /* UINT64_MAX is 18446744073709551615. */
    if (v > 1844674407370955161ull || (v == 1844674407370955161ull && d > 5)) code = 2;
    v = v * 10 + d;
  }
  if (q == p || (q < eol && !gr__token_end(*q))) {
    code = (q == p && *p == '-' && p + 1 < eol && p[1] >= '0' && p[1] <= '9') ? 3 : 1;
    while (q < eol && !gr__token_end(*q)) q++;
  }
  *next = q;
  *out = v;
  return code;
}
/* Parses a finite real (or integer when `integer`) token. Same codes: 1 not
 * a number (or not an integer), 2 out of range. */
int gr__scan_value(const char *p, const char *eol, bool integer, double *out, const char **next);
/* The token at p, quoted for an error message (cut at 40 bytes). */
void gr__token_text(char *buf, size_t len, const char *p, const char *eol);

/* --- mtx_reader.c / edgelist_reader.c -------------------------------------- */
/* Parse a whole text into *out. want_weights false skips storing values. */
gr_status gr__mtx_parse(gr_coo *out, const char *path, const char *data, size_t len,
                        bool want_weights, int threads, gr__progress *p);
gr_status gr__edgelist_parse(gr_coo *out, const char *path, const char *data, size_t len,
                             bool want_weights, int threads, gr__progress *p);
/* Whether a text starts with a Matrix Market banner. */
bool gr__looks_like_mtx(const char *data, size_t len);

/* --- csr_build.c ----------------------------------------------------------- */
/* GR_ERR_HOST_OOM (naming `what` and the bytes needed) when an edge list of
 * coo_entries plus the CSR of n vertices and `arcs` arcs would not fit in
 * the host's memory. Sizes that overflow 64 bits count as not fitting. */
gr_status gr__check_host_memory(const char *what, uint64_t n, uint64_t coo_entries,
                                uint64_t arcs, bool weights);
/* Builds the CSR from the COO and frees the COO's arrays (orig_ids stay).
 * undirected: every entry stands for both directions (a self-loop once). */
gr_status gr__csr_build(gr_csr *out, gr_eid *self_loops, gr_coo *coo, bool undirected,
                        bool drop_loops, bool drop_dups, int threads);
/* The transpose (CSC) of a CSR, rows sorted. */
gr_status gr__csr_transpose(gr_csr *out, const gr_csr *in, int threads);
/* Sorts one row by (neighbour, weight); w may be NULL. */
void gr__sort_row(gr_vid *v, gr_weight *w, size_t n);
/* Turns a CSR back into an edge list: one entry per arc, or with `lower`
 * only the arcs u -> v with v <= u (one entry per undirected edge). */
gr_status gr__csr_to_coo(gr_coo *out, const gr_csr *c, bool lower, int threads);

/* --- weights.c ------------------------------------------------------------- */
/* Random weights for every arc of c: the same for (seed, {u, v}) on any
 * thread count and on both directions of an edge; *summary is theirs
 * (gr_graph_weight_summary), summed as they are drawn. */
gr_status gr__weights_generate(gr_weight **out, gr_weight_summary *summary, const gr_csr *c,
                               const gr_weight_spec *spec, uint64_t seed, int threads);
/* A canonical text of a weight spec for cache keys and logs. */
void gr__weight_spec_format(char *buf, size_t len, const gr_weight_spec *spec);

/* --- binary_format.c ------------------------------------------------------- */
#define GR__BINARY_VERSION 1u
/* Writes the graph atomically (temporary file then rename). input and key
 * record what the file caches; NULL and 0 for a plain save. */
gr_status gr__binary_write(const gr_graph *g, const char *path, const gr__file_id *input,
                           uint64_t key);
/* Maps a binary file and checks it. With `input`, a file recorded for
 * another input identity or key is GR_ERR_BAD_INPUT with *stale set, before
 * its checksum is read. */
gr_status gr__binary_map(gr_graph **out, const char *path, const gr__file_id *input,
                         uint64_t key, int threads, bool *stale);
/* The same checks on a mapping the caller made (mmap) of `size` bytes,
 * which the graph then owns: it is unmapped on failure or with the graph.
 * `path` names it in messages. */
gr_status gr__binary_adopt(gr_graph **out, void *map, size_t size, const char *path,
                           const gr__file_id *input, uint64_t key, int threads, bool *stale);
/* Recomputes the checksums of a binary file image in memory (every array
 * that lies inside it, then the header's), so that tests and fuzz targets
 * reach the checks behind them with contents of their choosing. */
gr_status gr__binary_seal(void *file, size_t size);
/* Whether the first bytes are the binary format's magic. */
bool gr__looks_like_binary(const char *data, size_t len);

/* Applies load options to a graph read from a binary file (graph.c): an
 * undirected view, removals or other weights rebuild it or replace its
 * weights. On failure *g is destroyed or left for the caller to destroy. */
gr_status gr__binary_apply_options(gr_graph **g, const gr_load_options *o);

/* --- cache.c --------------------------------------------------------------- */
/* Looks for a fresh cache of `path` under the options; *out stays NULL on a
 * miss (a stale or corrupt cache is logged and removed). *cache_path (to
 * free) is where a rebuilt graph should be stored, NULL when not caching. */
gr_status gr__cache_lookup(gr_graph **out, char **cache_path, uint64_t *key, const char *path,
                           const gr__file_id *input, const gr_load_options *o);
/* Stores a graph; failure is a warning, never an error. */
void gr__cache_store(const gr_graph *g, const char *cache_path, const gr__file_id *input,
                     uint64_t key);

#endif
