// The group files: per group, one parameters struct per operation and the group class with
// one method per operation; the shared enumerations; the client's group accessors; and the
// operation table (every operation by group and name, with a target built from text
// arguments), which the command-line tool, the coverage test and the conformance test use.
#include "emit.hpp"

#include "names.hpp"

#include <algorithm>
#include <set>

namespace massive::codegen {

namespace {

std::string shape_name(shape s) { return "payload_shape::" + text::shape_name(s); }

std::string value_type(const param_type& t) {
  switch (t.what) {
    case param_type::kind::string: return "std::string_view";
    case param_type::kind::int64: return "std::int64_t";
    case param_type::kind::int32: return "std::int32_t";
    case param_type::kind::number: return "double";
    case param_type::kind::boolean: return "bool";
    case param_type::kind::date: return "std::chrono::year_month_day";
    case param_type::kind::enumeration: return "massive::" + t.enumeration->name;
    case param_type::kind::date_or_ms: return "date_or_ms";
    case param_type::kind::date_or_ns: return "date_or_ns";
    case param_type::kind::string_list: return "std::span<const std::string_view>";
  }
  return "std::string_view";
}

std::string member_type(const param& p) {
  const std::string v = value_type(p.type);
  switch (p.filter) {
    case filter_kind::range: return "range_filter<" + v + ">";
    case filter_kind::set: return "set_filter<" + v + ">";
    case filter_kind::full: return "filter<" + v + ">";
    case filter_kind::array: return "array_filter<" + v + ">";
    case filter_kind::none: break;
  }
  if (p.type.what == param_type::kind::string_list) return v;
  // Left out of a designated initializer, a required member does not compile, and the
  // compiler's message names its tag (massive/required.hpp).
  if (p.required) return "required<" + v + ", struct " + p.name + "_parameter>";
  return "std::optional<" + v + ">";
}

bool is_required_member(const param& p) {
  return p.filter == filter_kind::none && p.required && p.type.what != param_type::kind::string_list;
}

std::string member_init(const param& p) { return is_required_member(p) ? "" : "{}"; }

// How render() reads a member: a required one through get(), the rest as they are.
std::string member_value(const param& p) { return is_required_member(p) ? p.name + ".get()" : p.name; }

std::string params_name(const operation& o) { return o.group + "_" + o.name + "_params"; }

std::string route(const operation& o) { return "GET " + o.path; }

std::vector<const param*> all_params(const operation& o) {
  std::vector<const param*> out;
  for (const param& p : o.path_params) out.push_back(&p);
  for (const param& p : o.query_params) out.push_back(&p);
  return out;
}

std::string params_struct(const operation& o) {
  std::string out = text::comment(0, "Parameters of " + o.group + "()." + o.name + "(): `" + route(o) + "`.");
  out += "struct " + params_name(o) + " {\n";
  for (const param* p : all_params(o)) {
    std::string doc = p->name != p->wire ? "[" + p->wire + "] " : "";
    if (p->required) doc += "Required. ";
    doc += p->doc.empty() ? "The " + p->wire + " parameter." : p->doc;
    out += text::comment(2, doc);
    out += "  " + member_type(*p) + " " + p->name + member_init(*p) + ";\n";
  }
  out += "\n  /// Renders the request target into `b`.\n  void render(detail::target_builder& b) const;\n";
  out += "  /// The request target, as render() writes it.\n  std::string target() const;\n};\n\n";
  return out;
}

// The out-of-line half of a params struct (in the group's source): render() and target().
std::string params_definitions(const operation& o) {
  std::string out = "void " + params_name(o) + "::render(detail::target_builder& b) const {\n";
  // The path: literals between the parameters, in route order.
  std::size_t at = 0;
  std::size_t index = 0;
  std::string literal;
  while (at < o.path.size()) {
    const std::size_t open = o.path.find('{', at);
    literal += o.path.substr(at, open == std::string::npos ? std::string::npos : open - at);
    if (open == std::string::npos) break;
    const std::size_t close = o.path.find('}', open);
    out += "  b.path_literal(\"" + text::literal(literal) + "\").path_segment(" + member_value(o.path_params[index++]) + ");\n";
    literal.clear();
    at = close + 1;
  }
  if (!literal.empty()) out += "  b.path_literal(\"" + text::literal(literal) + "\");\n";
  for (const param& q : o.query_params) out += "  b.query(\"" + text::literal(q.wire) + "\", " + member_value(q) + ");\n";
  out += "}\n\nstd::string " + params_name(o) + "::target() const {\n";
  out += "  return detail::build_target([this](detail::target_builder& b) { render(b); });\n}\n\n";
  return out;
}

/// The method that returns a cursor: the operation's, or <name>_pages beside a one-page method.
std::string cursor_method_name(const operation& o) { return o.page_style ? o.name + "_pages" : o.name; }

std::string method(const operation& o) {
  const std::string row = "massive::" + o.row->name;
  const std::string target = "params.target()";
  const std::string tag = o.experimental ? "experimental_t, " : "";
  std::string attribute;
  if (o.deprecated) {
    attribute = "[[deprecated(\"" + (o.deprecated_use.empty() ? std::string("deprecated by Massive")
                                                                : "use " + o.deprecated_use) + "\")]] ";
  }
  std::string notes = o.summary + " `" + route(o) + "`.";
  if (o.experimental) notes += " Experimental: pass massive::experimental to opt in.";
  if (o.ignored) notes += " A variant of a route another operation shares (x-polygon-ignore).";
  std::string out;
  const bool page = !o.paginated || o.page_style;
  if (page) {
    out += text::comment(2, notes + " One page: completion `void(std::exception_ptr, page<" + row + ">)`.");
    out += "  template <class Token = default_token>\n";
    out += "  " + attribute + "auto " + o.name + "(" + tag + "const " + params_name(o) + "& params, Token&& token = {}) {\n";
    out += "    return client_->fetch<" + row + ">(" + target + ", " + shape_name(o.payload) +
           ", std::forward<Token>(token));\n  }\n";
  }
  if (o.paginated) {
    const std::string name = cursor_method_name(o);
    out += text::comment(2, (o.page_style ? "Every page of " + o.name + "(), following next_url." : notes) +
                                " Page by page: a cursor whose next() yields each page.");
    out += "  " + attribute + "cursor<" + row + "> " + name + "(" + tag + "const " + params_name(o) +
           "& params, traversal_options opts = {});\n";
  }
  if (o.graduated) {
    // The calls written while the route was experimental, forwarded (a warning, not an error).
    const std::string graduated = "[[deprecated(\"no longer experimental: drop massive::experimental\")]] ";
    out += text::comment(2, o.name + "() was experimental: massive::experimental is still taken, and deprecated.");
    if (page) {
      out += "  template <class Token = default_token>\n  " + graduated + "auto " + o.name + "(experimental_t, const " +
             params_name(o) + "& params, Token&& token = {}) {\n    return " + o.name +
             "(params, std::forward<Token>(token));\n  }\n";
    }
    if (o.paginated) {
      const std::string name = cursor_method_name(o);
      out += "  " + graduated + "cursor<" + row + "> " + name + "(experimental_t, const " + params_name(o) +
             "& params, traversal_options opts = {}) {\n    return " + name + "(params, std::move(opts));\n  }\n";
    }
  }
  return out;
}

// A cursor method's definition (in the group's source): the cursor of its rows is instantiated
// there, once, and not in every file that includes the group's header.
std::string cursor_method_definition(const operation& o) {
  if (!o.paginated) return "";
  const std::string row = "massive::" + o.row->name;
  const std::string name = cursor_method_name(o);
  return "cursor<" + row + "> " + o.group + "_group::" + name + "(" + (o.experimental ? "experimental_t, " : "") +
         "const " + params_name(o) + "& params, traversal_options opts) {\n  return client_->traverse<" + row +
         ">(params.target(), " + shape_name(o.payload) + ", opts);\n}\n\n";
}

// The group's source: what its header declares out of line.
std::string group_source(const api& a, const group_def& g) {
  std::string out = text::banner() + "#include \"massive/" + g.name + ".hpp\"\n\n#include <string>\n\nnamespace massive {\n\n";
  for (const operation& o : a.operations) {
    if (o.group != g.name) continue;
    out += params_definitions(o);
    out += cursor_method_definition(o);
  }
  out += "}  // namespace massive\n";
  return out;
}

std::string group_header(const api& a, const group_def& g) {
  std::vector<const operation*> ops;
  for (const operation& o : a.operations) {
    if (o.group == g.name) ops.push_back(&o);
  }
  std::set<std::string> models;
  bool experimental = false;
  for (const operation* o : ops) {
    models.insert(o->row->name);
    experimental = experimental || o->experimental || o->graduated;
  }
  std::string out = text::banner() + "#pragma once\n\n";
  out += "#include \"massive/client.hpp\"\n#include \"massive/enums.hpp\"\n";
  if (experimental) out += "#include \"massive/experimental.hpp\"\n";
  out += "#include \"massive/filter.hpp\"\n#include \"massive/groups.hpp\"\n";
  out += "#include \"massive/required.hpp\"\n";
  for (const std::string& m : models) out += "#include \"massive/models/" + m + ".hpp\"\n";
  out += "#include \"massive/time.hpp\"\n#include \"massive/detail/request_target.hpp\"\n\n";
  out += "#include <chrono>\n#include <cstdint>\n#include <optional>\n#include <span>\n#include <string>\n"
         "#include <string_view>\n#include <utility>\n\nnamespace massive {\n\n";
  for (const operation* o : ops) out += params_struct(*o);
  out += text::comment(0, g.doc + " A cheap handle: copy it freely while the client lives.");
  out += "class " + g.name + "_group {\n public:\n";
  out += "  /// The group of `c`, which must outlive it.\n";
  out += "  explicit " + g.name + "_group(client& c) noexcept : client_(&c) {}\n";
  for (const operation* o : ops) out += "\n" + method(*o);
  out += "\n private:\n  client* client_;\n};\n\n";
  out += "inline " + g.name + "_group detail::client_groups::" + g.name + "() noexcept { return " + g.name +
         "_group{self()}; }\n\n}  // namespace massive\n";
  return out;
}

std::string enums_header(const api& a) {
  std::string out = text::banner() + "#pragma once\n\n#include <string_view>\n\nnamespace massive {\n";
  for (const auto& e : a.enums) {
    std::vector<std::string> ids;
    std::set<std::string> seen;
    for (const std::string& v : e->values) {
      std::string id = identifier(v);
      while (!seen.insert(id).second) id += "_";
      ids.push_back(id);
    }
    out += "\n/// The values of the `" + e->name + "` parameter type, with their wire spellings.\n";
    out += "enum class " + e->name + " {";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : " ") + ids[i];
    out += " };\n\n";
    out += "/// The wire spelling of `value`.\n";
    out += "constexpr std::string_view to_wire(" + e->name + " value) noexcept {\n";
    out += "  constexpr std::string_view names[] = {";
    for (std::size_t i = 0; i < e->values.size(); ++i) out += (i ? ", " : "") + std::string("\"") + text::literal(e->values[i]) + "\"";
    out += "};\n  return names[static_cast<int>(value)];\n}\n\n";
    out += "/// The value spelled `wire`; false when there is none.\n";
    out += "constexpr bool from_wire(std::string_view wire, " + e->name + "& out) noexcept {\n";
    out += "  for (int i = 0; i < " + std::to_string(e->values.size()) + "; ++i) {\n";
    out += "    if (to_wire(static_cast<" + e->name + ">(i)) == wire) return out = static_cast<" + e->name +
           ">(i), true;\n  }\n  return false;\n}\n";
  }
  out += "\n}  // namespace massive\n";
  return out;
}

std::string groups_header(const api& a) {
  std::string out = text::banner() + "#pragma once\n\nnamespace massive {\n\nclass client;\n";
  for (const group_def& g : a.groups) out += "class " + g.name + "_group;\n";
  out += "\nnamespace detail {\n\n";
  out += "/// The group accessors of massive::client, which derives from this. Each is defined in its\n"
         "/// group's header: include <massive/stocks.hpp> to call client.stocks(). Navigation allocates\n"
         "/// nothing.\n";
  out += "class client_groups {\n public:\n";
  for (const group_def& g : a.groups) {
    out += text::comment(2, g.doc + " Defined in <massive/" + g.name + ".hpp>.");
    out += "  " + g.name + "_group " + g.name + "() noexcept;\n";
  }
  out += "\n private:\n  client& self() noexcept;\n};\n\n}  // namespace detail\n\n}  // namespace massive\n";
  return out;
}

std::string argument_expression(const param& p) {
  const std::string v = value_type(p.type);
  const std::string wire = "\"" + text::literal(p.wire) + "\"";
  switch (p.filter) {
    case filter_kind::none: break;
    default: return "detail::filter_argument<" + member_type(p) + ">(args, " + wire + ")";
  }
  if (p.type.what == param_type::kind::string_list) return "detail::list_argument(args, " + wire + ", lists)";
  if (p.required) return "detail::required_argument<" + v + ">(args, " + wire + ")";
  return "detail::optional_argument<" + v + ">(args, " + wire + ")";
}

std::string parameter_type_name(const param_type& t) {
  switch (t.what) {
    case param_type::kind::string: return "string";
    case param_type::kind::int64:
    case param_type::kind::int32: return "integer";
    case param_type::kind::number: return "number";
    case param_type::kind::boolean: return "boolean";
    case param_type::kind::date: return "date";
    case param_type::kind::enumeration: return "enumeration";
    case param_type::kind::date_or_ms: return "date_or_ms";
    case param_type::kind::date_or_ns: return "date_or_ns";
    case param_type::kind::string_list: return "list";
  }
  return "string";
}

std::string parameter_filter_name(filter_kind f) {
  switch (f) {
    case filter_kind::none: return "none";
    case filter_kind::range: return "range";
    case filter_kind::set: return "any_of";
    case filter_kind::full: return "range_or_any_of";
    case filter_kind::array: return "any_or_all_of";
  }
  return "none";
}

std::string quoted(std::string_view s) { return "\"" + text::literal(s) + "\""; }

/// The digits of a timestamp scalar's unit (0: not a timestamp).
int timestamp_digits(scalar s) {
  switch (s) {
    case scalar::timestamp_ms: return 3;
    case scalar::timestamp_us: return 6;
    case scalar::timestamp_ns: return 9;
    default: return 0;
  }
}

/// The columns of `m` flattened: nested objects as dotted columns, arrays and maps whole.
void flat_columns(const model& m, const std::string& prefix, std::string& out, int depth) {
  for (const field& f : m.fields) {
    if (f.type.shape == field_type::form::object && f.type.object != nullptr && depth < 8) {
      flat_columns(*f.type.object, prefix + f.key + ".", out, depth + 1);
      continue;
    }
    const int digits = f.type.object == nullptr ? timestamp_digits(f.type.element) : 0;
    out += "    {" + quoted(prefix + f.key) + ", " + std::to_string(digits) + "},\n";
  }
}

std::string operation_id(const operation& o) { return o.group + "_" + o.name; }

/// The operation's parameter_info array (none when it takes no parameter).
std::string parameter_table(const operation& o) {
  if (all_params(o).empty()) return "";
  std::string out = "\nconstexpr parameter_info " + operation_id(o) + "_parameters[] = {\n";
  for (const param* p : all_params(o)) {
    const std::string values = p->type.enumeration != nullptr ? p->type.enumeration->name + "_values" : "{}";
    out += "    {.wire = " + quoted(p->wire) + ",\n     .type = parameter_type::" + parameter_type_name(p->type) +
           ",\n     .in_path = " + (p->in_path ? "true" : "false") + ",\n     .required = " +
           (p->required ? "true" : "false") + ",\n     .filter = parameter_filter::" + parameter_filter_name(p->filter) +
           ",\n     .values = " + values + ",\n     .default_value = " + quoted(p->default_value) +
           ",\n     .example = " + quoted(p->example) +
           ",\n     .description = " + quoted(p->description) +
           (p->former.empty() ? std::string() : ",\n     .former = " + quoted(p->former)) + "},\n";
  }
  return out + "};\n";
}

std::string table_source(const api& a, const group_def& g) {
  std::vector<const operation*> ops;
  for (const operation& o : a.operations) {
    if (o.group == g.name) ops.push_back(&o);
  }
  std::string out = text::banner() + "#include \"massive/" + g.name + ".hpp\"\n#include \"massive/reflection/operation_table.hpp\"\n\n";
  out += "#include <string>\n#include <vector>\n\nnamespace massive::reflection::detail {\n\nnamespace {\n";
  // The enumerations' values and the row models' columns, once each.
  std::set<std::string> enums, models;
  for (const operation* o : ops) {
    for (const param* p : all_params(*o)) {
      if (p->type.enumeration == nullptr || !enums.insert(p->type.enumeration->name).second) continue;
      out += "\nconstexpr std::string_view " + p->type.enumeration->name + "_values[] = {";
      for (std::size_t i = 0; i < p->type.enumeration->values.size(); ++i) {
        out += (i ? ", " : "") + quoted(p->type.enumeration->values[i]);
      }
      out += "};\n";
    }
    if (!models.insert(o->row->name).second) continue;
    std::string columns;
    flat_columns(*o->row, "", columns, 0);
    // A model of no fields (a description may leave a row's properties out) has no columns: an
    // array cannot be of none.
    out += columns.empty() ? "\nconstexpr std::span<const column_info> " + o->row->name + "_columns;\n"
                           : "\nconstexpr column_info " + o->row->name + "_columns[] = {\n" + columns + "};\n";
  }
  for (const operation* o : ops) {
    out += parameter_table(*o);
    out += "\nstd::string " + operation_id(*o) + "_target(argument_list args) {\n";
    const std::vector<const param*> params = all_params(*o);
    // A renamed path parameter is still taken by the name the command line knew it by.
    if (std::any_of(params.begin(), params.end(), [](const param* p) { return !p->former.empty(); })) {
      out += "  const auto current = current_names(args, " + operation_id(*o) + "_parameters);\n  args = current;\n";
    }
    out += "  check_arguments(args, " + (params.empty() ? std::string("{}") : operation_id(*o) + "_parameters") + ");\n";
    bool lists = false;
    for (const param* p : params) lists = lists || p->type.what == param_type::kind::string_list;
    if (lists) out += "  std::vector<std::vector<std::string_view>> lists;\n  lists.reserve(4);\n";
    out += "  const " + params_name(*o) + " params{\n";
    for (const param* p : params) out += "      ." + p->name + " = " + argument_expression(*p) + ",\n";
    out += "  };\n  return params.target();\n}\n";
  }
  out += "\n}  // namespace\n\nextern const operation_entry " + g.name + "_operations[] = {\n";
  for (const operation* o : ops) {
    out += "    {.group = " + quoted(o->group) + ",\n     .name = " + quoted(o->name) + ",\n     .path = " +
           quoted(o->path) + ",\n     .shape = " + shape_name(o->payload) + ",\n     .paginated = " +
           (o->paginated ? "true" : "false") + ",\n     .experimental = " + (o->experimental ? "true" : "false") +
           ",\n     .deprecated = " + (o->deprecated ? "true" : "false") + ",\n     .model = " + quoted(o->row->name) +
           ",\n     .summary = " + quoted(o->summary) + ",\n     .description = " + quoted(o->description) +
           ",\n     .replacement = " + quoted(o->deprecated_use) + ",\n     .parameters = " +
           (all_params(*o).empty() ? std::string("{}") : operation_id(*o) + "_parameters") + ",\n     .columns = " +
           o->row->name + "_columns,\n     .target = &" + operation_id(*o) + "_target,\n     .run = &run_operation<massive::" +
           o->row->name + ">},\n";
  }
  out += "};\nextern const std::size_t " + g.name + "_operation_count = " + std::to_string(ops.size()) +
         ";\n\n}  // namespace massive::reflection::detail\n";
  return out;
}

std::string table_index(const api& a) {
  std::string out = text::banner() + "#include \"massive/reflection/operation_table.hpp\"\n\n#include <vector>\n\n";
  out += "namespace massive::reflection {\n\nnamespace detail {\n";
  for (const group_def& g : a.groups) {
    out += "extern const operation_entry " + g.name + "_operations[];\nextern const std::size_t " + g.name +
           "_operation_count;\n";
  }
  out += "}  // namespace detail\n\nstd::span<const operation_entry> operation_table() {\n";
  out += "  static const std::vector<operation_entry> table = [] {\n    std::vector<operation_entry> all;\n";
  for (const group_def& g : a.groups) {
    out += "    all.insert(all.end(), detail::" + g.name + "_operations, detail::" + g.name + "_operations + detail::" +
           g.name + "_operation_count);\n";
  }
  out += "    return all;\n  }();\n  return table;\n}\n\n}  // namespace massive::reflection\n";
  return out;
}

std::string all_header(const api& a) {
  std::string out = text::banner() + "// Every group: convenient, but it compiles every model; include single groups instead\n"
                                     "// when build time matters.\n#pragma once\n\n";
  for (const group_def& g : a.groups) out += "#include \"massive/" + g.name + ".hpp\"\n";
  return out;
}

}  // namespace

std::string cxx::param_type(const param& p) { return member_type(p); }

void emit_groups(const api& a, file_set& out) {
  out["include/massive/enums.hpp"] = enums_header(a);
  out["include/massive/groups.hpp"] = groups_header(a);
  out["include/massive/all.hpp"] = all_header(a);
  out["src/operations/table.cpp"] = table_index(a);
  for (const group_def& g : a.groups) {
    out["include/massive/" + g.name + ".hpp"] = group_header(a, g);
    out["src/operations/" + g.name + ".cpp"] = table_source(a, g);
    out["src/groups/" + g.name + ".cpp"] = group_source(a, g);
  }
}

}  // namespace massive::codegen
