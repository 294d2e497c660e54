# SPDX-License-Identifier: Apache-2.0
# The Python package's build (pip through scikit-build-core, which sets
# SKBUILD): libgr.so goes into the package folder gr/ under the component
# "python", the only one the package installs, so the library's own install
# (headers, libgr.a, tools, CMake package, gr.pc) stays out of the wheel.
# One plain file, no SONAME symlinks: wheels cannot hold links, and
# python/gr/_lib.py loads the file by path.
install(FILES $<TARGET_FILE:gr_shared> DESTINATION gr RENAME libgr.so COMPONENT python)
