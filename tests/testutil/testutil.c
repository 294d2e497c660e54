/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the Check tests. */
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

const char *gr_test_tmp_dir(void) {
  const char *d = getenv("GR_TEST_TMP_DIR");
  if (d && *d) {
    mkdir(d, 0777);
    return d;
  }
  return "/tmp";
}

const char *gr_test_write_file(char *buf, size_t len, const char *name, const char *text) {
  snprintf(buf, len, "%s/%d-%s", gr_test_tmp_dir(), (int)getpid(), name);
  FILE *f = fopen(buf, "wb");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return buf;
}

const char *gr_test_data_file(char *buf, size_t len, const char *name) {
  const char *d = getenv("GR_TEST_DATA_DIR");
  if (!d || !*d) {
    fprintf(stderr, "skip: GR_TEST_DATA_DIR is not set, so %s is not tested\n", name);
    return NULL;
  }
  snprintf(buf, len, "%s/%s", d, name);
  if (access(buf, R_OK) != 0) {
    fprintf(stderr, "skip: %s is absent (the real graphs live in %s, beside the checkout)\n", buf, d);
    return NULL;
  }
  return buf;
}

int gr_test_run_suite(Suite *s, int no_fork) {
  SRunner *sr = srunner_create(s);
  if (no_fork) srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
