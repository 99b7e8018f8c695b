// A flat file's row: a REST model where a file carries the same data, plus the ticker every
// file row names (a file holds a whole day of every ticker), and one row type of our own where
// REST's differs (aggregates: REST's bars start in milliseconds, files' in nanoseconds). The
// datasets' row types over REST models are generated (massive/files/rows.hpp): a description
// without a dataset's model has no such row type.
//
// Strings and condition arrays point into the row's page (files::row_page) and die with it,
// as REST rows do. A column a market's files do not carry leaves its field absent (nullopt,
// an empty view or span): the same row type reads every market that has the dataset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "massive/time.hpp"

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

/// What a row type reads: its name (in error messages), and for a tick dataset's row type its
/// market and dataset. Given for each generated row type (massive/files/rows.hpp) and for
/// aggregate.
template <class Row>
struct row_traits;

/// A list of row types, to write code over every one (tick_row_types).
template <class... Rows>
struct row_type_list {
  /// How many row types the list holds.
  static constexpr std::size_t size = sizeof...(Rows);
  /// Row's position in the list; `size` when the list does not hold it.
  template <class Row>
  static constexpr std::size_t index_of() noexcept {
    std::size_t at = 0;
    (void)((std::is_same_v<Row, Rows> || (++at, false)) || ...);
    return at;
  }
};

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

/// aggregate reads the minute and day aggregates of every market: it has a name only.
template <>
struct row_traits<aggregate> {
  /// The row type's name, in error messages.
  static constexpr std::string_view name = "aggregate";
};

}  // namespace massive::files
