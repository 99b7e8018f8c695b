// How a string or key longer than the limit is named in an error, in the rows and in the
// envelope alike. In the rows, where inside one element the framer stopped: the path from the
// element to that string (or key). Error path only: it re-reads the element's bytes up to
// that string, which are still in the decoder's window.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace massive::detail {

struct fault_location {
  std::string path;     // ".key", "[2]", ".a[0].b", ...: relative to the element; empty for the element itself
  bool is_key = false;  // the string at the fault is a key (then path ends with its first bytes and "...")
};

/// `before`: the element's bytes up to the string's opening quote (exclusive); `string`: the
/// bytes after that quote, more than `shown` of them (the string is longer than the limit).
/// A key is named by its first `shown` bytes and "...".
fault_location locate_string(std::string_view before, std::string_view string, std::size_t shown);

/// How a key is named in an error: as sent, cut to `shown` bytes with "..." when longer.
std::string key_name(std::string_view raw, std::size_t shown);

/// How many bytes of a string or key name it in an error, under a limit of `max_string_bytes`.
inline std::size_t shown_bytes(std::size_t max_string_bytes) noexcept {
  return max_string_bytes < 64 ? max_string_bytes : 64;
}

/// The detail of a string's or key's too_long error.
std::string string_too_long(bool is_key, std::size_t max_string_bytes);

}  // namespace massive::detail
