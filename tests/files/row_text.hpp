// Every field of a flat-file row as text, absent ones as "-", for comparing decodes (the suite's
// splits, the fuzz target's chunked and whole decodes).
#pragma once

#include <cstdint>
#include <massive/files/rows.hpp>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

namespace massive::files::test {

class row_text {
 public:
  row_text() { out_.precision(17); }

  template <class T>
  row_text& operator<<(const T& v) {
    out_ << v << '|';
    return *this;
  }
  row_text& operator<<(timestamp_ns t) { return *this << t.count(); }
  row_text& operator<<(std::span<const std::int32_t> list) {
    for (const std::int32_t c : list) out_ << c << ';';
    out_ << '|';
    return *this;
  }
  template <class T>
  row_text& operator<<(const std::optional<T>& v) {
    if (v) return *this << *v;
    out_ << "-|";
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

inline std::string text_of(const stock_trade& r) {
  return (row_text() << r.ticker << r.conditions << r.correction << r.exchange << r.id
                     << r.participant_timestamp << r.price << r.sequence_number << r.sip_timestamp
                     << r.size << r.tape << r.trf_id << r.trf_timestamp)
      .str();
}
inline std::string text_of(const stock_quote& r) {
  return (row_text() << r.ticker << r.ask_exchange << r.ask_price << r.ask_size << r.bid_exchange
                     << r.bid_price << r.bid_size << r.conditions << r.indicators
                     << r.participant_timestamp << r.sequence_number << r.sip_timestamp << r.tape
                     << r.trf_timestamp)
      .str();
}
#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
inline std::string text_of(const option_trade& r) {
  return (row_text() << r.ticker << r.conditions << r.correction << r.exchange
                     << r.participant_timestamp << r.price << r.sequence_number << r.sip_timestamp
                     << r.size)
      .str();
}
#endif
#ifdef MASSIVE_FILES_HAS_OPTION_QUOTE
inline std::string text_of(const option_quote& r) {
  return (row_text() << r.ticker << r.ask_exchange << r.ask_price << r.ask_size << r.bid_exchange
                     << r.bid_price << r.bid_size << r.sequence_number << r.sip_timestamp)
      .str();
}
#endif
#ifdef MASSIVE_FILES_HAS_CRYPTO_TRADE
inline std::string text_of(const crypto_trade& r) {
  return (row_text() << r.ticker << r.conditions << r.exchange << r.id << r.participant_timestamp
                     << r.price << r.received_timestamp << r.size)
      .str();
}
#endif
#ifdef MASSIVE_FILES_HAS_FOREX_QUOTE
inline std::string text_of(const forex_quote& r) {
  return (row_text() << r.ticker << r.ask_exchange << r.ask_price << r.bid_exchange << r.bid_price
                     << r.participant_timestamp)
      .str();
}
#endif
inline std::string text_of(const aggregate& r) {
  return (row_text() << r.ticker << r.volume << r.open << r.close << r.high << r.low
                     << r.window_start << r.transactions)
      .str();
}

}  // namespace massive::files::test
