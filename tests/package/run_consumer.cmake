# Script mode: install BUILD_DIR into WORK_DIR/prefix, build CONSUMER_SOURCE against it, run it.
file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
if(NOT last_output MATCHES "consumer: massive, 1 bar, close 2.5, version ${VERSION}\n")
  message(FATAL_ERROR "consumer ran but printed: ${last_output} (the package is ${VERSION})")
endif()
# Where the description gives the options group its indicators (the JVM client's copy of it does
# not), their rows must decode through the options library alone.
run("${WORK_DIR}/build/options_consumer")
file(READ "${WORK_DIR}/prefix/include/massive/options.hpp" options_header)
set(expected "options consumer: 1 value, 1 underlying bar")
if(NOT options_header MATCHES "indicator_value")
  set(expected "options consumer: the options group has no indicators in this description")
endif()
string(FIND "${last_output}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "options_consumer ran but printed: ${last_output} (expected: ${expected})")
endif()

# The same program built with pkg-config alone (massive.pc), no CMake on the consumer's side.
# Seen failing with massive_core left out of the .pc's libraries: "undefined reference to
# massive::make_page_pool()".
find_program(PKG_CONFIG pkg-config REQUIRED)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${WORK_DIR}/prefix/lib/pkgconfig
                        ${PKG_CONFIG} --cflags --libs massive
                OUTPUT_VARIABLE pc_flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find massive in ${WORK_DIR}/prefix/lib/pkgconfig")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run(${CXX_COMPILER} "${CONSUMER_SOURCE}/main.cpp" -o "${WORK_DIR}/pc_consumer" ${pc_flags})
run("${WORK_DIR}/pc_consumer")
if(NOT last_output MATCHES "consumer: massive, 1 bar, close 2.5, version ${VERSION}\n")
  message(FATAL_ERROR "the pkg-config consumer ran but printed: ${last_output}")
endif()

# A Boost without the system library (Boost 1.89 removed its stub; vcpkg, Homebrew and rolling
# distributions ship that): Boost's CMake package copied without its boost_system component,
# and the consumer configured against it. Seen failing with massiveConfig.cmake asking for the
# system component: "Could not find a package configuration file provided by boost_system".
# Boost's configs find their headers and libraries relative to themselves, so the copy mirrors
# the installed tree under a new root: the configs but boost_system's, the libraries but
# libboost_system's (links), the headers (a link).
get_filename_component(boost_cmake "${BOOST_CMAKE_DIR}" ABSOLUTE)
get_filename_component(boost_libdir "${boost_cmake}/.." ABSOLUTE)
get_filename_component(boost_include "${boost_cmake}/../../../include" ABSOLUTE)
set(root "${WORK_DIR}/boost-without-system")
file(MAKE_DIRECTORY "${root}${boost_cmake}" "${root}${boost_libdir}")
get_filename_component(include_parent "${root}${boost_include}" DIRECTORY)
file(MAKE_DIRECTORY "${include_parent}")
file(CREATE_LINK "${boost_include}" "${root}${boost_include}" SYMBOLIC)
file(GLOB boost_parts "${boost_cmake}/*")
foreach(part IN LISTS boost_parts)
  get_filename_component(name "${part}" NAME)
  if(NOT name MATCHES "^boost_system-")
    file(COPY "${part}" DESTINATION "${root}${boost_cmake}")
  endif()
endforeach()
file(GLOB boost_libraries "${boost_libdir}/libboost_*")
foreach(library IN LISTS boost_libraries)
  get_filename_component(name "${library}" NAME)
  if(NOT name MATCHES "^libboost_system")
    file(CREATE_LINK "${library}" "${root}${boost_libdir}/${name}" SYMBOLIC)
  endif()
endforeach()
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/build-no-system" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DBoost_DIR=${root}${boost_cmake}/Boost-${BOOST_VERSION})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build-no-system" --target consumer)
