# SPDX-License-Identifier: Apache-2.0
# Warnings, sanitizers and the vertex-id width, applied to every gr target
# through the gr_options interface library.

add_library(gr_options INTERFACE)
target_compile_options(gr_options INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall -Xcompiler=-Wno-unused-parameter>)
# Without OpenMP the host loops' pragmas are ignored on purpose: every one is
# written so that the serial program it leaves is the same computation. The
# thread count each CPU loop computes for its pragma (`nt`, in the operators'
# macros and every backend file) is then unread; one flag here rather than a
# cast at each of them.
if(NOT OpenMP_C_FOUND)
  target_compile_options(gr_options INTERFACE $<$<COMPILE_LANGUAGE:C>:-Wno-unknown-pragmas -Wno-unused-variable>)
endif()
if(GR_WERROR)
  target_compile_options(gr_options INTERFACE
    $<$<COMPILE_LANGUAGE:C>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
if(GR_VERTEX_64)
  target_compile_definitions(gr_options INTERFACE GR_VERTEX_64=1)
endif()
target_compile_definitions(gr_options INTERFACE _GNU_SOURCE
  $<$<BOOL:${GR_HAVE_CUDA}>:GR_HAVE_CUDA=1>
  $<$<BOOL:${GR_HAVE_NCCL}>:GR_HAVE_NCCL=1>
  $<$<BOOL:${GR_HAVE_METIS}>:GR_HAVE_METIS=1>
  $<$<BOOL:${ZLIB_FOUND}>:GR_HAVE_ZLIB=1>
  $<$<BOOL:${OpenMP_C_FOUND}>:GR_HAVE_OPENMP=1>)

# GR_SANITIZE: one sanitizer or a comma-separated list of them
# ("address,undefined"); thread cannot be combined with address.
if(GR_SANITIZE)
  string(REPLACE "," ";" _gr_san_list "${GR_SANITIZE}")
  foreach(_s IN LISTS _gr_san_list)
    if(NOT _s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "GR_SANITIZE must be address, undefined or thread, or a comma-separated list (address,undefined); got '${_s}'")
    endif()
  endforeach()
  if("thread" IN_LIST _gr_san_list AND "address" IN_LIST _gr_san_list)
    message(FATAL_ERROR "GR_SANITIZE: thread and address cannot be combined")
  endif()
  set(_gr_san -fsanitize=${GR_SANITIZE} -fno-omit-frame-pointer)
  if("undefined" IN_LIST _gr_san_list)
    # Every report is an error that ends the test, never a line in a log.
    list(APPEND _gr_san -fno-sanitize-recover=undefined)
  endif()
  target_compile_options(gr_options INTERFACE $<$<COMPILE_LANGUAGE:C>:${_gr_san}>)
  target_link_options(gr_options INTERFACE ${_gr_san})
endif()
