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

/// A value the path parameter `name` accepts (e.g. "day" for timespan, a date for from/to).
std::string sample_value(std::string_view name);

/// A target for `entry` built by its typed parameters from sample path arguments.
std::string sample_target(const operation_entry& entry);

}  // namespace massive::test
