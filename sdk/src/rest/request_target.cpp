#include "massive/detail/request_target.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

namespace massive::detail {
namespace {

// RFC 3986 section 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
constexpr std::array<bool, 256> unreserved_table = [] {
  std::array<bool, 256> table{};
  for (int c = 'A'; c <= 'Z'; ++c) table[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) table[c] = true;
  for (int c = '0'; c <= '9'; ++c) table[c] = true;
  table['-'] = table['.'] = table['_'] = table['~'] = true;
  return table;
}();

bool unreserved(char c) noexcept { return unreserved_table[static_cast<unsigned char>(c)]; }

// Drops the '+' and the leading zeros of a to_chars exponent: "1e+21" -> "1e21",
// "1.5e-07" -> "1.5e-7".
char* tidy_exponent(char* first, char* last) noexcept {
  char* e = std::find(first, last, 'e');
  if (e == last) return last;
  char* digits = e + 1;
  char* out = digits;
  if (*digits == '-') {
    ++digits;
    ++out;
  } else if (*digits == '+') {
    ++digits;
  }
  while (digits + 1 < last && *digits == '0') ++digits;
  while (digits < last) *out++ = *digits++;
  return out;
}

}  // namespace

target_builder& target_builder::path_literal(std::string_view text) {
  if (in_query_) throw std::logic_error("massive: target_builder: path after query parameters");
  put_raw(text);
  return *this;
}

void target_builder::begin_segment() {
  if (in_query_) throw std::logic_error("massive: target_builder: path after query parameters");
}

void target_builder::begin_param(std::string_view name, std::string_view comparator) {
  context_name_ = name;
  context_comparator_ = comparator;
  put_raw(in_query_ ? "&" : "?");
  in_query_ = true;
  put_escaped(name);
  put_raw(comparator);
  put_raw("=");
}

void target_builder::fail(std::string_view problem) const {
  std::string what = "massive: ";
  if (!in_query_) {
    what += "path segment";
  } else {
    what += "query parameter ";
    what += context_name_;
    what += context_comparator_;
  }
  what += ": ";
  what += problem;
  throw std::invalid_argument(what);
}

void target_builder::put_escaped(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::size_t run_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (unreserved(text[i])) continue;
    put_raw(text.substr(run_start, i - run_start));
    const auto byte = static_cast<unsigned char>(text[i]);
    const char escaped[3] = {'%', hex[byte >> 4], hex[byte & 0xF]};
    put_raw(std::string_view(escaped, 3));
    run_start = i + 1;
  }
  put_raw(text.substr(run_start));
}

void target_builder::put_segment_text(std::string_view text) {
  if (text.empty()) fail("empty");
  if (text == "." || text == "..") fail("\".\" and \"..\" are not allowed");
  put_escaped(text);
}

void target_builder::put_integer(std::int64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  put_raw(std::string_view(digits, result.ptr));
}

void target_builder::put_unsigned(std::uint64_t value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  put_raw(std::string_view(digits, result.ptr));
}

void target_builder::put_double(double value) {
  if (std::isnan(value)) fail("NaN is not a number the API accepts");
  if (std::isinf(value)) fail("infinity is not a number the API accepts");
  if (value == 0) {
    // -0.0 compares equal to 0, and "-0" in a URL reads as a bug.
    put_raw("0");
    return;
  }
  const double magnitude = std::fabs(value);
  const auto format = magnitude >= 1e-6 && magnitude < 1e21 ? std::chars_format::fixed
                                                            : std::chars_format::scientific;
  // The longest fixed form below 1e21 is a sign, 21 digits, or "0." with up to 6 zeros and
  // 17 significant digits: well under 64.
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value, format);
  if (result.ec != std::errc{}) fail("number could not be formatted");
  put_raw(std::string_view(text, tidy_exponent(text, result.ptr)));
}

void target_builder::put_date(const std::chrono::year_month_day& date) {
  if (const char* problem = detail::date_problem(date)) {
    fail(detail::invalid_date_message(date, problem));
  }
  const int year = int{date.year()};
  const unsigned month = unsigned{date.month()};
  const unsigned day = unsigned{date.day()};
  const char text[10] = {static_cast<char>('0' + year / 1000),
                         static_cast<char>('0' + year / 100 % 10),
                         static_cast<char>('0' + year / 10 % 10),
                         static_cast<char>('0' + year % 10),
                         '-',
                         static_cast<char>('0' + month / 10),
                         static_cast<char>('0' + month % 10),
                         '-',
                         static_cast<char>('0' + day / 10),
                         static_cast<char>('0' + day % 10)};
  put_raw(std::string_view(text, sizeof text));
}

}  // namespace massive::detail
