#include "official.hpp"

namespace massive::codegen {

official_names official_names::load(const std::string& file, const std::string& name) {
  official_names out;
  out.read_lines(file, name, "the official clients' names", [&](const std::string& line, std::size_t number) {
    if (line.empty() || line.front() == '#' || line.rfind("route\t", 0) == 0) return;
    const std::size_t a = line.find('\t');
    const std::size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos || line.find('\t', b + 1) != std::string::npos) {
      throw out.line_error(number, "expected route, python and go, tab-separated");
    }
    out.rows_.push_back({number, line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  });
  return out;
}

const official_row* official_names::find(std::string_view route) const {
  for (const official_row& row : rows_) {
    if (row.route == route) {
      row.used = true;
      return &row;
    }
  }
  return nullptr;
}

}  // namespace massive::codegen
