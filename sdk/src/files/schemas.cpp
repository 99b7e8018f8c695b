// The columns each flat-file row type reads, by the header's names (API-NOTES, "Flat files":
// the columns of each dataset). A column is read into the row's member of the same name where
// the row (its REST model, for ticks) has one, parsed as that member's type says; so one list of
// every column flat files carry serves every row type. Offsets are taken from a default row, so
// the row types stay plain aggregates deriving from REST models (offsetof is not defined for
// them).
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

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

template <class Field>
constexpr bool is_optional = false;
template <class Field>
constexpr bool is_optional<std::optional<Field>> = true;

/// How a member of this type is parsed and stored; column_kind::unreadable for a type no kind
/// holds (the models are generated: a description may type a field as nothing here reads).
template <class Field>
constexpr column_kind kind_of() {
  using enum column_kind;
  // clang-format off
  if constexpr (std::is_same_v<Field, std::string_view>) return text;
  else if constexpr (std::is_same_v<Field, std::optional<std::string_view>>) return opt_text;
  else if constexpr (std::is_same_v<Field, double>) return f64;
  else if constexpr (std::is_same_v<Field, std::optional<double>>) return opt_f64;
  else if constexpr (std::is_same_v<Field, std::int64_t>) return i64;
  else if constexpr (std::is_same_v<Field, std::optional<std::int64_t>>) return opt_i64;
  else if constexpr (std::is_same_v<Field, std::optional<std::int32_t>>) return opt_i32;
  else if constexpr (std::is_same_v<Field, timestamp_ns>) return ns;
  else if constexpr (std::is_same_v<Field, std::optional<timestamp_ns>>) return opt_ns;
  else if constexpr (std::is_same_v<Field, std::span<const std::int32_t>>) return i32_list;
  else return unreadable;
  // clang-format on
}

/// The columns of one row type, with those that must be in the header: every member that
/// cannot be absent (not an optional, not a list, which may be empty: a row cannot be made
/// without it) and the others named in `also_needed`.
template <class Row>
class column_list {
 public:
  explicit column_list(std::initializer_list<std::string_view> also_needed)
      : also_needed_(also_needed) {
    columns_.push_back({"ticker", column_kind::ticker, offset_of<Row>(&Row::ticker), true});
  }

  /// A member no column kind holds: an optional one is left absent (the column is not read);
  /// another is kept as an unreadable column, which the decoder refuses by name.
  template <class Owner, class Field>
  void add(std::string_view name, Field Owner::*member) {
    if constexpr (kind_of<Field>() == column_kind::unreadable && is_optional<Field>) return;
    constexpr bool may_be_absent = is_optional<Field> || kind_of<Field>() == column_kind::i32_list;
    const bool needed = !may_be_absent || std::find(also_needed_.begin(), also_needed_.end(),
                                                    name) != also_needed_.end();
    columns_.push_back({name, kind_of<Field>(), offset_of<Row>(member), needed});
  }

  std::vector<column> take() { return std::move(columns_); }

 private:
  std::vector<std::string_view> also_needed_;
  std::vector<column> columns_;
};

