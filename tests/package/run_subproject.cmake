# Script mode: the SDK inside a user's build, the two ways CMake users take it. FetchContent
# from this repository's git history (the commit under test), configured, built (only what the
# app links, at -O0: the check is that it builds and runs, not how fast) and run against the
# mock; then add_subdirectory of a copy of the fetched source, configured, built and run the same
# way. The copy sits at the same place relative to its build directory as FetchContent's, so
# that with ccache (and CCACHE_BASEDIR at the work directory) the second build compiles nothing
# again: its objects are the first one's (measured: 71 s in all; the FetchContent build's 29
# objects 156 s of compiler time, the second build's 29 objects 15 s, all ccache hits). Seen
# failing with MASSIVE_BUILD_TESTS defaulting to ON, and with MASSIVE_WERROR defaulting to ON
# (a commit made for the check): "is on in a project that is not the top level".
file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")

set(launcher "")
find_program(ccache ccache)
if(ccache)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${ccache})
  set(ENV{CCACHE_BASEDIR} "${WORK_DIR}")
endif()
# clang where installed (scripts/install-deps.sh installs it): it compiles this unoptimised
# build in about half of g++'s time, and what is checked is CMake's part, not a compiler's (g++
# builds the library in the optimised build, and package_consumer builds a program with it).
find_program(clang clang++-14)
if(clang)
  set(CXX_COMPILER "${clang}")
endif()
set(options -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Debug
    -DCMAKE_CXX_FLAGS_DEBUG=-O0 ${launcher})

# build_and_run(<dir> <how>): builds the consumer's app in <dir> and checks what it prints.
function(build_and_run dir how)
  run(${CMAKE_COMMAND} --build "${dir}" --target app)
  run("${dir}/app")
  if(NOT last_output MATCHES "subproject: massive ${VERSION}, [1-9][0-9]* bars\n")
    message(FATAL_ERROR "the ${how} consumer printed: ${last_output}")
  endif()
endfunction()

run(git -C "${SOURCE_DIR}" rev-parse HEAD)
string(STRIP "${last_output}" head)
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/fetch" ${options}
    -DMASSIVE_VIA=fetchcontent -DMASSIVE_GIT_REPOSITORY=${SOURCE_DIR} -DMASSIVE_GIT_TAG=${head})
build_and_run("${WORK_DIR}/fetch" FetchContent)

file(COPY "${WORK_DIR}/fetch/_deps/massive-src/" DESTINATION "${WORK_DIR}/subdirectory/_deps/massive-src"
     PATTERN ".git" EXCLUDE)
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/subdirectory" ${options}
    -DMASSIVE_VIA=add_subdirectory -DMASSIVE_SOURCE_DIR=${WORK_DIR}/subdirectory/_deps/massive-src)
build_and_run("${WORK_DIR}/subdirectory" add_subdirectory)
