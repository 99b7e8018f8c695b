// Every operation by group and name, for callers that choose it at run time: the command-line
// tool, the coverage and conformance tests. The table is generated
// (generated/src/operations/); each entry renders its request target from text arguments
// through the operation's typed parameters struct, and runs the call with the generated
// model, handing each page over as JSON written by the generated writers.
#pragma once

#include "massive/client.hpp"
#include "massive/cursor.hpp"
#include "massive/decoder.hpp"
#include "massive/filter.hpp"
#include "massive/json_writer.hpp"
#include "massive/model_table.hpp"
#include "massive/page.hpp"
#include "massive/time.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace massive {

/// Text arguments of a call by name: path parameters by their name in the route template
/// (`stocksTicker`), query parameters by their wire name, comparators dotted
/// (`timestamp.gte`), lists comma-separated (`ticker.any_of=AAPL,MSFT`).
using argument_list = std::span<const std::pair<std::string_view, std::string_view>>;

/// How operation_entry::run fetches.
struct run_options {
  bool all_pages = false;  ///< follow next_url through every page (paginated operations)
  traversal_options traversal{};  ///< page cap and prefetch, with all_pages
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
  /// The request target for `args`; throws std::invalid_argument naming an unknown, missing
  /// or malformed argument.
  std::string (*target)(argument_list args);
  /// Fetches the target's page (every page with all_pages), decoding into the generated
  /// model, and hands each page to `on_page` as JSON. Errors: as client::fetch.
  boost::asio::awaitable<void> (*run)(client& c, std::string target, payload_shape shape, bool paginated,
                                      run_options options, json_page_handler on_page);
};

/// Every operation, grouped as the generated headers are (defined in generated/src/).
std::span<const operation_entry> operation_table();

/// The operation `group`.`name`, or nullptr.
inline const operation_entry* find_operation(std::string_view group, std::string_view name) {
  for (const operation_entry& e : operation_table()) {
    if (e.group == group && e.name == name) return &e;
  }
  return nullptr;
}

namespace detail {

/// A parameter the target function knows; `filter`: it also takes dotted comparators.
struct argument_spec {
  std::string_view wire;
  bool filter;
};

/// Throws std::invalid_argument naming the first argument that is not a known parameter.
inline void check_arguments(argument_list args, std::initializer_list<argument_spec> known) {
  for (const auto& [name, value] : args) {
    bool found = false;
    for (const argument_spec& k : known) {
      if (name == k.wire) found = true;
      if (k.filter && name.size() > k.wire.size() && name.substr(0, k.wire.size()) == k.wire &&
          name[k.wire.size()] == '.') {
        found = true;
      }
    }
    if (!found) {
      std::string list;
      for (const argument_spec& k : known) list += (list.empty() ? "" : ", ") + std::string(k.wire);
      throw std::invalid_argument("unknown parameter '" + std::string(name) + "' (this operation takes: " +
                                  (list.empty() ? std::string("none") : list) + ")");
    }
  }
}

inline std::optional<std::string_view> find_argument(argument_list args, std::string_view name) {
  std::optional<std::string_view> found;
  for (const auto& [key, value] : args) {
    if (key != name) continue;
    if (found) throw std::invalid_argument("parameter '" + std::string(name) + "' given twice");
    found = value;
  }
  return found;
}

[[noreturn]] inline void bad_argument(std::string_view name, std::string_view text, const char* expected) {
  throw std::invalid_argument("parameter '" + std::string(name) + "': '" + std::string(text) + "' is not " +
                              expected);
}

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

inline std::chrono::year_month_day parse_date(std::string_view name, std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') bad_argument(name, text, "a date (YYYY-MM-DD)");
  const int y = parse_integer<int>(name, text.substr(0, 4));
  const unsigned m = parse_integer<unsigned>(name, text.substr(5, 2));
  const unsigned d = parse_integer<unsigned>(name, text.substr(8, 2));
  const std::chrono::year_month_day date{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
  if (!date.ok()) bad_argument(name, text, "a valid date");
  return date;
}

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
    return parse_date(name, text);
  } else if constexpr (std::is_same_v<T, date_or_ms> || std::is_same_v<T, date_or_ns>) {
    if (text.find('-') != std::string_view::npos) return T(parse_date(name, text));
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

inline std::vector<std::string_view> split_list(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

/// A comma-separated list parameter; the pieces live in `storage` (the caller's, which
/// outlives the rendering).
inline std::span<const std::string_view> list_argument(argument_list args, std::string_view wire,
                                                       std::vector<std::vector<std::string_view>>& storage) {
  const auto text = find_argument(args, wire);
  if (!text) return {};
  storage.push_back(split_list(*text));
  return storage.back();
}

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

/// operation_entry::run for rows of type Row.
template <class Row>
boost::asio::awaitable<void> run_operation(client& c, std::string target, payload_shape shape, bool paginated,
                                           run_options options, json_page_handler on_page) {
  std::string json;
  const auto deliver = [&](const page<Row>& p) { hand_over_as_json(p, json, on_page); };
  if (paginated && options.all_pages) {
    auto pages = c.traverse<Row>(std::move(target), shape, options.traversal);
    while (auto p = co_await pages.next(boost::asio::use_awaitable)) deliver(*p);
  } else {
    deliver(co_await c.fetch<Row>(std::move(target), shape, boost::asio::use_awaitable));
  }
}

}  // namespace detail

}  // namespace massive
