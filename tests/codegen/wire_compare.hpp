// Shared by the codegen tests: a body served by the mock server, fetched through an operation
// of the generated table, and the rows its generated decoder and writer produced compared with
// a DOM parse of the same bytes, both ways: every value written must be the value sent, and
// every key sent must come back, unless it is null or the evidence audit (codegen/audit.tsv)
// lists it as undeclared for that operation, with its reason.
#pragma once

#include <massive/reflection/operation_table.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace massive::test {

/// Keys a comparison accepts in a body although no model declares them, as JSON paths with
/// `[]` for every array index: "db_latency", "results[].cik".
struct undeclared_keys {
  std::vector<std::string> paths;
  /// Keys starting with this are accepted anywhere, and all below them (a mutation's deliberate
  /// unknown keys).
  std::string injected_prefix;

  bool allows(std::string_view path, std::string_view key) const;
};

/// The evidence audit's rows of `kind` (codegen/audit.tsv): each row's subject and the rest of
/// its columns (tab-separated).
std::vector<std::pair<std::string, std::string>> audit_rows(std::string_view kind);

/// The `undeclared` rows of the evidence audit for `entry` (subject <group>.<method>:<path>).
undeclared_keys audited_undeclared(const massive::reflection::operation_entry& entry);

/// The differences between the rows `entry` decodes from `body` (served for `target`) and the
/// rows as sent, one line each ("[3].day.c: numbers differ"); empty when they agree. Keys the
/// audit lists for `entry`, and those `extra` accepts, may be left out. Throws what the call
/// throws (a decode_error for a body the model refuses).
std::vector<std::string> decode_differences(const massive::reflection::operation_entry& entry, const std::string& target,
                                            const std::string& body, const undeclared_keys& extra = {});

/// The differences between the rows a generated writer wrote (`rows_json`, a JSON array of
/// `rows` rows, as operation_entry::run hands a page over) and `body`, the bytes the server
/// sent, with the rows where `shape` says; one line each, empty when they agree. Every value
/// written is compared with the value sent (absent spans and absent=false booleans are written
/// as [] and false), and every key sent, in the rows and around them, must have come back
/// unless its value is null or `allowed` accepts it ("results[2].cik: sent, not decoded").
std::vector<std::string> row_differences(payload_shape shape, std::string_view rows_json, std::size_t rows,
                                         const std::string& body, const undeclared_keys& allowed = {});

/// A value the path parameter `name` of `entry` accepts (e.g. "day" for timespan, a date for
/// from/to, a ticker with its market's prefix for cryptoTicker, fxTicker, indicesTicker,
/// optionsTicker; for a name it does not know, a value of the parameter's type).
std::string sample_value(const massive::reflection::operation_entry& entry, std::string_view name);

/// A target for `entry` built by its typed parameters from sample path arguments, with
/// `limit` (when not empty) where the operation takes one.
std::string sample_target(const massive::reflection::operation_entry& entry, std::string_view limit = {});

}  // namespace massive::test
