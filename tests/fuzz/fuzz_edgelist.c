/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: a plain or SNAP edge list (ids, weights, comments, commas,
 * the relabelling of sparse ids), then the build of its graph. */
#include "fuzz.h"
#include "fuzz_text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_text_target(data, size, "fuzz.txt", FZ_TEXT_EDGELIST);
  return 0;
}
