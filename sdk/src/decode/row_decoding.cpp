#include "decode/row_decoding.hpp"

#include "decode/json_validator.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace massive::detail {
namespace {

const char* describe(simdjson::error_code e) noexcept { return simdjson::error_message(e); }

bool looks_numeric(std::string_view text) noexcept {
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) return false;
  }
  return !text.empty();
}

}  // namespace

namespace {

// One step down a path: "[index]" unless index is row_context::no_index, then ".key" unless
// key is empty (no dot at the path's start). Digits without std::to_string: a path written
// into a kept buffer allocates nothing.
void append_step(std::string& out, std::size_t index, std::string_view key) {
  if (index != row_context::no_index) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, index).ptr;
    out += '[';
    out.append(digits, end);
    out += ']';
  }
  if (!key.empty()) {
    if (!out.empty()) out += '.';
    out += key;
  }
}

}  // namespace

void field_path_into(std::string& out, const row_path& path, std::size_t row, std::string_view key) {
  out += path.prefix;
  append_step(out, path.indexed ? row : row_context::no_index, key);
}

std::string field_path(const row_path& path, std::size_t row, std::string_view key) {
  std::string out;
  field_path_into(out, path, row, key);
  return out;
}

namespace {

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

}  // namespace

integral exact_integer(std::string_view number, std::int64_t& out) noexcept {
  std::size_t at = number.starts_with('-') ? 1 : 0;
  const bool negative = at == 1;
  const std::size_t whole_begin = at;
  while (at < number.size() && is_digit(number[at])) ++at;
  const std::string_view whole = number.substr(whole_begin, at - whole_begin);
  std::string_view fraction;
  if (at < number.size() && number[at] == '.') {
    const std::size_t begin = ++at;
    while (at < number.size() && is_digit(number[at])) ++at;
    fraction = number.substr(begin, at - begin);
  }
  long long exponent = 0;  // saturated: 1e999999999999 is beyond whatever its digits
  if (at < number.size() && (number[at] == 'e' || number[at] == 'E')) {
    const bool minus = ++at < number.size() && number[at] == '-';
    if (at < number.size() && (number[at] == '+' || number[at] == '-')) ++at;
    for (; at < number.size() && is_digit(number[at]); ++at) {
      exponent = std::min(exponent * 10 + (number[at] - '0'), 1'000'000LL);
    }
    if (minus) exponent = -exponent;
  }
  // The digits as one run, the whole part's then the fraction's, scaled by a power of ten;
  // zeros at either end carry no information.
  const auto digit = [&](std::size_t i) { return i < whole.size() ? whole[i] : fraction[i - whole.size()]; };
  std::size_t first = 0;
  std::size_t last = whole.size() + fraction.size();
  long long scale = exponent - static_cast<long long>(fraction.size());
  while (first < last && digit(first) == '0') ++first;
  while (last > first && digit(last - 1) == '0') --last, ++scale;
  if (first == last) {
    out = 0;
    return integral::exact;
  }
  if (scale < 0) return integral::fraction;
  // 2^53 has 16 digits: more is beyond it, fewer fits a uint64 whatever they are.
  if (static_cast<long long>(last - first) + scale > 16) return integral::beyond_2_53;
  std::uint64_t value = 0;
  for (std::size_t i = first; i < last; ++i) value = value * 10 + static_cast<std::uint64_t>(digit(i) - '0');
  for (long long i = 0; i < scale; ++i) value *= 10;
  if (value > (std::uint64_t{1} << 53)) return integral::beyond_2_53;
  out = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
  return integral::exact;
}

bool json_number(std::string_view text) noexcept {
  std::size_t at = text.starts_with('-') ? 1 : 0;
  const auto digits = [&] {
    const std::size_t begin = at;
    while (at < text.size() && is_digit(text[at])) ++at;
    return at - begin;
  };
  const std::size_t whole_begin = at;
  const std::size_t whole = digits();
  if (whole == 0 || (whole > 1 && text[whole_begin] == '0')) return false;
  if (at < text.size() && text[at] == '.' && (++at, digits() == 0)) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    if (digits() == 0) return false;
  }
  return at == text.size();
}

