# Script mode: install BUILD_DIR into WORK_DIR/prefix, build CONSUMER_SOURCE against it, run it.
file(REMOVE_RECURSE "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
if(NOT last_output MATCHES "consumer: massive, 1 bar, close 2.5")
  message(FATAL_ERROR "consumer ran but printed: ${last_output}")
endif()
run("${WORK_DIR}/build/options_consumer")
if(NOT last_output MATCHES "options consumer: 1 value, 1 underlying bar")
  message(FATAL_ERROR "options_consumer ran but printed: ${last_output}")
endif()
