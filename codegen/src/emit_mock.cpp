// The mock's catalog: every operation's route, payload shape and pagination, and the field
// tree of its row model, as plain data (generated/mock/catalog.cpp; its declarations are
// mock/src/catalog.hpp). The mock synthesises responses from it, so they follow the very types
// the generated decoders read, including the map's deviations from the description.
#include "emit.hpp"

#include <map>

namespace massive::codegen {

namespace {

const char* scalar_name(scalar s) {
  switch (s) {
    case scalar::int64: return "int64";
    case scalar::int32: return "int32";
    case scalar::number: return "number";
    case scalar::boolean: return "boolean";
    case scalar::string: return "string";
    case scalar::date: return "date";
    case scalar::timestamp_ns: return "timestamp_ns";
    case scalar::timestamp_us: return "timestamp_us";
    case scalar::timestamp_ms: return "timestamp_ms";
    case scalar::decimal: return "decimal";
    case scalar::json: return "json";
  }
  return "json";
}

const char* form_name(field_type::form f) {
  switch (f) {
    case field_type::form::scalar: return "scalar";
    case field_type::form::object: return "object";
    case field_type::form::array: return "array";
    case field_type::form::map: return "map";
  }
  return "scalar";
}

}  // namespace

void emit_mock(const api& a, file_set& out) {
  std::map<const model*, std::size_t> index;
  for (std::size_t i = 0; i < a.models.size(); ++i) index[a.models[i].get()] = i;
  const auto model_index = [&](const model* m) { return m == nullptr ? std::string("-1") : std::to_string(index.at(m)); };

  std::string fields, models, operations;
  std::size_t first = 0;
  for (const auto& m : a.models) {
    models += "    {\"" + text::literal(m->name) + "\", " + std::to_string(first) + ", " +
              std::to_string(m->fields.size()) + "},\n";
    for (const field& f : m->fields) {
      fields += "    {\"" + text::literal(f.key) + "\", form::" + form_name(f.type.shape) + ", scalar::" +
                scalar_name(f.type.element) + ", " + model_index(f.type.object) + "},\n";
    }
    first += m->fields.size();
  }
  for (const operation& o : a.operations) {
    operations += "    {\"" + o.group + "\", \"" + o.name + "\", \"" + text::literal(o.path) + "\", shape::" +
                  text::shape_name(o.payload) + ", " + (o.paginated ? "true" : "false") + ", " +
                  (o.ignored ? "true" : "false") + ", " + model_index(o.row) + "},\n";
  }
  std::string file = text::banner();
  file += "// The mock's catalog (declared in mock/src/catalog.hpp): " + std::to_string(a.operations.size()) +
          " operations, " + std::to_string(a.models.size()) + " models, " + std::to_string(first) + " fields.\n";
  file += "#include \"catalog.hpp\"\n\nnamespace massive::mock::catalog {\n\nnamespace {\n\n";
  file += "constexpr field all_fields[] = {\n" + fields + "};\n\n";
  file += "constexpr model all_models[] = {\n" + models + "};\n\n";
  file += "constexpr operation all_operations[] = {\n" + operations + "};\n\n";
  file += "}  // namespace\n\n";
  file += "std::span<const field> fields() { return all_fields; }\n";
  file += "std::span<const model> models() { return all_models; }\n";
  file += "std::span<const operation> operations() { return all_operations; }\n\n";
  file += "}  // namespace massive::mock::catalog\n";
  out["mock/catalog.cpp"] = std::move(file);
}

}  // namespace massive::codegen
