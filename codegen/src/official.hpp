// The official clients' names for each route (codegen/official-names.tsv, named by the map's
// `official` row): the method the official Python and Go clients call for it, so that the
// generated reference page (generated/docs/operations.md) maps a user's code from those clients
// to this SDK's calls. Read, not trusted for anything else: a route the description lacks is a
// stale row like the map's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "row_file.hpp"

namespace massive::codegen {

/// One row: `route <TAB> python <TAB> go` ("-" where the client has no method).
struct official_row {
  std::size_t line = 0;
  std::string route;  // the description's path template
  std::string python;
  std::string go;
  mutable bool used = false;
};

class official_names : public row_file<official_row> {
 public:
  /// Reads the file, named `name` in messages; throws std::runtime_error naming a malformed line.
  static official_names load(const std::string& file, const std::string& name);

  /// The row of `route`, or nullptr; marks it used.
  const official_row* find(std::string_view route) const;
};

}  // namespace massive::codegen
