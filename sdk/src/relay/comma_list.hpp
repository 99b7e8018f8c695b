// Comma-separated lists in the relay's configuration and key-value values (NATS servers, the
// topics a consumer wants).
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

namespace massive::relay::detail {

/// The non-empty items of `list` in order: "a,,b," is {"a", "b"}. Views into `list`.
inline std::vector<std::string_view> comma_items(std::string_view list) {
  std::vector<std::string_view> out;
  while (!list.empty()) {
    const std::string_view one = list.substr(0, list.find(','));
    list.remove_prefix(std::min(list.size(), one.size() + 1));
    if (!one.empty()) out.push_back(one);
  }
  return out;
}

}  // namespace massive::relay::detail
