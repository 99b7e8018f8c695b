// Shared by the codegen tests: a body served by the mock server, fetched through an operation
// of the generated table, and the rows its generated decoder and writer produced compared with
// a DOM parse of the same bytes.
#pragma once

#include <massive/operation_table.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace massive::test {

/// The differences between the rows `entry` decodes from `body` (served for `target`) and the
/// rows as sent, one line each ("[3].day.c: numbers differ"); empty when they agree. Throws
/// what the call throws (a decode_error for a body the model refuses).
std::vector<std::string> decode_differences(const operation_entry& entry, const std::string& target,
                                            const std::string& body);

/// The differences between the rows a generated writer wrote (`rows_json`, a JSON array of
/// `rows` rows, as operation_entry::run hands a page over) and the rows of `body`, the bytes the
/// server sent, found where `shape` says; one line each, empty when they agree. Every value
/// written is compared with the value sent (absent spans and absent=false booleans are written
/// as [] and false).
std::vector<std::string> row_differences(payload_shape shape, std::string_view rows_json, std::size_t rows,
                                         const std::string& body);

/// A value the path parameter `name` accepts (e.g. "day" for timespan, a date for from/to, a
/// ticker with its market's prefix for cryptoTicker, fxTicker, indicesTicker, optionsTicker).
std::string sample_value(std::string_view name);

/// A target for `entry` built by its typed parameters from sample path arguments, with
/// `limit` (when not empty) where the operation takes one.
std::string sample_target(const operation_entry& entry, std::string_view limit = {});

}  // namespace massive::test
