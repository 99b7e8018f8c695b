#include "build.hpp"

#include "audit.hpp"
#include "names.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

namespace massive::codegen {

generation_error::generation_error(std::vector<std::string> problems)
    : std::runtime_error(problems.empty() ? std::string("generation failed") : problems.front()),
      problems_(std::move(problems)) {}

namespace {

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
  bool has_one_of = false;
};

enum class kind { scalar, object, array, map, json_value };

class builder {
 public:
  builder(const json& spec, const curated_map& map) : spec_(spec), map_(map) {}

  api run();

 private:
  const json& resolve(const json& s, std::string* ref_name = nullptr) const;
  merged merge(const json& raw) const;
  void merge_into(const json& raw, merged& out) const;
  kind classify(const merged& m, scalar& s) const;
  const std::string& signature(const json& raw);
  void collect(const json& raw, const std::string& location);
  void collect_underlying(const std::string& path, const merged& results);

  void add_operation(const std::string& path, const json& path_item, const json& op);
  void bind_models();
  model& model_for(const json& raw);
  field_type type_of(const json& raw);
  void fill_model(model& m, const json& raw);
  void apply_audit(model& m, const merged& schema, std::vector<field>& fields);
  void check_audit();
  param make_param(const operation& op, const json& p, const std::string& wire);
  const enum_def* enumeration(const operation& op, const std::string& wire, const json& values);
  std::string suggest_name(const json& raw, const std::string& location) const;
  void problem(std::string text) { problems_.push_back(std::move(text)); }

