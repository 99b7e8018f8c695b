// The streaming engine behind page_decoder<T>. Bytes go into a padded window; outside the
// rows the envelope is walked byte by byte (it is small); inside the rows the framer finds
// element boundaries a block at a time; complete elements are decoded in place, in batches,
// when the window is full or the array closes; the incomplete tail then moves to the front.
//
// Window layout: index 0 is reserved so that there is always a byte before the first pending
// element to overwrite with '['; the batch's last separator comma is overwritten with ']'.
// The window is followed by `window_padding` readable bytes: simdjson needs 64 past the
// batch, the framer loads whole 64-byte blocks, a single object writes ']' one past its
// closing brace, and a wire-order row's check reads 128 bytes from its first value
// (commas_in in row_decoding.hpp).
#include "decode/fault_path.hpp"
#include "decode/framer.hpp"
#include "decode/page_builder.hpp"
#include "decode/row_codec.hpp"
#include "decode/row_decoding.hpp"
#include "massive/decoder.hpp"
#include "massive/error.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

namespace massive::detail {
namespace {

// 32 KiB of window plus simdjson's parser for it (about 5.7 bytes per byte of capacity) keeps
// the decoder's working memory near 220 KiB; larger batches do not decode measurably faster.
constexpr std::size_t initial_window = 32 * 1024;
constexpr std::size_t window_padding = 2 * simdjson::SIMDJSON_PADDING;

enum class mode : std::uint8_t { envelope, elements, value };

enum class state : std::uint8_t {
  document_start,
  key_or_close,  // after '{'
  key_start,     // after ','
  key,
  key_escape,
  colon,
  value_start,
  string_value,
  string_escape,
  atom_value,
  nested_value,
  after_value,
  done,
};

// What the current envelope key names.
enum class target : std::uint8_t {
  unknown,
  status,
  request_id,
  next_url,
  ticker,
  count,
  query_count,
  results_count,
  adjusted,
  results,
  values,  // results_values: the rows inside `results`
  extra,   // results_values: any other member of `results`, kept as raw JSON
};

// Where the bytes of the current envelope value go.
enum class sink : std::uint8_t { discard, scalar, extra };

enum class lifecycle : std::uint8_t { idle, running, finished, failed };

bool is_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_atom_char(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

target classify_key(std::string_view key, int level) noexcept {
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

row_path path_for(payload_shape shape) noexcept {
  switch (shape) {
    case payload_shape::results_array: return {"results", true};
    case payload_shape::results_object: return {"results", false};
    case payload_shape::document: return {"", false};
    case payload_shape::top_level_array: return {"", true};
    case payload_shape::results_values: return {"results.values", true};
  }
  return {"", false};
}

}  // namespace

struct decoder_core::impl {
  impl(std::shared_ptr<page_pool> p, const row_codec& c, payload_shape s, decode_limits l, decode_policy policy)
      : pool(std::move(p)),
        codec(&c),
        shape(s),
        limits(l),
        path(path_for(s)),
        framer_(l.max_depth, l.max_string_bytes, l.max_element_bytes),
        nested_kinds((l.max_depth / 64) + 2, 0) {
    if (!pool) throw std::invalid_argument("page_decoder needs a page_pool");
    if (codec->row_align > region::header_bytes) throw std::invalid_argument("row alignment above 64");
    resize_window(initial_window);
    builder.set_policy(policy);
    key.reserve(64);
    scalar.reserve(1024);
    start_over();
  }

  // ---- configuration
  std::shared_ptr<page_pool> pool;
  const row_codec* codec;
  payload_shape shape;
  decode_limits limits;
  row_path path;

  // ---- working memory (kept from body to body)
  std::unique_ptr<char[]> window;
  std::size_t capacity = 0;  // usable bytes; window_padding more are allocated
  simdjson::ondemand::parser parser;
  framer framer_;
  std::string key;     // the current envelope key, raw
  std::string scalar;  // the current envelope scalar, raw JSON
  std::string extra;   // results_values: raw JSON of results' other members
  std::vector<std::uint64_t> nested_kinds;
  page_builder builder;

  // ---- the body in progress
  lifecycle life = lifecycle::idle;
  std::exception_ptr failure;
  mode mode_ = mode::envelope;
  state st = state::document_start;
  target tgt = target::unknown;
  sink snk = sink::discard;
  std::size_t begin = 1;  // first byte of the pending element(s)
  std::size_t scan = 1;   // next byte to examine
  std::size_t end = 1;    // end of the bytes received
  int level = 0;          // 1: inside the top-level object; 2: inside results (results_values)
  std::size_t value_bytes = 0;
  std::size_t nested_depth = 0;
  bool nested_in_string = false;
  bool nested_escape = false;
  bool any_input = false;
  bool results_seen = false;
  bool values_seen = false;
  bool cut_at_separator = false;

  // ---------------------------------------------------------------- lifecycle

  void resize_window(std::size_t new_capacity) {
    auto bigger = std::make_unique<char[]>(new_capacity + window_padding);
    if (window) std::memcpy(bigger.get(), window.get(), end);
    window = std::move(bigger);
    capacity = new_capacity;
    // A batch spans at most the window plus the ']' written one past it.
    if (parser.allocate(capacity + 2, limits.max_depth + 2) != simdjson::SUCCESS) {
      throw std::bad_alloc();
    }
  }

  void start_over() noexcept {
    life = lifecycle::idle;
    failure = nullptr;
    mode_ = mode::envelope;
    st = state::document_start;
    tgt = target::unknown;
    snk = sink::discard;
    begin = scan = end = 1;
    window[0] = '[';
    level = 0;
    value_bytes = 0;
    nested_depth = 0;
    nested_in_string = nested_escape = false;
    any_input = results_seen = values_seen = cut_at_separator = false;
    key.clear();
    scalar.clear();
    extra.clear();
  }

  template <class F>
  void guarded(F&& step) {
    if (life == lifecycle::failed) std::rethrow_exception(failure);
    if (life == lifecycle::finished) throw std::logic_error("page_decoder: body already finished; take() or reset()");
    try {
      if (!builder.started()) builder.start(pool, codec->row_size);
      life = lifecycle::running;
      step();
    } catch (...) {
      life = lifecycle::failed;
      failure = std::current_exception();
      throw;
    }
  }

  void feed(std::span<const char> chunk) {
    guarded([&] {
      while (!chunk.empty()) {
        if (end == capacity) make_room();
        const std::size_t n = std::min(chunk.size(), capacity - end);
        if (mode_ != mode::envelope && scan == end) {
          // Inside the rows the framer copies the bytes into the window as it examines them.
          const std::size_t close = framer_.scan(chunk.data(), window.get(), end, end + n);
          end += n;
          framed(close);
        } else {
          std::memcpy(window.get() + end, chunk.data(), n);
          end += n;
        }
        chunk = chunk.subspan(n);
        advance();
      }
    });
  }

  void finish() {
    guarded([&] {
      if (!any_input) throw decode_error(decode_errc::empty_body, "", std::nullopt, "no JSON in the body");
      if (mode_ != mode::envelope || st != state::done) {
        throw error_here(decode_errc::truncated, "the body ended inside the document");
      }
      if (!extra.empty()) {
        extra += '}';
        builder.envelope().results_extra_json = builder.store(extra);
      }
      life = lifecycle::finished;
    });
  }

  page_parts take() {
    if (life != lifecycle::finished) {
      throw std::logic_error("page_decoder::take: no successfully finished body");
    }
    page_parts parts = builder.finish();
    start_over();
    return parts;
  }

  void reset() noexcept {
    builder.abandon();
    start_over();
  }

  // ---------------------------------------------------------------- errors

  std::string element_path() const {
    return mode_ == mode::elements ? field_path(path, framer_.separators(), {}) : field_path(path, 0, {});
  }
  std::optional<std::size_t> element_row() const {
    if (mode_ == mode::elements) return static_cast<std::size_t>(framer_.separators());
    if (mode_ == mode::value) return 0;
    return std::nullopt;
  }

  // Names where the stream stands: the element being framed, or the envelope key.
  decode_error error_here(decode_errc code, const std::string& detail) const {
    if (mode_ != mode::envelope) return decode_error(code, element_path(), element_row(), detail);
    std::string where;
    if (st != state::document_start && st != state::key_or_close && st != state::key_start &&
        st != state::key && st != state::key_escape && st != state::after_value && st != state::done) {
      where = level == 2 ? "results." + key : key;
    }
    return decode_error(code, where, std::nullopt, detail);
  }

  // A string or key is named by at most this many of its bytes.
  std::size_t shown_bytes() const noexcept { return std::min<std::size_t>(limits.max_string_bytes, 64); }

  std::string string_too_long(bool is_key) const {
    return std::string(is_key ? "a key" : "a string") + " longer than " + std::to_string(limits.max_string_bytes) +
           " bytes";
  }

  void check_framer() {
    const framer::fault fault = framer_.failure();
    if (fault == framer::fault::none) return;
    // The elements that ended before the fault come first in the body: a problem in one of
    // them is the one to report, however the body was split.
    if (mode_ == mode::elements && framer_.last_separator() != framer::npos) {
      const std::size_t cut = framer_.last_separator();
      framer_.consume_separator();
      decode_elements(begin, cut, false);
      begin = cut + 1;
    }
    switch (fault) {
      case framer::fault::none: return;
      case framer::fault::too_deep:
        throw error_here(decode_errc::too_deep, "nesting deeper than " + std::to_string(limits.max_depth));
      case framer::fault::too_long: {
        const std::size_t start = framer_.element_start();
        const std::size_t quote = framer_.fault_position();
        const std::size_t shown = shown_bytes();
        const fault_location at =
            locate_string({window.get() + start, quote - start}, {window.get() + quote + 1, shown + 1}, shown);
        std::string where = element_path();
        where += where.empty() && !at.path.empty() ? at.path.substr(1) : at.path;
        throw decode_error(decode_errc::too_long, where, element_row(), string_too_long(at.is_key));
      }
      case framer::fault::element_too_long:
        throw error_here(decode_errc::too_long,
                         "an element longer than " + std::to_string(limits.max_element_bytes) + " bytes");
      case framer::fault::mismatched_bracket:
        throw error_here(decode_errc::invalid_json, "mismatched bracket");
    }
  }

  // ---------------------------------------------------------------- window and batches

  void make_room() {
    if (mode_ == mode::elements && framer_.last_separator() != framer::npos) {
      const std::size_t cut = framer_.last_separator();
      framer_.consume_separator();
      decode_elements(begin, cut, false);
      begin = cut + 1;
    }
    const std::size_t keep = mode_ == mode::envelope ? scan : begin;
    if (keep > 1) {
      const std::size_t shift = keep - 1;
      std::memmove(window.get() + 1, window.get() + keep, end - keep);
      begin = mode_ == mode::envelope ? 1 : begin - shift;
      scan -= shift;
      end -= shift;
      framer_.shift(shift);
    }
    // An element longer than half the window: grow rather than decode it a sliver at a time.
    if (capacity - end < capacity / 2) {
      if (end - begin > limits.max_element_bytes) {
        throw error_here(decode_errc::too_long,
                         "an element longer than " + std::to_string(limits.max_element_bytes) + " bytes");
      }
      resize_window(capacity * 2);
    }
  }

  // Decodes the elements in [from, cut): cut is a separator comma or the array's ']'.
  void decode_elements(std::size_t from, std::size_t cut, bool closing) {
    char* base = window.get() + from - 1;
    *base = '[';
    window[cut] = ']';
    const std::size_t before = builder.row_count();
    batch b{parser, base, cut - from + 2, capacity + window_padding - (from - 1), builder, path, before};
    codec->decode_batch(b);
    // `[ ]` is a valid empty array, but an empty stretch next to a separator is a stray comma.
    if (builder.row_count() == before && b.skipped_rows == 0 && (!closing || cut_at_separator)) {
      throw decode_error(decode_errc::invalid_json, field_path(path, before, {}), before,
                         "empty array element (stray comma)");
    }
    if (!closing) cut_at_separator = true;
  }

  // Decodes the one object at [from, close] as the page's only row.
  void decode_value(std::size_t from, std::size_t close) {
    char* base = window.get() + from - 1;
    *base = '[';
    const char saved = window[close + 1];
    window[close + 1] = ']';
    batch b{parser, base, close - from + 3, capacity + window_padding - (from - 1), builder, path, 0};
    codec->decode_batch(b);
    window[close + 1] = saved;
  }

  // ---------------------------------------------------------------- driving

  void advance() {
    while (scan < end) {
      switch (mode_) {
        case mode::envelope: run_envelope(); break;
        case mode::elements:
        case mode::value: run_framer(); break;
      }
    }
  }

  void run_framer() { framed(framer_.scan(nullptr, window.get(), scan, end)); }

  // The framer has examined everything up to `end`, or up to `close`, where the rows end.
  void framed(std::size_t close) {
    if (close == framer::npos) {
      check_framer();
      scan = end;
      return;
    }
    if (mode_ == mode::elements) {
      framer_.consume_separator();
      decode_elements(begin, close, true);
      st = shape == payload_shape::top_level_array ? state::done : state::after_value;
    } else {
      decode_value(begin, close);
      st = shape == payload_shape::document ? state::done : state::after_value;
    }
    scan = close + 1;
    mode_ = mode::envelope;
  }

  void enter_elements(std::size_t outer_depth) {
    framer_.start_array(outer_depth, scan + 1);
    begin = scan + 1;
    scan = begin;
    mode_ = mode::elements;
    cut_at_separator = false;
  }

  void enter_value(std::size_t outer_depth) {
    framer_.start_value(outer_depth, scan);
    begin = scan;
    mode_ = mode::value;
  }

  std::string key_path() const { return level == 2 ? "results." + key : key; }
  void key_path_into(std::string& out) const {
    if (level == 2) out += "results.";
    out += key;
  }

  [[noreturn]] void fail_here(decode_errc code, const std::string& detail) const { throw error_here(code, detail); }

  // The document's first byte.
  void start_document(char c) {
    any_input = true;
    switch (c) {
      case '{':
        if (shape == payload_shape::document) return enter_value(0);
        if (shape == payload_shape::top_level_array) {
          throw decode_error(decode_errc::wrong_type, "", std::nullopt, "expected an array, got an object");
        }
        level = 1;
        st = state::key_or_close;
        ++scan;
        return;
      case '[':
        if (shape == payload_shape::top_level_array) return enter_elements(0);
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

  // The first byte of an envelope value, after the colon.
  void start_value(char c) {
    value_bytes = 0;
    snk = sink::discard;
    switch (tgt) {
      case target::results:
        if (results_seen) fail_here(decode_errc::invalid_json, "duplicate key");
        results_seen = true;
        if (c == 'n') return start_atom(c, sink::scalar);
        if (shape == payload_shape::results_array && c == '[') return enter_elements(1);
        if (shape == payload_shape::results_object && c == '{') return enter_value(1);
        if (shape == payload_shape::results_values && c == '{') {
          level = 2;
          st = state::key_or_close;
          ++scan;
          return;
        }
        fail_here(decode_errc::wrong_type,
                  shape == payload_shape::results_array ? "expected an array" : "expected an object");
      case target::values:
        if (values_seen) fail_here(decode_errc::invalid_json, "duplicate key");
        values_seen = true;
        if (c == 'n') return start_atom(c, sink::scalar);
        if (c == '[') return enter_elements(2);
        fail_here(decode_errc::wrong_type, "expected an array");
      case target::unknown:
        return start_any(c, sink::discard);
      case target::extra:
        extra += extra.empty() ? "{\"" : ",\"";
        extra += key;
        extra += "\":";
        return start_any(c, sink::extra);
      default:
        if (c == '{' || c == '[') {
          envelope_surprise(decode_errc::wrong_type, "expected a scalar");
          return start_any(c, sink::discard);
        }
        return start_any(c, sink::scalar);
    }
  }

  void start_any(char c, sink into) {
    snk = into;
    if (c == '"') {
      put(c);
      st = state::string_value;
      ++scan;
    } else if (c == '{' || c == '[') {
      nested_depth = 0;
      nested_in_string = nested_escape = false;
      st = state::nested_value;  // the bracket itself is handled by nested_byte
    } else {
      start_atom(c, into);
    }
  }

  void start_atom(char c, sink into) {
    if (!is_atom_char(c)) fail_here(decode_errc::invalid_json, "unexpected character");
    snk = into;
    st = state::atom_value;
  }

  void put(char c) {
    if (snk == sink::scalar) {
      scalar += c;
    } else if (snk == sink::extra) {
      if (extra.size() >= limits.max_element_bytes) {
        fail_here(decode_errc::too_long, "results members longer than " + std::to_string(limits.max_element_bytes));
      }
      extra += c;
    }
  }

  void key_byte(char c) {
    if (key.size() >= limits.max_string_bytes) {
      key += c;
      throw decode_error(decode_errc::too_long, (level == 2 ? "results." : "") + key_name(key, shown_bytes()),
                         std::nullopt, string_too_long(true));
    }
    key += c;
  }

  // Strings are measured between their quotes, as in the rows (the framer).
  void count_string_byte() {
    if (++value_bytes > limits.max_string_bytes) fail_here(decode_errc::too_long, string_too_long(false));
  }

  void end_atom() {
    if ((tgt == target::results || tgt == target::values) && snk == sink::scalar) {
      if (scalar != "null") fail_here(decode_errc::wrong_type, "expected an array or null");
      scalar.clear();
    } else {
      complete_value();
    }
    st = state::after_value;
  }

  void complete_value() {
    if (snk == sink::scalar) store_envelope();
    snk = sink::discard;
    st = state::after_value;
  }

  void nested_byte(char c) {
    put(c);
    if (nested_in_string) {
      if (nested_escape) {
        nested_escape = false;
      } else if (c == '\\') {
        nested_escape = true;
      } else if (c == '"') {
        nested_in_string = false;
        return;
      }
      count_string_byte();
      return;
    }
    switch (c) {
      case '"':
        nested_in_string = true;
        value_bytes = 0;
        return;
      case '{':
      case '[': {
        if (static_cast<std::size_t>(level) + nested_depth + 1 > limits.max_depth) {
          fail_here(decode_errc::too_deep, "nesting deeper than " + std::to_string(limits.max_depth));
        }
        const std::uint64_t bit = std::uint64_t{1} << (nested_depth % 64);
        if (c == '[') {
          nested_kinds[nested_depth / 64] |= bit;
        } else {
          nested_kinds[nested_depth / 64] &= ~bit;
        }
        ++nested_depth;
        return;
      }
      case '}':
      case ']': {
        const std::size_t top = nested_depth - 1;
        const bool opened_square = (nested_kinds[top / 64] >> (top % 64)) & 1;
        if (opened_square != (c == ']')) fail_here(decode_errc::invalid_json, "mismatched bracket");
        nested_depth = top;
        if (nested_depth == 0) complete_value();
        return;
      }
      default:
        return;
    }
  }

  void close_object() {
    if (level == 2) {
      level = 1;
      tgt = target::results;
      st = state::after_value;
    } else {
      level = 0;
      st = state::done;
    }
  }

  // Walks envelope bytes until the rows start or the bytes end.
  void run_envelope() {
    const char* const bytes = window.get();
    while (scan < end && mode_ == mode::envelope) {
      const char c = bytes[scan];
      switch (st) {
        case state::document_start:
          if (is_space(c)) break;
          start_document(c);
          continue;
        case state::key_or_close:
        case state::key_start:
          if (is_space(c)) break;
          if (c == '"') {
            key.clear();
            st = state::key;
          } else if (c == '}' && st == state::key_or_close) {
            close_object();
          } else {
            fail_here(decode_errc::invalid_json, "expected a key");
          }
          break;
        case state::key:
          if (c == '"') {
            st = state::colon;
            break;
          }
          if (static_cast<unsigned char>(c) < 0x20) fail_here(decode_errc::invalid_json, "control character in a key");
          key_byte(c);
          if (c == '\\') st = state::key_escape;
          break;
        case state::key_escape:
          key_byte(c);
          st = state::key;
          break;
        case state::colon:
          if (is_space(c)) break;
          if (c != ':') fail_here(decode_errc::invalid_json, "expected ':'");
          tgt = classify_key(key, level);
          if (tgt == target::unknown) unknown_envelope_key();
          scalar.clear();
          st = state::value_start;
          break;
        case state::value_start:
          if (is_space(c)) break;
          start_value(c);
          continue;
        case state::string_value:
          if (c != '"') count_string_byte();
          put(c);
          if (c == '\\') {
            st = state::string_escape;
          } else if (c == '"') {
            complete_value();
          } else if (static_cast<unsigned char>(c) < 0x20) {
            fail_here(decode_errc::invalid_json, "control character in a string");
          }
          break;
        case state::string_escape:
          count_string_byte();
          put(c);
          st = state::string_value;
          break;
        case state::atom_value:
          if (is_space(c) || c == ',' || c == '}' || c == ']') {
            end_atom();
            continue;  // the delimiter belongs to what follows
          }
          if (!is_atom_char(c)) fail_here(decode_errc::invalid_json, "unexpected character");
          // A number is not a string: its bound is the element's (it is kept whole to parse).
          if (++value_bytes > limits.max_element_bytes) {
            fail_here(decode_errc::too_long, "a value longer than " + std::to_string(limits.max_element_bytes) + " bytes");
          }
          put(c);
          break;
        case state::nested_value:
          nested_byte(c);
          break;
        case state::after_value:
          if (is_space(c)) break;
          if (c == ',') {
            st = state::key_start;
          } else if (c == '}') {
            close_object();
          } else {
            fail_here(decode_errc::invalid_json, "expected ',' or '}'");
          }
          break;
        case state::done:
          if (!is_space(c)) {
            throw decode_error(decode_errc::invalid_json, "", std::nullopt, "content after the end of the document");
          }
          break;
      }
      ++scan;
    }
  }

  // ---------------------------------------------------------------- envelope values

  // An envelope value the page_envelope cannot hold as sent: decode_policy::strict fails;
  // else it is counted (coerced or skipped) in the page's leniency, and the first one named.
  void envelope_surprise(decode_errc code, const char* detail, bool coerced = false) {
    if (builder.strict()) fail_here(code, detail);
    page_leniency& counts = builder.leniency();
    if (counts.coerced + counts.skipped + counts.missing == 0) key_path_into(builder.first_path());
    ++(coerced ? counts.coerced : counts.skipped);
  }

  void unknown_envelope_key() {
    if (builder.strict()) {
      throw decode_error(decode_errc::unknown_key, key_path(), std::nullopt, "a key the page envelope does not declare");
    }
    if (++builder.leniency().unknown_keys == 1) key_path_into(builder.first_unknown_key_path());
  }

  void store_envelope() {
    const std::size_t length = scalar.size();
    scalar.append(simdjson::SIMDJSON_PADDING, ' ');
    simdjson::ondemand::document doc;
    if (auto e = parser.iterate(scalar.data(), length, scalar.size()).get(doc)) {
      fail_here(errc_of(e), simdjson::error_message(e));
    }
    bool is_null = false;
    if (doc.is_null().get(is_null) == simdjson::SUCCESS && is_null) return;
    page_envelope& env = builder.envelope();
    switch (tgt) {
      case target::status: env.status = envelope_string(doc); break;
      case target::request_id: env.request_id = envelope_string(doc); break;
      case target::next_url: env.next_url = envelope_string(doc); break;
      case target::ticker: env.ticker = envelope_string(doc); break;
      case target::count: env.count = envelope_integer(doc); break;
      case target::query_count: env.query_count = envelope_integer(doc); break;
      case target::results_count: env.results_count = envelope_integer(doc); break;
      case target::adjusted: {
        bool value = false;
        if (auto e = doc.get_bool().get(value)) {
          if (e != simdjson::INCORRECT_TYPE) fail_here(errc_of(e), simdjson::error_message(e));
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
  std::string_view envelope_string(simdjson::ondemand::document& doc) {
    std::string_view text;
    if (auto e = doc.get_string().get(text)) {
      simdjson::ondemand::json_type type{};
      if (e != simdjson::INCORRECT_TYPE || doc.type().get(type) ||
          (type != simdjson::ondemand::json_type::number && type != simdjson::ondemand::json_type::boolean)) {
        fail_here(errc_of(e), "expected a string");
      }
      envelope_surprise(decode_errc::wrong_type, "expected a string", true);
      std::string_view atom(scalar.data(), scalar.find_first_of(" \t\r\n"));
      return builder.store(atom);
    }
    return builder.store(text);
  }

  std::optional<std::int64_t> envelope_integer(simdjson::ondemand::document& doc) {
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
      if (e2 != simdjson::INCORRECT_TYPE) fail_here(errc_of(e2), simdjson::error_message(e2));
      envelope_surprise(decode_errc::wrong_type, "expected an integer");
      return std::nullopt;
    }
    if (std::trunc(d) != d || std::fabs(d) > 9007199254740992.0) {
      envelope_surprise(decode_errc::wrong_type, "expected an integer");
      return std::nullopt;
    }
    return static_cast<std::int64_t>(d);
  }
};

decoder_core::decoder_core(std::shared_ptr<page_pool> pool, const row_codec& codec, payload_shape shape,
                           decode_limits limits, decode_policy policy)
    : impl_(std::make_unique<impl>(std::move(pool), codec, shape, limits, policy)) {}
decoder_core::decoder_core(decoder_core&&) noexcept = default;
decoder_core& decoder_core::operator=(decoder_core&&) noexcept = default;
decoder_core::~decoder_core() = default;

void decoder_core::feed(std::span<const char> chunk) { impl_->feed(chunk); }
void decoder_core::finish() { impl_->finish(); }
page_parts decoder_core::take() { return impl_->take(); }
void decoder_core::reset() noexcept { impl_->reset(); }

}  // namespace massive::detail
