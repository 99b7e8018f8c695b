// One trade: the rows of /v3/trades/{ticker}. Wire keys are the member names.
#pragma once

#include "massive/decimal.hpp"
#include "massive/time.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace massive {

namespace detail {
struct row_codec;
}

/// Required: what the description requires and the recorded responses always carry. The
/// description also requires decimal_size, but the recorded /v3/trades response has none, so
/// it is optional here (the wire wins). Strings and arrays point into the page's arena.
struct trade {
  std::string_view id;  ///< required; unique per ticker, exchange and TRF, not globally
  /// Condition codes (int32 in the description). Absent and [] both give an empty span.
  std::span<const std::int32_t> conditions;
  timestamp_ns sip_timestamp;          ///< required; Unix nanoseconds, exact (beyond 2^53)
  timestamp_ns participant_timestamp;  ///< required
  std::optional<timestamp_ns> trf_timestamp;
  double price = 0;  ///< required
  double size = 0;   ///< required
  /// The exact size as sent ("100.0", fractional shares included); accepted as a string, as
  /// the description says, or as a JSON number, read from its text without rounding.
  std::optional<decimal> decimal_size;
  std::int64_t exchange = 0;         ///< required
  std::int64_t sequence_number = 0;  ///< required
  std::optional<std::int64_t> correction;
  std::optional<std::int64_t> trf_id;
  std::optional<std::int32_t> tape;  ///< 1 = A (NYSE), 2 = B (ARCA/American), 3 = C (Nasdaq)
};

/// The decoder of trade rows (defined in sdk/src/models/trade.cpp).
const detail::row_codec& row_codec_for(std::type_identity<trade>) noexcept;

}  // namespace massive
