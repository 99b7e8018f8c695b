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

bool row_context::null_or_fail(od::value& v, std::string_view key, const char* expected,
                               bool expects_number) {
  bool is_null = false;
  if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) return false;
  const std::string_view token = v.raw_json_token();
  const std::string_view atom = token.substr(0, token.find_first_of(",}] \t\r\n"));
  // Another JSON type is a wrong type; a malformed number or literal is broken JSON.
  const bool other_type = !token.empty() && (token[0] == '"' || token[0] == '{' || token[0] == '[' ||
                                             atom == "true" || atom == "false" ||
                                             (looks_numeric(atom) && !expects_number));
  fail(other_type ? decode_errc::wrong_type : decode_errc::invalid_json, key,
       (std::string("expected ") + expected).c_str());
}

bool row_context::read_integral_slow(od::value& v, std::string_view key, std::int64_t& out) {
  std::int64_t exact = 0;
  const simdjson::error_code e = v.get_int64().get(exact);
  if (e == simdjson::NUMBER_OUT_OF_RANGE) {
    fail(decode_errc::out_of_range, key, "integer beyond int64");
  }
  double d = 0;
  if (v.get_double().get(d) != simdjson::SUCCESS) return null_or_fail(v, key, "an integer", true);
  constexpr double exact_limit = 9007199254740992.0;  // 2^53
  if (std::trunc(d) != d) fail(decode_errc::wrong_type, key, "expected an integer, got a fraction");
  if (std::fabs(d) > exact_limit) {
    fail(decode_errc::out_of_range, key, "integer in float form beyond 2^53 cannot be exact");
  }
  out = static_cast<std::int64_t>(d);
  return true;
}

bool row_context::read_int32(od::value& v, std::string_view key, std::int32_t& out) {
  std::int64_t wide = 0;
  if (!read_int64(v, key, wide)) return false;
  if (wide < std::numeric_limits<std::int32_t>::min() || wide > std::numeric_limits<std::int32_t>::max()) {
    fail(decode_errc::out_of_range, key, "integer beyond int32");
  }
  out = static_cast<std::int32_t>(wide);
  return true;
}

bool row_context::read_bool(od::value& v, std::string_view key, bool& out) {
  if (v.get_bool().get(out) != simdjson::SUCCESS) return null_or_fail(v, key, "true or false");
  return true;
}

bool row_context::read_string(od::value& v, std::string_view key, std::string_view& out) {
  std::string_view text;
  if (v.get_string().get(text) != simdjson::SUCCESS) return null_or_fail(v, key, "a string");
  out = builder_.store(text);
  return true;
}

bool row_context::read_int32_array(od::value& v, std::string_view key, std::span<const std::int32_t>& out) {
  od::array array;
  if (v.get_array().get(array) != simdjson::SUCCESS) return null_or_fail(v, key, "an array of integers");
  auto* const first = builder_.arena_align<std::int32_t>();
  auto* next = first;
  auto* const limit = reinterpret_cast<std::int32_t*>(builder_.arena_limit()) - 1;
  for (auto element : array) {
    std::int64_t wide = 0;
    if (auto e = element.get_int64().get(wide)) {
      fail(errc_of(e), key, e == simdjson::INCORRECT_TYPE ? "expected an array of integers" : describe(e));
    }
    if (wide < std::numeric_limits<std::int32_t>::min() || wide > std::numeric_limits<std::int32_t>::max()) {
      fail(decode_errc::out_of_range, key, "integer beyond int32");
    }
    if (next >= limit) throw_page_full("strings and arrays");
    *next++ = static_cast<std::int32_t>(wide);
  }
  builder_.commit_arena(reinterpret_cast<char*>(next));
  out = {first, static_cast<std::size_t>(next - first)};
  return true;
}

bool row_context::read_decimal(od::value& v, std::string_view key, decimal& out) {
  std::string_view text;
  if (v.get_string().get(text) != simdjson::SUCCESS) {
    od::number_type kind{};
    if (v.get_number_type().get(kind) != simdjson::SUCCESS) return null_or_fail(v, key, "a decimal string", true);
    text = v.raw_json_token();
    text = text.substr(0, text.find_first_of(",}] \t\r\n"));
  }
  const std::optional<decimal> parsed = decimal::parse(text);
  if (!parsed) {
    fail(looks_numeric(text) ? decode_errc::out_of_range : decode_errc::wrong_type, key,
         "expected a decimal of at most 18 significant digits");
  }
  out = *parsed;
  return true;
}

}  // namespace massive::detail
