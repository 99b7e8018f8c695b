#include "checksum.hpp"

#include <bit>
#include <optional>
#include <string_view>

namespace massive::bench {
namespace {

// FNV-1a over 64-bit words: cheap, and order-sensitive so swapped fields show.
class hasher {
 public:
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xff;
      h_ *= 0x100000001b3ULL;
    }
  }
  void add(std::int64_t v) { add(static_cast<std::uint64_t>(v)); }
  void add(double v) { add(std::bit_cast<std::uint64_t>(v)); }
  void add(bool v) { add(std::uint64_t{v}); }
  void add(std::string_view s) {
    add(std::uint64_t{s.size()});
    for (char c : s) add(std::uint64_t{static_cast<unsigned char>(c)});
  }
  template <class T>
  void add(const std::optional<T>& v) {
    add(v.has_value());
    if (v) add(*v);
  }
  template <class D>
  void add(unix_time<D> t) {
    add(t.count());
  }
  // Numerically equal decimals hash alike whatever trailing zeros the decoder kept.
  void add(decimal d) {
    std::int64_t m = d.mantissa();
    int scale = d.scale();
    while (scale > 0 && m % 10 == 0) {
      m /= 10;
      --scale;
    }
    add(m);
    add(std::int64_t{scale});
  }
  void add(std::int32_t v) { add(std::int64_t{v}); }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

}  // namespace

digest checksum(std::span<const agg> rows) {
  hasher h;
  digest d;
  d.rows = rows.size();
  for (const agg& a : rows) {
    h.add(a.open);
    h.add(a.high);
    h.add(a.low);
    h.add(a.close);
    h.add(a.volume);
    h.add(a.vwap);
    h.add(a.timestamp);
    h.add(a.transactions);
    h.add(a.otc);
    d.close_or_price += a.close;
    d.timestamps = wrapping_add(d.timestamps, a.timestamp.count());
  }
  d.hash = h.value();
  return d;
}

digest checksum(std::span<const trade> rows) {
  hasher h;
  digest d;
  d.rows = rows.size();
  for (const trade& t : rows) {
    h.add(t.id);
    h.add(std::uint64_t{t.conditions.size()});
    for (std::int32_t c : t.conditions) h.add(c);
    h.add(t.sip_timestamp);
    h.add(t.participant_timestamp);
    h.add(t.trf_timestamp);
    h.add(t.price);
    h.add(t.size);
    h.add(t.decimal_size);
    h.add(t.exchange);
    h.add(t.sequence_number);
    h.add(t.correction);
    h.add(t.trf_id);
    h.add(t.tape);
    d.close_or_price += t.price;
    d.timestamps = wrapping_add(d.timestamps, t.sip_timestamp.count());
  }
  d.hash = h.value();
  return d;
}

}  // namespace massive::bench
