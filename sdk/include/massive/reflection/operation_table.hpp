// Every operation by group and name, for callers that choose it at run time: the command-line
// tool, the coverage and conformance tests. The table is generated
// (generated/src/operations/); each entry renders its request target from text arguments
// through the operation's typed parameters struct, and runs the call with the generated
// model, handing each page over with its rows still typed (reflection::row_page).
#pragma once

#include "massive/client.hpp"
#include "massive/cursor.hpp"
#include "massive/decoder.hpp"
#include "massive/detail/decoder_cache.hpp"
#include "massive/filter.hpp"
#include "massive/json_writer.hpp"
#include "massive/reflection/model_table.hpp"
#include "massive/page.hpp"
#include "massive/time.hpp"

#include <boost/asio/awaitable.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace massive::reflection {

/// Text arguments of a call by name: path parameters by their name in the route template
/// (`stocksTicker`), query parameters by their wire name, comparators dotted
/// (`timestamp.gte`), lists comma-separated (`ticker.any_of=AAPL,MSFT`).
using argument_list = std::span<const std::pair<std::string_view, std::string_view>>;

/// How operation_entry::run fetches.
struct run_options {
  bool all_pages = false;  ///< follow next_url through every page (paginated operations)
  traversal_options traversal{};  ///< page cap and prefetch, with all_pages
  /// With all_pages: reaching traversal.max_pages while the server offers more pages is a
  /// transport_error(errc::page_limit_reached) after the last page, instead of a quiet end
  /// (a default cap the caller did not choose must say that it cut the output).
  bool page_cap_is_error = false;
};

/// What a parameter's text is read as.
enum class parameter_type {
  string,
  integer,
  number,
  boolean,
  date,         ///< YYYY-MM-DD
  enumeration,  ///< one of parameter_info::values
  date_or_ms,   ///< YYYY-MM-DD or a Unix millisecond timestamp
  date_or_ns,   ///< YYYY-MM-DD or a Unix nanosecond timestamp
  list,         ///< comma-separated
};

/// Which dotted comparators a parameter takes besides equality (see comparators()).
enum class parameter_filter {
  none,
  range,           ///< gt, gte, lt, lte
  any_of,          ///< any_of
  range_or_any_of, ///< gt, gte, lt, lte, any_of
  any_or_all_of,   ///< any_of, all_of
};

/// The comparators `filter` adds, as dotted after the parameter's name (`timestamp.gte`).
inline std::span<const std::string_view> comparators(parameter_filter filter) noexcept {
  static constexpr std::string_view all[] = {"gt", "gte", "lt", "lte", "any_of", "all_of"};
  switch (filter) {
    case parameter_filter::none: return {};
    case parameter_filter::range: return std::span(all, 4);
    case parameter_filter::any_of: return std::span(all + 4, 1);
    case parameter_filter::range_or_any_of: return std::span(all, 5);
    case parameter_filter::any_or_all_of: return std::span(all + 4, 2);
  }
  return {};
}

/// One parameter of an operation, as the description has it.
struct parameter_info {
  std::string_view wire;  ///< its name: the route template's, or the query's
  parameter_type type;  ///< the type its text argument is parsed as
  bool in_path;   ///< a segment of the path (always required)
  bool required;  ///< the call is refused without it
  parameter_filter filter;  ///< which comparators it takes (`x.gte`, `x.any_of`, ...)
  std::span<const std::string_view> values;  ///< an enumeration's values, in the description's order
  std::string_view default_value;  ///< what the API assumes when it is absent ("" when it says nothing)
  std::string_view example;        ///< the description's example value ("" when it gives none)
  std::string_view description;    ///< the description's text, on one line
  /// The name a path parameter had before the description renamed it (`stockTicker`, now
  /// `ticker`), still taken as an argument: a script written against the earlier name goes on
  /// working. Empty when the parameter kept its name.
  std::string_view former = {};
};

/// A column of the rows flattened for a table: a field, or a field of a nested object
/// (`lastQuote.P`); arrays and maps are one column each.
struct column_info {
  std::string_view name;  ///< the wire key, dotted for a nested object's field
  /// For a Unix timestamp (or an array of them), the digits of its unit: 3 for milliseconds, 6
  /// for microseconds, 9 for nanoseconds; 0 for any other column.
  int timestamp_digits;
};

