// A digest of decoded agg, trade and quote rows: every field, bit for bit, absent distinct
// from zero, order-sensitive so that swapped fields show. Shared by the decode benchmark
// (its arms must produce the same rows before they are timed) and the decoder's fuzz target
// (a body decoded in chunks and whole must give the same rows). Reading every byte of every
// string also lets ASan check that the page's memory is still alive.
#pragma once

#include <massive/decimal.hpp>
#include <massive/models/agg.hpp>
#include <massive/models/quote.hpp>
#include <massive/models/trade.hpp>
#include <massive/time.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace massive::test {

/// How decimals are hashed: `exact` tells 100.0 from 100 (the same decoder must agree with
/// itself bit for bit); `by_value` hashes numerically equal decimals alike (decoders that
/// may keep other trailing zeros, such as the benchmark's arms, must agree on values).
enum class decimals { exact, by_value };

/// FNV-1a over the bytes of each value.
class row_hasher {
 public:
  explicit row_hasher(decimals mode = decimals::exact) : mode_(mode) {}

  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 0x100000001b3ULL;
  }
  void add(std::uint64_t v) { bytes(&v, sizeof v); }
  void add(std::int64_t v) { add(static_cast<std::uint64_t>(v)); }
  void add(std::int32_t v) { add(std::int64_t{v}); }
  void add(double v) { add(std::bit_cast<std::uint64_t>(v)); }
  void add(bool v) { add(std::uint64_t{v}); }
  void add(std::string_view s) {
    add(std::uint64_t{s.size()});
    bytes(s.data(), s.size());
  }
  void add(std::span<const std::int32_t> s) {
    add(std::uint64_t{s.size()});
    for (std::int32_t v : s) add(v);
  }
  void add(decimal d) {
    std::int64_t m = d.mantissa();
    int scale = d.scale();
    while (mode_ == decimals::by_value && scale > 0 && m % 10 == 0) {
      m /= 10;
      --scale;
    }
    add(m);
    add(std::int64_t{scale});
  }
  template <class D>
  void add(unix_time<D> t) {
    add(t.count());
  }
  template <class T>
  void add(const std::optional<T>& v) {
    add(v.has_value());
    if (v) add(*v);
  }
  std::uint64_t value() const { return h_; }

 private:
  decimals mode_;
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

inline void add_row(row_hasher& h, const agg& a) {
  h.add(a.open);
  h.add(a.high);
  h.add(a.low);
  h.add(a.close);
  h.add(a.volume);
  h.add(a.vwap);
  h.add(a.timestamp);
  h.add(a.transactions);
  h.add(a.otc);
}

inline void add_row(row_hasher& h, const trade& t) {
  h.add(t.id);
  h.add(t.conditions);
  h.add(t.sip_timestamp);
  h.add(t.participant_timestamp);
  h.add(t.trf_timestamp);
  h.add(t.price);
  h.add(t.size);
  // A field of the newer descriptions: the trade of an older one has no member for it.
  [&](const auto& newer) {
    if constexpr (requires { newer.decimal_size; }) h.add(newer.decimal_size);
  }(t);
  h.add(t.exchange);
  h.add(t.sequence_number);
  h.add(t.correction);
  h.add(t.trf_id);
  h.add(t.tape);
}

inline void add_row(row_hasher& h, const quote& q) {
  h.add(q.conditions);
  h.add(q.indicators);
  h.add(q.sip_timestamp);
  h.add(q.participant_timestamp);
  h.add(q.trf_timestamp);
  h.add(q.sequence_number);
  h.add(q.ask_price);
  h.add(q.ask_size);
  h.add(q.bid_price);
  h.add(q.bid_size);
  h.add(q.ask_exchange);
  h.add(q.bid_exchange);
  h.add(q.tape);
}

}  // namespace massive::test
