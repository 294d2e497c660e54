# SPDX-License-Identifier: Apache-2.0
# Warnings, sanitizers and the vertex-id width, applied to every gr target
# through the gr_options interface library.

add_library(gr_options INTERFACE)
target_compile_options(gr_options INTERFACE
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter>
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall -Xcompiler=-Wno-unused-parameter>)
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

if(GR_SANITIZE)
  if(NOT GR_SANITIZE MATCHES "^(address|undefined|thread)$")
    message(FATAL_ERROR "GR_SANITIZE must be address, undefined or thread")
  endif()
  set(_gr_san -fsanitize=${GR_SANITIZE} -fno-omit-frame-pointer)
  if(GR_SANITIZE STREQUAL "undefined")
    list(APPEND _gr_san -fno-sanitize-recover=undefined)
  endif()
  target_compile_options(gr_options INTERFACE $<$<COMPILE_LANGUAGE:C>:${_gr_san}>)
  target_link_options(gr_options INTERFACE ${_gr_san})
endif()
