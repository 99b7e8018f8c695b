// A small owning JSON tree for the generator. The description is read once with simdjson's
// On Demand API and copied into this tree because the generator walks it many times, follows
// $refs and merges allOf parts; members are kept sorted by key (json.cpp says why), numbers as
// written.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::codegen {

class json {
 public:
  enum class kind { null, boolean, number, string, array, object };

  /// Parses a file; throws std::runtime_error naming the file and simdjson's error.
  static json load(const std::string& path);
  /// Parses text (used by tests and for example bodies).
  static json parse(std::string_view text);

  kind type() const noexcept { return kind_; }
  bool is_object() const noexcept { return kind_ == kind::object; }
  bool is_array() const noexcept { return kind_ == kind::array; }
  bool is_string() const noexcept { return kind_ == kind::string; }

  /// The member `key` of an object, or nullptr (also for a non-object).
  const json* find(std::string_view key) const noexcept;
  /// The string value of member `key`, or "" when absent or not a string.
  std::string_view text(std::string_view key) const noexcept;
  /// A schema's "type": the string, or OpenAPI 3.1's list form with "null" left out when one
  /// type remains (["integer", "null"] is a nullable integer, as 3.0's nullable); without a
  /// "type", "array" when it has "items" and "object" when it has "properties" (JSON Schema
  /// lets the keywords imply it, and generators of descriptions leave it out); "" when it
  /// declares none, or several.
  std::string_view schema_type() const noexcept;
  /// The one schema a schema's oneOf or anyOf offers besides `{"type": "null"}`, or nullptr: a
  /// choice of one is that one, and OpenAPI 3.1 writes a nullable schema as [X, null]. Real
  /// choices (several schemas, or both keywords) give nullptr.
  const json* sole_alternative() const noexcept;
  /// What a local reference ("#/components/schemas/X": a URI fragment holding a JSON pointer,
  /// its %XX, ~1 and ~0 escapes undone) points at in this document, or nullptr when it is not
  /// local or names nothing.
  const json* at_reference(std::string_view ref) const;
  /// Where the chain of $refs from `s` ends in this document (32 references at most): `at`, the
  /// first schema without a $ref, and `name`, the last reference's final segment (a schema's
  /// name; empty when `s` has no $ref). When a reference cannot be followed, `at` is null and
  /// `ref` and `why` say which and why (out of the document, to nothing, round in a circle).
  struct reference_end {
    const json* at = nullptr;
    std::string_view name;
    std::string_view ref;
    const char* why = "";
  };
  reference_end follow_references(const json& s) const;
  bool flag(std::string_view key) const noexcept;
  /// The example a parameter, schema or media type gives: its `example`, else the first of a
  /// schema's `examples` (JSON Schema's list, which OpenAPI 3.1 prefers), else the `value` of
  /// the first of its `examples` map (OpenAPI's Example objects, by name); nullptr for none.
  const json* example() const noexcept;
  /// Massive's extension `name` ("go-type"): the member x-massive-<name>, else x-polygon-<name>,
  /// as the descriptions wrote it before Polygon.io became Massive (the stream description has
  /// moved to x-massive-, the REST one had not yet); nullptr when neither is there.
  const json* extension(std::string_view name) const;
  /// Whether extension(name) is true.
  bool extension_flag(std::string_view name) const;

  const std::string& string() const noexcept { return text_; }
  bool boolean() const noexcept { return boolean_; }
  /// The number as written (kept as text so integers beyond 2^53 are not rounded).
  const std::string& number_text() const noexcept { return text_; }
  const std::vector<json>& items() const noexcept { return items_; }
  const std::vector<std::pair<std::string, json>>& members() const noexcept { return members_; }

  json() = default;

 private:
  kind kind_ = kind::null;
  bool boolean_ = false;
  std::string text_;
  std::vector<json> items_;
  std::vector<std::pair<std::string, json>> members_;

  friend struct json_builder;
};

}  // namespace massive::codegen
