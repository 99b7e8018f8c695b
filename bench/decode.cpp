// massive_bench_decode: the streaming engine against the ways users decode a body without
// it, on synthetic bodies fed in 16 KiB chunks. Benchmark names are
// decode/<model>/<rows>/<arm>; scripts/bench-decode.sh turns the JSON output into the ratios
// that docs/maintainers/performance.md reports. Before anything is timed, every arm decodes every body
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
#include <algorithm>
#include <deque>
#include <exception>
#include <iterator>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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

// The arm's decode of body `b` into rows of T.
template <class T, class Arm>
auto decode_with(Arm& arm, const body& b) {
  if constexpr (std::is_same_v<T, agg>) {
    return arm.aggs(b);
  } else {
    return arm.trades(b);
  }
}

template <class T, class Arm>
void register_arm(const std::string& prefix, const char* name, const body& b) {
  benchmark::RegisterBenchmark((prefix + name).c_str(), [&b](benchmark::State& s) {
    Arm arm;
    if constexpr (std::is_same_v<Arm, engine_arm>) {
      measure(s, b, [&] { return decode_with<T>(arm, b); }, [&] { return arm.pool_bytes_touched(); });
    } else {
      measure(s, b, [&] { return decode_with<T>(arm, b); });
    }
  });
}

template <class Arm>
struct named {
  const char* name;
};

// Checks that the arms agree on `b`, then registers decode/<workload>/<rows>/<arm> for each.
template <class T, class... Arms>
void register_body(const char* workload, const body& b, named<Arms>... arms) {
  const std::string prefix = std::string("decode/") + workload + "/" + std::to_string(b.rows) + "/";
  {
    std::tuple<Arms...> instances;
    verify(prefix, b, {arm_digests{arms.name, checksum(rows_of(decode_with<T>(std::get<Arms>(instances), b)))}...});
  }
  (register_arm<T, Arms>(prefix, arms.name, b), ...);
}

// Every arm on a body in the server's key order. padded_whole reads exactly that order.
template <class T>
void register_wire_order(const char* workload, const body& b) {
  register_body<T>(workload, b, named<engine_arm>{"engine"}, named<buffered_string_arm>{"buffered_string"},
                   named<buffered_reused_arm>{"buffered_reused"}, named<padded_whole_arm>{"padded_whole"},
                   named<nlohmann_arm>{"nlohmann"});
}

// The general arms on a body whose rows leave the server's key order (padded_whole cannot
// read it: it is a ceiling for one order, not a decoder).
void register_off_wire_order(const char* workload, const body& b) {
  register_body<agg>(workload, b, named<engine_arm>{"engine"}, named<buffered_string_arm>{"buffered_string"},
                     named<buffered_reused_arm>{"buffered_reused"}, named<nlohmann_arm>{"nlohmann"});
}

// The keys of an aggregate row as the server sends them (codegen/map.txt's `wire agg` row):
// the engine reads a row in exactly this order on its wire-order fast path and any other row
// with its field loop.
constexpr std::string_view agg_wire_order[] = {"v", "vw", "o", "c", "h", "l", "t", "n"};

// How many of the body's rows leave the engine's wire-order fast path. Trades have no wire
// order in the map: every trade row is decoded by the field loop.
template <class T>
std::size_t rows_off_wire_order(const body& b) {
  if constexpr (!std::is_same_v<T, agg>) {
    return b.rows;
  } else {
    simdjson::dom::parser parser;
    std::size_t off = 0;
    for (simdjson::dom::object row : parser.parse(b.padded)["results"].get_array()) {
      std::size_t k = 0;
      bool in_order = true;
      for (const auto field : row) {
        in_order = in_order && k < std::size(agg_wire_order) && field.key == agg_wire_order[k];
        ++k;
      }
      off += !(in_order && k == std::size(agg_wire_order));
    }
    return off;
  }
}

// Says, in the JSON's context and on stderr, what share of a body's rows leaves the fast path.
template <class T>
void report_fast_path_share(const char* workload, const body& b) {
  const std::size_t off = rows_off_wire_order<T>(b);
  const std::string key = std::string("rows_off_wire_order/") + workload + "/" + std::to_string(b.rows);
  const std::string value = std::to_string(off) + " of " + std::to_string(b.rows);
  benchmark::AddCustomContext(key, value);
  std::fprintf(stderr, "%s: %s rows leave the wire-order fast path\n", key.c_str(), value.c_str());
}

// --rows=<n>[,<n>...]: the body sizes (default 1,000, 10,000 and 50,000 aggregates, 50,000
// trades and 50,000 aggregates in sorted key order); removed from argv before the benchmark
// library reads it. A quick run (ctest: bench_decode_arms_agree) uses one small size.
std::vector<std::size_t> take_rows_argument(int& argc, char** argv) {
  std::vector<std::size_t> rows;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (!arg.starts_with("--rows=")) {
      argv[kept++] = argv[i];
      continue;
    }
    for (std::string_view list = arg.substr(7); !list.empty();) {
      const std::size_t comma = std::min(list.find(','), list.size());
      rows.push_back(std::stoul(std::string(list.substr(0, comma))));
      list.remove_prefix(std::min(comma + 1, list.size()));
    }
  }
  argc = kept;
  return rows;
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
  std::vector<std::size_t> agg_sizes = take_rows_argument(argc, argv);
  std::vector<std::size_t> large_sizes = agg_sizes;
  if (agg_sizes.empty()) {
    agg_sizes = {1'000, 10'000, 50'000};
    large_sizes = {50'000};
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return EXIT_FAILURE;
  // Registered benchmarks keep references: the bodies must not move.
  std::deque<body> bodies;
  try {
    for (std::size_t rows : agg_sizes) {
      const body& b = bodies.emplace_back(make_aggs_body(rows), rows);
      report_fast_path_share<massive::agg>("aggs", b);
      register_wire_order<massive::agg>("aggs", b);
    }
    for (std::size_t rows : large_sizes) {
      const body& b = bodies.emplace_back(make_trades_body(rows), rows);
      report_fast_path_share<massive::trade>("trades", b);
      register_wire_order<massive::trade>("trades", b);
    }
    for (std::size_t rows : large_sizes) {
      const body& b = bodies.emplace_back(make_aggs_body(rows, agg_key_order::sorted), rows);
      report_fast_path_share<massive::agg>("aggs_sorted_keys", b);
      register_off_wire_order("aggs_sorted_keys", b);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "massive_bench_decode: an arm failed on its body: %s\n", e.what());
    return EXIT_FAILURE;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return EXIT_SUCCESS;
}
