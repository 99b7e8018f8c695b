// The catalog: every operation of the description with the shape of its response, as data.
// The definitions are generated (generated/mock/catalog.cpp, written by codegen/src/emit_mock.cpp
// from the same IR as the SDK's models), so the mock synthesises exactly the types the SDK's
// generated decoders expect, without depending on the SDK.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace massive::mock::catalog {

/// A scalar's kind, as the generator types it (timestamps by unit, dates, exact decimals, raw
/// JSON for free-form objects).
enum class scalar : std::uint8_t { int64, int32, number, boolean, string, date, timestamp_ns, timestamp_us, timestamp_ms, decimal, json };

/// A field's form: a scalar, a nested model, an array of either, or an object whose keys are
/// data with scalar or model values.
enum class form : std::uint8_t { scalar, object, array, map };

/// Where the rows are in the body.
enum class shape : std::uint8_t {
  results_array,    ///< {"results": [rows], ...}
  results_object,   ///< {"results": row, ...}
  document,         ///< the body is the row
  top_level_array,  ///< [rows]
  results_values,   ///< {"results": {"underlying": {...}, "values": [rows]}, ...}
};

/// One field of a model.
struct field {
  std::string_view key;  ///< as sent
  form shape;
  scalar element;  ///< the scalar, or the element/value scalar when model < 0
  int model;       ///< index into models() of the nested/element/value model, or -1
};

/// A model: its fields are fields()[first, first + count).
struct model {
  std::string_view name;
  int first;
  int count;
};

/// One operation (GET) of the description.
struct operation {
  std::string_view group;
  std::string_view name;
  std::string_view path;  ///< the route template as in the description
  shape payload;
  bool paginated;  ///< the response carries next_url
  bool ignored;    ///< x-polygon-ignore: shares its route with another operation
  int row;         ///< index into models() of the row model
};

/// Every field of every model, model by model.
std::span<const field> fields();
/// Every model, sorted by name.
std::span<const model> models();
/// Every operation, in the description's order.
std::span<const operation> operations();

/// The fields of `m`.
inline std::span<const field> fields_of(const model& m) {
  return fields().subspan(static_cast<std::size_t>(m.first), static_cast<std::size_t>(m.count));
}

}  // namespace massive::mock::catalog
