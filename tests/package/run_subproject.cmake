# Script mode: the SDK inside a user's build. FetchContent from this repository's git history
# (the commit under test), configured, built (only what the app links, at -O0: the check is
# that it builds and runs, not how fast) and run against the mock; then add_subdirectory of the
# source tree, configured (its build is the same targets from the same sources): 60 s in all
# without a compiler cache. Seen failing with MASSIVE_BUILD_TESTS defaulting to ON: "is on in a
# project that is not the top level".
file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")

run(git -C "${SOURCE_DIR}" rev-parse HEAD)
string(STRIP "${last_output}" head)
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/fetch" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0
    -DMASSIVE_VIA=fetchcontent -DMASSIVE_GIT_REPOSITORY=${SOURCE_DIR} -DMASSIVE_GIT_TAG=${head})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/fetch" --target app)
run("${WORK_DIR}/fetch/app")
if(NOT last_output MATCHES "subproject: massive ${VERSION}, [1-9][0-9]* bars\n")
  message(FATAL_ERROR "the FetchContent consumer printed: ${last_output}")
endif()

run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/subdirectory" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DMASSIVE_VIA=add_subdirectory -DMASSIVE_SOURCE_DIR=${SOURCE_DIR})
