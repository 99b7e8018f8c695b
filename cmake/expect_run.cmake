# Runs a command and passes only when it exits with EXPECT_EXIT and its standard output matches
# EXPECT_OUTPUT (a CMake regular expression): ctest's PASS_REGULAR_EXPRESSION alone ignores the
# exit code, and WILL_FAIL accepts any failure.
#
#   cmake -DEXPECT_EXIT=<code> [-DEXPECT_OUTPUT=<regex>] -P expect_run.cmake -- <command> [arg]...
#
# massive_add_expect_test() in MassiveExpect.cmake registers such a test. Seen failing with
# sample_vwap_service_bad_query given EXIT 0: "exit status 1, expected 0"; with an OUTPUT the
# quickstart does not print: "the output does not match".
set(command "")
set(after_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_dashes)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_dashes TRUE)
  endif()
endforeach()
if(NOT command OR NOT DEFINED EXPECT_EXIT)
  message(FATAL_ERROR "usage: cmake -DEXPECT_EXIT=<code> [-DEXPECT_OUTPUT=<regex>] -P expect_run.cmake -- <command>")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(err)
  message("stderr:\n${err}")
endif()
if(NOT "${status}" STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECT_EXIT}")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "the output does not match: ${EXPECT_OUTPUT}")
endif()
