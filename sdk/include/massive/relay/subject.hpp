// Where the relay publishes on JetStream: massive.<market>.<ev>.<ticker token>, e.g.
// massive.stocks.T.AAPL (docs/maintainers/relay.md, "Subjects"). A NATS subject token cannot
// hold '.', '*', '>' or white space, so a ticker's bytes that a token cannot hold are
// percent-encoded ("BRK.A" -> "BRK%2EA"), '%' itself too, and nothing else: "EUR/USD" and
// "O:SPY251219C00650000" stay as they are. The mapping is reversible (token_ticker).
#pragma once

#include <string>
#include <string_view>

#include "massive/stream/topic.hpp"

namespace massive::relay {

/// The subject prefix of every relay subject.
inline constexpr std::string_view subject_root = "massive";

/// Appends the subject token of `ticker` to `out`. Throws relay_error(invalid_ticker) for an
/// empty ticker. Allocates only when `out` must grow.
void append_ticker_token(std::string& out, std::string_view ticker);
/// The subject token of `ticker` (see the file comment).
std::string ticker_token(std::string_view ticker);
/// The ticker a token stands for; throws relay_error(invalid_ticker) for a token that
/// ticker_token cannot have made (an empty one, a bad escape, a byte a token cannot hold).
std::string token_ticker(std::string_view token);

/// Writes the subject of an event into `out` (replacing its content):
/// massive.<market>.<ev>.<token>.
void event_subject(std::string& out, stream::market m, std::string_view ev,
                   std::string_view ticker);
/// The JetStream filter of a topic: T.AAPL -> massive.stocks.T.AAPL, T.* -> massive.stocks.T.*.
/// Throws relay_error(invalid_ticker) for a topic that is not <prefix>.<ticker>.
std::string topic_filter(const stream::topic& t);
/// Every subject of a market: massive.<market>.>
std::string market_filter(stream::market m);
/// A control message's subject: massive.<market>._relay.<kind> (kind: gap, takeover, error).
std::string control_subject(stream::market m, std::string_view kind);
/// True when `subject` is a control message's.
bool is_control_subject(std::string_view subject) noexcept;
/// True when `subject` matches `filter` by NATS's rules: '*' stands for one token, a final '>'
/// for one or more.
bool subject_matches(std::string_view filter, std::string_view subject) noexcept;
/// The JetStream stream that holds a market's subjects: MASSIVE_STOCKS, MASSIVE_OPTIONS, ...
std::string stream_name(stream::market m);

}  // namespace massive::relay
