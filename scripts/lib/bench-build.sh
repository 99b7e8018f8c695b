# Sourced by the benchmark and soak scripts: builds their programs in a Release build directory.

# bench_build <root> <build> <target>: configures <build> for the benchmarks (a fresh directory as
# a Release build without tests or samples; an existing one keeps its settings and gains the
# benchmarks), then builds <target> with JOBS jobs (2 by default).
bench_build() {
  local root=$1 build=$2 target=$3
  if [ -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DMASSIVE_BUILD_BENCHMARKS=ON >/dev/null
  else
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DMASSIVE_BUILD_BENCHMARKS=ON -DMASSIVE_BUILD_TESTS=OFF -DMASSIVE_BUILD_SAMPLES=OFF >/dev/null
  fi
  cmake --build "$build" -j"${JOBS:-2}" --target "$target"
}
