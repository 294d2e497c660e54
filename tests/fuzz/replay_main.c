/* SPDX-License-Identifier: Apache-2.0 */
/* Replays stored inputs through a fuzz target without libFuzzer, so that
 * every build (gcc, sanitizers or not) runs the seed corpus and every input
 * that once crashed:  replay_TARGET PATH...  where a PATH is a file or a
 * folder of files (read in name order, hidden files skipped). A crash or a
 * failed oracle aborts; no input at all is an error too, so that a test
 * pointed at an empty or missing folder cannot pass. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replayed;

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  if (!buf) abort();
  for (;;) {
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap);
      if (!buf) abort();
    }
    size_t k = fread(buf + len, 1, cap - len, f);
    len += k;
    if (k == 0) break;
  }
  const int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    free(buf);
    return 1;
  }
  /* A copy of exactly the input's size, so that a read past its end is
   * caught by AddressSanitizer as it would be under libFuzzer. */
  uint8_t *exact = malloc(len ? len : 1);
  if (!exact) abort();
  memcpy(exact, buf, len);
  free(buf);
  fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  replayed++;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int replay_path(const char *path) {
  struct stat s;
  if (stat(path, &s) != 0) {
    fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
    return 1;
  }
  if (!S_ISDIR(s.st_mode)) return replay_file(path);
  DIR *d = opendir(path);
  if (!d) {
    fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    if (count == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, cap * sizeof *names);
      if (!names) abort();
    }
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[count] = malloc(len);
    if (!names[count]) abort();
    snprintf(names[count], len, "%s/%s", path, e->d_name);
    count++;
  }
  closedir(d);
  qsort(names, count, sizeof *names, by_name);
  int rc = 0;
  for (size_t i = 0; i < count; i++) {
    if (stat(names[i], &s) == 0 && S_ISREG(s.st_mode)) rc |= replay_file(names[i]);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  int rc = 0;
  for (int i = 1; i < argc; i++) rc |= replay_path(argv[i]);
  if (replayed == 0) {
    fprintf(stderr, "replay: no input found in the paths given\n");
    return 1;
  }
  fprintf(stderr, "replay: %d inputs, none crashed\n", replayed);
  return rc;
}
