#include "massive/decimal.hpp"

#include <cstdlib>
#include <cstring>

namespace massive {

double decimal::to_double() const noexcept {
  static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  constexpr std::int64_t exact_limit = std::int64_t{1} << 53;
  if (mantissa_ >= -exact_limit && mantissa_ <= exact_limit) {
    // Both operands are exact doubles, and IEEE division rounds correctly.
    return static_cast<double>(mantissa_) / powers[scale_];
  }
  char text[max_chars];
  const auto written = to_chars(text, text + sizeof text);
  double value = 0;
  std::from_chars(text, written.ptr, value);
  return value;
}

std::to_chars_result decimal::to_chars(char* first, char* last) const noexcept {
  char digits[24];
  // The magnitude as unsigned, so that INT64_MIN has one.
  const std::uint64_t magnitude = mantissa_ < 0 ? 0 - static_cast<std::uint64_t>(mantissa_)
                                                : static_cast<std::uint64_t>(mantissa_);
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, magnitude);
  auto count = static_cast<std::size_t>(end - digits);
  const auto scale = static_cast<std::size_t>(scale_);
  const std::size_t integer_digits = count > scale ? count - scale : 0;
  const std::size_t needed = (mantissa_ < 0 ? 1 : 0) + (integer_digits == 0 ? 1 : integer_digits) +
                             (scale > 0 ? 1 + scale : 0);
  if (static_cast<std::size_t>(last - first) < needed) return {last, std::errc::value_too_large};
  char* out = first;
  if (mantissa_ < 0) *out++ = '-';
  if (integer_digits == 0) {
    *out++ = '0';
  } else {
    std::memcpy(out, digits, integer_digits);
    out += integer_digits;
  }
  if (scale > 0) {
    *out++ = '.';
    const std::size_t leading_zeros = scale > count ? scale - count : 0;
    std::memset(out, '0', leading_zeros);
    out += leading_zeros;
    const std::size_t fraction_digits = scale - leading_zeros;
    std::memcpy(out, end - fraction_digits, fraction_digits);
    out += fraction_digits;
  }
  return {out, std::errc{}};
}

std::string decimal::to_string() const {
  char text[max_chars];
  const auto written = to_chars(text, text + sizeof text);
  return std::string(text, written.ptr);
}

}  // namespace massive
