#include "checksum.hpp"

#include "row_digest.hpp"  // tests/support

namespace massive::bench {
namespace {

std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

}  // namespace

digest checksum(std::span<const agg> rows) {
  test::row_hasher h{test::decimals::by_value};
  digest d;
  d.rows = rows.size();
  for (const agg& a : rows) {
    add_row(h, a);
    d.close_or_price += a.close;
    d.timestamps = wrapping_add(d.timestamps, a.timestamp.count());
  }
  d.hash = h.value();
  return d;
}

digest checksum(std::span<const trade> rows) {
  test::row_hasher h{test::decimals::by_value};
  digest d;
  d.rows = rows.size();
  for (const trade& t : rows) {
    add_row(h, t);
    d.close_or_price += t.price;
    d.timestamps = wrapping_add(d.timestamps, t.sip_timestamp.count());
  }
  d.hash = h.value();
  return d;
}

}  // namespace massive::bench
