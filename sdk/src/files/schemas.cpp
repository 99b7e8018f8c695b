// The columns each flat-file row type reads, by the header's names (API-NOTES, "Flat files":
// the columns of each dataset). Offsets are taken from a default row, so the row types stay
// plain aggregates deriving from REST models (offsetof is not defined for them).
#include <array>
#include <cstdint>

#include "massive/files/decoder.hpp"

namespace massive::files::detail {
namespace {

template <class Row>
const Row& blank() {
  static const Row row{};
  return row;
}

/// The offset of `member` (of Row or of a base of Row) in a Row.
template <class Row, class Owner, class Field>
std::uint32_t offset_of(Field Owner::*member) {
  const Row& row = blank<Row>();
  const auto* field = reinterpret_cast<const char*>(&(static_cast<const Owner&>(row).*member));
  return static_cast<std::uint32_t>(field - reinterpret_cast<const char*>(&row));
}

template <class Row, class Owner, class Field>
column col(std::string_view name, column_kind kind, Field Owner::*member, bool needed) {
  return {name, kind, offset_of<Row>(member), needed};
}

constexpr std::array<std::string_view, 2> tick_times{"sip_timestamp", "participant_timestamp"};
constexpr std::array<std::string_view, 1> window_times{"window_start"};

template <class Row, std::size_t N>
row_schema make(std::string_view name, const std::array<column, N>& columns,
                std::span<const std::string_view> times) {
  return {name, columns, times, sizeof(Row), &blank<Row>()};
}

constexpr bool needed = true;
constexpr bool may_lack = false;
using enum column_kind;

}  // namespace

const row_schema& schema_for(std::type_identity<stock_trade>) noexcept {
  using T = stock_trade;
  using M = massive::trade;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("conditions", i32_list, &M::conditions, may_lack),
      col<T>("correction", opt_i64, &M::correction, may_lack),
      col<T>("exchange", i64, &M::exchange, needed),
      col<T>("id", text, &M::id, needed),
      col<T>("participant_timestamp", ns, &M::participant_timestamp, needed),
      col<T>("price", f64, &M::price, needed),
      col<T>("sequence_number", i64, &M::sequence_number, needed),
      col<T>("sip_timestamp", ns, &M::sip_timestamp, needed),
      col<T>("size", f64, &M::size, needed),
      col<T>("tape", opt_i32, &M::tape, may_lack),
      col<T>("trf_id", opt_i64, &M::trf_id, may_lack),
      col<T>("trf_timestamp", opt_ns, &M::trf_timestamp, may_lack),
  };
  static const row_schema schema = make<T>("stock_trade", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<stock_quote>) noexcept {
  using T = stock_quote;
  using M = massive::quote;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("ask_exchange", opt_i64, &M::ask_exchange, may_lack),
      col<T>("ask_price", opt_f64, &M::ask_price, needed),
      col<T>("ask_size", opt_f64, &M::ask_size, may_lack),
      col<T>("bid_exchange", opt_i64, &M::bid_exchange, may_lack),
      col<T>("bid_price", opt_f64, &M::bid_price, needed),
      col<T>("bid_size", opt_f64, &M::bid_size, may_lack),
      col<T>("conditions", i32_list, &M::conditions, may_lack),
      col<T>("indicators", i32_list, &M::indicators, may_lack),
      col<T>("participant_timestamp", ns, &M::participant_timestamp, needed),
      col<T>("sequence_number", i64, &M::sequence_number, needed),
      col<T>("sip_timestamp", ns, &M::sip_timestamp, needed),
      col<T>("tape", opt_i32, &M::tape, may_lack),
      col<T>("trf_timestamp", opt_ns, &M::trf_timestamp, may_lack),
  };
  static const row_schema schema = make<T>("stock_quote", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<option_trade>) noexcept {
  using T = option_trade;
  using M = massive::options_trade;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("conditions", i32_list, &M::conditions, may_lack),
      col<T>("correction", opt_i64, &M::correction, may_lack),
      col<T>("exchange", opt_i64, &M::exchange, may_lack),
      col<T>("participant_timestamp", opt_ns, &M::participant_timestamp, may_lack),
      col<T>("price", opt_f64, &M::price, needed),
      col<T>("sequence_number", opt_i64, &M::sequence_number, may_lack),
      col<T>("sip_timestamp", opt_ns, &M::sip_timestamp, may_lack),
      col<T>("size", opt_f64, &M::size, needed),
  };
  static const row_schema schema = make<T>("option_trade", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<option_quote>) noexcept {
  using T = option_quote;
  using M = massive::options_quote;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("ask_exchange", opt_i64, &M::ask_exchange, may_lack),
      col<T>("ask_price", opt_f64, &M::ask_price, needed),
      col<T>("ask_size", opt_f64, &M::ask_size, may_lack),
      col<T>("bid_exchange", opt_i64, &M::bid_exchange, may_lack),
      col<T>("bid_price", opt_f64, &M::bid_price, needed),
      col<T>("bid_size", opt_f64, &M::bid_size, may_lack),
      col<T>("sequence_number", opt_i64, &M::sequence_number, may_lack),
      col<T>("sip_timestamp", opt_ns, &M::sip_timestamp, may_lack),
  };
  static const row_schema schema = make<T>("option_quote", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<crypto_trade>) noexcept {
  using T = crypto_trade;
  using M = massive::crypto_trade;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("conditions", i32_list, &M::conditions, may_lack),
      col<T>("exchange", opt_i64, &M::exchange, may_lack),
      col<T>("id", opt_text, &M::id, may_lack),
      col<T>("participant_timestamp", opt_ns, &M::participant_timestamp, may_lack),
      col<T>("price", opt_f64, &M::price, needed),
      col<T>("received_timestamp", opt_ns, &M::received_timestamp, may_lack),
      col<T>("size", opt_f64, &M::size, needed),
  };
  static const row_schema schema = make<T>("crypto_trade", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<forex_quote>) noexcept {
  using T = forex_quote;
  using M = massive::forex_quote;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("ask_exchange", opt_i64, &M::ask_exchange, may_lack),
      col<T>("ask_price", opt_f64, &M::ask_price, needed),
      col<T>("bid_exchange", opt_i64, &M::bid_exchange, may_lack),
      col<T>("bid_price", opt_f64, &M::bid_price, needed),
      col<T>("participant_timestamp", opt_ns, &M::participant_timestamp, may_lack),
  };
  static const row_schema schema = make<T>("forex_quote", columns, tick_times);
  return schema;
}

const row_schema& schema_for(std::type_identity<aggregate>) noexcept {
  using T = aggregate;
  static const std::array columns{
      col<T>("ticker", ticker, &T::ticker, needed),
      col<T>("volume", f64, &T::volume, needed),
      col<T>("open", f64, &T::open, needed),
      col<T>("close", f64, &T::close, needed),
      col<T>("high", f64, &T::high, needed),
      col<T>("low", f64, &T::low, needed),
      col<T>("window_start", ns, &T::window_start, needed),
      col<T>("transactions", opt_i64, &T::transactions, may_lack),
  };
  static const row_schema schema = make<T>("aggregate", columns, window_times);
  return schema;
}

}  // namespace massive::files::detail
