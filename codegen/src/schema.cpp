// The description's schemas into models: allOf merged, $refs followed, every object shape
// deduplicated by its signature and named through the map's `model` rows, fields typed and
// corrected by the evidence audit.
#include "builder.hpp"

#include "defaults.hpp"
#include "names.hpp"

#include <algorithm>
#include <filesystem>

namespace massive::codegen::building {

namespace {


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

}  // namespace


const json& builder::resolve(const json& s, std::string* ref_name) const {
  // A reference that cannot be followed (to nowhere, to another file, or round in a circle)
  // stands for a schema that says nothing: its value is kept as JSON text, like any schema
  // without a type, and the rest of the description still generates.
  static const json says_nothing;
  const json::reference_end end = spec_.follow_references(s);
  if (ref_name != nullptr && !end.name.empty()) *ref_name = std::string(end.name);
  if (end.at != nullptr) return *end.at;
  if (unfollowed_refs_.insert(std::string(end.ref)).second) {
    notices_.warnings.push_back("$ref " + std::string(end.ref) + " " + end.why + ": what it stands for is kept as JSON text "
                                "(json_value) or, for a parameter or response, left out");
  }
  return says_nothing;
}

namespace {

/// Calls f(child, step) on each schema that `s` holds, with the step to it as a JSON path writes
/// it: its properties (".key"), items ("[]"), additional properties (".*"), and allOf, oneOf
/// and anyOf parts ("": a part is the same value).
template <class F>
void each_child(const json& s, F&& f) {
  for (const char* key : {"properties", "patternProperties"}) {
    if (const json* props = s.find(key)) {
      for (const auto& [name, value] : props->members()) f(value, "." + name);
    }
  }
  if (const json* items = s.find("items"); items != nullptr && items->is_object()) f(*items, std::string("[]"));
  if (const json* extra = s.find("additionalProperties"); extra != nullptr && extra->is_object()) {
    f(*extra, std::string(".*"));
  }
  for (const char* key : {"allOf", "oneOf", "anyOf"}) {
    if (const json* parts = s.find(key)) {
      for (const json& part : parts->items()) f(part, std::string());
    }
  }
}

}  // namespace

void builder::find_back_edges() {
  std::set<const json*> entered;
  std::vector<std::pair<const json*, std::string>> trail;  // the walk's path: each schema, the step into it
  // Every object of the document starts a walk (schemas sit under paths, components and
  // wherever a $ref may point); what one walk entered, no later walk enters again.
  const auto walk = [&](const auto& self, const json& node, const std::string& step) -> void {
    const json::reference_end end = spec_.follow_references(node);
    if (end.at == nullptr || !end.at->is_object()) return;
    const json& s = *end.at;
    const auto loop = std::find_if(trail.begin(), trail.end(), [&](const auto& t) { return t.first == &s; });
    if (loop != trail.end()) {
      std::string where;
      for (auto t = loop + 1; t != trail.end(); ++t) where += t->second;
      where += step;
      const std::string name = end.name.empty() ? std::string(end.ref) : std::string(end.name);
      back_edges_.emplace(&node, "schema " + name + " holds itself (at " + name + where +
                                     "): what is there is kept as JSON text (json_value), the rest as a model");
      return;
    }
    if (!entered.insert(&s).second) return;
    trail.emplace_back(&s, step);
    each_child(s, [&](const json& child, const std::string& into) { self(self, child, into); });
    trail.pop_back();
  };
  const auto every = [&](const auto& self, const json& node) -> void {
    if (node.is_object()) {
      walk(walk, node, "");
      for (const auto& member : node.members()) self(self, member.second);
    } else if (node.is_array()) {
      for (const json& item : node.items()) self(self, item);
    }
  };
  every(every, spec_);
}

void builder::merge_into(const json& raw, merged& out) const {
  if (const auto edge = back_edges_.find(&raw); edge != back_edges_.end()) {
    if (back_edges_told_.insert(&raw).second) notices_.warnings.push_back(edge->second);
    out.recursive = true;
    return;
  }
  std::string ref_name;
  const json& s = resolve(raw, &ref_name);
  if (out.ref_name.empty()) out.ref_name = ref_name;
  if (const json* parts = s.find("allOf")) {
    for (const json& part : parts->items()) merge_into(part, out);
  }
  if (const json* only = s.sole_alternative()) merge_into(*only, out);
  if (out.type.empty()) out.type = std::string(s.schema_type());
  if (out.format.empty()) out.format = std::string(s.text("format"));
  if (out.description.empty()) out.description = std::string(s.text("description"));
  if (const json* go = s.extension("go-type"); go != nullptr && out.go_type.empty()) {
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
}

merged builder::merge(const json& raw) const {
  merged m;
  merge_into(raw, m);
  return m;
}

kind builder::classify(const merged& m, scalar& s) const {
  if (m.recursive) return kind::json_value;
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


// Every object node gets a model. A `model <name> <path> <json path>` row names the shape at
// that location, and every unnamed location of the same shape shares the first such name (the
// map's order); two rows may give one shape two names (stocks and options last trades), which
// stay two models. A shape no row names gets a default name from where it is first met.
void builder::bind_models() {
  std::map<std::string, model*> by_name;
  for (const map_row* row : map_.find("model")) {
    if (row->words.size() < 3) {
      problem(map_.where(*row) + ": model rows are `model <name> <path> <json path>`");
      continue;
    }
    const std::string location = described_path(row->words[1]) + " " + row->words[2];
    auto at = by_location_.find(location);
    if (at == by_location_.end()) continue;  // reported as stale with the other unused rows
    row->used = true;
    const std::string& sig = signature(*at->second);
    if (auto existing = by_name.find(row->words[0]); existing != by_name.end()) {
      if (existing->second->signature != sig) {
        problem(map_.where(*row) + ": " + row->words[0] + " names two different shapes, at " +
                location + " and at " + existing->second->location + ": give one another name");
      } else {
        node_model_.emplace(at->second, existing->second);
      }
      continue;
    }
    auto m = std::make_unique<model>();
    m->name = row->words[0];
    m->signature = sig;
    m->location = nodes_[sig].front().first;
    by_name[m->name] = m.get();
    named_by_sig_[sig].push_back(m.get());
    node_model_.emplace(at->second, m.get());
    api_.models.push_back(std::move(m));
  }
  // In order of first sight, so that an owner is named before what it holds.
  for (const std::string& sig : node_order_) {
    for (const auto& [location, raw] : nodes_[sig]) {
      if (node_model_.count(raw)) continue;
      const auto named = named_by_sig_.find(sig);
      node_model_.emplace(raw, named != named_by_sig_.end() ? named->second.front() : default_model(sig, location));
    }
  }
}

// A shape no row names: an operation's rows are <group>_<method> in the singular (futures
// aggregates_vx -> futures_aggregate_vx); a nested object is its owner's name and its key
// (futures_snapshot_vx_details), so that generic keys (results, data, details) never stand alone.
model* builder::default_model(const std::string& sig, const std::string& location) {
  if (auto it = default_by_sig_.find(sig); it != default_by_sig_.end()) return it->second;
  const std::string path = location.substr(0, location.find(' '));
  std::string json_path = location.substr(path.size() + 1);
  std::string name;
  // The row roots, as add_operation writes them, and the indicators' underlying bars.
  static const std::string roots[] = {"results[]", "results", "body", "body[]", "results.values[]"};
  const auto op = operation_at_.find(path);
  if (op != operation_at_.end() && std::find(std::begin(roots), std::end(roots), json_path) != std::end(roots)) {
    const operation& o = api_.operations[op->second];
    name = o.group + "_" + singular_name(o.name);
  } else {
    // The owner: the nearest enclosing object location (arrays and maps are not objects).
    std::string key;
    std::string owner_path = json_path;
    bool element = false;
    while (true) {
      const std::size_t dot = owner_path.rfind('.');
      if (dot == std::string::npos) break;
      std::string last = owner_path.substr(dot + 1);
      owner_path.resize(dot);
      while (last.size() >= 2 && last.compare(last.size() - 2, 2, "[]") == 0) last.resize(last.size() - 2), element = true;
      if (last == "*") {
        element = true;
        continue;
      }
      key = last;
      break;
    }
    const auto owner_at = by_location_.find(path + " " + owner_path);
    const auto owner = owner_at != by_location_.end() ? node_model_.find(owner_at->second) : node_model_.end();
    const std::string stem = identifier(key.empty() ? std::string("value") : key);
    std::string word = element ? singular(stem) : stem;
    const std::string base = owner != node_model_.end() ? owner->second->name : identifier(path);
    // futures_product_schedule's schedule[] is futures_product_schedule_entry, not ..._schedule_schedule.
    if (base.size() > word.size() && base.compare(base.size() - word.size() - 1, std::string::npos, "_" + word) == 0) {
      word = "entry";
    }
    name = base + "_" + word;
  }
  auto m = std::make_unique<model>();
  m->name = first_free(bounded_name(name), taken_type_names());
  m->signature = sig;
  m->location = location;
  notices_.defaults.push_back("the object at GET " + location + " has no model row: generated as " + m->name +
                              " (`model " + m->name + " " + path + " " + json_path + "` in " + map_.path() +
                              " pins or renames it)");
  default_by_sig_[sig] = m.get();
  api_.models.push_back(std::move(m));
  return api_.models.back().get();
}

model& builder::model_for(const json& raw) {
  if (auto it = node_model_.find(&raw); it != node_model_.end()) return *it->second;
  // A node met only through a shared $ref target: the model of its shape.
  const std::string& sig = signature(raw);
  if (auto named = named_by_sig_.find(sig); named != named_by_sig_.end()) return *named->second.front();
  return *default_by_sig_.at(sig);
}

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
          warn(map_.where(*row) + ": type=" + *type + " does not fit field " + key + " of " +
               m.name + " as the description has it; the description's type is kept");
        } else {
          f.type.element = s;
        }
      }
      f.required = row->has("required");
      f.absent_false = row->has("absent=false");
      const bool boolean =
          f.type.shape == field_type::form::scalar && f.type.element == scalar::boolean;
      if (f.absent_false && !boolean) {
        // Absence read as false fits a bool alone: any other type would show absence as a value.
        warn(map_.where(*row) + ": absent=false fits a boolean, and field " + key + " of " +
             m.name + " is not one in the description: it stays optional");
        f.absent_false = false;
      }
    }
    if (const map_row* doc = map_.lookup("doc", m.name + "." + key)) f.doc = doc->text;
    if (f.name.empty()) {
      f.name = identifier(key);
      if (key.size() == 1) {
        notices_.defaults.push_back("one-letter key \"" + key + "\" of " + m.name + " (at GET " + m.location +
                                    ") has no readable name: generated as " + f.name + " (`key " + key +
                                    " <name>` or `field " + m.name + " " + key + " name=<name>` in " + map_.path() + ")");
      }
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
  // Two keys may give one name (P and p, t and a key row's timestamp): the first keeps it, a
  // later one takes a numbered name, unless the map named both (a person's decision).
  std::set<std::string> names;
  std::set<std::string> curated;
  const auto named_by_row = [&](const field& f) -> const map_row* {
    for (const map_row* r : map_.find("field", m.name)) {
      if (r->words.size() > 1 && r->words[1] == f.key && r->option("name")) return r;
    }
    return nullptr;
  };
  for (field& f : ordered) {
    const map_row* row = named_by_row(f);
    if (names.insert(f.name).second) {
      if (row != nullptr) curated.insert(f.name);
      continue;
    }
    if (row != nullptr && curated.count(f.name)) {
      problem(map_.where(*row) + ": two fields of " + m.name + " are both named " + f.name +
              ": rename one with `field " + m.name + " <key> name=<name>`");
      continue;
    }
    const std::string renamed = first_free(f.name, names);
    warn("key \"" + f.key + "\" of " + m.name + " (at GET " + m.location + ") would be a second member named " + f.name +
         ": generated as " + renamed + " (`field " + m.name + " " + f.key + " name=<name>` in " + map_.path() + ")");
    f.name = renamed;
    names.insert(renamed);
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
    if (!parse_scalar(row->evidence, s) || f.type.shape != field_type::form::scalar) {
      warn(audit_.where(*row) + ": type " + row->evidence + " does not fit field " + row->subject +
           " as the description has it; the correction is not applied: review the row");
      continue;
    }
    if (says != row->description) {
      scalar now = scalar::json;
      // The description has come to agree with the evidence (number for a double): the row is
      // stale. Otherwise it changed its mind another way: the evidence still decides, and a
      // person reviews the row.
      if (classify(merge(*declared->second), now) == kind::scalar && now == s) {
        stale(*row, "is moot: the description now says " + says);
        continue;
      }
      warn(audit_.where(*row) + ": the description now says " + says + " for " + row->subject + ", not " +
           row->description + "; the correction to " + row->evidence + " is still applied: review the row");
    }
    f.type.element = s;
    f.doc += (f.doc.empty() ? "" : " ") + std::string("The description says ") + says + "; the wire sends " +
             row->evidence + " (codegen/audit.tsv).";
  }
  // Fields the description omits.
  for (const audit_row* row : audit_.of("add", m.name)) {
    row->used = true;
    const std::string key(row->key());
    const bool declared = std::any_of(schema.properties.begin(), schema.properties.end(),
                                      [&](const auto& p) { return p.first == key; });
    scalar s = scalar::json;
    if (declared) {
      stale(*row, "is moot: the description now declares the field");
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
    if ((row.kind == "type" || row.kind == "add") && !row.used) {
      stale(row, "names no field of a model");
    }
    if (notices_.stale_audit_lines.count(row.line)) continue;
    if (row.kind == "type" || row.kind == "add") ++corrected_fields;
    if (row.kind == "payload") ++corrected_payloads;
  }
  // The summary states the counts of the rows that stay; --prune writes them, never a person.
  notices_.audit_counts = std::to_string(corrected_fields) + " fields\t" + std::to_string(corrected_payloads) + " payloads";
  for (const audit_row& row : audit_.rows()) {
    if (row.kind != "summary") continue;
    const std::string stated = row.description + "\t" + row.evidence;
    if (stated != notices_.audit_counts) {
      warn(audit_.where(row) + ": the summary says " + row.description + ", " + row.evidence + "; the rows give " +
           std::to_string(corrected_fields) + " fields, " + std::to_string(corrected_payloads) + " payloads (--prune rewrites it)");
      notices_.stale_audit_lines.insert(row.line);
    }
  }
}

}  // namespace massive::codegen::building
