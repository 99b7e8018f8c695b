# Release archives of what `cmake --install` installs (libraries, headers, the CMake and
# pkg-config packages, the licence, and the command-line tool when it is built):
#   cpack --config <build>/CPackConfig.cmake -G TGZ    massive-cpp-<version>-Linux.tar.gz
#   cpack --config <build>/CPackConfig.cmake -G DEB    massive-cpp_<version>_<arch>.deb (under /usr)
# tests/package builds a consumer against the extracted .deb.
set(CPACK_PACKAGE_NAME "massive-cpp")
set(CPACK_PACKAGE_VENDOR "massive-cpp")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "massive-cpp authors")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libdevel")
# What a program built against the static libraries and the headers needs (Debian 12 names).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libboost1.81-dev, libboost-url1.81-dev, libsimdjson-dev, libssl-dev, zlib1g-dev, libisal-dev")
# The .deb installs under /usr; the archive holds the tree as it is (include/, lib/, share/).
set(CPACK_PROJECT_CONFIG_FILE "${PROJECT_SOURCE_DIR}/cmake/MassiveCPackOptions.cmake")
include(CPack)
