// The cells of one CSV line (RFC 4180 quoting; no line break inside a cell), read independently
// of the command-line tool that wrote it: its tests (tests/cli) and its benchmark's check of its
// output (bench/e2e/cli_check.cpp) both read what it printed with this.
#pragma once

#include <string>
#include <vector>

namespace massive::test {

/// The cells of `line`, quotes removed and doubled quotes undone.
inline std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"', ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace massive::test
