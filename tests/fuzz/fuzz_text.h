/* SPDX-License-Identifier: Apache-2.0 */
/* The text readers' fuzz targets share one body: decode the bytes as the
 * loader does (gzip or plain), parse them twice (whole, and in chunks of a
 * few bytes: the same result or the same error either way), check the
 * edge list, build the graph as gr_graph_load does and compare it with the
 * naive build. */
#ifndef GR_FUZZ_TEXT_H
#define GR_FUZZ_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef enum fz_text_format { FZ_TEXT_MTX, FZ_TEXT_EDGELIST } fz_text_format;

/* `name` stands for the file's path in messages ("fuzz.mtx"). */
void fz_text_target(const uint8_t *data, size_t size, const char *name, fz_text_format format);

#endif
