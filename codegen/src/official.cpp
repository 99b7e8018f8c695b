#include "official.hpp"

#include <fstream>
#include <stdexcept>

namespace massive::codegen {

official_names official_names::load(const std::string& file, const std::string& name) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read the official clients' names " + file);
  official_names out;
  out.path_ = name;
  out.file_ = file;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line.front() == '#' || line.rfind("route\t", 0) == 0) continue;
    const std::size_t a = line.find('\t');
    const std::size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos || line.find('\t', b + 1) != std::string::npos) {
      throw std::runtime_error(name + ":" + std::to_string(number) + ": expected route, python and go, tab-separated");
    }
    out.rows_.push_back({number, line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
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
