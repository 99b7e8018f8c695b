// Deterministic market data in the Massive API's wire format, answered without I/O: the
// data behind the embedded server that the quickstart and the tests run against.
//
// Routes (origin-form targets, as the SDK sends them):
//   /v2/aggs/ticker/{T}/range/{multiplier}/{timespan}/{from}/{to}   adjusted sort limit
//   /v3/trades/{T}                                                   timestamp[.gt|.gte|.lt|.lte] order limit sort
//   /v3/quotes/{T}                                                   same as trades
// Anything else is a 404 in the API's error envelope; a bad parameter is a 400.
//
// Values are synthesised from the ticker and the time alone (no state), so any page can be
// produced in any order and the same request always gets the same bytes. Pages beyond `limit`
// carry an absolute next_url with an opaque cursor, as the real API does; for aggregates the
// `{from}` segment of next_url moves forward to a millisecond value, as it does on the wire.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace massive::mock {

/// One answer of the market: what the server sends back.
struct response {
  /// 200, 400 for a bad parameter, 404 for an unknown route.
  int status = 200;
  std::string body{};  ///< JSON
};

/// What the market serves and where its next_url points.
struct market_options {
  /// Scheme, host and port that next_url points at: the server's own base URL.
  std::string base_url{};
  /// Trades and quotes per trading day and ticker.
  std::int64_t ticks_per_day = 20'000;
  /// The day served when a trades or quotes request names no timestamp.
  std::string default_day = "2024-01-12";
};

/// The mock's data: answers a GET target with a JSON body, without I/O, deterministically
/// (the routes are listed in the file comment).
class market {
 public:
  /// Serves the data `options` describes.
  explicit market(market_options options);

  /// The answer to GET `target`.
  response answer(std::string_view target) const;

  /// Appends `ticker`'s trades of `day` (YYYY-MM-DD) as the rows of a flat file of stock trades
  /// (API-NOTES' columns, no header): the trades /v3/trades/{ticker}?timestamp=day returns, in
  /// ascending time. None on a weekend.
  void write_trades_csv(std::string& out, std::string_view ticker, std::string_view day) const;

 private:
  market_options options_;
};

}  // namespace massive::mock
