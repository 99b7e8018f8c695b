// The checksum every end-to-end client computes over the rows it decoded, so that the
// benchmark refuses to compare clients that did not read the same values. Each row's fields
// are mixed bit for bit (a price that rounds differently changes it) and the rows are summed,
// so the digest is exact and does not depend on how a client groups rows into pages.
#pragma once

#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string_view>

namespace massive::bench::e2e {

class row_hasher {
 public:
  row_hasher& add(std::uint64_t v) noexcept {
    state_ = (state_ ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    state_ ^= state_ >> 29;
    return *this;
  }
  row_hasher& add(std::int64_t v) noexcept { return add(static_cast<std::uint64_t>(v)); }
  row_hasher& add(double v) noexcept { return add(std::bit_cast<std::uint64_t>(v)); }
  row_hasher& add(std::string_view s) noexcept {
    add(static_cast<std::uint64_t>(s.size()));
    for (char c : s) add(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
    return *this;
  }
  std::uint64_t value() const noexcept { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

struct digest {
  std::uint64_t rows = 0;
  std::uint64_t hash = 0;

  void add(const row_hasher& row) noexcept {
    ++rows;
    std::uint64_t z = row.value() + 0x9e3779b97f4a7c15ULL;  // splitmix64 finaliser
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    hash += z ^ (z >> 31);
  }
};

/// The fields every client reads from an aggregate row: v vw o c h l t n.
inline row_hasher agg_row(double volume, double vwap, double open, double close, double high,
                          double low, std::int64_t t, std::int64_t n) noexcept {
  row_hasher h;
  h.add(volume).add(vwap).add(open).add(close).add(high).add(low).add(t).add(n);
  return h;
}

/// The fields of a trade row but its conditions, which are added one by one after it:
/// exchange id participant_timestamp price sequence_number sip_timestamp size tape.
inline row_hasher trade_row(std::int64_t exchange, std::string_view id,
                            std::int64_t participant_timestamp, double price,
                            std::int64_t sequence_number, std::int64_t sip_timestamp, double size,
                            std::int64_t tape) noexcept {
  row_hasher h;
  h.add(exchange).add(id).add(participant_timestamp).add(price).add(sequence_number);
  h.add(sip_timestamp).add(size).add(tape);
  return h;
}

inline row_hasher& add_conditions(row_hasher& h, std::span<const std::int32_t> codes) noexcept {
  h.add(static_cast<std::uint64_t>(codes.size()));
  for (auto c : codes) h.add(static_cast<std::int64_t>(c));
  return h;
}

// One "<key>: <n> kB" line of /proc/self/status, or -1.
inline long status_kib(const char* key) {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return -1;
  char line[256];
  long kib = -1;
  const std::string_view wanted(key);
  while (std::fgets(line, sizeof line, status) != nullptr) {
    const std::string_view l(line);
    if (l.size() > wanted.size() && l.substr(0, wanted.size()) == wanted && l[wanted.size()] == ':') {
      std::sscanf(line + wanted.size() + 1, "%ld", &kib);
      break;
    }
  }
  std::fclose(status);
  return kib;
}

/// This process's peak resident set so far, KiB: VmHWM, the high-water mark of this image's
/// memory. Not getrusage's ru_maxrss, which on Linux also carries the RSS the process had
/// before exec (a Python parent's, when forked from one).
inline long peak_rss_kib() { return status_kib("VmHWM"); }

/// Resident memory private to this process right now (heap, stacks, anonymous mappings), KiB;
/// the rest of the RSS is file-backed, mostly shared libraries' code.
inline long anonymous_rss_kib() { return status_kib("RssAnon"); }

/// What a client reports: the rows it read and its memory at three points (KiB, VmHWM).
struct report {
  digest rows;
  std::uint64_t pages = 0;
  std::size_t row_bytes = 0;        ///< size of the struct a row is decoded into
  long rss_at_start_kib = peak_rss_kib();  ///< libraries loaded, nothing done yet
  long rss_after_two_pages_kib = 0;
  /// Largest anonymous RSS seen when a page was complete (its rows alive): a sampled peak.
  long anonymous_peak_kib = 0;

  /// In-process time from the first request to the last row: the process's start-up (the
  /// loader, the libraries' initialisation) and exit stay out of it.
  std::chrono::steady_clock::time_point first_request{};
  std::chrono::steady_clock::time_point last_row{};

  /// Called right before the first request is made.
  void requesting() { first_request = std::chrono::steady_clock::now(); }

  /// Called with the page's rows still alive, after its last row was read.
  void page_done() {
    last_row = std::chrono::steady_clock::now();
    if (++pages == 2) rss_after_two_pages_kib = peak_rss_kib();
    const long anonymous = anonymous_rss_kib();
    if (anonymous > anonymous_peak_kib) anonymous_peak_kib = anonymous;
  }
};

/// The line every client ends with, which scripts/bench-e2e.sh reads.
inline void print_report(const report& r) {
  const auto traversal = std::chrono::duration_cast<std::chrono::nanoseconds>(r.last_row - r.first_request);
  std::printf(
      "rows=%llu pages=%llu hash=%016llx row_bytes=%zu rss_at_start_kib=%ld "
      "rss_after_2_pages_kib=%ld rss_kib=%ld anonymous_peak_kib=%ld traversal_ns=%lld\n",
      static_cast<unsigned long long>(r.rows.rows), static_cast<unsigned long long>(r.pages),
      static_cast<unsigned long long>(r.rows.hash), r.row_bytes, r.rss_at_start_kib,
      r.rss_after_two_pages_kib, peak_rss_kib(), r.anonymous_peak_kib,
      static_cast<long long>(traversal.count()));
}

}  // namespace massive::bench::e2e