/// One operation of the description.
struct operation_entry {
  std::string_view group;  ///< e.g. "stocks": client.stocks()
  std::string_view name;   ///< e.g. "trades": client.stocks().trades(...)
  std::string_view path;   ///< the route template as in the description
  payload_shape shape;     ///< where the rows are in the body
  bool paginated;          ///< the response has next_url
  bool experimental;       ///< needs massive::experimental in the typed API
  bool deprecated;         ///< marked deprecated by Massive
  std::string_view model;  ///< its rows' type, e.g. "trade" (find_model() gives its decoder)
  std::string_view summary;      ///< one line
  std::string_view description;  ///< the description's text, on one line
  std::string_view replacement;  ///< what to use instead, when deprecated ("" when it says nothing)
  std::span<const parameter_info> parameters;  ///< path parameters in route order, then the query's
  std::span<const column_info> columns;        ///< its rows' columns, in the model's order
  /// The request target for `args`; throws std::invalid_argument naming an unknown, missing
  /// or malformed argument.
  std::string (*target)(argument_list args);
  /// Fetches the target's page (every page with all_pages), decoding into the generated
  /// model, and hands each page to `on_page`. Errors: as client::fetch.
  boost::asio::awaitable<void> (*run)(client& c, std::string target, payload_shape shape, bool paginated,
                                      run_options options, row_page_handler on_page);
};

/// The candidate closest to `name` when it is close enough to be a typo of it (letter case
/// ignored, at most a third of its letters edited), for "did you mean" messages.
std::optional<std::string_view> nearest_name(std::string_view name, std::span<const std::string_view> candidates);

/// Every operation, grouped as the generated headers are (defined in generated/src/).
std::span<const operation_entry> operation_table();

/// The operation `group`.`name`, or nullptr.
const operation_entry* find_operation(std::string_view group, std::string_view name);

namespace detail {

using massive::detail::decoder_cache;
using massive::detail::untyped_decoder;

/// Throws std::invalid_argument naming the first argument that is not one of `known` (and the
/// nearest name), a comparator its parameter does not take, or a value outside an
/// enumeration's (listing them); then every required parameter left out, all at once.
void check_arguments(argument_list args, std::span<const parameter_info> known);

/// `args` with each renamed path parameter given by its former name under its current one
/// (parameter_info::former), the others as they are.
std::vector<std::pair<std::string_view, std::string_view>> current_names(argument_list args,
                                                                         std::span<const parameter_info> known);

/// The value of argument `name`; throws std::invalid_argument when it is given twice.
std::optional<std::string_view> find_argument(argument_list args, std::string_view name);

[[noreturn]] void bad_argument(std::string_view name, std::string_view text, const char* expected);

template <class T>
T parse_argument(std::string_view name, std::string_view text);

template <class I>
  requires std::is_integral_v<I>
I parse_integer(std::string_view name, std::string_view text) {
  I v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) bad_argument(name, text, "an integer");
  return v;
}

/// A YYYY-MM-DD argument; throws std::invalid_argument naming it otherwise.
std::chrono::year_month_day date_argument(std::string_view name, std::string_view text);

template <class T>
T parse_argument(std::string_view name, std::string_view text) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return text;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (text == "true") return true;
    if (text == "false") return false;
    bad_argument(name, text, "true or false");
  } else if constexpr (std::is_integral_v<T>) {
    return parse_integer<T>(name, text);
  } else if constexpr (std::is_same_v<T, double>) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size()) bad_argument(name, text, "a number");
    return v;
  } else if constexpr (std::is_same_v<T, std::chrono::year_month_day>) {
    return date_argument(name, text);
  } else if constexpr (std::is_same_v<T, date_or_ms> || std::is_same_v<T, date_or_ns>) {
    if (text.find('-') != std::string_view::npos) return T(date_argument(name, text));
    return T(T::timestamp_type::from_count(parse_integer<std::int64_t>(name, text)));
  } else {
    static_assert(std::is_enum_v<T>, "a parameter type without a text form");
    T value{};
    if (!from_wire(text, value)) bad_argument(name, text, "one of this parameter's values");
    return value;
  }
}

template <class T>
T required_argument(argument_list args, std::string_view wire) {
  const auto text = find_argument(args, wire);
  if (!text) throw std::invalid_argument("missing required parameter '" + std::string(wire) + "'");
  return parse_argument<T>(wire, *text);
}

