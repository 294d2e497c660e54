/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: a gzip-compressed Matrix Market file (.mtx.gz): the inflater
 * (members, truncation, corrupt data, the size trailer) and what follows. */
#include "fuzz.h"
#include "fuzz_text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* Plain text is the other target's. */
  if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) return 0;
  fz_text_target(data, size, "fuzz.mtx.gz", FZ_TEXT_MTX);
  return 0;
}
