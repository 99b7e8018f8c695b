#!/usr/bin/env bash
# The main job: installs the missing packages the library and samples build with (not the
# tests' and benchmarks'), builds the quickstart sample and runs it.
# With MASSIVE_API_KEY set it calls the real API; without, an embedded local server.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --library

cmake -S . -B build-quickstart -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMASSIVE_BUILD_TESTS=OFF -DMASSIVE_BUILD_SAMPLES=ON -DMASSIVE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-quickstart -j "$(nproc)" --target quickstart
exec build-quickstart/samples/quickstart "$@"
