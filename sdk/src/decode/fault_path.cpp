#include "decode/fault_path.hpp"

#include <vector>

namespace massive::detail {

std::string key_name(std::string_view raw, std::size_t shown) {
  if (raw.size() <= shown) return std::string(raw);
  std::string out(raw.substr(0, shown));
  out += "...";
  return out;
}

std::string string_too_long(bool is_key, std::size_t max_string_bytes) {
  return std::string(is_key ? "a key" : "a string") + " longer than " + std::to_string(max_string_bytes) +
         " bytes (decode_limits::max_string_bytes)";
}

fault_location locate_string(std::string_view before, std::string_view string, std::size_t shown) {
  struct level {
    bool array;
    std::size_t index = 0;
    bool want_key = true;  // objects: the next string is a key
    std::string key;
  };
  // Keys within the limit can still be long (the limit may be 1 MiB): the path names them
  // by their first bytes only.
  constexpr std::size_t component_bytes = 64;
  std::vector<level> levels;
  for (std::size_t i = 0; i < before.size(); ++i) {
    switch (before[i]) {
      case '{': levels.push_back(level{false, 0, true, {}}); break;
      case '[': levels.push_back(level{true, 0, true, {}}); break;
      case '}':
      case ']':
        if (!levels.empty()) levels.pop_back();
        break;
      case ',':
        if (!levels.empty()) {
          if (levels.back().array) {
            ++levels.back().index;
          } else {
            levels.back().want_key = true;
          }
        }
        break;
      case '"': {
        const std::size_t start = i + 1;
        for (++i; i < before.size() && before[i] != '"'; ++i) {
          if (before[i] == '\\') ++i;
        }
        if (!levels.empty() && !levels.back().array && levels.back().want_key) {
          levels.back().key = key_name(before.substr(start, i - start), component_bytes);
          levels.back().want_key = false;
        }
        break;
      }
      default: break;
    }
  }
  fault_location out;
  out.is_key = !levels.empty() && !levels.back().array && levels.back().want_key;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    if (levels[l].array) {
      out.path += '[';
      out.path += std::to_string(levels[l].index);
      out.path += ']';
    } else if (l + 1 < levels.size() || !levels[l].want_key) {
      out.path += '.';
      out.path += levels[l].key;
    }
  }
  if (out.is_key) {
    out.path += '.';
    out.path += key_name(string, shown);
  }
  return out;
}

}  // namespace massive::detail
