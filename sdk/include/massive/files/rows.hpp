// The rows of flat files: the REST models where a file carries the same data, plus the ticker
// every file row names (a file holds a whole day of every ticker), and one row type of our own
// where REST's differs (aggregates: REST's bars start in milliseconds, files' in nanoseconds).
//
// Strings and condition arrays point into the row's page (files::row_page) and die with it,
// as REST rows do. A column a market's files do not carry leaves its field absent (nullopt,
// an empty view or span): the same row type reads every market that has the dataset.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "massive/time.hpp"

// Each of these models is generated from the route of the REST rows a dataset holds. A
// description without that route has no such model (the official JVM client's copy drops the
// x-polygon-ignore routes, options' and crypto's trades and quotes and forex's quotes among
// them): the dataset's row type is then not declared, its MASSIVE_FILES_HAS_* macro not
// defined, and the other datasets still compile.
#if __has_include(<massive/models/trade.hpp>)
#include <massive/models/trade.hpp>
#define MASSIVE_FILES_HAS_STOCK_TRADE 1
#endif
#if __has_include(<massive/models/quote.hpp>)
#include <massive/models/quote.hpp>
#define MASSIVE_FILES_HAS_STOCK_QUOTE 1
#endif
#if __has_include(<massive/models/options_trade.hpp>)
#include <massive/models/options_trade.hpp>
#define MASSIVE_FILES_HAS_OPTION_TRADE 1
#endif
#if __has_include(<massive/models/options_quote.hpp>)
#include <massive/models/options_quote.hpp>
#define MASSIVE_FILES_HAS_OPTION_QUOTE 1
#endif
#if __has_include(<massive/models/crypto_trade.hpp>)
#include <massive/models/crypto_trade.hpp>
#define MASSIVE_FILES_HAS_CRYPTO_TRADE 1
#endif
#if __has_include(<massive/models/forex_quote.hpp>)
#include <massive/models/forex_quote.hpp>
#define MASSIVE_FILES_HAS_FOREX_QUOTE 1
#endif

namespace massive::files {

/// A REST model's fields, plus the ticker a flat file's row names. Derives from the model, so
/// code written for REST rows takes a file's row as it is (`const massive::trade& t = row;`).
template <class Model>
struct row : Model {
  /// The REST model the row extends.
  using model_type = Model;
  /// The row's ticker: "AAPL", an option contract ("O:SPY241220P00720000"), a pair ("X:BTCUSD").
  std::string_view ticker;
};

#ifdef MASSIVE_FILES_HAS_STOCK_TRADE
/// us_stocks_sip/trades_v1: REST's massive::trade (decimal_size is never set: files have no such
/// column).
using stock_trade = row<massive::trade>;
#endif
#ifdef MASSIVE_FILES_HAS_STOCK_QUOTE
/// us_stocks_sip/quotes_v1: REST's massive::quote.
using stock_quote = row<massive::quote>;
#endif
#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
/// us_options_opra/trades_v1: REST's massive::options_trade.
using option_trade = row<massive::options_trade>;
#endif
#ifdef MASSIVE_FILES_HAS_OPTION_QUOTE
/// us_options_opra/quotes_v1: REST's massive::options_quote.
using option_quote = row<massive::options_quote>;
#endif
#ifdef MASSIVE_FILES_HAS_CRYPTO_TRADE
/// global_crypto/trades_v1: REST's massive::crypto_trade.
using crypto_trade = row<massive::crypto_trade>;
#endif
#ifdef MASSIVE_FILES_HAS_FOREX_QUOTE
/// global_forex/quotes_v1: REST's massive::forex_quote.
using forex_quote = row<massive::forex_quote>;
#endif

/// minute_aggs_v1 and day_aggs_v1 of every market: one bar of one ticker. Not REST's
/// massive::agg, whose start is in milliseconds: a file's `window_start` is in nanoseconds.
struct aggregate {
  std::string_view ticker;                   ///< the bar's ticker
  double volume = 0;                         ///< traded volume in the window
  double open = 0;                           ///< first price in the window
  double close = 0;                          ///< last price in the window
  double high = 0;                           ///< highest price in the window
  double low = 0;                            ///< lowest price in the window
  timestamp_ns window_start;                 ///< start of the window, Unix nanoseconds
  std::optional<std::int64_t> transactions;  ///< trades in the window, where the file says
};

static_assert(std::is_trivially_destructible_v<aggregate>);

}  // namespace massive::files
