# massive_add_expect_test(<name> EXIT <code> [OUTPUT <regex>] [ENVIRONMENT <VAR=value>...]
#                         [LABELS <label>...] COMMAND <command> [arg]...)
# A test that passes only when the command exits with <code> AND its standard output matches
# <regex> (a CMake regular expression), through expect_run.cmake.
function(massive_add_expect_test name)
  cmake_parse_arguments(arg "" "EXIT;OUTPUT" "ENVIRONMENT;LABELS;COMMAND" ${ARGN})
  set(defines -DEXPECT_EXIT=${arg_EXIT})
  if(DEFINED arg_OUTPUT)
    list(APPEND defines "-DEXPECT_OUTPUT=${arg_OUTPUT}")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} ${defines} -P "${PROJECT_SOURCE_DIR}/cmake/expect_run.cmake" -- ${arg_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}")
  if(arg_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
endfunction()
