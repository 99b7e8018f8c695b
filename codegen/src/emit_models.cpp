// The model files. Each model gets its struct (public header), its decoder (a private header,
// so that a parent's decoder can inline it) and a source with its JSON writer and, for models
// that are some operation's rows, its row codec. The decoder's form is the one
// sdk/src/decode/row_decoding.hpp describes.
#include "emit.hpp"

#include <algorithm>
#include <set>

namespace massive::codegen {

namespace {

enum class read_kind { number, integer, other };

read_kind read_kind_of(const field& f) {
  if (f.type.shape != field_type::form::scalar) return read_kind::other;
  if (f.type.element == scalar::number) return read_kind::number;
  if (is_integer(f.type.element)) return read_kind::integer;
  return read_kind::other;
}

std::string scalar_type(scalar s) {
  switch (s) {
    case scalar::int64: return "std::int64_t";
    case scalar::int32: return "std::int32_t";
    case scalar::number: return "double";
    case scalar::boolean: return "bool";
    case scalar::string: return "std::string_view";
    case scalar::date: return "std::chrono::year_month_day";
    case scalar::timestamp_ns: return "timestamp_ns";
    case scalar::timestamp_us: return "timestamp_us";
    case scalar::timestamp_ms: return "timestamp_ms";
    case scalar::decimal: return "decimal";
    case scalar::json: return "json_value";
  }
  return "json_value";
}

/// Fields whose absence shows without std::optional: spans, json_value, and absent=false bools.
bool plain(const field& f) {
  if (f.required || f.absent_false) return true;
  if (f.type.shape == field_type::form::array || f.type.shape == field_type::form::map) return true;
  return f.type.shape == field_type::form::scalar && f.type.element == scalar::json;
}

std::string member_type(const field& f) {
  std::string t;
  switch (f.type.shape) {
    case field_type::form::scalar: t = scalar_type(f.type.element); break;
    case field_type::form::object: t = "massive::" + f.type.object->name; break;
    case field_type::form::array:
      return "std::span<const " + (f.type.object != nullptr ? "massive::" + f.type.object->name : scalar_type(f.type.element)) + ">";
    case field_type::form::map:
      return "std::span<const keyed<" + (f.type.object != nullptr ? "massive::" + f.type.object->name : scalar_type(f.type.element)) + ">>";
  }
  return plain(f) ? t : "std::optional<" + t + ">";
}

/// Whether a row of `m` points into its page: a string, an array, raw JSON or a nested object.
bool has_views(const model& m) {
  for (const field& f : m.fields) {
    if (f.type.shape != field_type::form::scalar) return true;
    if (f.type.element == scalar::string || f.type.element == scalar::json) return true;
  }
  return false;
}

/// The owning type of a member (massive::owned::<m>): strings, arrays and raw JSON copied out.
std::string owned_scalar(scalar s) {
  return s == scalar::string || s == scalar::json ? "std::string" : scalar_type(s);
}

std::string owned_type(const field& f) {
  const std::string element =
      f.type.object != nullptr ? "owned::" + f.type.object->name : owned_scalar(f.type.element);
  switch (f.type.shape) {
    case field_type::form::scalar:
    case field_type::form::object:
      return plain(f) ? element : "std::optional<" + element + ">";
    case field_type::form::array:
      return "std::vector<" + element + ">";
    case field_type::form::map:
      return "std::vector<std::pair<std::string, " + element + ">>";
  }
  return element;
}

/// The statements copying member `f` of `row` into `out`.
std::string owned_copy(const field& f) {
  const std::string from = "row." + f.name, to = "out." + f.name;
  const auto value = [&](const std::string& x) {
    if (f.type.object != nullptr) return "to_owned(" + x + ")";
    if (f.type.element == scalar::string) return "std::string(" + x + ")";
    if (f.type.element == scalar::json) return "std::string(" + x + ".text())";
    return x;
  };
  switch (f.type.shape) {
    case field_type::form::scalar:
    case field_type::form::object:
      if (plain(f)) return "  " + to + " = " + value(from) + ";\n";
      return "  if (" + from + ") " + to + " = " + value("*" + from) + ";\n";
    case field_type::form::array:
      return "  " + to + ".reserve(" + from + ".size());\n  for (const auto& x : " + from + ") " + to +
             ".push_back(" + value("x") + ");\n";
    case field_type::form::map:
      return "  " + to + ".reserve(" + from + ".size());\n  for (const auto& e : " + from + ") " + to +
             ".emplace_back(std::string(e.key), " + value("e.value") + ");\n";
  }
  return "";
}

std::string member_default(const field& f) {
  if (!plain(f) || f.type.shape != field_type::form::scalar) return "";
  switch (f.type.element) {
    case scalar::int64:
    case scalar::int32:
    case scalar::number: return " = 0";
    case scalar::boolean: return " = false";
    default: return "";
  }
}

/// The name of the row_context reader of one element type (read_<name>, read_<name>_array). The
/// integers and times that are not in arrays never come here (the integer fields' switch reads
/// them); a free-form value is read as JSON.
std::string reader_type(scalar element) {
  switch (element) {
    case scalar::number: return "double";
    case scalar::int32: return "int32";
    case scalar::boolean: return "bool";
    case scalar::string: return "string";
    case scalar::date: return "date";
    case scalar::decimal: return "decimal";
    case scalar::json: return "json";
    default: return "int64";
  }
}

std::string reader_call(const field& f) {
  const std::string args = "(value, \"" + text::literal(f.key) + "\", row." + f.name + ")";
  if (f.type.object != nullptr) {
    const std::string tmpl = "<massive::" + f.type.object->name + ", decode_" + f.type.object->name + ">";
    switch (f.type.shape) {
      case field_type::form::object: return "ctx.read_object" + tmpl + args;
      case field_type::form::array: return "ctx.read_object_array" + tmpl + args;
      default: return "ctx.read_string_map" + tmpl + args;
    }
  }
  if (f.type.shape == field_type::form::map) return "ctx.read_double_map" + args;
  if (f.type.shape == field_type::form::array) return "ctx.read_" + reader_type(f.type.element) + "_array" + args;
  if (f.absent_false) return "ctx.read_flag" + args;  // a bool whose absence reads as false
  return "ctx.read_" + reader_type(f.type.element) + args;
}

std::string names_array(const std::string& decl, const std::vector<std::string>& names) {
  std::string one = decl + " = {";
  for (std::size_t i = 0; i < names.size(); ++i) one += (i ? ", " : "") + std::string("\"") + names[i] + "\"";
  one += "};\n";
  if (one.size() <= 101) return one;
  std::string out = decl + " = {\n";
  for (const std::string& n : names) out += "    \"" + n + "\",\n";
  return out + "};\n";
}

std::string enum_list(const std::string& decl, const std::vector<std::string>& names) {
  std::string one = decl + " {";
  for (std::size_t i = 0; i < names.size(); ++i) one += (i ? ", " : " ") + names[i];
  one += " };\n";
  if (one.size() <= 101) return one;
  std::string out = decl + " {\n";
  for (const std::string& n : names) out += "  " + n + ",\n";
  return out + "};\n";
}

std::set<const model*> nested_models(const model& m) {
  std::set<const model*> out;
  for (const field& f : m.fields) {
    if (f.type.object != nullptr) out.insert(f.type.object);
  }
  return out;
}

std::vector<std::string> sorted_names(const std::set<const model*>& models) {
  std::vector<std::string> out;
  for (const model* n : models) out.push_back(n->name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string header(const model& m) {
  bool ints = false, optional = false, span = false, strings = false, time = false, date = false, dec = false, js = false;
  for (const field& f : m.fields) {
    const scalar e = f.type.element;
    const bool scalar_like = f.type.object == nullptr;
    if (!plain(f)) optional = true;
    if (f.type.shape == field_type::form::array || f.type.shape == field_type::form::map) span = true;
    if (f.type.shape == field_type::form::map) js = true;
    if (!scalar_like) continue;
    if (e == scalar::int64 || e == scalar::int32) ints = true;
    if (e == scalar::string) strings = true;
    if (is_timestamp(e)) time = true;
    if (e == scalar::date) date = true;
    if (e == scalar::decimal) dec = true;
    if (e == scalar::json) js = true;
  }
  std::string out = text::banner() + "#pragma once\n\n";
  std::vector<std::string> own;
  if (dec) own.push_back("massive/decimal.hpp");
  if (js) own.push_back("massive/json_value.hpp");
  std::set<const model*> included = nested_models(m);
  if (m.underlying_rows != nullptr) included.insert(m.underlying_rows);
  for (const std::string& n : sorted_names(included)) own.push_back("massive/models/" + n + ".hpp");
  if (time) own.push_back("massive/time.hpp");
  if (m.underlying_rows != nullptr) own.push_back("massive/underlying.hpp");
  for (const std::string& h : own) out += "#include \"" + h + "\"\n";
  if (!own.empty()) out += "\n";
  if (date) out += "#include <chrono>\n";
  if (ints) out += "#include <cstdint>\n";
  if (optional) out += "#include <optional>\n";
  if (span) out += "#include <span>\n";
  if (strings) out += "#include <string_view>\n";
  if (m.row) out += "#include <type_traits>\n";
  out +=
      "\nnamespace massive {\n\nclass json_writer;\n\nnamespace reflection {\nclass "
      "field_visitor;\n}\n";
  if (m.row) out += "\nnamespace detail {\nstruct row_codec;\n}\n";
  std::string doc = m.doc.empty() ? "One " + m.name + " object." : m.doc;
  if (has_views(m)) {
    doc += " Its strings and arrays point into its page and die with it: massive::to_owned(row) "
           "(<massive/owned/" + m.name + ".hpp>) copies it into massive::owned::" + m.name + ", which outlives the page.";
  }
  out += "\n" + text::comment(0, doc);
  out += "struct " + m.name + " {\n";
  for (const field& f : m.fields) {
    std::string doc = f.key != f.name ? "[" + f.key + "] " : "";
    if (f.required) doc += "Required. ";
    doc += f.doc.empty() ? "Wire key " + f.key + "." : f.doc;
    out += text::comment(2, doc);
    out += "  " + member_type(f) + " " + f.name + member_default(f) + ";\n";
  }
  out += "};\n\n";
  if (m.underlying_rows != nullptr) {
    out += "/// Pages of " + m.name + " rows may carry results.underlying.aggregates (with expand_underlying=true):\n";
    out += "/// massive::underlying(page) decodes them as " + m.underlying_rows->name + " rows.\n";
    out += "template <>\nstruct underlying_rows_of<" + m.name + "> {\n  /// The underlying rows' model.\n  using type = " +
           m.underlying_rows->name + ";\n};\n\n";
  }
  if (m.row) {
    out += "/// The decoder of " + m.name + " rows (defined in generated/src/models/" + m.name + ".cpp).\n";
    out += "const detail::row_codec& row_codec_for(std::type_identity<" + m.name + ">) noexcept;\n";
  }
  out += "/// Writes one " + m.name + " as a JSON object with its wire keys; absent fields are left out.\n";
  out += "void write_json(json_writer& w, const " + m.name + "& row);\n";
  out += "/// Hands each field of one " + m.name +
         " to `v` with its wire key, in write_json's order\n"
         "/// (massive/reflection/field_visitor.hpp).\n";
  out += "void visit_fields(reflection::field_visitor& v, const " + m.name +
         "& row);\n\n}  // namespace massive\n";
  return out;
}

// decode_<model>_wire: the row read with find_field in the `wire` row's order, each value
// with one get_*() straight into its member; false, for the field loop to read the row
// again, unless the row is exactly those fields (only_these_fields).
std::string wire_decoder(const model& m) {
  const std::string type = "massive::" + m.name;
  std::string out = "\n// Rows exactly as the server sends them, these keys in this order and nothing else, read\n"
                    "// with find_field in that order; false for any other row, which decode_" + m.name +
                    " then reads\n// (decode_rows_in_wire_order).\n";
  out += "[[gnu::always_inline]] inline bool decode_" + m.name + "_wire(od::object& object, " + type + "& row) {\n";
  out += "  od::value value;\n";
  bool any_double = false, any_integer = false;
  for (std::size_t i : m.wire) (m.fields[i].type.element == scalar::number ? any_double : any_integer) = true;
  if (any_double) out += "  double number = 0;\n";
  if (any_integer) out += "  std::int64_t integer = 0;\n";
  for (std::size_t n = 0; n < m.wire.size(); ++n) {
    const field& f = m.fields[m.wire[n]];
    const bool is_double = f.type.element == scalar::number;
    // The key's length spelled out: g++ 12 left the string_view constructor (a strlen) and
    // the key comparison (a memcmp) out of line when given the literal alone.
    const std::string find = "object.find_field(std::string_view(\"" + text::literal(f.key) + "\", " +
                             std::to_string(f.key.size()) + ")).get(value)";
    const std::string get = is_double ? "value.get_double().get(number)" : "value.get_int64().get(integer)";
    const bool first = n == 0, last = n + 1 == m.wire.size();
    if (first || last) {
      out += "  if (" + find + ") return false;\n";
      if (first) out += "  const char* const first = value.raw_json_token().data();\n";
      if (last) out += "  const std::string_view last = value.raw_json_token();\n";
      out += "  if (" + get + ") return false;\n";
    } else {
      out += "  if (" + find + " || " + get + ") return false;\n";
    }
    std::string value = is_double ? "number" : "integer";
    if (is_timestamp(f.type.element)) value = scalar_type(f.type.element) + "::from_count(integer)";
    out += "  row." + f.name + " = " + value + ";\n";
  }
  const field& opening = m.fields[m.wire.front()];
  out += "  return only_these_fields(first, \"{\\\"" + text::literal(opening.key) + "\\\":\", last, " +
         std::to_string(m.wire.size()) + ");\n}\n";
  return out;
}

std::string decoder(const model& m) {
  // `required` has a bit per field an object cannot be shown without: a required field, and an
  // absent=false bool, whose absence reads as false (its bit set from the start), so that a
  // value of another type or a key given twice leaves the object out rather than shows false.
  std::vector<const field*> required, integers;
  std::string absent_is_false;  // their bits, "req_a | req_b"
  bool required_number = false, optional_number = false, any_number = false, int32 = false, required_integer = false;
  for (const field& f : m.fields) {
    if (f.required || f.absent_false) required.push_back(&f);
    if (f.absent_false) absent_is_false += (absent_is_false.empty() ? "req_" : " | req_") + f.name;
    const read_kind k = read_kind_of(f);
    if (k == read_kind::number) {
      any_number = true;
      (f.required ? required_number : optional_number) = true;
    }
    if (k == read_kind::integer) {
      integers.push_back(&f);
      if (f.type.element == scalar::int32) int32 = true;
      if (f.required) required_integer = true;
    }
  }
  std::sort(integers.begin(), integers.end(), [](const field* a, const field* b) { return a->key < b->key; });
  // integer_field's "no field": `none`, unless an integer field is named so.
  std::string none = "none";
  while (std::any_of(integers.begin(), integers.end(), [&](const field* f) { return f->name == none; })) none += '_';
  const std::string ns = m.name + "_decoding";
  const std::string type = "massive::" + m.name;

  std::string out = text::banner() + "#pragma once\n\n#include \"decode/row_decoding.hpp\"\n";
  out += "#include \"massive/models/" + m.name + ".hpp\"\n";
  for (const std::string& n : sorted_names(nested_models(m))) out += "#include \"models/" + n + "_decode.hpp\"\n";
  out += "\nnamespace massive::detail {\n";
  const bool has_helpers = !required.empty() || !integers.empty();
  if (has_helpers) out += "namespace " + ns + " {\n";
  if (!required.empty()) {
    std::vector<std::string> keys, bits;
    for (const field* f : required) keys.push_back(text::literal(f->key));
    out += "\n" + names_array("inline constexpr std::string_view required_names[]", keys);
    out += "enum : std::uint64_t {\n";
    for (std::size_t i = 0; i < required.size(); ++i) {
      out += "  req_" + required[i]->name + " = std::uint64_t{1} << " + std::to_string(i) + ",\n";
    }
    out += "};\ninline constexpr std::uint64_t required = (std::uint64_t{1} << " + std::to_string(required.size()) +
           ") - 1;\n";
    if (!absent_is_false.empty()) {
      out += "// Bools whose absence reads as false: set until a value of another type, or a key "
             "twice.\n";
      out += "inline constexpr std::uint64_t absent_is_false = " + absent_is_false + ";\n";
    }
  }
  if (!integers.empty()) {
    std::vector<std::string> enumerators{none}, keys{""};
    for (const field* f : integers) enumerators.push_back(f->name), keys.push_back(text::literal(f->key));
    out += "\n// The integer fields, read at the one read_int64() call site after the switch and stored by\n"
           "// store_integer().\n";
    // A byte numbers them, and `none`, while there are at most 255 (a model of more, such as a
    // financial statement of every line item, takes two).
    const char* width = enumerators.size() <= 256 ? "std::uint8_t" : "std::uint16_t";
    out += enum_list(std::string("enum class integer_field : ") + width, enumerators);
    out += names_array("inline constexpr std::string_view integer_names[]", keys);
    out += "\n[[gnu::always_inline]] inline void store_integer(";
    if (int32) out += "row_context& ctx, ";
    out += type + "& row, integer_field field, std::int64_t v";
    if (required_integer) out += ", std::uint64_t& seen";
    out += ") {\n  switch (field) {\n    case integer_field::" + none + ": break;\n";
    for (const field* f : integers) {
      out += "    case integer_field::" + f->name + ": ";
      if (f->type.element == scalar::int32) {
        // An int32 that does not fit is a surprise: the field is left alone.
        const std::string store = "ctx.narrow(v, \"" + text::literal(f->key) + "\", row." + f->name + ")";
        out += f->required ? "if (" + store + ") seen |= req_" + f->name : store;
        out += "; break;\n";
        continue;
      }
      std::string value = "v";
      if (is_timestamp(f->type.element)) value = scalar_type(f->type.element) + "::from_count(v)";
      out += "row." + f->name + " = " + value;
      if (f->required) out += ", seen |= req_" + f->name;
      out += "; break;\n";
    }
    out += "  }\n}\n";
  }
  if (has_helpers) out += "\n}  // namespace " + ns + "\n";

  out += "\n// Inlined into its caller: as a call, the object's iterator would live in memory.\n";
  out += "[[gnu::always_inline]] inline void decode_" + m.name + "(row_context& ctx, od::object& object, " + type +
         "& row) {\n";
  if (has_helpers) out += "  using namespace " + ns + ";\n";
  if (!required.empty()) {
    const char* const start = absent_is_false.empty() ? "0" : "absent_is_false";
    out += std::string("  std::uint64_t seen = ") + start + ";\n";
  }
  // A bit per field whose key this object has shown, so that a key given twice is told:
  // keys_met[i / 64], bit i % 64, for m.fields[i].
  if (std::any_of(m.fields.begin(), m.fields.end(), [](const field& f) { return !f.key.empty(); })) {
    out += "  std::uint64_t keys_met[" + std::to_string((m.fields.size() + 63) / 64) +
           "] = {};  // a bit per declared key met: see repeated_key\n";
  }
  if (m.fields.empty()) out += "  static_cast<void>(row);  // an object the description gives no key\n";
  out += "  for (auto item : object) {\n";
  out += "    od::field field;\n";
  out += "    if (auto e = std::move(item).get(field)) fail_field_iteration(ctx, e);\n";
  out += "    const char* const key = field.key().raw();\n";
  if (!m.fields.empty()) out += "    od::value& value = field.value();\n";
  if (any_number) {
    out += "    double* number = nullptr;  // the double field this key names\n";
    out += "    std::string_view number_key;\n";
    if (required_number) out += "    std::uint64_t number_bit = 0;\n";
    if (optional_number) out += "    std::optional<double>* optional_number = nullptr;\n";
  }
  if (!integers.empty()) out += "    integer_field integer = integer_field::" + none + ";  // the integer field this key names\n";

  // The switch on the key's first byte; within a case, fields in declaration order.
  std::vector<unsigned char> firsts;
  for (const field& f : m.fields) {
    if (!f.key.empty()) firsts.push_back(static_cast<unsigned char>(f.key[0]));
  }
  std::sort(firsts.begin(), firsts.end());
  firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
  out += "    switch (key[0]) {\n";
  for (unsigned char c : firsts) {
    std::vector<const field*> here;
    for (const field& f : m.fields) {
      if (!f.key.empty() && static_cast<unsigned char>(f.key[0]) == c) here.push_back(&f);
    }
    std::string label(1, static_cast<char>(c));
    if (c == '\'' || c == '\\') label = "\\" + label;
    out += "      case '" + label + "':\n";
    const auto statement = [&](const field& f) -> std::string {
      // A field the object cannot be shown without loses its bit: the object is left out.
      const std::string clear_bit = "seen &= ~std::uint64_t{req_" + f.name + "}";
      std::string action;
      switch (read_kind_of(f)) {
        case read_kind::number:
          if (f.required) {
            action = "number = &row." + f.name + ", number_key = \"" + text::literal(f.key) + "\", number_bit = req_" + f.name;
          } else {
            action = "optional_number = &row." + f.name + ", number = &row." + f.name + ".emplace(), number_key = \"" +
                     text::literal(f.key) + "\"";
          }
          break;
        case read_kind::integer: action = "integer = integer_field::" + f.name; break;
        case read_kind::other:
          if (f.absent_false) {
            action = "if (!" + reader_call(f) + ") " + clear_bit;
          } else {
            action = f.required ? "if (" + reader_call(f) + ") seen |= req_" + f.name
                                : reader_call(f);
          }
          break;
      }
      // The key's second time: neither value is kept (which one the server meant cannot be
      // told), a required field's bit is cleared, so that its object is left out, not shown
      // with the first value; row_context::repeated_key counts it.
      const auto index = static_cast<std::size_t>(&f - m.fields.data());
      const std::string word = "keys_met[" + std::to_string(index / 64) + "]";
      const std::string bit = "(std::uint64_t{1} << " + std::to_string(index % 64) + ")";
      std::string repeated = "row." + f.name + " = {}";
      if (f.required || f.absent_false) repeated += ", " + clear_bit;
      const std::string indent = "\n            ";
      return "if ((" + word + " & " + bit + ") != 0) {" + indent + repeated + ", ctx.repeated_key(\"" +
             text::literal(f.key) + "\");\n          } else {" + indent + word + " |= " + bit + ";" + indent +
             action + ";\n          }";
    };
    // A key no field names is counted (row_context::unknown_key): the else of every case.
    for (std::size_t i = 0; i < here.size(); ++i) {
      out += std::string(i == 0 ? "        if (" : "} else if (") + "key_is(key, \"" + text::literal(here[i]->key) +
             "\")) {\n";
      out += "          " + statement(*here[i]) + "\n        ";
    }
    out += "} else {\n          ctx.unknown_key(key);\n        }\n";
    out += "        break;\n";
  }
  out += "      default: ctx.unknown_key(key); break;\n    }\n";
  std::string tail;
  if (any_number) {
    if (required_number && optional_number) {
      out += "    if (number != nullptr) {\n"
             "      if (ctx.read_double(value, number_key, *number)) {\n"
             "        seen |= number_bit;\n"
             "      } else if (optional_number != nullptr) {\n"
             "        optional_number->reset();\n"
             "      }\n";
    } else if (required_number) {
      out += "    if (number != nullptr) {\n"
             "      if (ctx.read_double(value, number_key, *number)) seen |= number_bit;\n";
    } else {
      out += "    if (number != nullptr) {\n"
             "      if (!ctx.read_double(value, number_key, *number)) optional_number->reset();\n";
    }
  }
  if (!integers.empty()) {
    out += any_number ? "    } else if (integer != integer_field::" + none + ") {\n" : "    if (integer != integer_field::" + none + ") {\n";
    std::string store = "store_integer(";
    if (int32) store += "ctx, ";
    store += "row, integer, v";
    if (required_integer) store += ", seen";
    store += ")";
    out += "      std::int64_t v = 0;\n";
    out += "      if (ctx.read_int64(value, integer_names[static_cast<std::size_t>(integer)], v)) " + store + ";\n";
  }
  if (any_number || !integers.empty()) out += "    }\n";
  out += "  }\n";
  if (!required.empty()) out += "  if (seen != required) ctx.missing(seen, required, required_names);\n";
  out += "}\n";
  if (!m.wire.empty()) out += wire_decoder(m);
  out += "\n}  // namespace massive::detail\n";
  return out;
}

/// generated/include/massive/owned/<m>.hpp: the model with every view copied out, for rows that
/// must outlive their page (sdk/include/massive/owned.hpp).
std::string owned_header(const model& m) {
  std::string out = text::banner() + "#pragma once\n\n#include \"massive/models/" + m.name + ".hpp\"\n";
  for (const std::string& n : sorted_names(nested_models(m))) out += "#include \"massive/owned/" + n + ".hpp\"\n";
  out += "#include \"massive/owned.hpp\"\n\n#include <string>\n#include <utility>\n#include <vector>\n";
  out += "\nnamespace massive {\n\nnamespace owned {\n\n";
  out += text::comment(0, "A " + m.name + " that owns its strings and arrays: it outlives the page its row came "
                          "from. massive::to_owned() makes one.");
  out += "struct " + m.name + " {\n";
  for (const field& f : m.fields) {
    out += "  " + owned_type(f) + " " + f.name + member_default(f) + ";  ///< massive::" + m.name + "::" + f.name + "\n";
  }
  out += "};\n\n}  // namespace owned\n\n";
  out += "/// A copy of `row` that owns what the row points to in its page.\n";
  out += "owned::" + m.name + " to_owned(const " + m.name + "& row);\n\n}  // namespace massive\n";
  return out;
}

std::string owned_definition(const model& m) {
  std::string out = "owned::" + m.name + " to_owned(const " + m.name + "& row) {\n  owned::" + m.name + " out;\n";
  for (const field& f : m.fields) out += owned_copy(f);
  if (m.fields.empty()) out += "  static_cast<void>(row);\n";  // an object the description gives no key
  return out + "  return out;\n}\n\n";
}

std::string source(const model& m) {
  std::string out = text::banner() + "#include \"massive/models/" + m.name + ".hpp\"\n\n";
  out += "#include \"massive/json_writer.hpp\"\n#include \"massive/owned/" + m.name +
         ".hpp\"\n#include \"massive/reflection/field_visitor.hpp\"\n";
  if (m.row) out += "#include \"models/" + m.name + "_decode.hpp\"\n";
  out += "\nnamespace massive {\n\n";
  if (m.row) {
    out += "const detail::row_codec& row_codec_for(std::type_identity<" + m.name + ">) noexcept {\n";
    if (m.wire.empty()) {
      out += "  static constexpr detail::row_codec codec = detail::make_row_codec<" + m.name + ", detail::decode_" +
             m.name + ">();\n";
    } else {
      out += "  static constexpr detail::row_codec codec =\n      detail::make_wire_row_codec<" + m.name +
             ", detail::decode_" + m.name + ", detail::decode_" + m.name + "_wire>();\n";
    }
    out += "  return codec;\n}\n\n";
  }
  out += "void write_json(json_writer& w, const " + m.name + "& row) {\n  w.begin_object();\n";
  for (const field& f : m.fields) out += "  w.field(\"" + text::literal(f.key) + "\", row." + f.name + ");\n";
  if (m.fields.empty()) out += "  static_cast<void>(row);\n";
  out += "  w.end_object();\n}\n\n";
  out += "void visit_fields(reflection::field_visitor& v, const " + m.name + "& row) {\n";
  for (const field& f : m.fields)
    out += "  v.field(\"" + text::literal(f.key) + "\", row." + f.name + ");\n";
  if (m.fields.empty()) out += "  static_cast<void>(v);\n  static_cast<void>(row);\n";
  out += "}\n\n" + owned_definition(m) + "}  // namespace massive\n";
  return out;
}

/// Every row model by name, each with its decode-only entry (massive/reflection/model_table.hpp).
std::string model_table(const api& a) {
  std::string includes, entries;
  std::size_t rows = 0;
  for (const auto& m : a.models) {
    if (!m->row) continue;
    includes += "#include \"massive/models/" + m->name + ".hpp\"\n";
    entries += "    {\"" + m->name + "\", &detail::decode_model<" + m->name + ">},\n";
    ++rows;
  }
  std::string out = text::banner();
  out += "// The model table (declared in massive/reflection/model_table.hpp): " + std::to_string(rows) + " row models.\n";
  out += "#include \"massive/reflection/model_table.hpp\"\n\n" + includes;
  out += "\nnamespace massive::reflection {\n\nnamespace {\n\nconstexpr model_entry all_models[] = {\n" + entries + "};\n\n";
  out += "}  // namespace\n\nstd::span<const model_entry> model_table() { return all_models; }\n\n}  // namespace massive::reflection\n";
  return out;
}

}  // namespace

std::string cxx::field_type(const field& f) { return member_type(f); }

void emit_models(const api& a, file_set& out) {
  for (const auto& m : a.models) {
    out["include/massive/models/" + m->name + ".hpp"] = header(*m);
    out["src/models/" + m->name + "_decode.hpp"] = decoder(*m);
    out["src/models/" + m->name + ".cpp"] = source(*m);
    out["include/massive/owned/" + m->name + ".hpp"] = owned_header(*m);
  }
  out["src/models/model_table.cpp"] = model_table(a);
}

}  // namespace massive::codegen
