// The vocabulary of a stream: which market, which feed (host), and topics. The topic helpers
// for each channel (massive::stream::stocks::trades("AAPL"), ...) are generated in
// <massive/stream/events.hpp>.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace massive::stream {

/// The market a connection streams: the URL's path (wss://<host>/<market>).
enum class market : std::uint8_t { stocks, options, forex, crypto, indices, futures };

/// The URL path segment of a market.
constexpr std::string_view market_path(market m) noexcept {
  constexpr std::string_view paths[] = {"stocks", "options", "forex", "crypto", "indices", "futures"};
  return paths[static_cast<std::size_t>(m)];
}

/// The host a connection streams from (API-NOTES: the hosts that serve a certificate).
enum class feed : std::uint8_t {
  realtime,          ///< socket.massive.com
  delayed,           ///< delayed.massive.com (15-minute delayed)
  business,          ///< business.massive.com (adds the fair market value channels)
  delayed_business,  ///< delayed-business.massive.com
  polyfeed,          ///< polyfeed.massive.com
  polyfeedplus,      ///< polyfeedplus.massive.com
  nasdaqfeed,        ///< nasdaqfeed.massive.com
  starterfeed,       ///< starterfeed.massive.com
};

/// The host name of a feed.
constexpr std::string_view feed_host(feed f) noexcept {
  constexpr std::string_view hosts[] = {
      "socket.massive.com",     "delayed.massive.com",      "business.massive.com", "delayed-business.massive.com",
      "polyfeed.massive.com",   "polyfeedplus.massive.com", "nasdaqfeed.massive.com", "starterfeed.massive.com"};
  return hosts[static_cast<std::size_t>(f)];
}

/// Which channels' events a connection decodes. A `ev` means different events on different
/// channel sets (launchpad's AM is not the market's AM), so the set is chosen, not guessed.
enum class channel_set : std::uint8_t {
  market,     ///< the market's channels (every feed)
  business,   ///< the market's plus the business channels (fair market value)
  launchpad,  ///< the business channels with launchpad's aggregates and values in place of the market's
};

/// What a subscription names: a channel prefix, a dot and a ticker on one market, e.g. T.AAPL
/// or T.* (every ticker). Made by the generated helpers: massive::stream::stocks::trades("AAPL").
struct topic {
  stream::market market;  ///< the market whose connection carries it
  std::string text;       ///< as sent in the subscribe action: "T.AAPL"

  /// The topic `prefix`.`ticker` on market `m`; the ticker "*" names every ticker.
  topic(stream::market m, std::string_view prefix, std::string_view ticker)
      : market(m), text(std::string(prefix) + "." + std::string(ticker)) {}

  /// Same market and same text.
  friend bool operator==(const topic& a, const topic& b) noexcept = default;
};

}  // namespace massive::stream
