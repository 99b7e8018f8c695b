#include "map.hpp"

#include <sstream>
#include <stdexcept>

namespace massive::codegen {

namespace {

const char* const known_kinds[] = {"op", "model", "key", "field", "wire", "doc", "param", "ptype", "enum", "group",
                                    "stream", "stream_key", "stream_field", "audit", "official", "file"};

bool known_kind(std::string_view kind) {
  for (const char* k : known_kinds) {
    if (kind == k) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> map_row::option(std::string_view key) const {
  for (const std::string& w : words) {
    if (w.size() > key.size() && w.compare(0, key.size(), key) == 0 && w[key.size()] == '=') {
      return w.substr(key.size() + 1);
    }
  }
  return std::nullopt;
}

bool map_row::has(std::string_view word) const {
  for (const std::string& w : words) {
    if (w == word) return true;
  }
  return false;
}

curated_map curated_map::load(const std::string& file, const std::string& name) {
  curated_map map;
  map.read_lines(file, name, "the map", [&](const std::string& line, std::size_t number) {
    const auto hash = line.find('#');
    // doc and group rows are prose: a '#' there is text, not a comment.
    std::istringstream words(line);
    map_row row;
    row.line = number;
    if (!(words >> row.kind) || row.kind.front() == '#') return;
    if (!known_kind(row.kind)) throw map.line_error(number, "unknown row kind '" + row.kind + "'");
    const bool prose = row.kind == "doc" || row.kind == "group";
    std::string body = prose || hash == std::string::npos ? line : line.substr(0, hash);
    std::istringstream rest(body);
    std::string skip;
    rest >> skip;
    std::string word;
    if (prose) {
      if (!(rest >> word)) throw map.line_error(number, row.kind + " row without a subject");
      row.words.push_back(word);
      std::getline(rest, row.text);
      const auto start = row.text.find_first_not_of(' ');
      row.text = start == std::string::npos ? std::string() : row.text.substr(start);
    } else {
      while (rest >> word) row.words.push_back(word);
    }
    if (row.words.empty()) throw map.line_error(number, "empty " + row.kind + " row");
    map.rows_.push_back(std::move(row));
  });
  return map;
}

std::vector<const map_row*> curated_map::find(std::string_view kind, std::string_view first) const {
  std::vector<const map_row*> out;
  for (const map_row& row : rows_) {
    if (row.kind == kind && (first.empty() || row.words.front() == first)) out.push_back(&row);
  }
  return out;
}

/// The row of `kind` whose first word is `a` and, when `b` is given, whose second is `b`.
const map_row* curated_map::single_row(std::string_view kind, std::string_view a,
                                       std::optional<std::string_view> b) const {
  const map_row* found = nullptr;
  for (const map_row& row : rows_) {
    if (row.kind != kind || row.words.front() != a) continue;
    if (b && (row.words.size() < 2 || row.words[1] != *b)) continue;
    if (found != nullptr) {
      throw line_error(row.line, "duplicate " + std::string(kind) + " row (first at line " +
                                     std::to_string(found->line) + ")");
    }
    found = &row;
  }
  if (found != nullptr) found->used = true;
  return found;
}

const map_row* curated_map::lookup(std::string_view kind, std::string_view a) const {
  return single_row(kind, a, std::nullopt);
}

const map_row* curated_map::lookup(std::string_view kind, std::string_view a, std::string_view b) const {
  return single_row(kind, a, b);
}

std::vector<std::string> curated_map::unused() const {
  std::vector<std::string> out;
  for (const map_row& row : rows_) {
    if (row.used) continue;
    std::string text = "line " + std::to_string(row.line) + ": " + row.kind;
    for (const std::string& w : row.words) text += " " + w;
    out.push_back(text);
  }
  return out;
}

}  // namespace massive::codegen
