#include "massive/json_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace massive {
namespace {

template <class Int>
void append_integer(std::string& out, Int v) {
  std::array<char, 24> buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  out.append(buffer.data(), result.ptr);
}

// True when one of the eight bytes of `word` is one escaped() must look at: a control byte
// (below 0x20), '"', '\\', DEL or 0xC2 (the first byte of a C1 control). Exact, by the usual
// bit tricks: (x - 0x01..) & ~x & 0x80.. is non-zero when a byte of x is zero.
constexpr bool needs_a_look(std::uint64_t word) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  const std::uint64_t below_space = (word - ones * 0x20) & ~word & highs;
  return (below_space | zero_byte(word ^ (ones * '"')) | zero_byte(word ^ (ones * '\\')) |
          zero_byte(word ^ (ones * 0x7F)) | zero_byte(word ^ (ones * 0xC2))) != 0;
}

/// The n < 8 bytes at `p` in the low bytes of a word, the others spaces (plain), built in
/// registers: bytes stored to memory and read back as one word would stall the load.
std::uint64_t short_word(const char* p, std::size_t n) noexcept {
  std::uint64_t word = 0;
  unsigned shift = 0;
  if (n & 4) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    word = v, p += 4, shift = 32;
  }
  if (n & 2) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    word |= std::uint64_t{v} << shift, p += 2, shift += 16;
  }
  if (n & 1) word |= std::uint64_t{static_cast<unsigned char>(*p)} << shift, shift += 8;
  return word | (0x2020202020202020ULL << shift);  // shift < 64: n < 8
}

/// True when no byte of `s` needs escaping (see needs_a_look).
bool plain(std::string_view s) noexcept {
  if (s.size() < 8) return !needs_a_look(short_word(s.data(), s.size()));
  std::uint64_t word;
  for (std::size_t i = 0; i + 8 <= s.size(); i += 8) {
    std::memcpy(&word, s.data() + i, 8);
    if (needs_a_look(word)) return false;
  }
  std::memcpy(&word, s.data() + s.size() - 8, 8);  // the last eight, overlapping
  return !needs_a_look(word);
}

void append_padded(std::string& out, unsigned v, int width) {
  char digits[4];
  for (int i = width - 1; i >= 0; --i, v /= 10) digits[i] = static_cast<char>('0' + v % 10);
  out.append(digits, static_cast<std::size_t>(width));
}

}  // namespace

void json_writer::open(char bracket, bool object) {
  if (depth_ == max_depth) throw std::length_error("massive::json_writer: nesting deeper than max_depth");
  before_value();
  const std::uint64_t bit = std::uint64_t{1} << depth_;
  objects_ = object ? objects_ | bit : objects_ & ~bit;
  nonempty_ &= ~bit;
  ++depth_;
  out_ += bracket;
}

void json_writer::close(char bracket, bool object) {
  if (depth_ == 0 || after_key_ || ((objects_ >> (depth_ - 1)) & 1) != std::uint64_t{object}) {
    throw std::logic_error(std::string("massive::json_writer: unmatched ") + bracket);
  }
  --depth_;
  out_ += bracket;
}

void json_writer::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) {
    if (wrote_) throw std::logic_error("massive::json_writer: a second top-level value");
    wrote_ = true;
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
  if (objects_ & bit) throw std::logic_error("massive::json_writer: a value in an object without its key");
  if (nonempty_ & bit) out_ += ',';
  nonempty_ |= bit;
}

void json_writer::key(std::string_view name) {
  const std::uint64_t bit = depth_ == 0 ? 0 : std::uint64_t{1} << (depth_ - 1);
  if (depth_ == 0 || after_key_ || !(objects_ & bit)) {
    throw std::logic_error("massive::json_writer: a key outside an object, or two keys in a row");
  }
  if (nonempty_ & bit) out_ += ',';
  nonempty_ |= bit;
  escaped(name);
  out_ += ':';
  after_key_ = true;
}