template <class T>
std::optional<T> optional_argument(argument_list args, std::string_view wire) {
  const auto text = find_argument(args, wire);
  if (!text) return std::nullopt;
  return parse_argument<T>(wire, *text);
}

/// The pieces of a comma-separated list, empty ones included.
std::vector<std::string_view> split_list(std::string_view text);

/// A comma-separated list parameter; the pieces live in `storage` (the caller's, which
/// outlives the rendering).
std::span<const std::string_view> list_argument(argument_list args, std::string_view wire,
                                                std::vector<std::vector<std::string_view>>& storage);

/// A filter parameter from `wire` (equality) and its dotted comparators. One kind at a time:
/// equality, bounds (gt/gte/lt/lte, combinable), any_of or all_of.
template <class F>
F filter_argument(argument_list args, std::string_view wire) {
  using T = typename F::value_type;
  const std::string base(wire);
  const auto eq = find_argument(args, base);
  const auto any = find_argument(args, base + ".any_of");
  const auto all = find_argument(args, base + ".all_of");
  std::optional<range_bounds<T>> bounds;
  for (const char* comparator : {"gt", "gte", "lt", "lte"}) {
    const std::string name = base + "." + comparator;
    const auto text = find_argument(args, name);
    if (!text) continue;
    if constexpr (std::is_constructible_v<F, range_bounds<T>>) {
      const T value = parse_argument<T>(name, *text);
      const std::string_view c(comparator);
      range_bounds<T> bound = c == "gt" ? gt(value) : c == "gte" ? gte(value) : c == "lt" ? lt(value) : lte(value);
      bounds = bounds ? std::move(*bounds) && std::move(bound) : std::move(bound);
    } else {
      throw std::invalid_argument("parameter '" + base + "' takes no ." + comparator);
    }
  }
  if (int(eq.has_value()) + int(any.has_value()) + int(all.has_value()) + int(bounds.has_value()) > 1) {
    throw std::invalid_argument("parameter '" + base + "': give one of equality, bounds, any_of or all_of");
  }
  const auto values = [&](std::string_view text, const std::string& name) {
    std::vector<T> out;
    for (std::string_view piece : split_list(text)) out.push_back(parse_argument<T>(name, piece));
    return out;
  };
  if (eq) return F(parse_argument<T>(base, *eq));
  if (bounds) {
    if constexpr (std::is_constructible_v<F, range_bounds<T>>) return F(*bounds);
  }
  if (any) {
    if constexpr (std::is_constructible_v<F, any_of_values<T>>) {
      return F(massive::any_of(values(*any, base + ".any_of")));
    } else {
      throw std::invalid_argument("parameter '" + base + "' takes no .any_of");
    }
  }
  if (all) {
    if constexpr (std::is_constructible_v<F, all_of_values<T>>) {
      return F(massive::all_of(values(*all, base + ".all_of")));
    } else {
      throw std::invalid_argument("parameter '" + base + "' takes no .all_of");
    }
  }
  return F{};
}

/// What the runner needs of a row type, without it: a decoder for it from the client's
/// cache, and the functions that print its rows.
struct row_handling {
  untyped_decoder (*take_decoder)(decoder_cache& decoders, const std::shared_ptr<page_pool>& pool,
                                  payload_shape shape);
  const row_functions& functions;
};

template <class Row>
untyped_decoder take_decoder_for(decoder_cache& decoders, const std::shared_ptr<page_pool>& pool,
                                 payload_shape shape) {
  return decoders.take_untyped<Row>(pool, shape);
}

template <class Row>
inline constexpr row_handling row_handling_of{&take_decoder_for<Row>, row_functions_of<Row>};

/// operation_entry::run, compiled once (operation_runner.cpp) for every row type: a
/// coroutine per row type would cost each operation its own instantiation of the transport's
/// and the cursor's asynchronous machinery.
boost::asio::awaitable<void> run_rows(client& c, const row_handling& rows, std::string target, payload_shape shape,
                                      bool paginated, run_options options, row_page_handler on_page);

/// operation_entry::run for rows of type Row.
template <class Row>
boost::asio::awaitable<void> run_operation(client& c, std::string target, payload_shape shape, bool paginated,
                                           run_options options, row_page_handler on_page) {
  return run_rows(c, row_handling_of<Row>, std::move(target), shape, paginated, options, std::move(on_page));
}

}  // namespace detail

}  // namespace massive::reflection
