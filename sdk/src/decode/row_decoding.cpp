#include "decode/row_decoding.hpp"

#include <charconv>
#include <cmath>
#include <limits>
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

std::string field_path(const row_path& path, std::size_t row, std::string_view key) {
  std::string out(path.prefix);
  if (path.indexed) {
    out += '[';
    out += std::to_string(row);
    out += ']';
  }
  if (!key.empty()) {
    if (!out.empty()) out += '.';
    out += key;
  }
  return out;
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

void row_context::fail(decode_errc code, std::string_view key, const char* detail) const {
  throw decode_error(code, field_path(path_, row_, key), row_, detail);
}

void row_context::missing(std::uint64_t seen, std::uint64_t required,
                          std::span<const std::string_view> names) const {
  const std::uint64_t absent = required & ~seen;
  const auto index = static_cast<std::size_t>(std::countr_zero(absent));
  fail(decode_errc::missing_field, index < names.size() ? names[index] : std::string_view{},
       "required field absent or null");
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

}  // namespace

bool row_context::absent_or_fail(std::string_view token, std::string_view key, expected what) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  const bool number = looks_numeric(atom);
  // Another JSON type is a wrong type; a malformed number or literal is broken JSON.
  const bool other_type = !token.empty() && (token[0] == '"' || token[0] == '{' || token[0] == '[' ||
                                             atom == "true" || atom == "false" ||
                                             (number && what != expected::number));
  static constexpr const char* names[] = {"expected a number", "expected true or false", "expected a string",
                                          "expected an array of integers"};
  fail(other_type ? decode_errc::wrong_type : decode_errc::invalid_json, key,
       names[static_cast<std::size_t>(what)]);
}

bool row_context::integer_fallback(std::string_view token, std::string_view key, std::int64_t& out) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  if (!looks_numeric(atom)) absent_or_fail(token, key, expected::number);
  double d = 0;
  const auto [end, ec] = std::from_chars(atom.data(), atom.data() + atom.size(), d);
  if (ec == std::errc::result_out_of_range) fail(decode_errc::out_of_range, key, "number out of range");
  if (ec != std::errc{} || end != atom.data() + atom.size()) fail(decode_errc::invalid_json, key, "malformed number");
  constexpr double exact_limit = 9007199254740992.0;  // 2^53
  if (std::trunc(d) != d) fail(decode_errc::wrong_type, key, "expected an integer, got a fraction");
  if (std::fabs(d) > exact_limit) {
    // An integer beyond int64, or a float form too large to be exact.
    fail(decode_errc::out_of_range, key, "integer beyond int64, or a float form beyond 2^53");
  }
  out = static_cast<std::int64_t>(d);
  return true;
}

bool row_context::decimal_fallback(std::string_view token, std::string_view key,
                                   std::optional<decimal>& out) const {
  const std::string_view atom = atom_of(token);
  if (atom == "null") return false;
  if (!looks_numeric(atom)) absent_or_fail(token, key, expected::number);
  out = to_decimal(atom, key);
  return true;
}

void row_context::fail_element_of(simdjson::error_code e, std::string_view key) const {
  fail(errc_of(e), key, e == simdjson::INCORRECT_TYPE ? "expected an array of integers" : describe(e));
}

decimal row_context::to_decimal(std::string_view text, std::string_view key) const {
  const std::optional<decimal> parsed = decimal::parse(text);
  if (!parsed) [[unlikely]] {
    fail(looks_numeric(text) ? decode_errc::out_of_range : decode_errc::wrong_type, key,
         "expected a decimal of at most 18 significant digits");
  }
  return *parsed;
}

}  // namespace massive::detail
