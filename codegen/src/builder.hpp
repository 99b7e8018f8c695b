// The generator's reader, shared by its two halves: schema.cpp turns the description's schemas
// into models (merging allOf parts, following $refs, naming shapes through the map, applying
// the evidence audit); operations.cpp reads the operations (routes, parameters, where the rows
// are) and runs the whole. Private to codegen/.
#pragma once

#include "audit.hpp"
#include "build.hpp"
#include "official.hpp"

#include <map>
#include <tuple>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::codegen::building {

/// The names of a path's parameters, in order: {"stocksTicker", "date"} for
/// /v1/open-close/{stocksTicker}/{date}.
std::vector<std::string> path_parameter_names(const std::string& path);

/// An object schema with its allOf parts merged and its $refs followed.
struct merged {
  std::string type;
  std::string format;
  std::string go_type;
  std::string ref_name;  // the components/schemas name it was reached through, if any
  std::string description;
  std::vector<std::pair<std::string, const json*>> properties;  // document order
  std::vector<std::string> required;
  const json* items = nullptr;
  const json* additional = nullptr;
  bool recursive = false;  // a reference closing a loop (builder::find_back_edges): kept as JSON

  /// The schema of the property `key`, or nullptr; the last one when parts repeat it.
  const json* property(std::string_view key) const {
    const json* found = nullptr;
    for (const auto& [name, schema] : properties) {
      if (name == key) found = schema;
    }
    return found;
  }
};

enum class kind { scalar, object, array, map, json_value };

class builder {
 public:
  builder(const json& spec, const curated_map& map, const std::set<std::string>& reserved, notices& out)
      : spec_(spec), map_(map), reserved_(reserved), notices_(out) {}

  api run();

 private:
  const json& resolve(const json& s, std::string* ref_name = nullptr) const;
  merged merge(const json& raw) const;
  void merge_into(const json& raw, merged& out) const;
  /// Finds the references that close a loop (a tree's node holding its children), which no C++
  /// struct can hold: one depth-first walk over every schema of the description, in document
  /// order, and a reference to a schema on the walk's path is a back edge. The value at a back
  /// edge is kept as JSON (json_value), with a warning when a model meets it; the schema around
  /// it stays a model. One walk for the whole description gives a schema the same shape
  /// wherever it is met (two schemas holding each other: the one met second holds the first as
  /// JSON, everywhere).
  void find_back_edges();
  kind classify(const merged& m, scalar& s) const;
  const std::string& signature(const json& raw);
  void collect(const json& raw, const std::string& location);
  /// Collects results.underlying.aggregates[] and returns its element schema (null when none).
  const json* collect_underlying(const std::string& path, const merged& results);

  /// Routes of `paths` whose path parameters were renamed since the map was written
  /// (routes.cpp): each path no op row names, paired with the row's path of the same route.
  void find_renamed_routes(const json& paths);
  /// The path map rows name a described route by, and the described path of a map row's.
  const std::string& map_path(const std::string& described) const;
  const std::string& described_path(const std::string& mapped) const;
  void add_operation(const std::string& path, const json& path_item, const json& op);
  void name_operations();
  void name_groups();
  void name_enums();
  void bind_file_rows();
  void bind_models();
  model* default_model(const std::string& sig, const std::string& location);
  model& model_for(const json& raw);
  field_type type_of(const json& raw);
  void fill_model(model& m, const json& raw);
  void apply_audit(model& m, const merged& schema, std::vector<field>& fields);
  void check_audit();
  /// A parameter; `map_wire` is the name map rows know it by (a renamed path parameter's old one).
  param make_param(const operation& op, const json& p, const std::string& wire, const std::string& map_wire);
  param make_param(const operation& op, const json& p, const std::string& wire) { return make_param(op, p, wire, wire); }
  const enum_def* enumeration(const operation& op, const std::string& wire, const json& values);
  void problem(std::string text) { problems_.push_back(std::move(text)); }
  void warn(std::string text) { notices_.warnings.push_back(std::move(text)); }
  /// A map row naming nothing in the description: a warning, and a line --prune removes.
  void stale(const map_row& row, const std::string& why);
  void stale(const audit_row& row, const std::string& why);
  /// Every name a generated type has taken so far (models, enumerations, the stream's events).
  std::set<std::string> taken_type_names() const;

  const json& spec_;
  const curated_map& map_;
  const std::set<std::string>& reserved_;
  notices& notices_;
  std::vector<std::string> known_groups_;  // the map's group rows, in its order
  evidence_audit audit_;  // empty without an `audit` row in the map
  official_names official_;  // empty without an `official` row
  api api_;
  std::vector<std::string> problems_;
  std::map<const json*, std::string> signatures_;
  std::map<const json*, std::string> back_edges_;  // a reference closing a loop -> its warning
  mutable std::set<const json*> back_edges_told_;  // the back edges warned about
  mutable std::set<std::string> unfollowed_refs_;    // $refs resolve() could not follow, warned once each
  // Object nodes: signature -> every location, first first.
  std::map<std::string, std::vector<std::pair<std::string, const json*>>> nodes_;
  std::vector<std::string> node_order_;  // signatures in order of first sight
  std::map<const json*, model*> node_model_;                  // every object node's model
  std::map<std::string, std::vector<model*>> named_by_sig_;  // shapes the map names, by signature
  std::map<std::string, model*> default_by_sig_;             // shapes it does not name
  std::map<std::string, std::size_t> operation_at_;          // path -> index in api_.operations
  std::map<std::string, std::string> map_paths_;              // described path -> the map's (routes.cpp)
  std::vector<bool> curated_name_;                           // per operation: named by a map row
  // Enumerations named <group>_<method>_<parameter> once their operation has its name.
  std::vector<std::tuple<enum_def*, std::size_t, std::string>> unnamed_enums_;
  std::map<std::string, const json*> by_location_;
  std::map<std::string, const enum_def*> enums_by_values_;
  std::set<std::string> filled_;
  std::vector<std::pair<std::size_t, const json*>> row_schemas_;  // operation index -> its rows
  std::vector<std::pair<std::size_t, const json*>> underlying_schemas_;  // ... -> results.underlying.aggregates[]
};

}  // namespace massive::codegen::building
