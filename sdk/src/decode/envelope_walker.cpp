#include "decode/envelope_walker.hpp"

#include "decode/fault_path.hpp"
#include "decode/page_builder.hpp"
#include "decode/row_decoding.hpp"

namespace massive::detail {
namespace {

// A next_url that is not a string fails the page under either policy: which page comes next,
// if any, cannot be told (as for a next_url written twice).
constexpr const char* next_url_unreadable = "expected a string: which page comes next cannot be told";

bool is_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_atom_char(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

}  // namespace

envelope_walker::envelope_walker(payload_shape shape, const decode_limits& limits, page_builder& builder,
                                 simdjson::ondemand::parser& parser)
    : shape_(shape),
      limits_(limits),
      builder_(&builder),
      parser_(&parser),
      nested_kinds_((limits.max_depth / 64) + 2, 0) {
  key_.reserve(64);
  scalar_.reserve(1024);
}

void envelope_walker::reset() noexcept {
  st_ = state::document_start;
  tgt_ = target::unknown;
  snk_ = sink::discard;
  level_ = 0;
  value_bytes_ = 0;
  nested_depth_ = 0;
  nested_in_string_ = nested_escape_ = false;
  started_ = false;
  targets_seen_ = 0;
  key_.clear();
  scalar_.clear();
  extra_.clear();
}

envelope_walker::stop envelope_walker::walk(const char* bytes, std::size_t from, std::size_t to) {
  for (std::size_t at = from; at < to; ++at) {
    const char c = bytes[at];
    switch (st_) {
      case state::document_start:
        if (is_space(c)) break;
        if (const opened rows = start_document(c); rows != opened::envelope) return rows_stop(rows, at);
        break;
      case state::key_or_close:
      case state::key_start:
        if (is_space(c)) break;
        if (c == '"') {
          key_.clear();
          st_ = state::key;
        } else if (c == '}' && st_ == state::key_or_close) {
          close_object();
        } else {
          fail(decode_errc::invalid_json, "expected a key");
        }
        break;
      case state::key:
        if (c == '"') {
          st_ = state::colon;
          break;
        }
        if (static_cast<unsigned char>(c) < 0x20) fail(decode_errc::invalid_json, "control character in a key");
        key_byte(c);
        if (c == '\\') st_ = state::key_escape;
        break;
      case state::key_escape:
        key_byte(c);
        st_ = state::key;
        break;
      case state::colon:
        if (is_space(c)) break;
        if (c != ':') fail(decode_errc::invalid_json, "expected ':'");
        tgt_ = classify(key_, level_);
        if (tgt_ == target::unknown) unknown_envelope_key();
        scalar_.clear();
        st_ = state::value_start;
        break;
      case state::value_start:
        if (is_space(c)) break;
        if (const opened rows = start_value(c); rows != opened::envelope) return rows_stop(rows, at);
        break;
      case state::string_value:
        if (c != '"') count_string_byte();
        put(c);
        if (c == '\\') {
          st_ = state::string_escape;
        } else if (c == '"') {
          complete_value();
        } else if (static_cast<unsigned char>(c) < 0x20) {
          fail(decode_errc::invalid_json, "control character in a string");
        }
        break;
      case state::string_escape:
        count_string_byte();
        put(c);
        st_ = state::string_value;
        break;
      case state::atom_value:
        if (is_space(c) || c == ',' || c == '}' || c == ']') {
          end_atom();
          after_value_byte(c);  // the delimiter belongs to what follows
          break;
        }
        atom_byte(c);
        break;
      case state::nested_value:
        nested_byte(c);
        break;
      case state::after_value:
        after_value_byte(c);
        break;
      case state::done:
        if (!is_space(c)) {
          throw decode_error(decode_errc::invalid_json, "", std::nullopt, "content after the end of the document");
        }
        break;
    }
  }
  return {st_ == state::done ? event::document_end : event::need_bytes, to, 0};
}

void envelope_walker::rows_ended() noexcept { st_ = level_ == 0 ? state::done : state::after_value; }

void envelope_walker::finish() {
  if (!started_) throw decode_error(decode_errc::empty_body, "", std::nullopt, "no JSON in the body");
  if (st_ != state::done) fail(decode_errc::truncated, "the body ended inside the document");
  if (!extra_.empty()) {
    extra_ += '}';
    builder_->envelope().results_extra_json = builder_->store(extra_);
  }
}

// ---------------------------------------------------------------- errors

std::string envelope_walker::path() const {
  switch (st_) {
    case state::colon:
    case state::value_start:
    case state::string_value:
    case state::string_escape:
    case state::atom_value:
    case state::nested_value: return key_path();
    default: return {};
  }
}

std::string envelope_walker::key_path() const { return level_ == 2 ? "results." + key_ : key_; }

void envelope_walker::key_path_into(std::string& out) const {
  if (level_ == 2) out += "results.";
  out += key_;
}

void envelope_walker::fail(decode_errc code, const std::string& detail) const {
  throw decode_error(code, path(), std::nullopt, detail);
}

// ---------------------------------------------------------------- structure

envelope_walker::target envelope_walker::classify(std::string_view key, std::size_t level) noexcept {
  if (level == 2) return key == "values" ? target::values : target::extra;
  if (key == "results") return target::results;
  if (key == "status") return target::status;
  if (key == "request_id") return target::request_id;
  if (key == "next_url") return target::next_url;
  if (key == "ticker") return target::ticker;
  if (key == "count") return target::count;
  if (key == "queryCount") return target::query_count;
  if (key == "resultsCount") return target::results_count;
  if (key == "adjusted") return target::adjusted;
  return target::unknown;
}

envelope_walker::stop envelope_walker::rows_stop(opened rows, std::size_t at) const noexcept {
  if (rows == opened::rows_array) return {event::rows_array, at + 1, level_};
  return {event::row_value, at, level_};
}

// The document's first byte.
envelope_walker::opened envelope_walker::start_document(char c) {
  started_ = true;
  switch (c) {
    case '{':
      if (shape_ == payload_shape::document) return opened::row_value;
      if (shape_ == payload_shape::top_level_array) {
        throw decode_error(decode_errc::wrong_type, "", std::nullopt, "expected an array, got an object");
      }
      level_ = 1;
      st_ = state::key_or_close;
      return opened::envelope;
    case '[':
      if (shape_ == payload_shape::top_level_array) return opened::rows_array;
      throw decode_error(decode_errc::wrong_type, "", std::nullopt, "expected an object, got an array");
    case '<':
      throw decode_error(decode_errc::not_json, "", std::nullopt, "the body is markup (an HTML error page?), not JSON");
    case '"': case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
    case '8': case '9': case 't': case 'f': case 'n':
      throw decode_error(decode_errc::wrong_type, "", std::nullopt, "expected an object or array, got a scalar");
    default:
      throw decode_error(decode_errc::not_json, "", std::nullopt, "the body does not start like JSON");
  }
}

// The first byte of a value, after the colon.
envelope_walker::opened envelope_walker::start_value(char c) {
  value_bytes_ = 0;
  snk_ = sink::discard;
  if (tgt_ != target::unknown && tgt_ != target::extra) {
    // A member read twice (next_url, status, results...): JSON parsers disagree on which one
    // counts (simdjson's lookup the first, most clients the last), so neither is taken.
    const auto bit = static_cast<std::uint16_t>(1U << static_cast<unsigned>(tgt_));
    if ((targets_seen_ & bit) != 0) fail(decode_errc::invalid_json, "duplicate key");
    targets_seen_ |= bit;
  }
  switch (tgt_) {
    case target::results:
      if (c == 'n') {
        start_atom(c, sink::scalar);
        return opened::envelope;
      }
      if (shape_ == payload_shape::results_array && c == '[') return opened::rows_array;
      if (shape_ == payload_shape::results_object && c == '{') return opened::row_value;
      if (shape_ == payload_shape::results_values && c == '{') {
        level_ = 2;
        st_ = state::key_or_close;
        return opened::envelope;
      }
      fail(decode_errc::wrong_type, shape_ == payload_shape::results_array ? "expected an array" : "expected an object");
    case target::values:
      if (c == '[') return opened::rows_array;
      if (c != 'n') fail(decode_errc::wrong_type, "expected an array");
      start_atom(c, sink::scalar);
      return opened::envelope;
    case target::unknown:
      start_any(c, sink::discard);
      return opened::envelope;
    case target::extra:
      extra_ += extra_.empty() ? "{\"" : ",\"";
      extra_ += key_;
      extra_ += "\":";
      start_any(c, sink::extra);
      return opened::envelope;
    default:
      if (c == '{' || c == '[') {
        if (tgt_ == target::next_url) fail(decode_errc::wrong_type, next_url_unreadable);
        envelope_surprise(decode_errc::wrong_type, "expected a scalar");
        start_any(c, sink::discard);
      } else {
        start_any(c, sink::scalar);
      }
      return opened::envelope;
  }
}

// Starts a value of any kind with its first byte.
void envelope_walker::start_any(char c, sink into) {
  snk_ = into;
  if (c == '"') {
    put(c);
    st_ = state::string_value;
  } else if (c == '{' || c == '[') {
    nested_depth_ = 0;
    nested_in_string_ = nested_escape_ = false;
    st_ = state::nested_value;
    nested_byte(c);
  } else {
    start_atom(c, into);
  }
}

void envelope_walker::start_atom(char c, sink into) {
  snk_ = into;
  st_ = state::atom_value;
  atom_byte(c);
}

void envelope_walker::atom_byte(char c) {
  if (!is_atom_char(c)) fail(decode_errc::invalid_json, "unexpected character");
  // A number is not a string: its bound is the element's (it is kept whole to parse).
  if (++value_bytes_ > limits_.max_element_bytes) {
    fail(decode_errc::too_long, "a value longer than " + std::to_string(limits_.max_element_bytes) + " bytes");
  }
  put(c);
}

void envelope_walker::end_atom() {
  if ((tgt_ == target::results || tgt_ == target::values) && snk_ == sink::scalar) {
    if (scalar_ != "null") fail(decode_errc::wrong_type, "expected an array or null");
    scalar_.clear();
    st_ = state::after_value;
  } else {
    complete_value();
  }
}

void envelope_walker::after_value_byte(char c) {
  if (is_space(c)) return;
  if (c == ',') {
    st_ = state::key_start;
  } else if (c == '}') {
    close_object();
  } else {
    fail(decode_errc::invalid_json, "expected ',' or '}'");
  }
}

void envelope_walker::close_object() noexcept {
  if (level_ == 2) {
    level_ = 1;
    tgt_ = target::results;
    st_ = state::after_value;
  } else {
    level_ = 0;
    st_ = state::done;
  }
}

void envelope_walker::key_byte(char c) {
  if (key_.size() >= limits_.max_string_bytes) {
    key_ += c;
    throw decode_error(decode_errc::too_long,
                       (level_ == 2 ? "results." : "") + key_name(key_, shown_bytes(limits_.max_string_bytes)),
                       std::nullopt, string_too_long(true, limits_.max_string_bytes));
  }
  key_ += c;
}

// A value that is not kept (sink::discard) or kept as raw JSON (sink::extra): its brackets
// must still match, and its strings (brackets and escaped quotes inside them are text) count
// against the string limit.
void envelope_walker::nested_byte(char c) {
  put(c);
  if (nested_in_string_) {
    if (nested_escape_) {
      nested_escape_ = false;
    } else if (c == '\\') {
      nested_escape_ = true;
    } else if (c == '"') {
      nested_in_string_ = false;
      return;
    }
    count_string_byte();
    return;
  }
  switch (c) {
    case '"':
      nested_in_string_ = true;
      value_bytes_ = 0;
      return;
    case '{':
    case '[': {
      if (level_ + nested_depth_ + 1 > limits_.max_depth) {
        fail(decode_errc::too_deep, "nesting deeper than " + std::to_string(limits_.max_depth) + " (decode_limits::max_depth)");
      }
      const std::uint64_t bit = std::uint64_t{1} << (nested_depth_ % 64);
      if (c == '[') {
        nested_kinds_[nested_depth_ / 64] |= bit;
      } else {
        nested_kinds_[nested_depth_ / 64] &= ~bit;
      }
      ++nested_depth_;
      return;
    }
    case '}':
    case ']': {
      const std::size_t top = nested_depth_ - 1;
      const bool opened_square = (nested_kinds_[top / 64] >> (top % 64)) & 1;
      if (opened_square != (c == ']')) fail(decode_errc::invalid_json, "mismatched bracket");
      nested_depth_ = top;
      if (nested_depth_ == 0) complete_value();
      return;
    }
    default:
      return;
  }
}

void envelope_walker::put(char c) {
  if (snk_ == sink::scalar) {
    scalar_ += c;
  } else if (snk_ == sink::extra) {
    if (extra_.size() >= limits_.max_element_bytes) {
      fail(decode_errc::too_long, "results members longer than " + std::to_string(limits_.max_element_bytes));
    }
    extra_ += c;
  }
}

// Strings are measured between their quotes, as in the rows (the framer).
void envelope_walker::count_string_byte() {
  if (++value_bytes_ > limits_.max_string_bytes) fail(decode_errc::too_long, string_too_long(false, limits_.max_string_bytes));
}

void envelope_walker::complete_value() {
  if (snk_ == sink::scalar) store_envelope();
  snk_ = sink::discard;
  st_ = state::after_value;
}

// ---------------------------------------------------------------- values

// An envelope value the page_envelope cannot hold as sent: decode_policy::strict fails;
// else it is counted (coerced or skipped) in the page's leniency, and the first one named.
void envelope_walker::envelope_surprise(decode_errc code, const char* detail, bool coerced) {
  if (builder_->strict()) fail(code, detail);
  if (std::string* first = builder_->count_surprise(coerced ? surprise_kind::coerced : surprise_kind::skipped)) {
    key_path_into(*first);
  }
}

void envelope_walker::unknown_envelope_key() {
  // classify() reads keys as sent: one written with escapes may spell results, status or
  // next_url, and which rows are the page's or which page comes next could not be told.
  if (key_.find('\\') != std::string::npos) {
    throw decode_error(decode_errc::unknown_key, key_path(), std::nullopt,
                       "a key written with JSON escapes, which may spell one the envelope declares");
  }
  if (builder_->strict()) {
    throw decode_error(decode_errc::unknown_key, key_path(), std::nullopt, "a key the page envelope does not declare");
  }
  if (++builder_->leniency().unknown_keys == 1) key_path_into(builder_->first_unknown_key_path());
}

void envelope_walker::store_envelope() {
  const std::size_t length = scalar_.size();
  scalar_.append(simdjson::SIMDJSON_PADDING, ' ');
  simdjson::ondemand::document doc;
  if (auto e = parser_->iterate(scalar_.data(), length, scalar_.size()).get(doc)) {
    fail(errc_of(e), simdjson::error_message(e));
  }
  bool is_null = false;
  if (doc.is_null().get(is_null) == simdjson::SUCCESS && is_null) return;
  page_envelope& env = builder_->envelope();
  switch (tgt_) {
    case target::status: env.status = envelope_string(doc); break;
    case target::request_id: env.request_id = envelope_string(doc); break;
    case target::next_url: {
      // Coerced or left out, it would end a traversal as if this page were the last.
      std::string_view text;
      if (auto e = doc.get_string().get(text)) fail(errc_of(e), next_url_unreadable);
      env.next_url = builder_->store(text);
      break;
    }
    case target::ticker: env.ticker = envelope_string(doc); break;
    case target::count: env.count = envelope_integer(doc); break;
    case target::query_count: env.query_count = envelope_integer(doc); break;
    case target::results_count: env.results_count = envelope_integer(doc); break;
    case target::adjusted: {
      bool value = false;
      if (auto e = doc.get_bool().get(value)) {
        if (e != simdjson::INCORRECT_TYPE) fail(errc_of(e), simdjson::error_message(e));
        envelope_surprise(decode_errc::wrong_type, "expected true or false");
        break;
      }
      env.adjusted = value;
      break;
    }
    default: break;
  }
}

// A number, true or false where a string is declared is coerced to its JSON text (the
// description's examples send `"request_id": 1`).
std::string_view envelope_walker::envelope_string(simdjson::ondemand::document& doc) {
  std::string_view text;
  if (auto e = doc.get_string().get(text)) {
    simdjson::ondemand::json_type type{};
    if (e != simdjson::INCORRECT_TYPE || doc.type().get(type) ||
        (type != simdjson::ondemand::json_type::number && type != simdjson::ondemand::json_type::boolean)) {
      fail(errc_of(e), "expected a string");
    }
    envelope_surprise(decode_errc::wrong_type, "expected a string", true);
    std::string_view atom(scalar_.data(), scalar_.find_first_of(" \t\r\n"));
    return builder_->store(atom);
  }
  return builder_->store(text);
}

std::optional<std::int64_t> envelope_walker::envelope_integer(simdjson::ondemand::document& doc) {
  std::int64_t value = 0;
  const auto e = doc.get_int64().get(value);
  if (e == simdjson::SUCCESS) return value;
  if (e == simdjson::NUMBER_OUT_OF_RANGE) {
    envelope_surprise(decode_errc::out_of_range, "integer beyond int64");
    return std::nullopt;
  }
  // Counts have been seen in float form: accept it when integral and exact.
  double d = 0;
  if (auto e2 = doc.get_double().get(d)) {
    if (e2 != simdjson::INCORRECT_TYPE) fail(errc_of(e2), simdjson::error_message(e2));
    envelope_surprise(decode_errc::wrong_type, "expected an integer");
    return std::nullopt;
  }
  std::string_view number;
  if (auto e2 = doc.raw_json_token().get(number)) fail(errc_of(e2), simdjson::error_message(e2));
  std::int64_t integer = 0;
  switch (exact_integer(number.substr(0, number.find_first_of(" \t\r\n")), integer)) {
    case integral::fraction: envelope_surprise(decode_errc::wrong_type, "expected an integer"); return std::nullopt;
    case integral::beyond_2_53: envelope_surprise(decode_errc::out_of_range, beyond_2_53_detail); return std::nullopt;
    case integral::exact: break;
  }
  return integer;
}

}  // namespace massive::detail
