#include "audit.hpp"

#include <stdexcept>

namespace massive::codegen {

namespace {

const char* const known_kinds[] = {"type", "add", "payload", "undeclared", "exempt", "summary"};

std::vector<std::string> columns_of(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
    out.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  out.push_back(line.substr(start));
  return out;
}

}  // namespace

std::string_view audit_row::model() const {
  const std::string_view s = subject;
  return s.substr(0, s.find('.'));
}

std::string_view audit_row::key() const {
  const std::string_view s = subject;
  const std::size_t dot = s.find('.');
  return dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
}

evidence_audit evidence_audit::load(const std::string& file, const std::string& name) {
  evidence_audit audit;
  audit.read_lines(file, name, "the evidence audit", [&](const std::string& line, std::size_t number) {
    if (line.empty() || line.front() == '#') return;
    std::vector<std::string> columns = columns_of(line);
    const auto malformed = [&](const std::string& why) { return audit.line_error(number, why); };
    if (columns.size() != 5) throw malformed("expected 5 tab-separated columns, got " + std::to_string(columns.size()));
    bool known = false;
    for (const char* k : known_kinds) known = known || columns[0] == k;
    if (!known) throw malformed("unknown row kind '" + columns[0] + "'");
    for (const std::string& c : columns) {
      if (c.empty()) throw malformed("empty column");
    }
    audit.rows_.push_back({number, columns[0], columns[1], columns[2], columns[3], columns[4]});
  });
  return audit;
}

const audit_row* evidence_audit::find(std::string_view kind, std::string_view model, std::string_view key) const {
  for (const audit_row& row : rows_) {
    if (row.kind == kind && row.model() == model && row.key() == key) {
      row.used = true;
      return &row;
    }
  }
  return nullptr;
}

std::vector<const audit_row*> evidence_audit::of(std::string_view kind, std::string_view model) const {
  std::vector<const audit_row*> out;
  for (const audit_row& row : rows_) {
    if (row.kind == kind && row.model() == model) out.push_back(&row);
  }
  return out;
}

}  // namespace massive::codegen