decode_errc errc_of(simdjson::error_code e) noexcept {
  switch (e) {
    case simdjson::INCORRECT_TYPE: return decode_errc::wrong_type;
    case simdjson::NUMBER_OUT_OF_RANGE: return decode_errc::out_of_range;
    case simdjson::DEPTH_ERROR: return decode_errc::too_deep;
    case simdjson::CAPACITY: return decode_errc::too_long;
    default: return decode_errc::invalid_json;
  }
}

void row_context::path_into(std::string& out, std::string_view key) const {
  if (parent_ == nullptr) return field_path_into(out, path_, row_, key);
  parent_->path_into(out, key_);
  append_step(out, index_, key);
}

std::string row_context::path_of(std::string_view key) const {
  std::string out;
  path_into(out, key);
  return out;
}

void row_context::fail(decode_errc code, std::string_view key, const char* detail) const {
  throw decode_error(code, path_of(key), row_, detail);
}

bool row_context::surprise(surprise_kind kind, decode_errc code, std::string_view key, const char* detail) const {
  if (builder_.strict()) fail(code, key, detail);
  if (std::string* first = builder_.count_surprise(kind)) path_into(*first, key);
  return kind == surprise_kind::coerced;
}

void row_context::missing(std::uint64_t seen, std::uint64_t required,
                          std::span<const std::string_view> names) const {
  for (std::uint64_t absent = required & ~seen; absent != 0; absent &= absent - 1) {
    const auto index = static_cast<std::size_t>(std::countr_zero(absent));
    surprise(surprise_kind::missing, decode_errc::missing_field, index < names.size() ? names[index] : std::string_view{},
             "required field absent, null, or a value its type cannot hold");
  }
  builder_.mark_incomplete();
}

namespace {

/// The raw key (as sent, just past its opening quote) holds an escape before its closing
/// quote. Keys are short: a plain loop.
bool has_escape(const char* raw) noexcept {
  for (; *raw != '"'; ++raw) {
    if (*raw == '\\') return true;
  }
  return false;
}

// The key as sent, up to its closing quote (an escaped quote does not close it).
std::string_view raw_key(const char* raw) noexcept {
  std::size_t length = 0;
  while (raw[length] != '"') length += raw[length] == '\\' ? 2 : 1;
  return {raw, length};
}

}  // namespace

void row_context::unknown_key(const char* raw) const {
  if (has_escape(raw)) return escaped_key(raw);
  if (++builder_.leniency().unknown_keys == 1) first_unknown_key(raw);
}

void row_context::first_unknown_key(const char* raw) const {
  const std::string_view key = raw_key(raw);
  if (builder_.strict()) fail(decode_errc::unknown_key, key, "a key the model does not declare");
  path_into(builder_.first_unknown_key_path(), key);
}

void row_context::escaped_key(const char* raw) const {
  surprise(surprise_kind::skipped, decode_errc::unknown_key, raw_key(raw),
           "a key written with JSON escapes, which may spell a declared one: its object is left out");
  builder_.mark_incomplete();
}

void fail_field_iteration(const row_context& ctx, simdjson::error_code e) {
  ctx.fail(errc_of(e), {}, describe(e));
}

void fail_element(const batch& b, std::size_t row, simdjson::error_code e, std::string_view token) {
  // simdjson reports a stray comma (`[{...},]`, `[,{...}]`) as an element of the wrong type.
  if (e == simdjson::INCORRECT_TYPE && (token.empty() || token[0] == ']' || token[0] == ',' || token[0] == '}')) {
    throw decode_error(decode_errc::invalid_json, field_path(b.path, row, {}), row, "empty array element (stray comma)");
  }
  const char* detail = e == simdjson::INCORRECT_TYPE ? "expected an object" : describe(e);
  throw decode_error(errc_of(e), field_path(b.path, row, {}), row, detail);
}

