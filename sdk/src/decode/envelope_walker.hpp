// The envelope around the rows: status, request_id, next_url, counts and whatever else the
// body holds outside them, in any key order, before and after the rows. The walker reads these
// bytes one at a time (the envelope is small), writes what page_envelope declares through the
// page builder, skips the rest (unknown keys and their values, however nested), and stops
// where the rows begin: the decoder core frames and decodes them a block at a time, then tells
// the walker where they ended.
//
// Sans-I/O and position-free: walk() reads the window indexes the core gives it and keeps no
// pointer into the window, which the core moves between calls. Its buffers (key, scalar,
// results' other members, the nesting of a skipped value) are reserved once and kept from
// body to body, so a warm body allocates nothing.
#pragma once

#include "massive/decoder.hpp"
#include "massive/error.hpp"

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace massive::detail {

class page_builder;

class envelope_walker {
 public:
  /// Why walk() returned.
  enum class event : std::uint8_t {
    need_bytes,    ///< every byte was walked; the document goes on
    document_end,  ///< every byte was walked; the document had ended (whitespace followed)
    rows_array,    ///< the rows are the elements of an array: `at` is the byte after its '['
    row_value,     ///< the row is one object: `at` is its '{', not yet consumed
  };
  struct stop {
    event what;
    std::size_t at;     ///< rows: where their bytes start; otherwise the end of the bytes walked
    std::size_t depth;  ///< rows: the nesting outside them (0: top level, 1: in the body's object, 2: in results)
  };

  /// Walks bodies of `shape`, refusing what exceeds `limits`; writes into `builder` (started
  /// by the caller before the first walk of a body) and parses scalars with `parser` (the
  /// core's, shared with the rows: a second parser would cost its own working memory).
  envelope_walker(payload_shape shape, const decode_limits& limits, page_builder& builder,
                  simdjson::ondemand::parser& parser);
  envelope_walker(const envelope_walker&) = delete;
  envelope_walker& operator=(const envelope_walker&) = delete;

  /// Walks bytes[from, to) until the rows begin or the bytes end; throws decode_error naming
  /// the envelope key ("status", "results.underlying") on bad input.
  stop walk(const char* bytes, std::size_t from, std::size_t to);
  /// The rows announced by the last stop ended at their closing bracket; the walk goes on
  /// after it.
  void rows_ended() noexcept;
  /// The body ended: throws decode_error (empty_body, truncated) unless the document did;
  /// stores results' other members (results_values) in the envelope.
  void finish();
  /// Where the walk stands, for an error found outside the rows: the key whose value is
  /// being read ("status", "results.underlying"), or "" between keys.
  std::string path() const;
  /// Forgets the body in progress (buffers keep their capacity).
  void reset() noexcept;

 private:
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
  // What the current key names.
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
  // Where the bytes of the current value go.
  enum class sink : std::uint8_t { discard, scalar, extra };
  // What the first byte of a document or value began.
  enum class opened : std::uint8_t { envelope, rows_array, row_value };

  static target classify(std::string_view key, std::size_t level) noexcept;
  stop rows_stop(opened rows, std::size_t at) const noexcept;
  opened start_document(char c);
  opened start_value(char c);
  void start_any(char c, sink into);
  void start_atom(char c, sink into);
  void atom_byte(char c);
  void end_atom();
  void after_value_byte(char c);
  void key_byte(char c);
  void nested_byte(char c);
  void put(char c);
  void count_string_byte();
  void complete_value();
  void close_object() noexcept;

  void store_envelope();
  std::string_view envelope_string(simdjson::ondemand::document& doc);
  std::optional<std::int64_t> envelope_integer(simdjson::ondemand::document& doc);
  void envelope_surprise(decode_errc code, const char* detail, bool coerced = false);
  void unknown_envelope_key();

  std::string key_path() const;
  void key_path_into(std::string& out) const;
  [[noreturn]] void fail(decode_errc code, const std::string& detail) const;

  // ---- configuration
  payload_shape shape_;
  decode_limits limits_;
  page_builder* builder_;
  simdjson::ondemand::parser* parser_;

  // ---- buffers, kept from body to body
  std::string key_;     // the current key, raw
  std::string scalar_;  // the current scalar, raw JSON
  std::string extra_;   // results_values: raw JSON of results' other members
  std::vector<std::uint64_t> nested_kinds_;  // a skipped value's open brackets: 1 = '[', 0 = '{'

  // ---- the body in progress
  state st_ = state::document_start;
  target tgt_ = target::unknown;
  sink snk_ = sink::discard;
  std::size_t level_ = 0;  // 1: inside the top-level object; 2: inside results (results_values)
  std::size_t value_bytes_ = 0;
  std::size_t nested_depth_ = 0;
  bool nested_in_string_ = false;
  bool nested_escape_ = false;
  bool started_ = false;  // a byte other than whitespace was seen
  std::uint16_t targets_seen_ = 0;  // a bit per target the envelope has met: 1 << target
};

}  // namespace massive::detail