  const json& spec_;
  const curated_map& map_;
  evidence_audit audit_;  // empty without an `audit` row in the map
  api api_;
  std::vector<std::string> problems_;
  std::map<const json*, std::string> signatures_;
  // Object nodes: signature -> every location, first first.
  std::map<std::string, std::vector<std::pair<std::string, const json*>>> nodes_;
  std::vector<std::string> node_order_;  // signatures in order of first sight
  std::map<std::string, model*> by_signature_;
  std::map<std::string, const json*> by_location_;
  std::map<std::string, const enum_def*> enums_by_values_;
  std::set<std::string> filled_;
  std::vector<std::pair<std::size_t, const json*>> row_schemas_;  // operation index -> its rows
  std::vector<std::pair<std::size_t, const json*>> underlying_schemas_;  // ... -> results.underlying.aggregates[]
};

const json& builder::resolve(const json& s, std::string* ref_name) const {
  const json* at = &s;
  for (int hops = 0; hops < 32; ++hops) {
    const std::string_view ref = at->text("$ref");
    if (ref.empty()) return *at;
    if (ref.substr(0, 2) != "#/") throw generation_error({"unsupported $ref " + std::string(ref)});
    const json* next = &spec_;
    std::size_t start = 2;
    while (start <= ref.size()) {
      const std::size_t end = std::min(ref.find('/', start), ref.size());
      next = next->find(ref.substr(start, end - start));
      if (next == nullptr) throw generation_error({"dangling $ref " + std::string(ref)});
      start = end + 1;
    }
    if (ref_name != nullptr) *ref_name = std::string(ref.substr(ref.rfind('/') + 1));
    at = next;
  }
  throw generation_error({"$ref cycle"});
}

void builder::merge_into(const json& raw, merged& out) const {
  std::string ref_name;
  const json& s = resolve(raw, &ref_name);
  if (out.ref_name.empty()) out.ref_name = ref_name;
  if (const json* parts = s.find("allOf")) {
    for (const json& part : parts->items()) merge_into(part, out);
  }
  if (out.type.empty()) out.type = std::string(s.text("type"));
  if (out.format.empty()) out.format = std::string(s.text("format"));
  if (out.description.empty()) out.description = std::string(s.text("description"));
  if (const json* go = s.find("x-polygon-go-type"); go != nullptr && out.go_type.empty()) {
    out.go_type = std::string(go->text("name"));
  }
  if (const json* props = s.find("properties")) {
    for (const auto& [key, value] : props->members()) {
      const bool seen = std::any_of(out.properties.begin(), out.properties.end(),
                                    [&](const auto& p) { return p.first == key; });
      if (!seen) out.properties.emplace_back(key, &value);
    }
  }
  if (const json* req = s.find("required")) {
    for (const json& r : req->items()) out.required.push_back(r.string());
  }
  if (const json* items = s.find("items"); items != nullptr && out.items == nullptr) out.items = items;
  if (const json* extra = s.find("additionalProperties"); extra != nullptr && extra->is_object()) {
    out.additional = extra;
  }
  if (s.find("oneOf") != nullptr || s.find("anyOf") != nullptr) out.has_one_of = true;
}

merged builder::merge(const json& raw) const {
  merged m;
  merge_into(raw, m);
  return m;
}

kind builder::classify(const merged& m, scalar& s) const {
  if (m.type == "array" || m.items != nullptr) return kind::array;
  if (m.type == "object" || !m.properties.empty()) {
    if (m.properties.size() == 1 && m.properties.front().first == "*") return kind::map;
    if (m.properties.empty()) return m.additional != nullptr ? kind::map : kind::json_value;
    return kind::object;
  }
  if (m.type == "integer") {
    if (m.go_type == "INanoseconds") {
      s = scalar::timestamp_ns;
    } else if (m.go_type == "IMicroseconds") {
      s = scalar::timestamp_us;
    } else if (m.go_type == "IMilliseconds") {
      s = scalar::timestamp_ms;
    } else {
      s = m.format == "int32" ? scalar::int32 : scalar::int64;
    }
    return kind::scalar;
  }
  if (m.type == "number") return s = scalar::number, kind::scalar;
  if (m.type == "boolean") return s = scalar::boolean, kind::scalar;
  if (m.type == "string") {
    s = m.format == "date" || m.go_type == "IDaysPolygonDateString" ? scalar::date : scalar::string;
    return kind::scalar;
  }
  return kind::json_value;
}

const char* scalar_signature(scalar s) {
  switch (s) {
    case scalar::int64: return "i64";
    case scalar::int32: return "i32";
    case scalar::number: return "f64";
    case scalar::boolean: return "bool";
    case scalar::string: return "str";
    case scalar::date: return "date";
    case scalar::timestamp_ns: return "ns";
    case scalar::timestamp_us: return "us";
    case scalar::timestamp_ms: return "ms";
    case scalar::decimal: return "dec";
    case scalar::json: return "json";
  }
  return "?";
}

const std::string& builder::signature(const json& raw) {
  if (auto it = signatures_.find(&raw); it != signatures_.end()) return it->second;
  const merged m = merge(raw);
  scalar s = scalar::json;
  std::string sig;
  switch (classify(m, s)) {
    case kind::scalar: sig = scalar_signature(s); break;
    case kind::json_value: sig = "json"; break;
    case kind::array: sig = "[" + (m.items != nullptr ? signature(*m.items) : std::string("json")) + "]"; break;
    case kind::map: {
      const json& value = m.properties.empty() ? *m.additional : *m.properties.front().second;
      sig = "map(" + signature(value) + ")";
      break;
    }
    case kind::object: {
      std::vector<std::string> parts;
      for (const auto& [key, value] : m.properties) parts.push_back(key + ":" + signature(*value));
      std::sort(parts.begin(), parts.end());
      sig = "{";
      for (const std::string& p : parts) sig += (sig.size() > 1 ? "," : "") + p;
      sig += "}";
      break;
    }
  }
  return signatures_.emplace(&raw, std::move(sig)).first->second;
}

// The indicators' `results.underlying.aggregates`: a second array of rows beside `values`,
// decoded on demand by massive::underlying() (issue #16: a page can carry more than its rows).
void builder::collect_underlying(const std::string& path, const merged& results) {
  for (const auto& [key, value] : results.properties) {
    if (key != "underlying") continue;
    for (const auto& [member, part] : merge(*value).properties) {
      if (member != "aggregates") continue;
      const merged aggregates = merge(*part);
      scalar ignored = scalar::json;
      if (aggregates.items == nullptr || classify(merge(*aggregates.items), ignored) != kind::object) {
        problem("operation GET " + path + ": results.underlying.aggregates is not an array of objects");
        return;
      }
      collect(*aggregates.items, path + " results.underlying.aggregates[]");
      underlying_schemas_.emplace_back(api_.operations.size(), aggregates.items);
    }
  }
}

void builder::collect(const json& raw, const std::string& location) {
  const merged m = merge(raw);
  scalar s = scalar::json;
  switch (classify(m, s)) {
    case kind::scalar:
    case kind::json_value: return;
    case kind::array:
      if (m.items != nullptr) collect(*m.items, location + "[]");
      return;
    case kind::map:
      collect(m.properties.empty() ? *m.additional : *m.properties.front().second, location + ".*");
      return;
    case kind::object: {
      const std::string& sig = signature(raw);
      auto& list = nodes_[sig];
      if (list.empty()) node_order_.push_back(sig);
      list.emplace_back(location, &raw);
      by_location_[location] = &raw;
      for (const auto& [key, value] : m.properties) collect(*value, location + "." + key);
      return;
    }
  }
}

/// The operation path Massive's deprecation notes use: get_v3_trades__cryptoticker.
std::string doc_path_of(const std::string& path) {
  std::string out = "get";
  for (char c : path) {
    out += c == '/' || c == '{' || c == '}' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

/// A description on one line: runs of whitespace become one space.
std::string one_line(std::string_view text) {
  std::string flat;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && (flat.empty() || flat.back() == ' ')) continue;
    flat += c;
  }
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return flat;
}

/// The first sentence of a description, on one line.
std::string first_sentence(std::string_view text) {
  const std::string flat = one_line(text);
  for (std::size_t at = flat.find(". "); at != std::string::npos; at = flat.find(". ", at + 1)) {
    // "e.g. " and "i.e. " do not end a sentence.
    if (at >= 3 && (flat.compare(at - 3, 3, "e.g") == 0 || flat.compare(at - 3, 3, "i.e") == 0)) continue;
    return flat.substr(0, at + 1);
  }
  return flat;
}

std::string shape_root(shape s) {
  switch (s) {
    case shape::results_array: return "results[]";
    case shape::results_object: return "results";
    case shape::document: return "body";
    case shape::top_level_array: return "body[]";
    case shape::results_values: return "results.values[]";
  }
  return "body";
}

void builder::add_operation(const std::string& path, const json& path_item, const json& op) {
  operation o;
  o.path = path;
  o.operation_id = std::string(op.text("operationId"));
  o.summary = first_sentence(op.text("summary").empty() ? op.text("description") : op.text("summary"));
  o.description = one_line(op.text("description"));
  o.ignored = path_item.flag("x-polygon-ignore") || op.flag("x-polygon-ignore");
  o.experimental = op.find("x-polygon-experimental") != nullptr || path.find("/vX") != std::string::npos ||
                   path.find("/dev/") != std::string::npos;
  if (const json* dep = op.find("x-polygon-deprecation")) {
    o.deprecated = true;
    if (const json* replaces = dep->find("replaces")) o.deprecated_use = std::string(replaces->text("path"));
  }
  const map_row* row = map_.lookup("op", "GET", path);
  if (row == nullptr || row->words.size() < 4) {
    problem("operation GET " + path + " (operationId " + o.operation_id + ") has no map row: add `op GET " +
            path + " <group> <method>` to " + map_.path());
    return;
  }
  o.group = row->words[2];
  o.name = row->words[3];
  o.page_style = row->has("page");

  // The response: where the rows are.
  const json* ok = nullptr;
  if (const json* responses = op.find("responses")) {
    ok = responses->find("200");
    if (ok == nullptr) ok = responses->find("default");
  }
  const json* body = nullptr;
  if (ok != nullptr) {
    const json& resolved = resolve(*ok);
    if (const json* content = resolved.find("content")) {
      if (const json* media = content->find("application/json")) body = media->find("schema");
    }
  }
  if (body == nullptr) {
    problem("operation GET " + path + " has no application/json 200 response schema");
    return;
  }
  const merged top = merge(*body);
  const json* row_schema = body;
  scalar ignored_scalar = scalar::json;
  if (classify(top, ignored_scalar) == kind::array) {
    o.payload = shape::top_level_array;
    row_schema = top.items;
  } else {
    const json* results = nullptr;
    for (const auto& [key, value] : top.properties) {
      if (key == "results") results = value;
      if (key == "next_url") o.paginated = true;
    }
    if (results == nullptr) {
      o.payload = shape::document;
    } else {
      const merged r = merge(*results);
      if (classify(r, ignored_scalar) == kind::array) {
        o.payload = shape::results_array;
        row_schema = r.items;
      } else {
        const json* values = nullptr;
        for (const auto& [key, value] : r.properties) {
          if (key == "values") values = value;
        }
        const merged v = values != nullptr ? merge(*values) : merged{};
        if (values != nullptr && v.items != nullptr) {
          o.payload = shape::results_values;
          row_schema = v.items;
          collect_underlying(path, r);
        } else {
          o.payload = shape::results_object;
          row_schema = results;
        }
      }
    }
  }
  if (row_schema == nullptr) {
    problem("operation GET " + path + ": the rows' schema is missing");
    return;
  }
  const merged row_merged = merge(*row_schema);
  if (classify(row_merged, ignored_scalar) != kind::object) {
    problem("operation GET " + path + ": rows at " + shape_root(o.payload) + " are not objects");
    return;
  }
  collect(*row_schema, path + " " + shape_root(o.payload));
  row_schemas_.emplace_back(api_.operations.size(), row_schema);

  // Parameters: path parameters in route order, query parameters grouped by comparator.
  std::vector<const json*> params;
  for (const json* list : {path_item.find("parameters"), op.find("parameters")}) {
    if (list == nullptr) continue;
    for (const json& p : list->items()) params.push_back(&resolve(p));
  }
  for (std::size_t at = path.find('{'); at != std::string::npos; at = path.find('{', at + 1)) {
    const std::string name = path.substr(at + 1, path.find('}', at) - at - 1);
    const json* found = nullptr;
    for (const json* p : params) {
      if (p->text("in") == "path" && p->text("name") == name) found = p;
    }
    if (found == nullptr) {
      problem("operation GET " + path + ": path parameter {" + name + "} is not declared");
      continue;
    }
    o.path_params.push_back(make_param(o, *found, name));
  }
  static const std::string comparators[] = {"gt", "gte", "lt", "lte", "any_of", "all_of"};
  std::vector<std::pair<std::string, std::set<std::string>>> groups;  // base -> comparators ("" = equality)
  std::map<std::string, const json*> base_schema;
  for (const json* p : params) {
    if (p->text("in") != "query") continue;
    std::string name(p->text("name"));
    if (name == "apiKey") continue;  // the key travels in a header
    std::string comparator;
    if (const auto dot = name.rfind('.'); dot != std::string::npos) {
      const std::string tail = name.substr(dot + 1);
      if (std::find(std::begin(comparators), std::end(comparators), tail) != std::end(comparators)) {
        comparator = tail;
        name = name.substr(0, dot);
      }
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (it == groups.end()) it = groups.insert(groups.end(), {name, {}});
    it->second.insert(comparator);
    // The equality form's schema types the filter; a comparator's stands in when it is absent.
    if (comparator.empty() || !base_schema.count(name)) base_schema[name] = p;
  }
  for (const auto& [name, set] : groups) {
    param q = make_param(o, *base_schema[name], name);
    using S = std::set<std::string>;
    if (set == S{""}) {
      q.filter = filter_kind::none;
    } else if (set == S{"", "gt", "gte", "lt", "lte"}) {
      q.filter = filter_kind::range;
    } else if (set == S{"", "any_of"} || set == S{"any_of"}) {
      q.filter = filter_kind::set;
    } else if (set == S{"", "any_of", "gt", "gte", "lt", "lte"}) {
      q.filter = filter_kind::full;
    } else if (set == S{"", "all_of", "any_of"}) {
      q.filter = filter_kind::array;
    } else {
      std::string list;
      for (const std::string& c : set) list += (list.empty() ? "" : ",") + (c.empty() ? std::string("=") : c);
      problem("operation GET " + path + ": parameter " + name + " has the unknown comparator set {" + list +
              "}: teach the generator a filter type for it (codegen/src/build.cpp)");
    }
    o.query_params.push_back(std::move(q));
  }
  api_.operations.push_back(std::move(o));
}

param builder::make_param(const operation& op, const json& p, const std::string& wire) {
  param out;
  out.wire = wire;
  out.in_path = p.text("in") == "path";
  out.required = out.in_path || p.flag("required");
  out.doc = first_sentence(p.text("description"));
  out.description = one_line(p.text("description"));
  const map_row* rename = map_.lookup("param", wire);
  out.name = rename != nullptr && rename->words.size() > 1 ? rename->words[1] : identifier(wire);
  const json* schema = p.find("schema");
  const merged m = schema != nullptr ? merge(*schema) : merged{};
  const json* values = schema != nullptr ? resolve(*schema).find("enum") : nullptr;
  if (const json* d = schema != nullptr ? resolve(*schema).find("default") : nullptr) {
    out.default_value = d->is_string() ? d->string()
                        : d->type() == json::kind::boolean ? (d->boolean() ? "true" : "false")
                                                           : d->number_text();
  }
  if (values == nullptr && m.items != nullptr) values = resolve(*m.items).find("enum");
  if (values != nullptr && m.type != "array" && m.type != "integer") {
    out.type.what = param_type::kind::enumeration;
    out.type.enumeration = enumeration(op, wire, *values);
  } else if (m.type == "integer") {
    out.type.what = param_type::kind::int64;
  } else if (m.type == "number") {
    out.type.what = param_type::kind::number;
  } else if (m.type == "boolean") {
    out.type.what = param_type::kind::boolean;
  } else if (m.type == "array") {
    out.type.what = param_type::kind::string_list;
  } else if (m.format == "date") {
    out.type.what = param_type::kind::date;
  } else {
    out.type.what = param_type::kind::string;
  }
  if (const map_row* t = map_.lookup("ptype", op.path, wire)) {
    const std::string& type = t->words.size() > 2 ? t->words[2] : std::string();
    if (type == "date_or_ms") {
      out.type.what = param_type::kind::date_or_ms;
    } else if (type == "date_or_ns") {
      out.type.what = param_type::kind::date_or_ns;
    } else if (type == "date") {
      out.type.what = param_type::kind::date;
    } else {
      problem(map_.path() + ":" + std::to_string(t->line) + ": unknown parameter type '" + type + "'");
    }
  }
  return out;
}

const enum_def* builder::enumeration(const operation& op, const std::string& wire, const json& values) {
  std::string key;
  std::vector<std::string> list;
  for (const json& v : values.items()) {
    list.push_back(v.is_string() ? v.string() : v.number_text());
    key += (key.empty() ? "" : ",") + list.back();
  }
  if (auto it = enums_by_values_.find(key); it != enums_by_values_.end()) return it->second;
  auto e = std::make_unique<enum_def>();
  e->values = std::move(list);
  if (const map_row* row = [&]() -> const map_row* {
        for (const map_row* r : map_.find("enum")) {
          if (r->words.size() > 1 && r->words[1] == key) {
            r->used = true;
            return r;
          }
        }
        return nullptr;
      }()) {
    e->name = row->words[0];
  } else {
    e->name = op.group + "_" + op.name + "_" + identifier(wire);
  }
  enums_by_values_[key] = e.get();
  api_.enums.push_back(std::move(e));
  return api_.enums.back().get();
}

std::string builder::suggest_name(const json& raw, const std::string& location) const {
  const merged m = merge(raw);
  if (!m.go_type.empty()) return identifier(m.go_type);
  if (!m.ref_name.empty()) return identifier(m.ref_name);
  std::string last = location.substr(location.find_last_of(" .") + 1);
  while (!last.empty() && (last.back() == ']' || last.back() == '[')) last.pop_back();
  return identifier(last);
}

void builder::bind_models() {
  // Names come from `model <name> <path> <json path>` rows; a row may name any location of a shape.
  for (const map_row* row : map_.find("model")) {
    if (row->words.size() < 3) {
      problem(map_.path() + ":" + std::to_string(row->line) + ": model rows are `model <name> <path> <json path>`");
      continue;
    }
    const std::string location = row->words[1] + " " + row->words[2];
    auto at = by_location_.find(location);
    if (at == by_location_.end()) continue;  // reported as naming nothing
    row->used = true;
    const std::string& sig = signature(*at->second);
    if (auto existing = by_signature_.find(sig); existing != by_signature_.end()) {
      if (existing->second->name != row->words[0]) {
        problem(map_.path() + ":" + std::to_string(row->line) + ": the shape at " + location + " is already named " +
                existing->second->name + " (one name per shape)");
      }
      continue;
    }
    auto m = std::make_unique<model>();
    m->name = row->words[0];
    m->signature = sig;
    m->location = nodes_[sig].front().first;
    by_signature_[sig] = m.get();
    api_.models.push_back(std::move(m));
  }
  for (const std::string& sig : node_order_) {
    if (by_signature_.count(sig)) continue;
    const auto& [location, raw] = nodes_[sig].front();
    const auto space = location.find(' ');
    problem("unbound nested object at GET " + location + ": add `model " + suggest_name(*raw, location) + " " +
            location.substr(0, space) + " " + location.substr(space + 1) + "` to " + map_.path());
  }
  std::set<std::string> names;
  for (const auto& m : api_.models) {
    if (!names.insert(m->name).second) problem("two shapes are both named " + m->name + " in " + map_.path());
  }
}

model& builder::model_for(const json& raw) { return *by_signature_.at(signature(raw)); }

field_type builder::type_of(const json& raw) {
  const merged m = merge(raw);
  field_type t;
  scalar s = scalar::json;
  switch (classify(m, s)) {
    case kind::scalar: t.element = s; break;
    case kind::json_value: t.element = scalar::json; break;
    case kind::object:
      t.shape = field_type::form::object;
      t.object = &model_for(raw);
      break;
    case kind::array: {
      if (m.items == nullptr) break;
      const field_type inner = type_of(*m.items);
      if (inner.shape == field_type::form::object) {
        t.shape = field_type::form::array, t.object = inner.object;
      } else if (inner.shape == field_type::form::scalar && inner.element != scalar::json) {
        t.shape = field_type::form::array, t.element = inner.element;
        // Arrays hold what their readers store: dates and times as their wire text or count.
        if (t.element == scalar::date) t.element = scalar::string;
        if (is_timestamp(t.element)) t.element = scalar::int64;
      }
      break;
    }
    case kind::map: {
      const field_type inner = type_of(m.properties.empty() ? *m.additional : *m.properties.front().second);
      if (inner.shape == field_type::form::object) {
        t.shape = field_type::form::map, t.object = inner.object;
      } else if (inner.shape == field_type::form::scalar && inner.element == scalar::number) {
        t.shape = field_type::form::map, t.element = scalar::number;
      }
      break;
    }
  }
  return t;
}

bool parse_scalar(const std::string& text, scalar& out) {
  static const std::pair<const char*, scalar> names[] = {
      {"int64", scalar::int64},   {"int32", scalar::int32},     {"double", scalar::number},
      {"bool", scalar::boolean},  {"string", scalar::string},   {"date", scalar::date},
      {"timestamp_ns", scalar::timestamp_ns}, {"timestamp_us", scalar::timestamp_us},
      {"timestamp_ms", scalar::timestamp_ms}, {"decimal", scalar::decimal}, {"json", scalar::json}};
  for (const auto& [name, value] : names) {
    if (text == name) return out = value, true;
  }
  return false;
}

void builder::fill_model(model& m, const json& raw) {
  if (!filled_.insert(m.name).second) return;
  const merged merged_schema = merge(raw);
  if (const map_row* doc = map_.lookup("doc", m.name)) {
    m.doc = doc->text;
  } else {
    m.doc = first_sentence(merged_schema.description);
  }
  std::vector<field> fields;
  for (const auto& [key, value] : merged_schema.properties) {
    field f;
    f.key = key;
    f.type = type_of(*value);
    f.doc = first_sentence(merge(*value).description);
    if (const map_row* k = map_.lookup("key", key)) f.name = k->words.size() > 1 ? k->words[1] : std::string();
    if (const map_row* row = map_.lookup("field", m.name, key)) {
      if (auto name = row->option("name")) f.name = *name;
      if (auto type = row->option("type")) {
        scalar s = scalar::json;
        if (!parse_scalar(*type, s) || f.type.shape != field_type::form::scalar) {
          problem(map_.path() + ":" + std::to_string(row->line) + ": type=" + *type + " does not fit field " + key +
                  " of " + m.name);
        } else {
          f.type.element = s;
        }
      }
      f.required = row->has("required");
      f.absent_false = row->has("absent=false");
    }
    if (const map_row* doc = map_.lookup("doc", m.name + "." + key)) f.doc = doc->text;
    if (f.name.empty()) {
      if (key.size() == 1) {
        problem("one-letter key \"" + key + "\" of " + m.name + " (at " + m.location + ") has no readable name: add `key " +
                key + " <name>` or `field " + m.name + " " + key + " name=<name>` to " + map_.path());
      }
      f.name = identifier(key);
    }
    fields.push_back(std::move(f));
  }
  apply_audit(m, merged_schema, fields);
  // Fields named by `field` rows come first, in the map's order; the rest keep the description's.
  std::vector<field> ordered;
  for (const map_row* row : map_.find("field", m.name)) {
    for (field& f : fields) {
      if (row->words.size() > 1 && f.key == row->words[1] && !f.key.empty()) {
        ordered.push_back(std::move(f));
        f.key.clear();
      }
    }
  }
  for (field& f : fields) {
    if (!f.key.empty()) ordered.push_back(std::move(f));
  }
  std::set<std::string> names;
  for (const field& f : ordered) {
    if (!names.insert(f.name).second) {
      problem("two fields of " + m.name + " are both named " + f.name + ": rename one with `field " + m.name +
              " <key> name=<name>` in " + map_.path());
    }
  }
  m.fields = std::move(ordered);
  for (const auto& [key, value] : merged_schema.properties) {
    const field_type t = type_of(*value);
    if (t.object == nullptr) continue;
    const merged inner = merge(*value);
    const json* nested = value;
    if (t.shape == field_type::form::array) nested = inner.items;
    if (t.shape == field_type::form::map) nested = inner.properties.empty() ? inner.additional : inner.properties.front().second;
    if (t.shape == field_type::form::array && nested != nullptr) {
      fill_model(*t.object, *nested);
    } else if (nested != nullptr) {
      fill_model(*t.object, *nested);
    }
  }
}

void builder::apply_audit(model& m, const merged& schema, std::vector<field>& fields) {
  // Type corrections: the description's type must still be the one the row says it is, or
  // the row is reported (the description may have come to agree with the evidence).
  for (field& f : fields) {
    const audit_row* row = audit_.find("type", m.name, f.key);
    if (row == nullptr) continue;
    const auto declared = std::find_if(schema.properties.begin(), schema.properties.end(),
                                       [&](const auto& p) { return p.first == f.key; });
    const std::string says = merge(*declared->second).type;
    scalar s = scalar::json;
    if (says != row->description) {
      problem(audit_.where(*row) + ": the description now says " + says + " for " + row->subject + ", not " +
              row->description + ": review the correction to " + row->evidence + " (remove the row if it agrees)");
    } else if (!parse_scalar(row->evidence, s) || f.type.shape != field_type::form::scalar) {
      problem(audit_.where(*row) + ": type " + row->evidence + " does not fit field " + row->subject);
    } else {
      f.type.element = s;
      f.doc += (f.doc.empty() ? "" : " ") + std::string("The description says ") + row->description +
               "; the wire sends " + row->evidence + " (codegen/audit.tsv).";
    }
  }
  // Fields the description omits.
  for (const audit_row* row : audit_.of("add", m.name)) {
    row->used = true;
    const std::string key(row->key());
    const bool declared = std::any_of(schema.properties.begin(), schema.properties.end(),
                                      [&](const auto& p) { return p.first == key; });
    scalar s = scalar::json;
    if (declared) {
      problem(audit_.where(*row) + ": the description now declares " + row->subject + ": remove the row (or make it a type row)");
    } else if (!parse_scalar(row->evidence, s)) {
      problem(audit_.where(*row) + ": unknown type " + row->evidence);
    } else {
      field f;
      f.key = key;
      f.type.element = s;
      if (const map_row* k = map_.lookup("key", key)) f.name = k->words.size() > 1 ? k->words[1] : std::string();
      if (f.name.empty()) f.name = identifier(key);
      f.doc = "Sent by the API though the description omits it (codegen/audit.tsv).";
      fields.push_back(std::move(f));
    }
  }
}

void builder::check_audit() {
  std::size_t corrected_fields = 0, corrected_payloads = 0;
  for (const audit_row& row : audit_.rows()) {
    if (row.kind == "type" || row.kind == "add") {
      ++corrected_fields;
      if (!row.used) problem(audit_.where(row) + ": " + row.kind + " " + row.subject + " names no field of a model");
    }
    if (row.kind == "payload") ++corrected_payloads;
  }
  // The summary states the counts, so that they cannot go stale.
  for (const audit_row& row : audit_.rows()) {
    if (row.kind != "summary") continue;
    const std::string stated = row.description + " " + row.evidence;
    const std::string actual = std::to_string(corrected_fields) + " fields " + std::to_string(corrected_payloads) + " payloads";
    if (stated != actual) problem(audit_.where(row) + ": the summary says " + stated + ", the rows " + actual);
  }
}

api builder::run() {
  const json* paths = spec_.find("paths");
  if (paths == nullptr) throw generation_error({"the description has no paths"});
  for (const map_row* row : map_.find("audit")) {
    row->used = true;
    audit_ = evidence_audit::load((std::filesystem::path(map_.path()).parent_path() / row->words[0]).string());
  }
  for (const auto& [path, item] : paths->members()) {
    if (const json* get = item.find("get")) add_operation(path, item, *get);
  }
  bind_models();
  if (!problems_.empty()) {
    // Operation and model rows are settled by now: report those naming nothing as well.
    for (const map_row& row : map_.rows()) {
      if ((row.kind == "op" || row.kind == "model") && !row.used) {
        std::string text = "line " + std::to_string(row.line) + ": " + row.kind;
        for (const std::string& w : row.words) text += " " + w;
        problem(map_.path() + " " + text + " names nothing in the description");
      }
    }
    throw generation_error(problems_);
  }
  for (const auto& [index, raw] : row_schemas_) {
    model& m = model_for(*raw);
    m.row = true;
    api_.operations[index].row = &m;
    fill_model(m, *raw);
  }
  for (const auto& [index, raw] : underlying_schemas_) {
    model& m = model_for(*raw);
    m.row = true;
    operation& o = api_.operations[index];
    o.underlying = &m;
    fill_model(m, *raw);
    if (o.row->underlying_rows != nullptr && o.row->underlying_rows != &m) {
      problem("operation GET " + o.path + ": rows " + o.row->name + " come with underlying rows " + m.name +
              " here and " + o.row->underlying_rows->name + " elsewhere (one per row model)");
    }
    o.row->underlying_rows = &m;
  }
  // Wire orders: every key a number field of that row model, once.
  for (const map_row* row : map_.find("wire")) {
    row->used = true;
    if (row->words.empty()) {
      problem(map_.path() + ":" + std::to_string(row->line) + ": wire names no model");
      continue;
    }
    const std::string where = map_.path() + ":" + std::to_string(row->line) + ": wire " + row->words[0];
    const auto m = std::find_if(api_.models.begin(), api_.models.end(),
                                [&](const auto& x) { return x->name == row->words[0] && x->row; });
    if (m == api_.models.end()) {
      problem(where + " names no model that is an operation's rows");
      continue;
    }
    std::vector<std::size_t> order;
    for (std::size_t w = 1; w < row->words.size(); ++w) {
      const std::vector<field>& fields = (*m)->fields;
      const auto f = std::find_if(fields.begin(), fields.end(), [&](const field& x) { return x.key == row->words[w]; });
      const auto index = static_cast<std::size_t>(f - fields.begin());
      if (f == fields.end() || !wire_readable(*f)) {
        problem(where + ": key " + row->words[w] + " is not a number field (double, int64 or timestamp) of the model");
      } else if (std::find(order.begin(), order.end(), index) != order.end()) {
        problem(where + ": key " + row->words[w] + " comes twice");
      } else {
        order.push_back(index);
      }
    }
    if (order.empty()) problem(where + " lists no key");
    (*m)->wire = std::move(order);
  }
  // Deprecated operations name their replacement's method.
  for (operation& o : api_.operations) {
    if (o.deprecated_use.empty()) continue;
    for (const operation& r : api_.operations) {
      if (doc_path_of(r.path) == o.deprecated_use) o.deprecated_use = r.group + "()." + r.name + "()";
    }
    if (o.deprecated_use.find("()") == std::string::npos) {
      problem("operation GET " + o.path + " is deprecated for " + o.deprecated_use + ", which names no operation");
    }
  }
  // Groups: one `group` row each, in the map's order; every operation's group must have one.
  for (const map_row* row : map_.find("group")) {
    row->used = true;
    api_.groups.push_back({row->words[0], row->text});
  }
  for (const operation& o : api_.operations) {
    if (std::none_of(api_.groups.begin(), api_.groups.end(), [&](const group_def& g) { return g.name == o.group; })) {
      problem("operation GET " + o.path + " is in group " + o.group + ", which has no `group " + o.group +
              " <description>` row in " + map_.path());
    }
  }
  std::set<std::pair<std::string, std::string>> methods;
  for (const operation& o : api_.operations) {
    if (!methods.insert({o.group, o.name}).second) {
      problem("two operations are both " + o.group + "()." + o.name + "(): rename one in " + map_.path());
    }
  }
  check_audit();
  for (const std::string& row : map_.unused()) problem(map_.path() + " " + row + " names nothing in the description");
  if (!problems_.empty()) throw generation_error(problems_);
  std::sort(api_.models.begin(), api_.models.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
  std::sort(api_.enums.begin(), api_.enums.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
  return std::move(api_);
}

}  // namespace

api build(const json& spec, const curated_map& map) { return builder(spec, map).run(); }

}  // namespace massive::codegen