void skip_element_row(batch& b, std::size_t row, simdjson::error_code e, std::string_view token) {
  const bool stray_comma = token.empty() || token[0] == ']' || token[0] == ',' || token[0] == '}';
  if (e != simdjson::INCORRECT_TYPE || stray_comma || b.builder.strict()) fail_element(b, row, e, token);
  if (std::string* first = b.builder.count_surprise(surprise_kind::skipped)) field_path_into(*first, b.path, row, {});
  ++b.builder.leniency().dropped_rows;
  ++b.skipped_rows;
}

void drop_incomplete_row(batch& b) noexcept {
  ++b.builder.leniency().dropped_rows;
  ++b.skipped_rows;
}

void fail_batch(const batch& b, simdjson::error_code e) {
  // A first-stage failure (bad UTF-8, say) belongs to the batch, not to one element.
  throw decode_error(errc_of(e), field_path(b.path, b.first_row, {}), b.first_row,
                     std::string(describe(e)) + " (in the rows from " + std::to_string(b.first_row) + ")");
}

namespace {

// A token as simdjson hands it over may run on to the next structural character.
std::string_view atom_of(std::string_view token) noexcept {
  return token.substr(0, token.find_first_of(",}] \t\r\n"));
}

// The text between a string token's quotes, when it has no escape (a number sent as a
// string never needs one); nullopt otherwise.
std::optional<std::string_view> plain_string(std::string_view token) noexcept {
  if (token.empty() || token[0] != '"') return std::nullopt;
  const std::size_t close = token.find_first_of("\"\\", 1);
  if (close == std::string_view::npos || token[close] != '"') return std::nullopt;
  return token.substr(1, close - 1);
}

// The whole text is a JSON number (looks_numeric admits more: from_chars decides).
bool whole_double(std::string_view text, double& out) noexcept {
  if (!looks_numeric(text)) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size();
}

// A JSON number whose magnitude no double reaches (std::from_chars reads it whole and says
// so); simdjson refuses it as it refuses a malformed number.
bool beyond_double(std::string_view text) noexcept {
  double ignored = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
  return ec == std::errc::result_out_of_range && end == text.data() + text.size();
}

}  // namespace

const char* row_context::expectation(expected what) noexcept {
  static constexpr const char* names[] = {
      "expected a number",         "expected true or false",   "expected a string",
      "expected an array of integers", "expected a date string YYYY-MM-DD", "expected an object",
      "expected an array of numbers",  "expected an array of true or false", "expected an array of strings",
      "expected an array of objects",
  };
  return names[static_cast<std::size_t>(what)];
}

bool row_context::absent_or_fail(std::string_view token, std::string_view key, expected what) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  const bool number = looks_numeric(atom);
  // Another JSON type is a surprise; a malformed number or literal is broken JSON.
  const bool other_type = !token.empty() && (token[0] == '"' || token[0] == '{' || token[0] == '[' ||
                                             atom == "true" || atom == "false" ||
                                             (number && what != expected::number));
  // A number beyond a double's range (1e400) is JSON that no double holds: skipped, as an
  // integer beyond int64 is, not broken JSON.
  if (number && what == expected::number && beyond_double(atom)) {
    return surprise(surprise_kind::skipped, decode_errc::out_of_range, key,
                    "a number beyond a double's range");
  }
  if (!other_type) fail(decode_errc::invalid_json, key, expectation(what));
  return surprise(surprise_kind::skipped, decode_errc::wrong_type, key, expectation(what));
}

bool row_context::flag_fallback(std::string_view token, std::string_view key) const {
  return atom_of(token) == "null" || absent_or_fail(token, key, expected::boolean);
}

