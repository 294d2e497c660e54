# SPDX-License-Identifier: Apache-2.0
# GR_FUZZ=ON: the libFuzzer targets of tests/fuzz. They need clang with its
# sanitizer and fuzzer runtimes (Debian: clang and libclang-rt-<version>-dev,
# which the clang package does not always pull in). All of gr is compiled
# with coverage (fuzzer-no-link), AddressSanitizer and UndefinedBehavior-
# Sanitizer; only the fuzz executables link libFuzzer itself. Fuzz builds
# leave out CUDA and OpenMP: each target parses on one host thread, and
# parallel fuzzing runs several processes.
if(NOT GR_FUZZ)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "GR_FUZZ=ON needs clang (found ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER}): "
                      "configure a fresh build folder with -DCMAKE_C_COMPILER=clang "
                      "(Debian packages: clang, libclang-rt-dev)")
endif()
if(GR_SANITIZE)
  message(FATAL_ERROR "GR_FUZZ=ON brings its own sanitizers (address, undefined); leave GR_SANITIZE empty")
endif()
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
check_c_source_compiles("
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
  GR_FUZZ_LINKS)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT GR_FUZZ_LINKS)
  message(FATAL_ERROR "GR_FUZZ=ON: ${CMAKE_C_COMPILER} cannot link -fsanitize=fuzzer,address,undefined; "
                      "install clang's runtimes (Debian: libclang-rt-dev, or libclang-rt-<version>-dev "
                      "matching 'clang --version')")
endif()
set(_gr_fuzz_flags -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer -g)
target_compile_options(gr_options INTERFACE $<$<COMPILE_LANGUAGE:C>:${_gr_fuzz_flags}>)
target_link_options(gr_options INTERFACE -fsanitize=address,undefined)
