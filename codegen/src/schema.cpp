// The description's schemas into models: allOf merged, $refs followed, every object shape
// deduplicated by its signature and named through the map's `model` rows, fields typed and
// corrected by the evidence audit.
#include "builder.hpp"

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

}  // namespace massive::codegen::building