bool row_context::number_fallback(std::string_view token, std::string_view key, double& out) const {
  if (const std::optional<std::string_view> text = plain_string(token)) {
    double d = 0;
    if (!whole_double(*text, d)) return surprise(surprise_kind::skipped, decode_errc::wrong_type, key, "expected a number");
    if (!surprise(surprise_kind::coerced, decode_errc::wrong_type, key, "expected a number, got a string")) return false;
    out = d;
    return true;
  }
  return absent_or_fail(token, key, expected::number);
}

bool row_context::integer_fallback(std::string_view token, std::string_view key, std::int64_t& out) const {
  std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  bool from_string = false;
  if (const std::optional<std::string_view> text = plain_string(token)) {
    if (!json_number(*text)) return surprise(surprise_kind::skipped, decode_errc::wrong_type, key, "expected an integer");
    atom = *text;
    from_string = true;
  } else if (!looks_numeric(atom)) {
    return absent_or_fail(token, key, expected::number);
  } else if (!json_number(atom)) {
    // std::from_chars would read 007 or .5; JSON has neither.
    fail(decode_errc::invalid_json, key, "malformed number");
  }
  std::int64_t exact = 0;
  const auto [int_end, int_ec] = std::from_chars(atom.data(), atom.data() + atom.size(), exact);
  if (int_ec == std::errc{} && int_end == atom.data() + atom.size()) {
    if (from_string && !surprise(surprise_kind::coerced, decode_errc::wrong_type, key, "expected an integer, got a string")) {
      return false;
    }
    out = exact;
    return true;
  }
  // A float form, or an integer beyond int64: judged from its digits, never through a double.
  std::int64_t integer = 0;
  switch (exact_integer(atom, integer)) {
    case integral::fraction:
      return surprise(surprise_kind::skipped, decode_errc::wrong_type, key, "expected an integer, got a fraction");
    case integral::beyond_2_53:
      // An integer beyond int64, or a float form too large to be exact.
      return surprise(surprise_kind::skipped, decode_errc::out_of_range, key, beyond_2_53_detail);
    case integral::exact: break;
  }
  if (from_string && !surprise(surprise_kind::coerced, decode_errc::wrong_type, key, "expected an integer, got a string")) {
    return false;
  }
  out = integer;
  return true;
}

bool row_context::string_fallback(std::string_view token, std::string_view key, std::string_view& out) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  const bool scalar = atom == "true" || atom == "false" || (looks_numeric(atom) && token[0] != '"');
  if (!scalar) return absent_or_fail(token, key, expected::string);
  double check = 0;
  if (atom != "true" && atom != "false" && !whole_double(atom, check)) {
    fail(decode_errc::invalid_json, key, "malformed number");
  }
  if (!surprise(surprise_kind::coerced, decode_errc::wrong_type, key, "expected a string")) return false;
  out = atom;
  return true;
}

bool row_context::date_fallback(std::string_view text, std::string_view key, std::chrono::year_month_day& out) const {
  // A date-time whose date part is a real day: "2024-01-02T15:04:05Z".
  if (text.size() > 10 && text[10] == 'T') {
    if (const std::optional<std::chrono::year_month_day> date = massive::parse_date(text.substr(0, 10))) {
      if (!surprise(surprise_kind::coerced, decode_errc::wrong_type, key, "expected a date string YYYY-MM-DD")) return false;
      out = *date;
      return true;
    }
  }
  // Well-formed digits that name no day (2024-02-30, month 13) are out of range; anything
  // else is not a date at all.
  const bool shaped = text.size() == 10 && text[4] == '-' && text[7] == '-' &&
                      text.find_first_not_of("0123456789-") == std::string_view::npos;
  return surprise(surprise_kind::skipped, shaped ? decode_errc::out_of_range : decode_errc::wrong_type, key,
                  shaped ? "not a calendar date of years 1..9999" : "expected a date string YYYY-MM-DD");
}

bool row_context::decimal_fallback(std::string_view token, std::string_view key,
                                   std::optional<decimal>& out) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  if (!looks_numeric(atom)) return absent_or_fail(token, key, expected::number);
  out = decimal::parse(atom);
  return out ? true : decimal_surprise(atom, key);
}

