# SPDX-License-Identifier: Apache-2.0
# Finds gr's dependencies (never vendored) and decides what is built.
# Libraries are looked up by header and library name rather than through
# pkg-config, so that packages unpacked into a prefix (CMAKE_PREFIX_PATH) are
# found on machines without a package manager.

include(CheckLanguage)

set(GR_DISABLED "")

# --- CUDA -------------------------------------------------------------------
set(GR_HAVE_CUDA OFF)
if(GR_FUZZ AND GR_WITH_CUDA STREQUAL "ON")
  message(FATAL_ERROR "GR_FUZZ=ON builds are CPU only: configure with GR_WITH_CUDA=AUTO or OFF")
endif()
if(GR_FUZZ)
  list(APPEND GR_DISABLED "CUDA backend (fuzz build)")
elseif(NOT GR_WITH_CUDA STREQUAL "OFF")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(GR_HAVE_CUDA ON)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  elseif(GR_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GR_WITH_CUDA=ON but no CUDA compiler was found")
  else()
    list(APPEND GR_DISABLED "CUDA backend (no nvcc)")
  endif()
else()
  list(APPEND GR_DISABLED "CUDA backend (GR_WITH_CUDA=OFF)")
endif()

# --- OpenMP: the CPU backend and the parallel loader ------------------------
# Fuzz builds leave OpenMP out: the fuzz targets run on one thread. The
# ThreadSanitizer build keeps it, with clang and LLVM's runtime, whose
# Archer tool tells ThreadSanitizer about OpenMP's synchronisation
# (tools/run-sanitizers.sh; without it the teams are held to one thread).
option(GR_WITH_OPENMP "Use OpenMP for host parallelism when found" ON)
if(GR_WITH_OPENMP AND NOT GR_FUZZ)
  find_package(OpenMP COMPONENTS C)
endif()
if(GR_FUZZ)
  list(APPEND GR_DISABLED "host parallelism (fuzz build: one thread)")
elseif(NOT GR_WITH_OPENMP)
  list(APPEND GR_DISABLED "host parallelism (GR_WITH_OPENMP=OFF: CPU backend runs on one thread)")
elseif(NOT OpenMP_C_FOUND)
  list(APPEND GR_DISABLED "host parallelism (no OpenMP: CPU backend runs on one thread)")
endif()

find_package(Threads REQUIRED)

# --- zlib: reading .gz files ------------------------------------------------
find_package(ZLIB)
if(NOT ZLIB_FOUND)
  list(APPEND GR_DISABLED "reading .gz files (no zlib)")
endif()

# --- cJSON: the --json report ----------------------------------------------
find_path(CJSON_INCLUDE_DIR cjson/cJSON.h)
find_library(CJSON_LIBRARY NAMES cjson)
if(NOT CJSON_INCLUDE_DIR OR NOT CJSON_LIBRARY)
  message(FATAL_ERROR "cJSON not found (Debian: libcjson-dev); set CMAKE_PREFIX_PATH to where it is")
endif()
add_library(gr_cjson INTERFACE)
target_include_directories(gr_cjson INTERFACE ${CJSON_INCLUDE_DIR})
target_link_libraries(gr_cjson INTERFACE ${CJSON_LIBRARY})

# --- NCCL: multi-GPU transport ----------------------------------------------
set(GR_HAVE_NCCL OFF)
if(GR_HAVE_CUDA AND NOT GR_WITH_NCCL STREQUAL "OFF")
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(NCCL_LIBRARY NAMES nccl
               HINTS ${CUDAToolkit_LIBRARY_DIR} "${CUDAToolkit_LIBRARY_ROOT}/lib")
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(GR_HAVE_NCCL ON)
  elseif(GR_WITH_NCCL STREQUAL "ON")
    message(FATAL_ERROR "GR_WITH_NCCL=ON but NCCL was not found")
  else()
    list(APPEND GR_DISABLED "NCCL transport (NCCL not found)")
  endif()
elseif(NOT GR_HAVE_CUDA)
  list(APPEND GR_DISABLED "NCCL transport (no CUDA)")
endif()

# --- METIS: the metis partitioner -------------------------------------------
set(GR_HAVE_METIS OFF)
if(NOT GR_WITH_METIS STREQUAL "OFF")
  find_path(METIS_INCLUDE_DIR metis.h)
  find_library(METIS_LIBRARY NAMES metis)
  if(METIS_INCLUDE_DIR AND METIS_LIBRARY)
    set(GR_HAVE_METIS ON)
  elseif(GR_WITH_METIS STREQUAL "ON")
    message(FATAL_ERROR "GR_WITH_METIS=ON but METIS was not found (Debian: libmetis-dev)")
  else()
    list(APPEND GR_DISABLED "METIS partitioner (libmetis not found)")
  endif()
endif()

# --- Check: unit tests -------------------------------------------------------
set(GR_HAVE_CHECK OFF)
if(GR_BUILD_TESTS)
  find_path(CHECK_INCLUDE_DIR check.h)
  find_library(CHECK_LIBRARY NAMES check_pic check)
  find_library(SUBUNIT_LIBRARY NAMES subunit)
  if(CHECK_INCLUDE_DIR AND CHECK_LIBRARY)
    set(GR_HAVE_CHECK ON)
    add_library(gr_check INTERFACE)
    target_include_directories(gr_check INTERFACE ${CHECK_INCLUDE_DIR})
    target_link_libraries(gr_check INTERFACE ${CHECK_LIBRARY})
    if(SUBUNIT_LIBRARY)
      target_link_libraries(gr_check INTERFACE ${SUBUNIT_LIBRARY})
    endif()
    target_link_libraries(gr_check INTERFACE Threads::Threads m rt)
  else()
    message(FATAL_ERROR "Check not found (Debian: check); install it or configure with -DGR_BUILD_TESTS=OFF")
  endif()
endif()
