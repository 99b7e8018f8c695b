// Stock endpoints. Hand-wired in the shape the generator will emit (issue 6 replaces this
// file with generated/include/massive/stocks.hpp): one parameters struct per operation,
// rendered by the URI builder, and one method per operation on the group.
#pragma once

#include "massive/client.hpp"
#include "massive/filter.hpp"
#include "massive/models/agg.hpp"
#include "massive/models/quote.hpp"
#include "massive/models/trade.hpp"
#include "massive/time.hpp"
#include "massive/uri.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace massive {

/// The size of an aggregate window's unit.
enum class timespan { second, minute, hour, day, week, month, quarter, year };

constexpr std::string_view to_wire(timespan value) noexcept {
  constexpr std::string_view names[] = {"second", "minute", "hour",    "day",
                                        "week",   "month",  "quarter", "year"};
  return names[static_cast<int>(value)];
}

/// Result order.
enum class sort_order { asc, desc };

constexpr std::string_view to_wire(sort_order value) noexcept {
  return value == sort_order::asc ? "asc" : "desc";
}

/// The field trades and quotes are sorted by.
enum class timestamp_sort { timestamp };

constexpr std::string_view to_wire(timestamp_sort) noexcept { return "timestamp"; }

/// GET /v2/aggs/ticker/{stocksTicker}/range/{multiplier}/{timespan}/{from}/{to}
struct stocks_aggregates_params {
  std::string_view ticker{};  ///< [stocksTicker] case-sensitive, e.g. "AAPL"
  std::int64_t multiplier = 1;
  massive::timespan timespan = massive::timespan::day;
  date_or_ms from;  ///< required (omitting it does not compile): a date or a ms timestamp
  date_or_ms to;    ///< required: end of the range, a date or a ms timestamp
  std::optional<bool> adjusted{};
  std::optional<sort_order> sort{};
  std::optional<std::int64_t> limit{};  ///< base aggregates queried, at most 50000

  void render(uri_builder& b) const {
    b.path_literal("/v2/aggs/ticker/").path_segment(ticker);
    b.path_literal("/range/").path_segment(multiplier);
    b.path_literal("/").path_segment(timespan);
    b.path_literal("/").path_segment(from);
    b.path_literal("/").path_segment(to);
    b.query("adjusted", adjusted).query("sort", sort).query("limit", limit);
  }
};

/// GET /v3/trades/{stockTicker}
struct stocks_trades_params {
  std::string_view ticker{};  ///< [stockTicker]
  range_filter<date_or_ns> timestamp{};  ///< a date or a nanosecond timestamp
  std::optional<sort_order> order{};
  std::optional<std::int64_t> limit{};  ///< rows per page, 1..50000 (server default 1000)
  std::optional<timestamp_sort> sort{};

  void render(uri_builder& b) const {
    b.path_literal("/v3/trades/").path_segment(ticker);
    b.query("timestamp", timestamp).query("order", order).query("limit", limit);
    b.query("sort", sort);
  }
};

/// GET /v3/quotes/{stockTicker}
struct stocks_quotes_params {
  std::string_view ticker{};  ///< [stockTicker]
  range_filter<date_or_ns> timestamp{};  ///< a date or a nanosecond timestamp
  std::optional<sort_order> order{};
  std::optional<std::int64_t> limit{};  ///< rows per page, 1..50000 (server default 1000)
  std::optional<timestamp_sort> sort{};

  void render(uri_builder& b) const {
    b.path_literal("/v3/quotes/").path_segment(ticker);
    b.query("timestamp", timestamp).query("order", order).query("limit", limit);
    b.query("sort", sort);
  }
};

/// The stock endpoints of a client. A cheap handle: copy it freely while the client lives.
class stocks_group {
 public:
  explicit stocks_group(client& c) noexcept : client_(&c) {}

  /// Aggregate bars over a date range: one page. Completion: void(std::exception_ptr,
  /// page<agg>). Cancellation: as client::fetch.
  template <class Token = default_token>
  auto aggregates(const stocks_aggregates_params& params, Token&& token = {}) {
    return client_->fetch<agg>(build_target([&](uri_builder& b) { params.render(b); }),
                               payload_shape::results_array, std::forward<Token>(token));
  }

  /// Trades of one ticker, page by page.
  cursor<trade> trades(const stocks_trades_params& params, traversal_options opts = {}) {
    return client_->traverse<trade>(build_target([&](uri_builder& b) { params.render(b); }),
                                    payload_shape::results_array, opts);
  }

  /// NBBO quotes of one ticker, page by page.
  cursor<quote> quotes(const stocks_quotes_params& params, traversal_options opts = {}) {
    return client_->traverse<quote>(build_target([&](uri_builder& b) { params.render(b); }),
                                    payload_shape::results_array, opts);
  }

 private:
  client* client_;
};

inline stocks_group client::stocks() noexcept { return stocks_group{*this}; }

}  // namespace massive