bool row_context::decimal_surprise(std::string_view text, std::string_view key) const {
  return surprise(surprise_kind::skipped, looks_numeric(text) ? decode_errc::out_of_range : decode_errc::wrong_type, key,
                  "expected a decimal of at most 18 significant digits");
}

template <class Element>
bool row_context::element_fallback(simdjson::error_code e, std::string_view token, std::string_view key,
                                   std::size_t index, Element& out) const {
  const row_context element = child(key, index);
  // A number simdjson does not take is judged from its text below; anything else but a value
  // of another type (a string with a bad escape) is broken JSON.
  if (e != simdjson::INCORRECT_TYPE && e != simdjson::NUMBER_ERROR && e != simdjson::NUMBER_OUT_OF_RANGE) {
    element.fail(errc_of(e), {}, describe(e));
  }
  bool read = false;
  if constexpr (std::is_same_v<Element, std::int32_t>) {
    std::int64_t wide = 0;
    read = element.integer_fallback(token, {}, wide) && element.narrow(wide, {}, out);
  } else if constexpr (std::is_same_v<Element, std::int64_t>) {
    read = element.integer_fallback(token, {}, out);
  } else if constexpr (std::is_same_v<Element, double>) {
    read = element.number_fallback(token, {}, out);
  } else if constexpr (std::is_same_v<Element, bool>) {
    read = element.absent_or_fail(token, {}, expected::boolean);
  } else {
    read = element.string_fallback(token, {}, out);
  }
  if (read) return true;
  // Null, or a value the fallback skipped (counted there): either way the element is out.
  if (atom_of(token) == "null") element.surprise(surprise_kind::skipped, decode_errc::wrong_type, {}, "a null element");
  return false;
}

template bool row_context::element_fallback(simdjson::error_code, std::string_view, std::string_view, std::size_t,
                                            std::int32_t&) const;
template bool row_context::element_fallback(simdjson::error_code, std::string_view, std::string_view, std::size_t,
                                            std::int64_t&) const;
template bool row_context::element_fallback(simdjson::error_code, std::string_view, std::string_view, std::size_t,
                                            double&) const;
template bool row_context::element_fallback(simdjson::error_code, std::string_view, std::string_view, std::size_t,
                                            bool&) const;
template bool row_context::element_fallback(simdjson::error_code, std::string_view, std::string_view, std::size_t,
                                            std::string_view&) const;

void row_context::skip_element(simdjson::error_code e, std::string_view key, std::size_t index, expected what) const {
  if (e != simdjson::INCORRECT_TYPE) fail_at(e, key);
  child(key, index).surprise(surprise_kind::skipped, decode_errc::wrong_type, {}, expectation(what));
}

void row_context::skip_entry(simdjson::error_code e, std::string_view key, std::string_view name,
                             expected what) const {
  if (e != simdjson::INCORRECT_TYPE) fail_at(e, key);
  const row_context map = child(key);
  map.child(name).surprise(surprise_kind::skipped, decode_errc::wrong_type, {}, expectation(what));
}

void row_context::fail_element_at(simdjson::error_code e, std::string_view key, std::size_t index) const {
  child(key, index).fail(errc_of(e), {}, describe(e));
}

void row_context::fail_at(simdjson::error_code e, std::string_view key) const { fail(errc_of(e), key, describe(e)); }

std::string_view row_context::checked_json(std::string_view text, std::string_view key) const {
  const std::size_t end = text.find_last_not_of(" \t\r\n");
  text = end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
  if (!is_one_json_value(text)) fail(decode_errc::invalid_json, key, "malformed JSON value");
  return text == "null" ? std::string_view{} : text;
}

void throw_wire_miss(page_builder& builder, std::byte* out, std::size_t read) {
  builder.commit_rows(out);
  throw wire_miss{read};
}

}  // namespace massive::detail
