# SPDX-License-Identifier: Apache-2.0
# `cmake --install`: libgr (shared and static), the public headers, gr_run,
# gr_gen and gr_info, the CMake package (find_package(gr CONFIG) -> gr::gr, and
# gr::gr_static) and gr.pc for pkg-config.
include(CMakePackageConfigHelpers)

install(TARGETS gr_shared gr_static EXPORT grTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/framework/include/gr/gr.h ${PROJECT_SOURCE_DIR}/framework/include/gr/status.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gr)
foreach(_tool gr_run gr_gen gr_info)
  if(TARGET ${_tool})
    install(TARGETS ${_tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

set(GR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gr)
install(EXPORT grTargets NAMESPACE gr:: DESTINATION ${GR_CMAKE_DIR})
# What the static library's callers must find again (the shared one carries
# its dependencies itself).
set(GR_CONFIG_OPENMP ${OpenMP_C_FOUND})
set(GR_CONFIG_ZLIB ${ZLIB_FOUND})
set(GR_CONFIG_CUDA ${GR_HAVE_CUDA})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/grConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/grConfig.cmake INSTALL_DESTINATION ${GR_CMAKE_DIR})
# Before 1.0 a minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/grConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/grConfig.cmake ${PROJECT_BINARY_DIR}/grConfigVersion.cmake
        DESTINATION ${GR_CMAKE_DIR})

# pkg-config: `pkg-config --cflags --libs gr` links the shared library;
# `--static` adds what libgr.a needs.
set(GR_PC_PRIVATE "-lm -lpthread")
if(OpenMP_C_FOUND)
  string(APPEND GR_PC_PRIVATE " ${OpenMP_C_FLAGS}")
endif()
if(ZLIB_FOUND)
  string(APPEND GR_PC_PRIVATE " -lz")
endif()
if(GR_HAVE_CUDA)
  string(APPEND GR_PC_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart -lstdc++")
endif()
if(GR_HAVE_NCCL)
  string(APPEND GR_PC_PRIVATE " ${NCCL_LIBRARY}")
endif()
if(GR_HAVE_METIS)
  string(APPEND GR_PC_PRIVATE " ${METIS_LIBRARY}")
endif()
# A sanitized build's callers link the sanitizers' runtimes too.
set(GR_PC_SANITIZE "")
if(GR_SANITIZE)
  set(GR_PC_SANITIZE " -fsanitize=${GR_SANITIZE}")
endif()
# The prefix is found from the .pc file's own place, so that an install
# moved or made with `cmake --install --prefix` still resolves.
file(RELATIVE_PATH GR_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gr.pc.in ${PROJECT_BINARY_DIR}/gr.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gr.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
