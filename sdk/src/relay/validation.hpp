// Names that become parts of key-value keys and subjects (group, relay id, consumer id) are
// checked where they are configured, so that a bad one is an invalid_option naming the option,
// not a NATS error later.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "massive/relay/error.hpp"

namespace massive::relay::detail {

/// A byte a key-value key token may hold ('.' separates tokens, so it is not one of them).
constexpr bool key_byte(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

/// Throws relay_error(invalid_option) naming `option` when `value` is empty or holds a byte
/// other than letters, digits, '-' and '_'.
inline void require_key_token(std::string_view option, std::string_view value) {
  if (value.empty() || !std::all_of(value.begin(), value.end(), key_byte)) {
    throw relay_error(relay_errc::invalid_option,
                      std::string(option) + ": letters, digits, '-' and '_' only, and not empty");
  }
}

}  // namespace massive::relay::detail
