// Exact decimal numbers, for wire values sent as decimal strings (trades' decimal_size,
// e.g. "100.0" or "0.3333"): a double cannot hold 0.1 exactly, and these are quantities
// that users add up and compare.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace massive {

/// A decimal number held exactly as mantissa x 10^-scale, with a signed 64-bit mantissa and
/// 0 <= scale <= 18: any decimal text of at most 18 significant digits (19 when they fit in
/// int64) round-trips unchanged, trailing zeros included ("100.0" prints as "100.0").
/// Equality is numeric: 100.0 == 100.
class decimal {
 public:
  /// The largest scale: a step of 10^-18.
  static constexpr int max_scale = 18;
  /// Enough for any decimal's text: sign, 19 digits, "0." and the point.
  static constexpr std::size_t max_chars = 23;

  constexpr decimal() noexcept = default;
  /// mantissa x 10^-scale; throws std::out_of_range unless 0 <= scale <= max_scale.
  constexpr decimal(std::int64_t mantissa, int scale) : mantissa_(mantissa), scale_(check(scale)) {}

  /// Parses `[-]digits[.digits][(e|E)[+|-]digits]` exactly. Returns nullopt for anything
  /// else, or when the value needs more precision or range than the representation has
  /// (it never rounds).
  static constexpr std::optional<decimal> parse(std::string_view text) noexcept;

  /// The integer m of m x 10^-scale.
  constexpr std::int64_t mantissa() const noexcept { return mantissa_; }
  /// Digits after the decimal point, trailing zeros included (1 for "100.0").
  constexpr int scale() const noexcept { return scale_; }

  /// The nearest double: correctly rounded (one IEEE division of two exact values) when
  /// |mantissa| <= 2^53, which covers every realistic size; otherwise via the decimal text.
  double to_double() const noexcept;

  /// Writes the shortest text that keeps the scale, e.g. "100.0", "-0.25", "7".
  std::to_chars_result to_chars(char* first, char* last) const noexcept;
  /// The text to_chars() writes.
  std::string to_string() const;

  /// Numeric equality, whatever the scales: 100.0 == 100.
  friend constexpr bool operator==(const decimal& a, const decimal& b) noexcept {
    if (a.scale_ == b.scale_) return a.mantissa_ == b.mantissa_;
    const decimal& fine = a.scale_ > b.scale_ ? a : b;
    const decimal& coarse = a.scale_ > b.scale_ ? b : a;
    std::int64_t scaled = 0;
    // If the coarser value overflows when rescaled it cannot equal an int64 mantissa.
    if (__builtin_mul_overflow(coarse.mantissa_, pow10(fine.scale_ - coarse.scale_), &scaled)) {
      return false;
    }
    return scaled == fine.mantissa_;
  }

 private:
  static constexpr std::int64_t pow10(int n) noexcept {
    std::int64_t p = 1;
    while (n-- > 0) p *= 10;
    return p;
  }
  static constexpr std::int8_t check(int scale) {
    if (scale < 0 || scale > max_scale) throw std::out_of_range("decimal scale outside [0, 18]");
    return static_cast<std::int8_t>(scale);
  }

  std::int64_t mantissa_ = 0;
  std::int8_t scale_ = 0;
};

constexpr std::optional<decimal> decimal::parse(std::string_view text) noexcept {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const std::size_t integer_begin = i;
  while (i < text.size() && is_digit(text[i])) ++i;
  const std::string_view integer = text.substr(integer_begin, i - integer_begin);
  if (integer.empty()) return std::nullopt;
  std::string_view fraction;
  if (i < text.size() && text[i] == '.') {
    const std::size_t fraction_begin = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    fraction = text.substr(fraction_begin, i - fraction_begin);
    if (fraction.empty()) return std::nullopt;
  }
  int exponent = 0;
  if (i < text.size()) {
    if (text[i] != 'e' && text[i] != 'E') return std::nullopt;
    ++i;
    const bool negative_exponent = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (i == text.size()) return std::nullopt;
    for (; i < text.size(); ++i) {
      if (!is_digit(text[i])) return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 400) return std::nullopt;
    }
    if (negative_exponent) exponent = -exponent;
  }
  // Trailing zeros of the fraction are kept (they are part of the text) only as far as the
  // representation allows; they never change the value.
  std::size_t trailing_zeros = 0;
  while (trailing_zeros < fraction.size() && fraction[fraction.size() - 1 - trailing_zeros] == '0') ++trailing_zeros;
  const std::string_view significant = fraction.substr(0, fraction.size() - trailing_zeros);
  // Accumulated as a negative number so that INT64_MIN is representable.
  std::int64_t value = 0;
  for (const std::string_view digits : {integer, significant}) {
    for (const char c : digits) {
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_sub_overflow(value, c - '0', &value)) {
        return std::nullopt;
      }
    }
  }
  int scale = static_cast<int>(significant.size()) - exponent;
  for (; scale < 0; ++scale) {
    if (__builtin_mul_overflow(value, 10, &value)) return std::nullopt;
  }
  if (scale > max_scale) return std::nullopt;
  for (std::size_t z = 0; z < trailing_zeros && scale < max_scale; ++z, ++scale) {
    std::int64_t scaled = 0;
    if (__builtin_mul_overflow(value, 10, &scaled)) break;
    value = scaled;
  }
  if (!negative) {
    if (value == INT64_MIN) return std::nullopt;
    value = -value;
  }
  return decimal(value, scale);
}

}  // namespace massive
