// The SDK's version. The one place it is written: CMakeLists.txt reads it from here for the
// package (find_package(massive 0.2), pkg-config), and `massive --version` prints it.
#pragma once

/// Major version: a change that breaks source compatibility of the hand-written API raises it
/// (from 1.0 on; before 1.0 the minor version does).
#define MASSIVE_VERSION_MAJOR 0
/// Minor version: new features, and before 1.0 breaking changes.
#define MASSIVE_VERSION_MINOR 2
/// Patch version: fixes only.
#define MASSIVE_VERSION_PATCH 0
/// "major.minor.patch".
#define MASSIVE_VERSION_STRING "0.2.0"

namespace massive {

/// The SDK's version, as the macros give it.
struct version_info {
  int major;           ///< MASSIVE_VERSION_MAJOR
  int minor;           ///< MASSIVE_VERSION_MINOR
  int patch;           ///< MASSIVE_VERSION_PATCH
  const char* string;  ///< MASSIVE_VERSION_STRING
};

/// The version of the headers this file was compiled with.
inline constexpr version_info version{MASSIVE_VERSION_MAJOR, MASSIVE_VERSION_MINOR, MASSIVE_VERSION_PATCH,
                                      MASSIVE_VERSION_STRING};

}  // namespace massive