void json_writer::escaped(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out_ += '"';
  if (plain(s)) {  // most text: one copy
    out_ += s;
    out_ += '"';
    return;
  }
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    // DEL and the C1 controls (U+0080..U+009F, UTF-8 C2 80..C2 9F) are escaped too, though JSON
    // allows them raw: a terminal acts on them (U+009B is CSI), and JSON output is read there.
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F && c != 0xC2) continue;
    if (c == 0xC2) {
      const auto next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0xFF;
      if (next < 0x80 || next > 0x9F) continue;
      out_.append(s.data() + run, i - run);
      run = i + 2;
      const char code[] = {'\\', 'u', '0', '0', hex[next >> 4], hex[next & 0xf]};
      out_.append(code, sizeof code);
      ++i;
      continue;
    }
    out_.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default: {
        const char code[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
        out_.append(code, sizeof code);
      }
    }
  }
  out_.append(s.data() + run, s.size() - run);
  out_ += '"';
}

void json_writer::value(double v) {
  if (!std::isfinite(v)) {
    value(nullptr);
    return;
  }
  before_value();
  if (v == 0 && std::signbit(v)) {
    // "-0" reads back as the integer 0 in most parsers (simdjson's included).
    out_ += "-0.0";
    return;
  }
  std::array<char, 32> buffer;
  auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v);
  // The shortest form of a large integral double can be all digits ("18446744073709552000"),
  // which readers take for an integer and may reject as beyond int64/uint64: from 16 digits
  // on (2^53 has 16) the exponent form is written instead.
  const std::string_view text(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data()));
  const std::size_t digits = text.size() - (v < 0 ? 1 : 0);
  if (digits > 15 && text.find_first_of(".e") == std::string_view::npos) {
    result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::scientific);
  }
  out_.append(buffer.data(), result.ptr);
}

void json_writer::value(std::int64_t v) {
  before_value();
  append_integer(out_, v);
}

void json_writer::value(std::int32_t v) {
  before_value();
  append_integer(out_, v);
}

void json_writer::value(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void json_writer::value(std::string_view v) {
  before_value();
  escaped(v);
}

void json_writer::value(const char* v) {
  if (v == nullptr) {
    value(nullptr);
  } else {
    value(std::string_view(v));
  }
}

void json_writer::value(std::nullptr_t) {
  before_value();
  out_ += "null";
}

void json_writer::value(const std::chrono::year_month_day& v) {
  // Written as is, even when not a valid date, so that what was decoded is what is shown;
  // a year outside 0..9999 keeps its sign and digits.
  before_value();
  out_ += '"';
  const int year = int{v.year()};
  if (year < 0 || year > 9999) {
    append_integer(out_, year);
  } else {
    append_padded(out_, static_cast<unsigned>(year), 4);
  }
  out_ += '-';
  append_padded(out_, unsigned{v.month()} % 100, 2);
  out_ += '-';
  append_padded(out_, unsigned{v.day()} % 100, 2);
  out_ += '"';
}

void json_writer::value(const decimal& v) {
  // A string, as the API sends decimals: a reader that takes JSON numbers as doubles would
  // lose the exactness the type exists for.
  before_value();
  out_ += '"';
  std::array<char, decimal::max_chars> buffer;
  const auto result = v.to_chars(buffer.data(), buffer.data() + buffer.size());
  out_.append(buffer.data(), result.ptr);
  out_ += '"';
}

void json_writer::value(const json_value& v) {
  if (v.empty()) {
    value(nullptr);
    return;
  }
  before_value();
  // Checked JSON from the wire: DEL and C1 controls can only be inside its strings, where
  // their escapes mean the same (see escaped()).
  const std::string_view text = v.text();
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0xFF;
    const bool c1 = c == 0xC2 && next >= 0x80 && next <= 0x9F;
    if (c != 0x7F && !c1) continue;
    static constexpr char hex[] = "0123456789abcdef";
    const unsigned code_point = c1 ? next : c;
    out_.append(text.data() + run, i - run);
    const char code[] = {'\\', 'u', '0', '0', hex[code_point >> 4], hex[code_point & 0xf]};
    out_.append(code, sizeof code);
    i += c1 ? 1 : 0;
    run = i + 1;
  }
  out_.append(text.data() + run, text.size() - run);
}

}  // namespace massive
