// The description's operations: routes, parameters and where the rows are, read with the map;
// and the whole run, which reports every problem at once.
#include "builder.hpp"

#include "defaults.hpp"
#include "emit.hpp"
#include "names.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

namespace massive::codegen {

generation_error::generation_error(std::vector<std::string> problems)
    : std::runtime_error(problems.empty() ? std::string("generation failed") : problems.front()),
      problems_(std::move(problems)) {}

namespace building {

namespace {

/// The operation path Massive's deprecation notes use: get_v3_trades__cryptoticker.
std::string doc_path_of(const std::string& path) {
  std::string out = "get";
  for (char c : path) {
    out += c == '/' || c == '{' || c == '}' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

// The indicators' `results.underlying.aggregates`: a second array of rows beside `values`,
// decoded on demand by massive::underlying() (issue #16: a page can carry more than its rows).
const json* builder::collect_underlying(const std::string& path, const merged& results) {
  for (const auto& [key, value] : results.properties) {
    if (key != "underlying") continue;
    for (const auto& [member, part] : merge(*value).properties) {
      if (member != "aggregates") continue;
      const merged aggregates = merge(*part);
      scalar ignored = scalar::json;
      if (aggregates.items == nullptr || classify(merge(*aggregates.items), ignored) != kind::object) {
        warn("GET " + path + " (" + operation_pointer(path) +
             "): results.underlying.aggregates is not an array of objects; the page keeps it as JSON");
        return nullptr;
      }
      collect(*aggregates.items, path + " results.underlying.aggregates[]");
      underlying_schemas_.emplace_back(api_.operations.size(), aggregates.items);
      return aggregates.items;
    }
  }
  return nullptr;
}

namespace {
/// A value a query parameter can carry: a string, a number or a boolean.
bool is_query_value(const json& v) {
  return v.is_string() || v.type() == json::kind::number || v.type() == json::kind::boolean;
}
}  // namespace

void builder::add_operation(const std::string& path, const json& path_item, const json& op) {
  operation o;
  o.path = path;
  if (path.empty() || path.front() != '/') {
    // OpenAPI's paths begin with '/'; without it the request line would carry no origin-form
    // target. The route, and what map rows name, is the key with its slash.
    o.path = "/" + path;
    warn("GET " + path + " (" + operation_pointer(path) + "): the path does not begin with '/'; generated as " + o.path);
  }
  o.operation_id = std::string(op.text("operationId"));
  o.summary = first_sentence(op.text("summary").empty() ? op.text("description") : op.text("summary"));
  o.description = one_line(op.text("description"));
  o.ignored = path_item.extension_flag("ignore") || op.extension_flag("ignore");
  const auto experimental_path = [](const std::string& p) {
    return p.find("/vX") != std::string::npos || p.find("/dev/") != std::string::npos;
  };
  o.experimental = op.extension("experimental") != nullptr || experimental_path(path);
  o.graduated = !o.experimental && experimental_path(map_path(o.path));
  o.deprecated = op.flag("deprecated");  // OpenAPI's own; Massive's extension can name the successor
  if (const json* dep = op.extension("deprecation")) {
    o.deprecated = true;
    if (const json* replaces = dep->find("replaces")) o.deprecated_use = std::string(replaces->text("path"));
  }
  const map_row* row = map_.lookup("op", "GET", map_path(o.path));
  if (row != nullptr && row->words.size() >= 4) {
    o.group = row->words[2];
    o.name = row->words[3];
    o.page_style = row->has("page");
  } else if (row != nullptr) {
    problem(map_.where(*row) + ": op rows are `op GET " + o.path + " <group> <method> [page]`");
  }
  const std::string where = "GET " + path + " (" + operation_pointer(path) + ")";
  const auto skip = [&](const std::string& why) {
    notices_.skipped.push_back(where + ": " + why);
    if (row != nullptr) row->used = true;  // the row still names a described operation
  };

  // The response: where the rows are.
  const json* ok = success_response(op);
  const json* body = nullptr;
  if (ok != nullptr) {
    const json& resolved = resolve(*ok);
    if (const json* content = resolved.find("content")) {
      if (const json* media = json_media(*content)) body = media->find("schema");
    } else {
      body = resolved.find("schema");  // Swagger 2.0: the schema on the response itself
    }
  }
  if (body == nullptr) return skip("no application/json 200 response schema, so no rows to type");
  const merged top = merge(*body);
  const json* row_schema = body;
  // results of rows in `values` beside underlying bars, read once the rows are known to be
  // generated: an operation skipped below must leave no bars (the index they are kept under is
  // the next operation's).
  std::optional<merged> with_underlying;
  scalar ignored_scalar = scalar::json;
  if (classify(top, ignored_scalar) == kind::array) {
    o.payload = shape::top_level_array;
    row_schema = top.items;
  } else {
    const json* results = top.property("results");
    if (top.property("next_url") != nullptr) o.paginated = true;
    if (results == nullptr) {
      o.payload = shape::document;
    } else {
      const merged r = merge(*results);
      if (classify(r, ignored_scalar) == kind::array) {
        o.payload = shape::results_array;
        row_schema = r.items;
      } else {
        const json* values = r.property("values");
        const merged v = values != nullptr ? merge(*values) : merged{};
        if (values != nullptr && v.items != nullptr) {
          o.payload = shape::results_values;
          row_schema = v.items;
          with_underlying = r;
        } else {
          o.payload = shape::results_object;
          row_schema = results;
        }
      }
    }
  }
  if (row_schema == nullptr) return skip("the rows' schema is missing");
  const merged row_merged = merge(*row_schema);
  if (classify(row_merged, ignored_scalar) != kind::object) {
    return skip("its rows at " + text::shape_root(o.payload) + " are not objects, so there is no model to decode them into");
  }
  // A page of these rows carries its underlying bars, one type per row model: rows whose bars
  // differ are another model, so the bars' shape is part of the rows' identity.
  if (with_underlying) {
    if (const json* bars = collect_underlying(path, *with_underlying)) {
      signatures_[row_schema] = signature(*row_schema) + "+underlying" + signature(*bars);
    }
  }
  collect(*row_schema, path + " " + text::shape_root(o.payload));
  row_schemas_.emplace_back(api_.operations.size(), row_schema);

  // Parameters: path parameters in route order, query parameters grouped by comparator.
  // Each list's parameters, with what the loops below would drop without a word. An
  // operation's parameter may override its path item's of the same name and place (OpenAPI's
  // rule); one list naming it twice may not.
  std::vector<const json*> params;
  for (const json* list : {path_item.find("parameters"), op.find("parameters")}) {
    if (list == nullptr) continue;
    std::set<std::pair<std::string, std::string>> declared;  // (in, name): a parameter's identity
    for (const json& written : list->items()) {
      const json& p = resolve(written);
      params.push_back(&p);
      const std::string in(p.text("in")), name(p.text("name"));
      if (in.empty()) continue;  // a $ref that could not be followed: warned where it is read
      if (!declared.insert({in, name}).second) {
        warn(where + ": parameter " + name + " (in " + in + ") is declared twice; the last declaration is generated");
      }
      if (in == "path" && path.find("{" + name + "}") == std::string::npos) {
        warn(where + ": path parameter " + name + " is declared but the path has no {" + name + "}; left out");
      }
    }
  }
  // A renamed path parameter keeps the name the map knows it by (its member's and its rows').
  const std::vector<std::string> names_here = path_parameter_names(path);
  const std::vector<std::string> map_names = path_parameter_names(map_path(o.path));
  for (std::size_t i = 0; i < names_here.size(); ++i) {
    const std::string& name = names_here[i];
    const std::string& map_name = i < map_names.size() ? map_names[i] : name;
    const json* found = nullptr;
    for (const json* p : params) {
      if (p->text("in") == "path" && p->text("name") == name) found = p;
    }
    if (found == nullptr) {
      // The route still needs it: a required string, as the route's own text says.
      warn(where + ": path parameter {" + name + "} is not declared; generated as a required string");
      const json declared = json::parse(R"({"in": "path", "required": true, "schema": {"type": "string"}})");
      o.path_params.push_back(make_param(o, declared, name, map_name));
      continue;
    }
    o.path_params.push_back(make_param(o, *found, name, map_name));
  }
  static const std::string comparators[] = {"gt", "gte", "lt", "lte", "any_of", "all_of"};
  std::vector<std::pair<std::string, std::set<std::string>>> groups;  // base -> comparators ("" = equality)
  std::map<std::string, const json*> base_schema;
  for (const json* p : params) {
    if (p->text("in") != "query") continue;
    std::string name(p->text("name"));
    if (name == "apiKey") continue;  // the key travels in a header
    if (name.empty()) {
      // No query can carry it: a name that is empty, not a string, or absent.
      warn(where + ": a query parameter without a name (empty or not a string) is left out");
      continue;
    }
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
  // Each comparator of `name` as a parameter of its own (size_gt for size.gt), which loses nothing
  // the description offers.
  const auto each_on_its_own = [&](const std::string& name, const std::set<std::string>& set) {
    for (const std::string& c : set) {
      const std::string wire = c.empty() ? name : name + "." + c;
      for (const json* p : params) {
        if (p->text("in") == "query" && p->text("name") == wire) o.query_params.push_back(make_param(o, *p, wire));
      }
    }
  };
  for (const auto& [name, set] : groups) {
    using S = std::set<std::string>;
    filter_kind filter = filter_kind::none;
    if (set == S{""}) {
      filter = filter_kind::none;
    } else if (set == S{"", "gt", "gte", "lt", "lte"}) {
      filter = filter_kind::range;
    } else if (set == S{"", "any_of"} || set == S{"any_of"}) {
      filter = filter_kind::set;
    } else if (set == S{"", "any_of", "gt", "gte", "lt", "lte"}) {
      filter = filter_kind::full;
    } else if (set == S{"", "all_of", "any_of"}) {
      filter = filter_kind::array;
    } else {
      std::string list;
      for (const std::string& c : set) list += (list.empty() ? "" : ",") + (c.empty() ? std::string("=") : c);
      warn(where + ": parameter " + name + " has the comparator set {" + list +
           "}, which no filter type covers; each comparator is generated as a parameter of its own");
      each_on_its_own(name, set);
      continue;
    }
    param q = make_param(o, *base_schema[name], name);
    if (filter != filter_kind::none &&
        (q.type.what == param_type::kind::string_list || q.type.what == param_type::kind::boolean)) {
      // A filter compares one value that has an order or a set of values (filter<T>, set_filter<T>
      // of T's): a list has neither, and a boolean's any_of (true or false) is no filter.
      warn(where + ": parameter " + name + " is a " +
           (q.type.what == param_type::kind::boolean ? "boolean" : "list") +
           ", which no filter compares; each comparator is generated as a parameter of its own");
      each_on_its_own(name, set);
      continue;
    }
    q.filter = filter;
    o.query_params.push_back(std::move(q));
  }
  // Two parameters of one name would not compile in the parameters struct, nor one named like
  // its member functions or the builder that render() writes into (emit_groups.cpp).
  std::set<std::string> names{"render", "target", "b"};
  for (param* p : [&] {
         std::vector<param*> all;
         for (param& x : o.path_params) all.push_back(&x);
         for (param& x : o.query_params) all.push_back(&x);
         return all;
       }()) {
    if (names.insert(p->name).second) continue;
    const std::string renamed = first_free(p->name, names);
    warn(where + ": parameter " + p->wire + " would be a second member named " + p->name +
         " (another parameter's, or the parameters struct's own); generated as " + renamed);
    p->name = renamed;
    names.insert(renamed);
  }
  operation_at_[path] = api_.operations.size();
  curated_name_.push_back(!o.name.empty());
  api_.operations.push_back(std::move(o));
}

param builder::make_param(const operation& op, const json& p, const std::string& wire, const std::string& map_wire) {
  param out;
  out.wire = wire;
  if (map_wire != wire) out.former = map_wire;
  out.in_path = p.text("in") == "path";
  out.required = out.in_path || p.flag("required");
  out.doc = first_sentence(p.text("description"));
  out.description = one_line(p.text("description"));
  const map_row* rename = map_.lookup("param", map_wire);
  out.name = rename != nullptr && rename->words.size() > 1 ? rename->words[1] : identifier(map_wire);
  const json* schema = p.find("schema");
  // Swagger 2.0 types a parameter in place.
  if (schema == nullptr && (p.find("type") || p.find("enum") || p.find("items") || p.find("format"))) schema = &p;
  // A choice of one schema (3.1's nullable parameter, anyOf [X, null]) is X, its values too.
  for (int hops = 0; schema != nullptr && hops < 32; ++hops) {
    const json* only = resolve(*schema).sole_alternative();
    if (only == nullptr) break;
    schema = only;
  }
  const merged m = schema != nullptr ? merge(*schema) : merged{};
  const json* values = schema != nullptr ? resolve(*schema).find("enum") : nullptr;
  if (const json* d = schema != nullptr ? resolve(*schema).find("default") : nullptr) {
    out.default_value = d->is_string() ? d->string()
                        : d->type() == json::kind::boolean ? (d->boolean() ? "true" : "false")
                                                           : d->number_text();
  }
  // The example value, from the parameter or its schema, for help's example line.
  const json* example = p.example();
  if (example == nullptr && schema != nullptr) example = resolve(*schema).example();
  if (example != nullptr) {
    out.example = example->is_string()                     ? example->string()
                  : example->type() == json::kind::boolean ? (example->boolean() ? "true" : "false")
                  : example->type() == json::kind::number  ? example->number_text()
                                                           : "";
  }
  if (values == nullptr && m.items != nullptr) values = resolve(*m.items).find("enum");
  // An enumeration of no value a query can carry (none listed, or only null, objects or arrays)
  // types nothing: the schema's type does. Booleans are a bool, listed or not.
  if (values != nullptr && std::none_of(values->items().begin(), values->items().end(), is_query_value)) {
    values = nullptr;
  }
  if (values != nullptr && m.type != "array" && m.type != "integer" && m.type != "boolean") {
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
  if (const map_row* t = map_.lookup("ptype", map_path(op.path), map_wire)) {
    const std::string& type = t->words.size() > 2 ? t->words[2] : std::string();
    if (type == "date_or_ms") {
      out.type.what = param_type::kind::date_or_ms;
    } else if (type == "date_or_ns") {
      out.type.what = param_type::kind::date_or_ns;
    } else if (type == "date") {
      out.type.what = param_type::kind::date;
    } else {
      problem(map_.where(*t) + ": unknown parameter type '" + type + "'");
    }
  }
  return out;
}

const enum_def* builder::enumeration(const operation&, const std::string& wire, const json& values) {
  std::string key;
  std::vector<std::string> list;
  for (const json& v : values.items()) {
    // null in a nullable enumeration is no value: a parameter left unset, not one sent empty.
    // Objects and arrays have no spelling in a query either.
    if (!is_query_value(v)) continue;
    list.push_back(v.is_string()                     ? v.string()
                   : v.type() == json::kind::boolean ? (v.boolean() ? "true" : "false")
                                                     : v.number_text());
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
    // Named <group>_<method>_<parameter> once the operation has its name (name_enums).
    unnamed_enums_.emplace_back(e.get(), api_.operations.size(), identifier(wire));
  }
  enums_by_values_[key] = e.get();
  api_.enums.push_back(std::move(e));
  return api_.enums.back().get();
}

api builder::run() {
  const json* paths = spec_.find("paths");
  if (paths == nullptr || !paths->is_object()) throw generation_error({"the description has no paths (#/paths)"});
  find_back_edges();
  for (const map_row* row : map_.find("audit")) {
    row->used = true;
    audit_ = evidence_audit::load((std::filesystem::path(map_.file()).parent_path() / row->words[0]).string(),
                                  (std::filesystem::path(map_.path()).parent_path() / row->words[0]).generic_string());
    notices_.audit_path = audit_.file();
  }
  for (const map_row* row : map_.find("official")) {
    row->used = true;
    official_ = official_names::load((std::filesystem::path(map_.file()).parent_path() / row->words[0]).string(),
                                     (std::filesystem::path(map_.path()).parent_path() / row->words[0]).generic_string());
    notices_.names_path = official_.file();
  }
  for (const map_row* row : map_.find("group")) known_groups_.push_back(row->words[0]);
  find_renamed_routes(*paths);
  for (const auto& [path, written] : paths->members()) {
    if (path.rfind("x-", 0) == 0) continue;  // an extension of the paths object, not a route
    const json& item = resolve(written);  // a path item may be a $ref to another
    const json* get = item.find("get");
    if (get == nullptr) continue;
    // The official clients' pull scripts drop these before generating; a raw download has them.
    if (item.extension_flag("draft") || get->extension_flag("draft")) {
      notices_.skipped.push_back("GET " + path + " (" + operation_pointer(path) + "): a draft (x-polygon-draft)");
      if (const map_row* row = map_.lookup("op", "GET", map_path(path))) row->used = true;
      continue;
    }
    add_operation(path, item, *get);
  }
  if (api_.operations.empty()) throw generation_error({"the description has no GET operation to generate (#/paths)"});
  name_operations();
  name_groups();
  name_enums();
  bind_models();
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
      problem("GET " + o.path + " (" + operation_pointer(o.path) + "): rows " + o.row->name + " come with underlying rows " +
              m.name + " here and " + o.row->underlying_rows->name + " elsewhere (one per row model): name the rows of one apart with a `model` row");
    }
    o.row->underlying_rows = &m;
  }
  // Wire orders: every key a number field of that row model, once. A row the description no
  // longer fits is a warning: the model is read by its field loop, which any order suits.
  for (const map_row* row : map_.find("wire")) {
    row->used = true;
    const std::string where = map_.where(*row) + ": wire " + row->words[0];
    const auto m = std::find_if(api_.models.begin(), api_.models.end(),
                                [&](const auto& x) { return x->name == row->words[0] && x->row; });
    if (m == api_.models.end()) {
      stale(*row, "names no model that is an operation's rows");
      continue;
    }
    std::vector<std::size_t> order;
    bool fits = row->words.size() > 1;
    for (std::size_t w = 1; w < row->words.size(); ++w) {
      const std::vector<field>& fields = (*m)->fields;
      const auto f = std::find_if(fields.begin(), fields.end(), [&](const field& x) { return x.key == row->words[w]; });
      const auto index = static_cast<std::size_t>(f - fields.begin());
      if (f == fields.end() || !wire_readable(*f)) {
        warn(where + ": key " + row->words[w] + " is not a number field (double, int64 or timestamp) of the model; the wire order is not used");
        fits = false;
      } else if (std::find(order.begin(), order.end(), index) != order.end()) {
        warn(where + ": key " + row->words[w] + " comes twice; the wire order is not used");
        fits = false;
      } else {
        order.push_back(index);
      }
    }
    if (row->words.size() == 1) warn(where + " lists no key");
    if (fits) (*m)->wire = std::move(order);
  }
  // Deprecated operations name their replacement's method.
  for (operation& o : api_.operations) {
    if (o.deprecated_use.empty()) continue;
    for (const operation& r : api_.operations) {
      if (doc_path_of(r.path) == o.deprecated_use) o.deprecated_use = r.group + "()." + r.name + "()";
    }
    if (o.deprecated_use.find("()") == std::string::npos) {
      warn("GET " + o.path + " (" + operation_pointer(o.path) + ") is deprecated for " + o.deprecated_use +
           ", which names no operation here: its [[deprecated]] names no replacement");
      o.deprecated_use.clear();
    }
  }
  check_audit();
  bind_file_rows();
  for (operation& o : api_.operations) {
    if (const official_row* names = official_.find(map_path(o.path))) {
      o.python_name = names->python;
      o.go_name = names->go;
    }
  }
  for (const official_row& row : official_.rows()) {
    if (row.used) continue;
    warn(official_.where(row) + ": " + row.route +
         " names no operation of the description (--prune removes the row)");
    notices_.stale_names_lines.insert(row.line);
  }
  for (const map_row& row : map_.rows()) {
    if (!row.used) stale(row, "names nothing in the description");
  }
  if (!problems_.empty()) throw generation_error(problems_);
  std::sort(api_.models.begin(), api_.models.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
  std::sort(api_.enums.begin(), api_.enums.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
  return std::move(api_);
}

void builder::stale(const map_row& row, const std::string& why) {
  if (notices_.stale_map_lines.count(row.line)) return;
  std::string text = map_.where(row) + ": " + row.kind;
  for (const std::string& w : row.words) text += " " + w;
  warn(text + " " + why + " (--prune removes the row)");
  notices_.stale_map_lines.insert(row.line);
  row.used = true;  // reported once
}

void builder::stale(const audit_row& row, const std::string& why) {
  warn(audit_.where(row) + ": " + row.kind + " " + row.subject + " " + why + " (--prune removes the row)");
  notices_.stale_audit_lines.insert(row.line);
}

std::set<std::string> builder::taken_type_names() const {
  std::set<std::string> out = reserved_;
  for (const auto& m : api_.models) out.insert(m->name);
  for (const auto& e : api_.enums) {
    if (!e->name.empty()) out.insert(e->name);
  }
  return out;
}

// Operations without a map row get a default group and method (defaults.hpp): stable ones
// first, so that an experimental variant of a route takes the suffix; each in route order.
// Curated names never move, and two curated names that collide are a person's decision.
void builder::name_operations() {
  std::map<std::pair<std::string, std::string>, const operation*> taken;
  for (std::size_t i = 0; i < api_.operations.size(); ++i) {
    const operation& o = api_.operations[i];
    if (!curated_name_[i]) continue;
    const auto [at, fresh] = taken.emplace(std::pair{o.group, o.name}, &o);
    if (!fresh) {
      const map_row* a = map_.lookup("op", "GET", map_path(at->second->path));
      const map_row* b = map_.lookup("op", "GET", map_path(o.path));
      problem(map_.where(*b) + ": GET " + o.path + " and GET " + at->second->path +
              " (line " + std::to_string(a->line) + ") are both " + o.group + "()." + o.name + "(): rename one");
    }
  }
  for (const bool experimental : {false, true}) {
    for (std::size_t i = 0; i < api_.operations.size(); ++i) {
      operation& o = api_.operations[i];
      if (curated_name_[i] || o.experimental != experimental) continue;
      o.group = bounded_name(default_group(o.path, known_groups_));
      const std::vector<std::string> candidates = method_candidates(o.path, o.operation_id, o.group);
      o.name.clear();
      for (const std::string& c : candidates) {
        if (!taken.count({o.group, c}) && !is_reserved_method(o.group, c)) {
          o.name = c;
          break;
        }
      }
      if (o.name.empty()) {
        std::set<std::string> names;
        for (const auto& [key, op] : taken) {
          if (key.first == o.group) names.insert(key.second);
        }
        o.name = first_free(candidates.front(), names);
        while (is_reserved_method(o.group, o.name)) {
          names.insert(o.name);
          o.name = first_free(candidates.front(), names);
        }
      }
      if (!taken.emplace(std::pair{o.group, o.name}, &o).second) {
        problem("GET " + o.path + ": the default name " + o.group + "()." + o.name + "() is taken (a generator bug)");
      }
      notices_.defaults.push_back("GET " + o.path + " has no map row: generated as " + o.group + "()." + o.name +
                                  "() (`op GET " + o.path + " " + o.group + " " + o.name + "` in " + map_.path() +
                                  " pins or renames it)");
    }
  }
}

// Groups: the map's, in its order, where an operation is in them; then any new group a route
// starts (a new dataset), by name. A group row with no operation here is stale.
void builder::name_groups() {
  std::set<std::string> used;
  for (const operation& o : api_.operations) used.insert(o.group);
  for (const map_row* row : map_.find("group")) {
    row->used = true;
    if (used.count(row->words[0])) {
      api_.groups.push_back({row->words[0], row->text});
    } else {
      stale(*row, "has no operation in the description");
    }
  }
  for (const std::string& g : used) {
    if (std::find(known_groups_.begin(), known_groups_.end(), g) != known_groups_.end()) continue;
    api_.groups.push_back({g, "Operations under /" + g + "/, a group the map does not describe yet."});
    notices_.defaults.push_back("group " + g + " has no map row: generated with a default description (`group " + g +
                                " <description>` in " + map_.path() + ")");
  }
}

void builder::name_enums() {
  std::set<std::string> taken = taken_type_names();
  for (const map_row* row : map_.find("model")) taken.insert(row->words[0]);
  for (const auto& [e, index, wire] : unnamed_enums_) {
    const operation& o = api_.operations[index];
    e->name = first_free(o.group + "_" + o.name + "_" + wire, taken);
    taken.insert(e->name);
  }
}

// The flat files' row types: a `file` row whose model the description lacks is stale (the
// dataset's row type is then not declared); one naming an unknown market or dataset, or a row
// type twice, is refused.
void builder::bind_file_rows() {
  static const std::set<std::string> markets{"stocks", "options", "indices", "forex", "crypto"};
  static const std::set<std::string> datasets{"trades", "quotes"};
  std::set<std::string> names;
  for (const map_row* row : map_.find("file")) {
    row->used = true;
    const std::string where = map_.where(*row) + ": file";
    if (row->words.size() != 4) {
      problem(where + ": write `file <market> <dataset> <model> <row type>`");
      continue;
    }
    const std::string& market = row->words[0];
    const std::string& dataset = row->words[1];
    const std::string& name = row->words[3];
    if (!markets.count(market)) problem(where + ": " + market + " is not a market with flat files");
    if (!datasets.count(dataset)) problem(where + ": " + dataset + " is not a dataset of REST rows (trades, quotes)");
    if (!names.insert(name).second) problem(where + ": the row type " + name + " is named twice");
    const auto m = std::find_if(api_.models.begin(), api_.models.end(),
                                [&](const auto& x) { return x->name == row->words[2] && x->row; });
    if (m == api_.models.end()) {
      stale(*row, "names no model that is an operation's rows: files::" + name + " is not declared");
      continue;
    }
    api_.files.push_back({market, dataset, name, m->get()});
  }
}

}  // namespace building

api build(const json& spec, const curated_map& map, const std::set<std::string>& reserved, notices& out) {
  return building::builder(spec, map, reserved, out).run();
}

const json* success_response(const json& operation) {
  const json* responses = operation.find("responses");
  if (responses == nullptr) return nullptr;
  for (const char* code : {"200", "2XX", "default"}) {
    if (const json* response = responses->find(code)) return response;
  }
  return nullptr;
}

const json* json_media(const json& content) {
  if (const json* exact = content.find("application/json")) return exact;
  for (const auto& [type, media] : content.members()) {
    const std::string_view base = std::string_view(type).substr(0, type.find(';'));
    const std::string_view bare = base.substr(0, base.find_last_not_of(' ') + 1);
    if (bare == "application/json" || (bare.starts_with("application/") && bare.ends_with("+json"))) return &media;
  }
  return nullptr;
}

std::string operation_pointer(const std::string& path) {
  std::string out = "#/paths/";
  for (char c : path) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out + "/get";
}

}  // namespace massive::codegen
