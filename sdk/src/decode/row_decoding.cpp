#include "decode/row_decoding.hpp"

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

void fail_element(const batch& b, std::size_t row, simdjson::error_code e) {
  const char* detail = e == simdjson::INCORRECT_TYPE ? "expected an object" : describe(e);
  throw decode_error(errc_of(e), field_path(b.path, row, {}), row, detail);
}

void fail_batch(const batch& b, simdjson::error_code e) {
  // A first-stage failure (bad UTF-8, say) belongs to the batch, not to one element.
  throw decode_error(errc_of(e), field_path(b.path, b.first_row, {}), b.first_row,
                     std::string(describe(e)) + " (in the rows from " + std::to_string(b.first_row) + ")");
}

void row_context::fail_value(std::string_view token, std::string_view key, const char* expected,
                             bool expects_number) const {
  const std::string_view atom = token.substr(0, token.find_first_of(",}] \t\r\n"));
  // Another JSON type is a wrong type; a malformed number or literal is broken JSON.
  const bool other_type = !token.empty() && (token[0] == '"' || token[0] == '{' || token[0] == '[' ||
                                             atom == "true" || atom == "false" ||
                                             (looks_numeric(atom) && !expects_number));
  fail(other_type ? decode_errc::wrong_type : decode_errc::invalid_json, key,
       (std::string("expected ") + expected).c_str());
}

std::int64_t row_context::integral(double d, std::string_view key) const {
  constexpr double exact_limit = 9007199254740992.0;  // 2^53
  if (std::trunc(d) != d) fail(decode_errc::wrong_type, key, "expected an integer, got a fraction");
  if (std::fabs(d) > exact_limit) {
    fail(decode_errc::out_of_range, key, "integer in float form beyond 2^53 cannot be exact");
  }
  return static_cast<std::int64_t>(d);
}

void row_context::fail_element_of(simdjson::error_code e, std::string_view key) const {
  fail(errc_of(e), key, e == simdjson::INCORRECT_TYPE ? "expected an array of integers" : describe(e));
}

decimal row_context::to_decimal(std::string_view text, std::string_view key) const {
  text = text.substr(0, text.find_first_of(",}] \t\r\n"));
  const std::optional<decimal> parsed = decimal::parse(text);
  if (!parsed) {
    fail(looks_numeric(text) ? decode_errc::out_of_range : decode_errc::wrong_type, key,
         "expected a decimal of at most 18 significant digits");
  }
  return *parsed;
}

}  // namespace massive::detail
