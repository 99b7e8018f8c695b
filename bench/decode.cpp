// massive_bench_decode: the streaming engine against the ways users decode a body without
// it, on synthetic bodies fed in 16 KiB chunks. Benchmark names are
// decode/<model>/<rows>/<arm>; scripts/bench-decode.sh turns the JSON output into the ratios
// that docs/performance.md reports. Before anything is timed, every arm decodes every body
// once and the run stops unless all arms return the same rows.
#include "allocation_counter.hpp"  // tests/support: the counter the allocation gates use
#include "arms.hpp"
#include "bodies.hpp"
#include "checksum.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <type_traits>
#include <string>
#include <utility>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace massive::bench {

body::body(std::string t, std::size_t r)
    : text(std::move(t)), padded(text), chunks(chunk(text, chunk_size)), rows(r) {}

namespace {

template <class Result>
std::span<const typename Result::value_type> rows_of(const Result& r) {
  return r.rows();
}
template <class T>
std::span<const T> rows_of(const owned_rows<T>& r) {
  return r.rows;
}
template <class T>
std::span<const T> rows_of(std::span<const T> r) {
  return r;
}

// Times `decode` (one whole body per iteration, its result destroyed each time) and reports
// rows/s, bytes/s and the memory allocated per iteration once warm: through operator new,
// and for the engine also the pool memory touched afresh (`touched`), which operator new
// never sees.
template <class Decode, class Touched = std::nullptr_t>
void measure(benchmark::State& state, const body& b, Decode decode, Touched touched = nullptr) {
  constexpr bool has_pool = !std::is_same_v<Touched, std::nullptr_t>;
  const auto pool_bytes = [&]() -> std::uint64_t {
    if constexpr (has_pool) {
      return touched();
    } else {
      return 0;
    }
  };
  benchmark::DoNotOptimize(decode());  // warm: parser capacity, pool, arena
  const test::allocation_totals before = test::thread_totals();
  const std::uint64_t touched_before = pool_bytes();
  for (auto _ : state) {
    auto result = decode();
    benchmark::DoNotOptimize(result);
    benchmark::ClobberMemory();
  }
  const test::allocation_totals after = test::thread_totals();
  const auto iterations = static_cast<double>(state.iterations());
  if (has_pool) {
    state.counters["pool_bytes_touched_per_iter"] =
        benchmark::Counter(static_cast<double>(pool_bytes() - touched_before) / iterations);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(b.rows));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(b.text.size()));
  state.counters["alloc_bytes_per_iter"] =
      benchmark::Counter(static_cast<double>(after.bytes - before.bytes) / iterations);
  state.counters["allocs_per_iter"] =
      benchmark::Counter(static_cast<double>(after.calls - before.calls) / iterations);
}

struct arm_digests {
  const char* arm;
  digest value;
};

// Every arm must return the same rows as the engine, and as many as the body holds.
// Seen failing when padded_whole stopped storing `vw`: its hash differed on
// decode/aggs/1000/, the run stopped with status 1 before timing anything.
void verify(const std::string& name, const body& b, std::initializer_list<arm_digests> arms) {
  const digest& reference = arms.begin()->value;
  bool agree = true;
  for (const arm_digests& a : arms) {
    agree = agree && a.value == reference && a.value.rows == b.rows;
  }
  if (agree) return;
  std::fprintf(stderr, "massive_bench_decode: the arms disagree on %s (%zu rows in the body)\n",
               name.c_str(), b.rows);
  for (const arm_digests& a : arms) {
    std::fprintf(stderr, "  %-16s rows %zu  hash %016llx  sum %.6f  timestamps %lld\n", a.arm,
                 a.value.rows, static_cast<unsigned long long>(a.value.hash),
                 a.value.close_or_price, static_cast<long long>(a.value.timestamps));
  }
  std::exit(EXIT_FAILURE);
}

