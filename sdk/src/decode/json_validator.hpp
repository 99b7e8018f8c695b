// Whether a free-form value's raw text is well-formed JSON. simdjson's On Demand skips such
// a value by its brackets without looking inside it, so the decoder checks the text here
// before handing it to users as a json_value.
#pragma once

#include <string_view>

namespace massive::detail {

/// The text is exactly one JSON value (RFC 8259), whitespace around it allowed, nested at
/// most 1024 deep. UTF-8 is not checked: the decoder validated the whole body already.
bool is_one_json_value(std::string_view text);

}  // namespace massive::detail
