# Script mode: the release artifacts of BUILD_DIR (cpack: .tar.gz and .deb), then the consumer
# built and run against the .deb extracted (dpkg-deb -x), as a user who installs the package
# would build against /usr. Seen failing with the LICENSE install rule removed: "the .deb lacks
# usr/share/doc/massive/LICENSE".
file(REMOVE_RECURSE "${WORK_DIR}")

include("${CMAKE_CURRENT_LIST_DIR}/run.cmake")

run(${CPACK} --config "${BUILD_DIR}/CPackConfig.cmake" -G TGZ -B "${WORK_DIR}/packages")
run(${CPACK} --config "${BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${WORK_DIR}/packages")
file(GLOB deb "${WORK_DIR}/packages/*.deb")
file(GLOB tgz "${WORK_DIR}/packages/*.tar.gz")
list(LENGTH deb debs)
list(LENGTH tgz tgzs)
if(NOT debs EQUAL 1 OR NOT tgzs EQUAL 1)
  message(FATAL_ERROR "expected one .deb and one .tar.gz in ${WORK_DIR}/packages, got: ${deb} ${tgz}")
endif()
run(dpkg-deb -x "${deb}" "${WORK_DIR}/deb-root")
file(MAKE_DIRECTORY "${WORK_DIR}/tgz-root")
run(${CMAKE_COMMAND} -E chdir "${WORK_DIR}/tgz-root" ${CMAKE_COMMAND} -E tar xzf "${tgz}")
file(GLOB tgz_top "${WORK_DIR}/tgz-root/*")
foreach(file usr/share/doc/massive/LICENSE usr/include/massive/version.hpp usr/lib/cmake/massive/massiveConfigVersion.cmake
             usr/lib/pkgconfig/massive.pc)
  if(NOT EXISTS "${WORK_DIR}/deb-root/${file}")
    message(FATAL_ERROR "the .deb lacks ${file}")
  endif()
endforeach()
if(NOT EXISTS "${tgz_top}/share/doc/massive/LICENSE" OR NOT EXISTS "${tgz_top}/lib/cmake/massive/massiveConfig.cmake")
  message(FATAL_ERROR "the .tar.gz lacks the licence or the CMake package (top: ${tgz_top})")
endif()
run(dpkg-deb --field "${deb}" Version Depends)
if(NOT last_output MATCHES "Version: ${VERSION}\n" OR NOT last_output MATCHES "libboost-url1.81-dev")
  message(FATAL_ERROR "the .deb's control fields: ${last_output}")
endif()

run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/deb-root/usr)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build" --target consumer)
run("${WORK_DIR}/build/consumer")
if(NOT last_output MATCHES "consumer: massive, 1 bar, close 2.5, version ${VERSION}\n")
  message(FATAL_ERROR "the consumer built against the .deb printed: ${last_output}")
endif()
