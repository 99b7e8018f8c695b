// Field types for the parts of a response whose shape the API does not declare: a JSON value
// of any shape kept as its text, and the entries of an object whose keys are data.
#pragma once

#include <string_view>

namespace massive {

/// Any JSON value (an object with no declared properties, or a value of unknown shape), kept
/// as its raw JSON text exactly as sent, for the caller to parse with the JSON library of
/// their choice. A decoded value points into its page's arena: it is valid as long as the
/// page is, like every string of a row. Its text is checked to be one well-formed JSON value
/// when decoded. empty() means absent (the key was missing or null).
class json_value {
 public:
  constexpr json_value() noexcept = default;
  /// Wraps text, which must be one JSON value; the caller keeps it alive.
  constexpr explicit json_value(std::string_view text) noexcept : text_(text) {}

  /// The raw JSON text, as sent.
  constexpr std::string_view text() const noexcept { return text_; }
  /// True when absent (the key was missing or null).
  constexpr bool empty() const noexcept { return text_.empty(); }

  /// Byte equality of the texts: `{"a":1}` and `{ "a": 1 }` differ.
  friend constexpr bool operator==(const json_value& a, const json_value& b) noexcept {
    return a.text_ == b.text_;
  }

 private:
  std::string_view text_;
};

/// One entry of an object whose keys are data (the description's `"*"` key, or
/// additionalProperties), e.g. a ticker mapped to its figures. Entries keep the wire order.
/// key points into the page's arena, like every string of a row.
template <class T>
struct keyed {
  std::string_view key;  ///< the key as sent
  T value{};             ///< its value
};

}  // namespace massive
