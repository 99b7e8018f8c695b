// What the generator knows after reading the description and the map: models (deduplicated
// object shapes), enumerations and operations. The emitters only read this.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace massive::codegen {

enum class scalar { int64, int32, number, boolean, string, date, timestamp_ns, timestamp_us, timestamp_ms, decimal, json };

inline bool is_timestamp(scalar s) {
  return s == scalar::timestamp_ns || s == scalar::timestamp_us || s == scalar::timestamp_ms;
}

/// Read with get_int64: the integers and the timestamps (counts on the wire).
inline bool is_integer(scalar s) { return s == scalar::int64 || s == scalar::int32 || is_timestamp(s); }

struct model;

/// A field's type: a scalar, a nested model, an array of either, or an object whose keys are
/// data (the description's "*" key) with scalar or model values.
struct field_type {
  enum class form { scalar, object, array, map };
  form shape = form::scalar;
  scalar element = scalar::json;  // the scalar, or the element/value scalar when object is null
  model* object = nullptr;        // the model, or the element/value model
};

struct field {
  std::string key;   // as sent
  std::string name;  // the C++ member
  field_type type;
  bool required = false;      // the map says the wire always carries it
  bool absent_false = false;  // a bool the server leaves off when false: plain bool
  std::string doc;
};

struct model {
  std::string name;
  std::string signature;  // the structural identity used for deduplication
  std::string location;   // where it first occurs: "<path> <json path>"
  std::string doc;
  std::vector<field> fields;
  bool row = false;  // some operation returns it as its rows: it gets a row decoder
  // Pages of these rows may carry a second array of rows (results.underlying.aggregates):
  // its model, given underlying_rows_of<this> in the header; null when none.
  const model* underlying_rows = nullptr;
  // Indexes into fields, in the order the server sends the keys (a `wire` row): rows exactly
  // so are read with find_field in that order before the field loop is tried.
  std::vector<std::size_t> wire;
};

/// A field a wire-order reader can take: a double, or an integer stored as read (an int64 or a
/// timestamp; an int32 would need the field loop's range check).
inline bool wire_readable(const field& f) {
  return f.type.shape == field_type::form::scalar &&
         (f.type.element == scalar::number || f.type.element == scalar::int64 || is_timestamp(f.type.element));
}

struct enum_def {
  std::string name;
  std::vector<std::string> values;  // wire spellings, in the description's order
};

enum class shape { results_array, results_object, document, top_level_array, results_values };

enum class filter_kind { none, range, set, full, array };

struct param_type {
  enum class kind { string, int64, int32, number, boolean, date, enumeration, date_or_ms, date_or_ns, string_list };
  kind what = kind::string;
  const enum_def* enumeration = nullptr;
};

struct param {
  std::string wire;  // the query name, or the path template's parameter name
  std::string name;  // the C++ member
  bool in_path = false;
  bool required = false;
  param_type type;
  filter_kind filter = filter_kind::none;
  std::string doc;            // its first sentence
  std::string description;    // the description's whole text, on one line
  std::string default_value;  // the schema's default as text ("" when none)
  std::string example;        // the description's example value as text ("" when none)
  std::string former;         // a renamed path parameter's name in the map's route ("" when not renamed)
};

struct operation {
  std::string path;  // the template as in the description
  std::string operation_id;
  std::string group;
  std::string name;
  std::string summary;
  std::string description;  // the description's whole text, on one line
  shape payload = shape::results_array;
  model* row = nullptr;
  /// results_values only: the rows of `results.underlying.aggregates` (the indicators' bars,
  /// sent with expand_underlying=true); null when the description declares none.
  model* underlying = nullptr;
  bool paginated = false;
  bool page_style = false;  // paginated, yet the map asks for a one-page method (plus <name>_pages)
  bool ignored = false;     // x-polygon-ignore: a variant of a route another operation shares
  bool experimental = false;
  // Experimental where the map names the route (a vX or dev path), promoted since: the opt-in is
  // still taken, deprecated, so that code written while it was experimental still compiles.
  bool graduated = false;
  std::string deprecated_use;  // the replacement, when deprecated ("" = not deprecated)
  bool deprecated = false;
  std::vector<param> path_params;  // in route order
  std::vector<param> query_params;
  std::string python_name;  // the official clients' methods for the route ("" when unknown)
  std::string go_name;
};

struct group_def {
  std::string name;
  std::string doc;
};

/// A flat-file dataset whose rows are a REST model plus the ticker (a `file` row of the map):
/// massive::files::<name>, declared only where the description has the model.
struct file_rows {
  std::string market;   // a massive::files::market enumerator: stocks, options, ...
  std::string dataset;  // a massive::files::dataset enumerator: trades or quotes
  std::string name;     // the row type's name
  const model* rows = nullptr;
};

struct api {
  std::vector<std::unique_ptr<model>> models;  // sorted by name
  std::vector<std::unique_ptr<enum_def>> enums;
  std::vector<operation> operations;  // in the description's order
  std::vector<group_def> groups;      // in the map's order
  std::vector<file_rows> files;       // in the map's order
};

}  // namespace massive::codegen
