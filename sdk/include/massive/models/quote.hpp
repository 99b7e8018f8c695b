// One NBBO quote: the rows of /v3/quotes/{ticker}. Wire keys are the member names.
#pragma once

#include "massive/time.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>

namespace massive {

namespace detail {
struct row_codec;
}

/// Required: the three fields the description requires (and every recorded quote carries).
/// The price, size and exchange of each side are optional in the description; recorded
/// quotes always carry them, but a one-sided book need not, so they stay optional.
/// Arrays point into the page's arena.
struct quote {
  /// Condition codes (int32). Absent and [] both give an empty span.
  std::span<const std::int32_t> conditions;
  /// Indicator codes (int32). Absent and [] both give an empty span.
  std::span<const std::int32_t> indicators;
  timestamp_ns sip_timestamp;          ///< required; Unix nanoseconds, exact (beyond 2^53)
  timestamp_ns participant_timestamp;  ///< required
  std::optional<timestamp_ns> trf_timestamp;
  std::int64_t sequence_number = 0;  ///< required
  std::optional<double> ask_price;
  std::optional<double> ask_size;
  std::optional<double> bid_price;
  std::optional<double> bid_size;
  std::optional<std::int64_t> ask_exchange;
  std::optional<std::int64_t> bid_exchange;
  std::optional<std::int32_t> tape;  ///< 1 = A (NYSE), 2 = B (ARCA/American), 3 = C (Nasdaq)
};

/// The decoder of quote rows (defined in sdk/src/models/quote.cpp).
const detail::row_codec& row_codec_for(std::type_identity<quote>) noexcept;

}  // namespace massive
