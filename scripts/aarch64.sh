#!/usr/bin/env bash
# Builds massive::core and the decode tests for 64-bit ARM (the framer's NEON classifier) with
# Debian's cross compiler and arm64 packages, and runs the tests under qemu-aarch64-static.
# Outside CI: it installs arm64 packages (multiarch) and takes about 9 minutes on 2 cores from a
# fresh machine (2026-12-04: packages and build 339 s, the three suites under qemu 210 s).
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# simdjson's -dev package cannot be installed for two architectures at once: the arm64 one is
# unpacked into the build directory instead (below), leaving the host's untouched.
arm64=(libboost1.81-dev:arm64 libboost-url1.81-dev:arm64 libboost-system1.81-dev:arm64
       libssl-dev:arm64 zlib1g-dev:arm64)
host=(g++-aarch64-linux-gnu qemu-user-static doctest-dev cmake ninja-build)
missing=()
for p in "${host[@]}" "${arm64[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

sysroot=build-aarch64/simdjson-arm64
if [ ! -d "$sysroot/usr" ]; then
  mkdir -p "$sysroot/debs"
  (cd "$sysroot/debs" && apt-get download -qq libsimdjson-dev:arm64 libsimdjson14:arm64)
  for deb in "$sysroot"/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
fi

cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -Dsimdjson_DIR="$PWD/$sysroot/usr/lib/aarch64-linux-gnu/cmake/simdjson" \
  -DMASSIVE_BUILD_TESTS=ON -DMASSIVE_BUILD_SAMPLES=OFF -DMASSIVE_BUILD_CLI=OFF -DMASSIVE_BUILD_BENCHMARKS=OFF
cmake --build build-aarch64 -j "$(nproc)" --target massive_core decode_tests decode_framer_tests decode_readers_tests
ctest --test-dir build-aarch64 --output-on-failure -R '^decode_(tests|framer_tests|readers_tests)$'
