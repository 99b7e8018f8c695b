// One aggregate bar: the rows of /v2/aggs/ticker/{ticker}/range/..., /prev and the grouped
// daily bars. Wire keys are given in brackets.
#pragma once

#include "massive/time.hpp"

#include <cstdint>
#include <optional>
#include <type_traits>

namespace massive {

namespace detail {
struct row_codec;
}

/// Required fields are those the description requires and every recorded response carries
/// (o h l c v t); a row without one is a decode_error (missing_field). Keys the model does not
/// name (the grouped bars' `T`, say) are skipped.
struct agg {
  double open = 0;   ///< [o] required
  double high = 0;   ///< [h] required
  double low = 0;    ///< [l] required
  double close = 0;  ///< [c] required
  /// [v] required. Sent as 135647456, 1748755.0 or 2.384421e+06 alike: all are accepted.
  double volume = 0;
  std::optional<double> vwap;  ///< [vw] volume-weighted average price
  timestamp_ms timestamp;      ///< [t] required: start of the window, Unix milliseconds
  /// [n] number of transactions. An integral float form (1.0e+03) is accepted when the value
  /// is exact in a double (|n| <= 2^53).
  std::optional<std::int64_t> transactions;
  /// [otc] the server leaves the key off when false, so absent and false are the same.
  bool otc = false;
};

/// The decoder of agg rows (defined in sdk/src/models/agg.cpp).
const detail::row_codec& row_codec_for(std::type_identity<agg>) noexcept;

}  // namespace massive
