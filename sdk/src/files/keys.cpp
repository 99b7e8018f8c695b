// The bucket's layout (API-NOTES, "Flat files"):
// <market>/<dataset>_v1/<YYYY>/<MM>/<YYYY-MM-DD>.csv.gz.
#include <array>
#include <cstdio>
#include <utility>

#include "massive/files/keys.hpp"

namespace massive::files {
namespace {

constexpr std::array<std::pair<market, std::string_view>, 5> markets{
    {{market::stocks, "us_stocks_sip"},
     {market::options, "us_options_opra"},
     {market::indices, "us_indices"},
     {market::forex, "global_forex"},
     {market::crypto, "global_crypto"}}};
constexpr std::array<std::string_view, 5> short_names{"stocks", "options", "indices", "forex",
                                                      "crypto"};
constexpr std::array<std::pair<dataset, std::string_view>, 4> datasets{
    {{dataset::trades, "trades"},
     {dataset::quotes, "quotes"},
     {dataset::minute_aggs, "minute_aggs"},
     {dataset::day_aggs, "day_aggs"}}};

}  // namespace

std::string_view prefix_of(market m) noexcept {
  return markets[static_cast<std::size_t>(m)].second;
}
std::string_view name_of(dataset d) noexcept {
  return datasets[static_cast<std::size_t>(d)].second;
}

std::optional<market> parse_market(std::string_view text) noexcept {
  for (std::size_t i = 0; i < markets.size(); ++i) {
    if (text == markets[i].second || text == short_names[i]) return markets[i].first;
  }
  return std::nullopt;
}

std::optional<dataset> parse_dataset(std::string_view text) noexcept {
  if (text.ends_with("_v1")) text.remove_suffix(3);
  for (const auto& [d, name] : datasets) {
    if (text == name) return d;
  }
  return std::nullopt;
}

std::string dataset_prefix(market m, dataset d) {
  return std::string(prefix_of(m)) + "/" + std::string(name_of(d)) + "_v1/";
}

std::string file_key(market m, dataset d, std::chrono::year_month_day day) {
  require_wire_date(day);
  char tail[40];
  std::snprintf(tail, sizeof tail, "%04d/%02u/%04d-%02u-%02u.csv.gz", int{day.year()},
                unsigned{day.month()}, int{day.year()}, unsigned{day.month()}, unsigned{day.day()});
  return dataset_prefix(m, d) + tail;
}

std::optional<std::chrono::year_month_day> day_of(std::string_view key) noexcept {
  const std::size_t slash = key.rfind('/');
  std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (!name.ends_with(".csv.gz")) return std::nullopt;
  return parse_date(name.substr(0, name.size() - 7));
}

}  // namespace massive::files
