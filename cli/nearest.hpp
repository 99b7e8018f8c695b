// "Did you mean": the known name closest to a mistyped one.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace massive::cli {

/// Edits (insertions, deletions, substitutions; letter case ignored) that turn a into b.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

/// The candidate closest to `name`, when it is close enough to be a typo of it: at most a
/// third of the name's letters edited (at least one).
inline std::optional<std::string_view> nearest(std::string_view name, std::span<const std::string_view> candidates) {
  std::optional<std::string_view> best;
  std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
  for (std::string_view c : candidates) {
    const std::size_t d = edit_distance(name, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

}  // namespace massive::cli
