// What a decoder does with what the model did not foresee: a value of another type than the
// model declares, a number its field cannot hold, a key the model does not name, a required
// field left out. The API's description is evidence, not truth (docs/guide/decoding.md): a page of
// good rows must not be lost to one surprising field, so the default is to coerce or skip
// and count (page<T>::leniency()); strict decoding refuses instead.
#pragma once

#include <cstdint>

namespace massive {

/// How a decoder treats a surprise (docs/guide/decoding.md lists each case).
enum class decode_policy : std::uint8_t {
  /// Coerce what converts without loss (a number sent as a string), skip what does not (the
  /// field is left absent, the array element or row left out), keep rows missing a required
  /// field, skip unknown keys; count each in the page's page_leniency.
  lenient,
  /// The first surprise is a decode_error naming the field (wrong_type, out_of_range,
  /// missing_field, unknown_key), and the body yields no page.
  strict,
};

}  // namespace massive
