// The flat files' markets and datasets, and the S3 keys that name their files
// (API-NOTES, "Flat files": us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace massive::files {

/// The markets with flat files, by their key prefixes.
enum class market {
  stocks,   ///< us_stocks_sip
  options,  ///< us_options_opra
  indices,  ///< us_indices
  forex,    ///< global_forex
  crypto,   ///< global_crypto
};

/// The datasets of a market (not every market has every one).
enum class dataset {
  trades,       ///< trades_v1
  quotes,       ///< quotes_v1
  minute_aggs,  ///< minute_aggs_v1
  day_aggs,     ///< day_aggs_v1
};

/// "us_stocks_sip".
std::string_view prefix_of(market m) noexcept;
/// "trades".
std::string_view name_of(dataset d) noexcept;
/// The market a prefix or short name names ("us_stocks_sip" or "stocks"), if any.
std::optional<market> parse_market(std::string_view text) noexcept;
/// The dataset a name names ("trades" or "trades_v1"), if any.
std::optional<dataset> parse_dataset(std::string_view text) noexcept;
/// "us_stocks_sip/trades_v1/": every file of a dataset.
std::string dataset_prefix(market m, dataset d);
/// "us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz": the key of one day's file.
std::string file_key(market m, dataset d, std::chrono::year_month_day day);
/// The day a file's key names (its last segment's YYYY-MM-DD), if it names one.
std::optional<std::chrono::year_month_day> day_of(std::string_view key) noexcept;

}  // namespace massive::files
