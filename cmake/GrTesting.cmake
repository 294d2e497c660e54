# SPDX-License-Identifier: Apache-2.0
# Test deadlines under sanitizers.
#
# Every deadline of the tests is set for a plain build with headroom. The
# sanitizers slow the code 2-15x and a loaded CI machine adds to that (BC's
# single-device case, 90 s under ThreadSanitizer alone, ran past its 300 s
# in one CI run), so a sanitized build (GR_SANITIZE, or GR_FUZZ, whose
# replays run under AddressSanitizer) stretches them GR_TEST_TIMEOUT_SCALE
# times (default 4; 1 otherwise): ctest's TIMEOUT of each test, and, through
# CK_TIMEOUT_MULTIPLIER in each test's environment, Check's per-case
# timeouts and the limits the tests put on the programs they start.
if(NOT DEFINED GR_TEST_TIMEOUT_SCALE)
  if(GR_SANITIZE OR GR_FUZZ)
    set(GR_TEST_TIMEOUT_SCALE 4)
  else()
    set(GR_TEST_TIMEOUT_SCALE 1)
  endif()
endif()
if(NOT GR_TEST_TIMEOUT_SCALE MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "GR_TEST_TIMEOUT_SCALE must be a whole number from 1, got '${GR_TEST_TIMEOUT_SCALE}'")
endif()

# Called last in each folder that adds tests: CMake before 3.28 sets a
# test's properties only from the folder that added it. Marks the folder,
# so that a second call does not stretch twice and a folder that forgot it
# is found (gr_require_scaled_timeouts).
function(gr_scale_test_timeouts)
  get_property(_done DIRECTORY PROPERTY GR_TIMEOUTS_SCALED)
  if(_done)
    return()
  endif()
  set_property(DIRECTORY PROPERTY GR_TIMEOUTS_SCALED ON)
  if(GR_TEST_TIMEOUT_SCALE EQUAL 1)
    return()
  endif()
  get_property(_tests DIRECTORY PROPERTY TESTS)
  foreach(_t IN LISTS _tests)
    get_test_property(${_t} TIMEOUT _limit)
    if(_limit)
      math(EXPR _limit "${_limit} * ${GR_TEST_TIMEOUT_SCALE}")
      set_tests_properties(${_t} PROPERTIES TIMEOUT ${_limit})
    endif()
    set_property(TEST ${_t} APPEND PROPERTY ENVIRONMENT "CK_TIMEOUT_MULTIPLIER=${GR_TEST_TIMEOUT_SCALE}")
  endforeach()
endfunction()

# Fails the configuration where a folder under `dir` (itself included)
# added tests and did not call gr_scale_test_timeouts after them.
function(gr_require_scaled_timeouts dir)
  get_property(_tests DIRECTORY ${dir} PROPERTY TESTS)
  get_property(_done DIRECTORY ${dir} PROPERTY GR_TIMEOUTS_SCALED)
  if(_tests AND NOT _done)
    message(FATAL_ERROR "${dir} adds tests (${_tests}) but does not end with gr_scale_test_timeouts()")
  endif()
  get_property(_subs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_s IN LISTS _subs)
    gr_require_scaled_timeouts(${_s})
  endforeach()
endfunction()
