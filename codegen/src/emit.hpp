// The emitters: the generated files, as relative path -> content, in a fixed order so that the
// same inputs give byte-identical output.
#pragma once

#include "ir.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace massive::codegen {

using file_set = std::map<std::string, std::string>;

struct stream_event;

/// generated/include/massive/models/<m>.hpp, generated/src/models/<m>_decode.hpp and
/// generated/src/models/<m>.cpp for every model, and the model table
/// (generated/src/models/model_table.cpp).
void emit_models(const api& a, file_set& out);
/// generated/include/massive/files/rows.hpp: the flat files' row types (the map's `file` rows).
void emit_files(const api& a, file_set& out);
/// generated/include/massive/<group>.hpp, enums.hpp, groups.hpp and the operation table.
void emit_groups(const api& a, file_set& out);
/// generated/mock/catalog.cpp: every operation's route, shape and row field tree, for the mock.
void emit_mock(const api& a, file_set& out);
/// generated/libraries.cmake: the library of every generated source in `out` (run last);
/// `stream_models` names the stream's event models among a's models.
void emit_cmake(const api& a, const std::set<std::string>& stream_models, file_set& out);

/// generated/surface.txt: the surface a user's code compiles against, one fact a line, sorted
/// (operations, parameters, models, fields, enumerations, stream events). The change report is
/// the difference between the surface a regeneration replaces and the one it writes.
void emit_surface(const api& a, const std::vector<const stream_event*>& events, file_set& out);

/// generated/docs/operations.md: every operation's route, C++ call, command-line command and
/// the official Python and Go clients' method names for the same route, by group.
void emit_reference(const api& a, file_set& out);

/// The C++ spelling of generated members, as the emitters write them.
namespace cxx {
std::string field_type(const field& f);  // a model's member: std::optional<double>, std::span<const massive::x>
std::string param_type(const param& p);  // a parameters struct's member: range_filter<std::int64_t>
}  // namespace cxx

namespace text {

/// The banner every generated file starts with.
std::string banner();
/// `prefix` + text, greedily wrapped to 100 columns, each line indented by `indent` spaces.
std::string comment(int indent, std::string_view text, std::string_view prefix = "/// ");
/// A C++ string literal's body for `s`: quotes, backslashes, "??" and control characters escaped.
std::string literal(std::string_view s);
/// The enumerator naming `s`, as both massive::payload_shape and the mock's catalog::shape
/// spell it (e.g. "results_array").
std::string shape_name(shape s);
/// Where rows of shape `s` sit in a body, as messages name it (e.g. "results[]").
std::string shape_root(shape s);

}  // namespace text

}  // namespace massive::codegen
