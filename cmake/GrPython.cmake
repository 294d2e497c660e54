# SPDX-License-Identifier: Apache-2.0
# gr_find_python(VAR MODULE...): VAR is the first Python 3 interpreter that
# imports every MODULE, trying CMake's own find first and then the
# distribution's (/usr/bin/python3, /usr/local/bin/python3), which holds the
# Debian packages tools/install-deps.sh installs when another interpreter
# comes first on PATH (pyenv, a virtual environment). When none imports
# them all, VAR is the first interpreter found, so that the test runs and
# says what is missing; empty when there is no interpreter at all.
function(gr_find_python var)
  find_package(Python3 COMPONENTS Interpreter)
  set(_cands)
  if(Python3_Interpreter_FOUND)
    list(APPEND _cands ${Python3_EXECUTABLE})
  endif()
  foreach(_p /usr/bin/python3 /usr/local/bin/python3)
    if(EXISTS ${_p})
      list(APPEND _cands ${_p})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _cands)
  string(REPLACE ";" ", " _imports "${ARGN}")
  set(_found "")
  foreach(_p IN LISTS _cands)
    execute_process(COMMAND ${_p} -c "import ${_imports}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      set(_found ${_p})
      break()
    endif()
  endforeach()
  if(NOT _found AND _cands)
    list(GET _cands 0 _found)
  endif()
  set(${var} "${_found}" PARENT_SCOPE)
endfunction()
