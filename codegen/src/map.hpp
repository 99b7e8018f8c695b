// The curated map (codegen/map.txt): what the description cannot say. Names of groups,
// methods, models, fields and parameters; element types of string-typed dates and timestamps;
// which fields the wire always carries. What it does not name gets a default name; a row naming
// nothing in the description is a warning (see docs/maintainers/codegen.md for the format).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "row_file.hpp"

namespace massive::codegen {

/// One row of the map: its kind (first word), its words, and the rest of the line for `doc`.
struct map_row {
  std::size_t line = 0;
  std::string kind;
  std::vector<std::string> words;  // after the kind
  std::string text;                // for doc/group rows: everything after the first word
  mutable bool used = false;

  /// `key=value` among the words, or nullopt.
  std::optional<std::string> option(std::string_view key) const;
  bool has(std::string_view word) const;
};

class curated_map : public row_file<map_row> {
 public:
  /// Reads the map from `file`; messages call it `name` (codegen/map.txt, whatever the working
  /// directory, so that what the generator writes does not depend on where it ran). Throws
  /// std::runtime_error naming the line of a malformed row.
  static curated_map load(const std::string& file, const std::string& name);

  /// The rows of one kind whose first word is `first` (or all of that kind when first is empty).
  std::vector<const map_row*> find(std::string_view kind, std::string_view first = {}) const;
  /// The single row of `kind` whose first word is `a`, whatever follows; marks it used; null
  /// when none. Two such rows are an error naming both lines.
  const map_row* lookup(std::string_view kind, std::string_view a) const;
  /// The same for the row whose first two words are `a` and `b`, exactly: an empty `b` (a key or
  /// a parameter the description names "") matches no row, where it once matched them all.
  const map_row* lookup(std::string_view kind, std::string_view a, std::string_view b) const;
  /// Every row never looked up, as "line N: row" descriptions.
  std::vector<std::string> unused() const;

 private:
  const map_row* single_row(std::string_view kind, std::string_view a,
                            std::optional<std::string_view> b) const;
};

}  // namespace massive::codegen
