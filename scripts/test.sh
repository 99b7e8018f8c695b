#!/usr/bin/env bash
# Builds everything and runs the whole test suite in three builds: the optimised build of what
# users run (library, CLI, samples, benchmarks, generator) with the tests that need -O3 or no
# sanitizer (g++); an ASan+UBSan build (clang) of every suite (allocation gates included) and
# of the fuzz corpora's replay; a ThreadSanitizer build (clang) of the suites labelled `tsan`
# (only their executables and what they link). Exits non-zero on any failure. Does its own set-up:
# installs missing Debian packages first. Uses ccache when it is installed (CCACHE_DISABLE=1
# measures without it).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Each step's wall time, printed when it ends, so that a CI log shows where its minutes go.
step() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "== test.sh: $name took $((SECONDS - start)) s"
}

# The next build runs behind the tests of the one before, at the lowest priority: the tests
# leave a core idle about a third of their time (servers, sockets, sleeps: the ASan+UBSan suites
# used 135 s of CPU in 95 s on two cores), which the build takes without taking the tests' share
# (nice 19). Its output goes to a log, printed when it is waited for.
behind_pid="" behind_name="" behind_log="" behind_start=0
build_behind() {
  behind_name="$1" behind_log="$2/behind.log"
  shift 2
  behind_start=$SECONDS
  nice -n 19 "$@" >"$behind_log" 2>&1 &
  behind_pid=$!
}
wait_behind() {
  local status=0
  wait "$behind_pid" || status=$?
  behind_pid=""
  cat "$behind_log"
  echo "== test.sh: $behind_name took $((SECONDS - behind_start)) s (begun beside the tests before it)"
  return "$status"
}
# A run that fails while a build is behind stops that build too: its ninja (which stops its
# compilers on SIGTERM), then its cmake.
trap '[ -z "$behind_pid" ] || { pkill -TERM -P "$behind_pid"; kill "$behind_pid"; } 2>/dev/null || true' EXIT

# The five translation units that took longest in a build, from its .ninja_log (start and end
# in ms; an output rebuilt later appears again, and its last line counts). The top five are cut
# by awk, which reads all its input: `head` would exit first and, under pipefail, sort's
# SIGPIPE (exit 141) failed a CI run once the build had more objects than one pipe write.
slowest() {
  echo "== test.sh: slowest translation units of $1:"
  awk -F'\t' 'NR > 1 && $4 ~ /\.o$/ { ms[$4] = $2 - $1 }
              END { for (o in ms) printf "%8.1f s  %s\n", ms[o] / 1000, o }' "$1/.ninja_log" |
    sort -rn | awk 'NR <= 5'
}

step "install-deps" scripts/install-deps.sh

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # ccache keys on the paths in a command line and, with debug information, on the directory it
  # runs in: with paths relative to the clone's root (base_dir) and the sanitizer builds' line
  # tables mapped to it (-fdebug-prefix-map below), a second clone of the repository on the same
  # machine (CI's checkout, a worktree) finds the objects another one compiled.
  export CCACHE_BASEDIR="$PWD"
fi

# The suites run once, in the ASan+UBSan build: this build runs only the tests of what it makes.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DMASSIVE_BUILD_TESTS=ON -DMASSIVE_BUILD_TEST_SUITES=OFF \
  -DMASSIVE_BUILD_SAMPLES=ON -DMASSIVE_BUILD_BENCHMARKS=ON -DMASSIVE_BUILD_CODEGEN=ON
step "Release build" cmake --build build -j "$jobs"
slowest build

# The sanitizer builds keep line tables only (-g1): their reports still name file and line, and
# the variables' debug information, which only a debugger reads, was 6-13 % of a file's compile
# time (call_driver.cpp 17.1 -> 14.9 s, a stocks model batch 23.8 -> 21.2 s under ASan+UBSan).
sanitizer_debug_info="-DCMAKE_CXX_FLAGS_DEBUG=-g1 -fdebug-prefix-map=$PWD=."

# The sanitizer builds are clang 14's where installed (scripts/install-deps.sh installs it): it
# compiles these unoptimised, instrumented builds in about 60 % of g++'s time (the ASan+UBSan
# build from cold 428 s against 645-696 s), and the project is then compiled by both compilers
# in every run (g++ makes the optimised build, what users build first).
sanitizer_compiler=()
if command -v clang++-14 >/dev/null; then
  sanitizer_compiler=(-DCMAKE_CXX_COMPILER=clang++-14)
  # A build directory another compiler configured (g++'s, before) is configured afresh: CMake
  # would drop its cache itself, and with it every other -D given on the same command line.
  for dir in build-asan build-tsan; do
    cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt" 2>/dev/null || true)
    if [[ -n "$cached" && "$(readlink -f "$cached")" != "$(readlink -f "$(command -v clang++-14)")" ]]; then
      rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
    fi
  done
fi
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug "$sanitizer_debug_info" "${launcher[@]}" "${sanitizer_compiler[@]}" \
  -DMASSIVE_SANITIZE=ON -DMASSIVE_BUILD_TESTS=ON -DMASSIVE_BUILD_SAMPLES=OFF -DMASSIVE_BUILD_BENCHMARKS=OFF \
  -DMASSIVE_BUILD_CLI=ON -DMASSIVE_BUILD_DOCS=OFF
build_behind "ASan build" build-asan cmake --build build-asan -j "$jobs"
step "Release tests" ctest --test-dir build --output-on-failure -j "$jobs"
wait_behind
slowest build-asan

# A test's name is its executable's: build only those labelled tsan.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug "$sanitizer_debug_info" "${launcher[@]}" "${sanitizer_compiler[@]}" \
  -DMASSIVE_TSAN=ON -DMASSIVE_BUILD_TESTS=ON -DMASSIVE_BUILD_SAMPLES=OFF -DMASSIVE_BUILD_BENCHMARKS=OFF \
  -DMASSIVE_BUILD_CLI=OFF -DMASSIVE_BUILD_DOCS=OFF
mapfile -t tsan_tests < <(ctest --test-dir build-tsan -N -L tsan | sed -n 's/^ *Test *#[0-9]*: //p')
build_behind "TSan build" build-tsan cmake --build build-tsan -j "$jobs" --target "${tsan_tests[@]}"
step "ASan tests" ctest --test-dir build-asan --output-on-failure -j "$jobs"
wait_behind
slowest build-tsan
step "TSan tests" ctest --test-dir build-tsan --output-on-failure -j "$jobs" -L tsan