/// Every column flat files carry that Row has a member for, in the header's usual order.
template <class Row>
std::vector<column> columns_of(std::initializer_list<std::string_view> also_needed) {
  using R = Row;  // short, for the table's lines
  column_list<R> out(also_needed);
  // clang-format off
  if constexpr (requires { &R::ask_exchange; }) out.add("ask_exchange", &R::ask_exchange);
  if constexpr (requires { &R::ask_price; }) out.add("ask_price", &R::ask_price);
  if constexpr (requires { &R::ask_size; }) out.add("ask_size", &R::ask_size);
  if constexpr (requires { &R::bid_exchange; }) out.add("bid_exchange", &R::bid_exchange);
  if constexpr (requires { &R::bid_price; }) out.add("bid_price", &R::bid_price);
  if constexpr (requires { &R::bid_size; }) out.add("bid_size", &R::bid_size);
  if constexpr (requires { &R::conditions; }) out.add("conditions", &R::conditions);
  if constexpr (requires { &R::correction; }) out.add("correction", &R::correction);
  if constexpr (requires { &R::exchange; }) out.add("exchange", &R::exchange);
  if constexpr (requires { &R::id; }) out.add("id", &R::id);
  if constexpr (requires { &R::indicators; }) out.add("indicators", &R::indicators);
  if constexpr (requires { &R::participant_timestamp; }) out.add("participant_timestamp", &R::participant_timestamp);
  if constexpr (requires { &R::price; }) out.add("price", &R::price);
  if constexpr (requires { &R::received_timestamp; }) out.add("received_timestamp", &R::received_timestamp);
  if constexpr (requires { &R::sequence_number; }) out.add("sequence_number", &R::sequence_number);
  if constexpr (requires { &R::sip_timestamp; }) out.add("sip_timestamp", &R::sip_timestamp);
  if constexpr (requires { &R::size; }) out.add("size", &R::size);
  if constexpr (requires { &R::tape; }) out.add("tape", &R::tape);
  if constexpr (requires { &R::trf_id; }) out.add("trf_id", &R::trf_id);
  if constexpr (requires { &R::trf_timestamp; }) out.add("trf_timestamp", &R::trf_timestamp);
  if constexpr (requires { &R::volume; }) out.add("volume", &R::volume);
  if constexpr (requires { &R::open; }) out.add("open", &R::open);
  if constexpr (requires { &R::close; }) out.add("close", &R::close);
  if constexpr (requires { &R::high; }) out.add("high", &R::high);
  if constexpr (requires { &R::low; }) out.add("low", &R::low);
  if constexpr (requires { &R::window_start; }) out.add("window_start", &R::window_start);
  if constexpr (requires { &R::transactions; }) out.add("transactions", &R::transactions);
  // clang-format on
  return out.take();
}

constexpr std::array<std::string_view, 2> tick_times{"sip_timestamp", "participant_timestamp"};
constexpr std::array<std::string_view, 1> window_times{"window_start"};

/// The schema of Row, made once. `also_needed`: optional members whose column a file must have
/// (a quote without its prices, a trade without price and size is not one of these files).
template <class Row>
const row_schema& schema(std::string_view name, std::span<const std::string_view> times,
                         std::initializer_list<std::string_view> also_needed = {}) {
  static const std::vector<column> columns = columns_of<Row>(also_needed);
  static const row_schema made{name, columns, times, sizeof(Row), &blank<Row>()};
  return made;
}

}  // namespace

#ifdef MASSIVE_FILES_HAS_STOCK_TRADE
const row_schema& schema_for(std::type_identity<stock_trade>) noexcept {
  return schema<stock_trade>("stock_trade", tick_times);
}
#endif

#ifdef MASSIVE_FILES_HAS_STOCK_QUOTE
const row_schema& schema_for(std::type_identity<stock_quote>) noexcept {
  return schema<stock_quote>("stock_quote", tick_times, {"ask_price", "bid_price"});
}
#endif

#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
const row_schema& schema_for(std::type_identity<option_trade>) noexcept {
  return schema<option_trade>("option_trade", tick_times, {"price", "size"});
}
#endif

#ifdef MASSIVE_FILES_HAS_OPTION_QUOTE
const row_schema& schema_for(std::type_identity<option_quote>) noexcept {
  return schema<option_quote>("option_quote", tick_times, {"ask_price", "bid_price"});
}
#endif

#ifdef MASSIVE_FILES_HAS_CRYPTO_TRADE
const row_schema& schema_for(std::type_identity<crypto_trade>) noexcept {
  return schema<crypto_trade>("crypto_trade", tick_times, {"price", "size"});
}
#endif

#ifdef MASSIVE_FILES_HAS_FOREX_QUOTE
const row_schema& schema_for(std::type_identity<forex_quote>) noexcept {
  return schema<forex_quote>("forex_quote", tick_times, {"ask_price", "bid_price"});
}
#endif

const row_schema& schema_for(std::type_identity<aggregate>) noexcept {
  return schema<aggregate>("aggregate", window_times);
}

}  // namespace massive::files::detail
