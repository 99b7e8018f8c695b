// The columns each flat-file row type reads, by the header's names (API-NOTES, "Flat files":
// the columns of each dataset). A column is read into the row's member of the same name where
// the row (its REST model, for ticks) has one, parsed as that member's type says; so one list of
// every column flat files carry serves every row type. Offsets are taken from a default row, so
// the row types stay plain aggregates deriving from REST models (offsetof is not defined for
// them). The row types are the generated ones (massive/files/rows.hpp) and aggregate, each
// schema made from the list of them (decodable_rows), not written per type.
#include <algorithm>
#include <array>
#include <cstdint>
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
  explicit column_list(std::span<const std::string_view> also_needed)
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
  std::span<const std::string_view> also_needed_;
  std::vector<column> columns_;
};

/// Every column flat files carry that Row has a member for, in the header's usual order.
template <class Row>
std::vector<column> columns_of(std::span<const std::string_view> also_needed) {
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

constexpr std::array<std::string_view, 2> trade_prices{"price", "size"};
constexpr std::array<std::string_view, 2> quote_prices{"ask_price", "bid_price"};

/// A tick dataset's row type (its traits name the dataset), not aggregate.
template <class Row>
constexpr bool is_tick_row = requires { row_traits<Row>::dataset; };

/// The columns a file of Row must have beyond the members that cannot be absent: a tick
/// dataset's prices (a quote without them, a trade without price and size is not one of these
/// files), whether or not the REST model declares them optional.
template <class Row>
constexpr std::span<const std::string_view> also_needed() {
  if constexpr (is_tick_row<Row>) {
    return row_traits<Row>::dataset == dataset::quotes ? quote_prices : trade_prices;
  } else {
    return {};
  }
}

/// The columns Row's time window applies to.
template <class Row>
constexpr std::span<const std::string_view> times_of() {
  if constexpr (is_tick_row<Row>) {
    return tick_times;
  } else {
    return window_times;
  }
}

/// The schema of Row, made once.
template <class Row>
const row_schema& schema_of() {
  static const std::vector<column> columns = columns_of<Row>(also_needed<Row>());
  static const row_schema made{row_traits<Row>::name, columns,
                               times_of<Row>(),
                               sizeof(Row), &blank<Row>()};
  return made;
}

template <class... Rows>
constexpr auto schema_table(row_type_list<Rows...>) {
  return std::array<const row_schema& (*)(), sizeof...(Rows)>{&schema_of<Rows>...};
}

}  // namespace

const row_schema& schema_at(std::size_t index) noexcept {
  static constexpr auto table = schema_table(decodable_rows{});
  return table[index]();
}

}  // namespace massive::files::detail
