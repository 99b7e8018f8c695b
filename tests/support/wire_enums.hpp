// Enumerations shaped like the generated ones: a wire spelling through ADL to_wire().
#pragma once

#include <string_view>

namespace massive_test {

enum class sort_order { asc, desc };
constexpr std::string_view to_wire(sort_order s) noexcept {
  return s == sort_order::asc ? "asc" : "desc";
}

enum class timespan { minute, day };
constexpr std::string_view to_wire(timespan t) noexcept {
  return t == timespan::day ? "day" : "minute";
}

// A wire spelling that needs escaping, to show enum text is encoded like any text.
enum class odd_label { spaced };
constexpr std::string_view to_wire(odd_label) noexcept { return "a b/c"; }

// No to_wire: not a wire value.
enum class unlabelled { x };

}  // namespace massive_test
