// generated/libraries.cmake: which library compiles each generated source, so that a user
// links (and builds) only the groups they call. A model reached from one group's operations
// belongs to that group's library; a model reached from several groups belongs to
// `shared_models`; the stream's event models and event table to `stream`; the operation and
// model tables to `reflection`; the mock's catalogs (mock/) to `mock`. Runs after the other
// emitters and classifies every source they wrote: a source it cannot place fails generation
// instead of going unbuilt.
#include "emit.hpp"

#include <map>
#include <set>
#include <stdexcept>

namespace massive::codegen {

namespace {

/// Every model `m` reaches through its fields, itself included.
void reach(const model* m, std::set<const model*>& seen) {
  if (m == nullptr || !seen.insert(m).second) return;
  for (const field& f : m->fields) reach(f.type.object, seen);
}

/// The groups whose operations reach each model (by name).
std::map<std::string, std::set<std::string>> groups_by_model(const api& a) {
  std::map<std::string, std::set<std::string>> out;
  // Ignored operations (x-polygon-ignore) count too: their group still has their method.
  for (const operation& o : a.operations) {
    std::set<const model*> seen;
    reach(o.row, seen);
    reach(o.underlying, seen);
    for (const model* m : seen) out[m->name].insert(o.group);
  }
  return out;
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The library of one generated source, relative to generated/.
std::string library_of(const std::string& rel, const std::map<std::string, std::set<std::string>>& groups,
                       const std::set<std::string>& stream_models) {
  if (rel == "src/models/model_table.cpp" || starts_with(rel, "src/operations/")) return "reflection";
  if (starts_with(rel, "mock/")) return "mock";
  if (starts_with(rel, "src/stream/")) return "stream";
  // A group's out-of-line methods and parameter rendering go with its models.
  if (starts_with(rel, "src/groups/")) return rel.substr(11, rel.size() - 11 - 4);
  constexpr std::string_view models = "src/models/";
  if (starts_with(rel, models)) {
    const std::string name = rel.substr(models.size(), rel.size() - models.size() - 4);
    if (stream_models.count(name)) return "stream";
    const auto it = groups.find(name);
    // A model no operation reaches has no group to go with: it is shared.
    if (it == groups.end() || it->second.size() != 1) return "shared_models";
    return *it->second.begin();
  }
  throw std::runtime_error("emit_cmake: no library for generated source " + rel +
                           ": place it in codegen/src/emit_cmake.cpp");
}

std::string cmake_banner() {
  std::string b = text::banner();
  for (std::size_t at = 0; (at = b.find("//", at)) != std::string::npos; at += 1) b.replace(at, 2, "#");
  return b;
}

}  // namespace

void emit_cmake(const api& a, const std::set<std::string>& stream_models, file_set& out) {
  const auto groups = groups_by_model(a);
  std::map<std::string, std::vector<std::string>> sources;  // library -> sources, sorted
  for (const auto& [rel, content] : out) {
    if (ends_with(rel, ".cpp")) sources[library_of(rel, groups, stream_models)].push_back(rel);
  }

  std::string f = cmake_banner();
  f += "# Read by sdk/CMakeLists.txt and mock/CMakeLists.txt; paths are relative to generated/.\n\n";
  f += "# The API's groups, one library each (massive::<group>), in the map's order.\nset(MASSIVE_GROUPS";
  for (const group_def& g : a.groups) f += " " + g.name;
  f += ")\n";
  for (const auto& [library, files] : sources) {
    f += "\nset(MASSIVE_" + library + "_SOURCES";
    for (const std::string& rel : files) f += "\n  " + rel;
    f += ")\n";
  }
  out["libraries.cmake"] = std::move(f);
}

}  // namespace massive::codegen
