// Latencies of the end-to-end stream benchmarks (this folder's and bench/relay/), in a histogram
// of constant size (so that recording them does not grow the peak RSS being measured): 64
// buckets per power of two, a percentile within 1.6% of the exact one.
// bench/stream_e2e/js_client.mjs buckets the same way.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

#include <sys/resource.h>

namespace massive::bench {

/// The process's user + system CPU seconds so far.
inline double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// The throughput fields every program of these benchmarks prints (scripts/bench-stream.sh and
/// scripts/bench-relay.sh read them as `key value` pairs): events, seconds, events_per_s, cpu_s,
/// cpu_s_per_million, peak_rss_kib.
inline std::string throughput(std::uint64_t events, double seconds, double cpu) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  char text[256];
  std::snprintf(text, sizeof text,
                "events %llu seconds %.3f events_per_s %.0f cpu_s %.3f cpu_s_per_million %.3f peak_rss_kib %ld",
                static_cast<unsigned long long>(events), seconds, static_cast<double>(events) / seconds, cpu,
                cpu * 1e6 / static_cast<double>(events), usage.ru_maxrss);
  return text;
}

inline std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

class latencies {
 public:
  /// One event's latency; a negative one (none should be) counts as 0.
  void add(std::int64_t ns) {
    ++counts_[bucket(ns < 0 ? 0 : static_cast<std::uint64_t>(ns))];
    ++total_;
  }

  /// The lower bound of the bucket holding the q-quantile, in nanoseconds.
  std::uint64_t quantile(double q) const {
    const auto rank = static_cast<std::uint64_t>(q * static_cast<double>(total_));
    std::uint64_t below = 0;
    for (std::size_t b = 0; b < counts_.size(); ++b) {
      below += counts_[b];
      if (below > rank) return lower_bound(b);
    }
    return 0;
  }

  /// "p50_us X p99_us Y p999_us Z".
  std::string summary() const {
    char text[128];
    std::snprintf(text, sizeof text, "p50_us %.1f p99_us %.1f p999_us %.1f", quantile(0.5) / 1e3,
                  quantile(0.99) / 1e3, quantile(0.999) / 1e3);
    return text;
  }

 private:
  static constexpr std::size_t per_power = 64;

  static std::size_t bucket(std::uint64_t ns) {
    if (ns < per_power) return ns;
    const int exponent = 63 - std::countl_zero(ns);  // 6 or more
    return static_cast<std::size_t>(exponent - 5) * per_power + ((ns >> (exponent - 6)) & (per_power - 1));
  }
  static std::uint64_t lower_bound(std::size_t b) {
    if (b < per_power) return b;
    return (per_power + b % per_power) << (b / per_power - 1);
  }

  std::array<std::uint64_t, per_power * per_power> counts_{};
  std::uint64_t total_ = 0;
};

}  // namespace massive::bench