void register_aggs(const body& b) {
  const std::string prefix = "decode/aggs/" + std::to_string(b.rows) + "/";
  {
    engine_arm engine;
    buffered_string_arm buffered;
    padded_whole_arm padded;
    nlohmann_arm nlohmann;
    verify(prefix, b,
           {{"engine", checksum(rows_of(engine.aggs(b)))},
            {"buffered_string", checksum(rows_of(buffered.aggs(b)))},
            {"padded_whole", checksum(rows_of(padded.aggs(b)))},
            {"nlohmann", checksum(rows_of(nlohmann.aggs(b)))}});
  }
  benchmark::RegisterBenchmark((prefix + "engine").c_str(), [&b](benchmark::State& s) {
    engine_arm arm;
    measure(s, b, [&] { return arm.aggs(b); }, [&] { return arm.pool_bytes_touched(); });
  });
  benchmark::RegisterBenchmark((prefix + "buffered_string").c_str(), [&b](benchmark::State& s) {
    buffered_string_arm arm;
    measure(s, b, [&] { return arm.aggs(b); });
  });
  benchmark::RegisterBenchmark((prefix + "padded_whole").c_str(), [&b](benchmark::State& s) {
    padded_whole_arm arm;
    measure(s, b, [&] { return arm.aggs(b); });
  });
  benchmark::RegisterBenchmark((prefix + "nlohmann").c_str(), [&b](benchmark::State& s) {
    nlohmann_arm arm;
    measure(s, b, [&] { return arm.aggs(b); });
  });
}

void register_trades(const body& b) {
  const std::string prefix = "decode/trades/" + std::to_string(b.rows) + "/";
  {
    engine_arm engine;
    buffered_string_arm buffered;
    padded_whole_arm padded;
    nlohmann_arm nlohmann;
    verify(prefix, b,
           {{"engine", checksum(rows_of(engine.trades(b)))},
            {"buffered_string", checksum(rows_of(buffered.trades(b)))},
            {"padded_whole", checksum(rows_of(padded.trades(b)))},
            {"nlohmann", checksum(rows_of(nlohmann.trades(b)))}});
  }
  benchmark::RegisterBenchmark((prefix + "engine").c_str(), [&b](benchmark::State& s) {
    engine_arm arm;
    measure(s, b, [&] { return arm.trades(b); }, [&] { return arm.pool_bytes_touched(); });
  });
  benchmark::RegisterBenchmark((prefix + "buffered_string").c_str(), [&b](benchmark::State& s) {
    buffered_string_arm arm;
    measure(s, b, [&] { return arm.trades(b); });
  });
  benchmark::RegisterBenchmark((prefix + "padded_whole").c_str(), [&b](benchmark::State& s) {
    padded_whole_arm arm;
    measure(s, b, [&] { return arm.trades(b); });
  });
  benchmark::RegisterBenchmark((prefix + "nlohmann").c_str(), [&b](benchmark::State& s) {
    nlohmann_arm arm;
    measure(s, b, [&] { return arm.trades(b); });
  });
}

}  // namespace
}  // namespace massive::bench

int main(int argc, char** argv) {
  using namespace massive::bench;
#if defined(__GLIBC__)
  // The baselines allocate megabytes per body. Left to itself, glibc serves them with mmap or
  // trims its heap after each body, until a large enough free raises its dynamic thresholds;
  // each iteration then pays fresh page faults, which on the VM the figures come from made
  // buffered_string 9x slower (61 ms instead of 7 ms per 50,000 aggregates), and made the
  // result depend on which bodies happened to be decoded first. Fixed thresholds give the
  // baselines their best case, the steady state of a long-running process: a heap that
  // keeps its memory. The engine's pages come from its own pool and are not affected.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return EXIT_FAILURE;
  // Registered benchmarks keep references: the bodies must not move.
  std::deque<body> bodies;
  try {
    for (std::size_t rows : {1'000, 10'000, 50'000}) {
      register_aggs(bodies.emplace_back(make_aggs_body(rows), rows));
    }
    register_trades(bodies.emplace_back(make_trades_body(50'000), 50'000));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "massive_bench_decode: an arm failed on its body: %s\n", e.what());
    return EXIT_FAILURE;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return EXIT_SUCCESS;
}
