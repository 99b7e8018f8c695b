// Every operation of the Massive API, answered offline and deterministically: the routes of
// the description's catalog (generated from the same description and map as the SDK's models),
// with bodies synthesised from each operation's response schema.
//
//   - Routing: the request path is matched against every route template; the template with the
//     most literal segments wins (leftmost literal first on a tie). Variants of one route
//     (x-polygon-ignore, e.g. /v3/trades/{cryptoTicker} next to /v3/trades/{stockTicker}) are
//     told apart as the API does, by the ticker's prefix: X: crypto, C: forex, I: indices,
//     O: options, none: stocks; otherwise the operation that is not a variant.
//   - Stocks aggregates, trades and quotes are the market's (market.hpp): coherent prices and
//     time-ordered ticks. Everything else is synthesised from the catalog: the body has the
//     operation's shape (results array or object, the body itself, a top-level array, or
//     results.values with its `underlying`), and every field its type: prices with cents,
//     volumes, timestamps (ns/us/ms) in a trading day, tickers, ISO dates, decimal strings,
//     small JSON objects for free-form fields, nested models, arrays and maps populated.
//   - `limit` sets the rows per page. A paginated operation's chain has `pages` pages joined by
//     absolute next_url on base_url with an opaque cursor; the last page has no next_url.
//   - Values are a pure function of the seed, the route and the request (no state): the same
//     request gets the same bytes, any page can be asked for in any order.
//   - Unknown routes: 404 {"status":"NOT_FOUND","request_id":...,"message":...}; a bad
//     parameter: 400 {"status":"ERROR",...,"error":...}.
#pragma once

#include "massive/mock/market.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace massive::mock {

/// What the API serves and where its next_url points.
struct api_options {
  /// Scheme, host and port that next_url points at: the server's own base URL.
  std::string base_url{};
  /// Pages in a paginated operation's next_url chain.
  int pages = 3;
  /// Rows per page of an array payload when the request names no `limit`.
  int rows_per_page = 10;
  /// Changes every synthesised value (not the market's).
  std::uint64_t seed = 0;
  /// The market behind stocks aggregates, trades and quotes (its base_url is ignored).
  market_options market{};
};

/// The operation a request is routed to.
struct route_match {
  std::string_view group;  ///< e.g. "crypto"
  std::string_view name;   ///< e.g. "trades"
  std::string_view path;   ///< its route template, e.g. "/v3/trades/{cryptoTicker}"
};

/// Every operation of the description, without I/O (see the file comment).
class api {
 public:
  /// Serves what `options` describes; throws std::invalid_argument for pages or rows < 1.
  explicit api(api_options options);

  /// The answer to GET `target` (origin form, e.g. "/v3/reference/tickers?limit=5").
  response answer(std::string_view target) const;

  /// The operation `target` is routed to; nullopt for an unknown route.
  std::optional<route_match> route(std::string_view target) const;

  /// How many operations the catalog holds (every GET of the description).
  static std::size_t operation_count();

 private:
  api_options options_;
  market market_;
};

}  // namespace massive::mock
