// A digest of decoded rows, so that the benchmark can refuse to compare arms that do not
// produce the same rows.
#pragma once

#include <massive/models/agg.hpp>
#include <massive/models/trade.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace massive::bench {

struct digest {
  std::size_t rows = 0;
  std::uint64_t hash = 0;    ///< every field, bit for bit, absent distinct from zero
  double close_or_price = 0;  ///< sum of close (aggs) or price (trades), for the message
  std::int64_t timestamps = 0;  ///< wrapping sum of the row timestamps, for the message

  friend bool operator==(const digest&, const digest&) = default;
};

digest checksum(std::span<const agg> rows);
digest checksum(std::span<const trade> rows);

}  // namespace massive::bench
