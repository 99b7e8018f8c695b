// Names where, inside one element, the framer stopped: the path from the element to a string
// (or key) that was too long. Error path only: it re-reads the element's bytes up to that
// string, which are still in the decoder's window.
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

}  // namespace massive::detail
