// What the fuzz targets share: how a control byte picks the chunking and the limits, how a
// body is cut into chunks, and what a failed decode is compared by.
//
// Control byte: bits 0-2 the largest chunk (1 byte to 16 KiB), bits 6-7 the limits (the
// defaults, or tight ones that make the too_deep and too_long paths reachable with small
// inputs). Bits 3-5 are left to the target. A body is decoded in chunks and whole, and the two
// outcomes must agree (expect_agree).
#pragma once

#include <massive/decoder.hpp>
#include <massive/error.hpp>
#include <massive/page.hpp>

#include "row_digest.hpp"  // tests/support

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace massive::test {

inline constexpr std::array shapes = {payload_shape::results_array, payload_shape::results_object,
                               payload_shape::document, payload_shape::top_level_array,
                               payload_shape::results_values};

inline constexpr std::array<std::size_t, 8> max_chunk = {1, 2, 3, 7, 16, 64, 511, 16384};

inline constexpr decode_limits tight_limits{.max_depth = 4, .max_string_bytes = 8, .max_element_bytes = 96};
// Above 62 bytes only strings that cross a 64-byte block can be too long: the framer's other path.
inline constexpr decode_limits tight_long_strings{.max_depth = 4, .max_string_bytes = 70, .max_element_bytes = 96};

/// The limits that bits 6-7 of `control` pick.
constexpr decode_limits limits_for(std::uint8_t control) {
  return (control & 0x80) != 0 ? tight_limits : (control & 0x40) != 0 ? tight_long_strings : decode_limits{};
}

/// A seed drawn from `control` and the body's first bytes, for the input's other choices.
inline std::uint64_t seed_of(std::span<const char> body, std::uint8_t control) {
  std::uint64_t seed = control;
  for (char c : body.first(std::min<std::size_t>(body.size(), 8))) seed = seed * 131 + static_cast<unsigned char>(c);
  return seed;
}

/// The body cut into chunks of 1 to max_chunk[control & 7] bytes, their sizes drawn from a
/// generator seeded by seed_of(), with an empty chunk (legal, and it must change nothing)
/// after about one in sixteen.
inline std::vector<std::span<const char>> chunks_of(std::span<const char> body, std::uint8_t control) {
  const std::size_t max = max_chunk[control & 0x07];
  std::uint64_t state = seed_of(body, control);
  std::vector<std::span<const char>> chunks;
  for (std::size_t at = 0; at < body.size();) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::size_t n = std::min(body.size() - at, 1 + (state >> 33) % max);
    chunks.push_back(body.subspan(at, n));
    at += n;
    if ((state >> 20) % 16 == 0) chunks.emplace_back();
  }
  return chunks;
}

/// A decode_error by what two decodes of one body must agree on.
struct failure {
  decode_errc code;
  std::string path;
  std::optional<std::size_t> row;
  bool operator==(const failure&) const = default;

  /// Reading the message checks that it is well-formed (it is built from the input).
  explicit failure(const decode_error& e) : code(e.code()), path(e.field_path()), row(e.row()) {
    volatile std::size_t n = std::string_view(e.what()).size();
    (void)n;
  }

  std::string describe() const {
    return "failed (code " + std::to_string(static_cast<int>(code)) + ", path '" + path + "', row " +
           (row ? std::to_string(*row) : std::string("none")) + ")";
  }
};

/// The outcome of one decode: a digest of the page (rows and envelope), or the error.
using outcome = std::variant<std::uint64_t, failure>;

/// Aborts, naming the target, the model (when it picks one) and both outcomes, when the
/// chunked and the whole decode disagree.
inline void expect_agree(std::string_view target, std::string_view model, const outcome& chunked,
                         const outcome& whole, std::uint8_t control) {
  if (chunked == whole) return;
  const auto describe = [](const outcome& o) {
    const auto* f = std::get_if<failure>(&o);
    return f != nullptr ? f->describe() : std::string("decoded");
  };
  // Copied to strings: g++ -O3 sees an empty view's null data() reach %.*s (-Wformat-overflow).
  std::fprintf(stderr, "%s: %s chunked and whole decodes disagree: chunked %s, whole %s (max chunk %zu)\n",
               std::string(target).c_str(), std::string(model).c_str(), describe(chunked).c_str(),
               describe(whole).c_str(), max_chunk[control & 0x07]);
  std::abort();
}

/// Every field of the envelope, into `h`.
inline void add_envelope(row_hasher& h, const page_envelope& e) {
  h.add(e.status);
  h.add(e.request_id);
  h.add(e.next_url);
  h.add(e.ticker);
  h.add(e.count);
  h.add(e.query_count);
  h.add(e.results_count);
  h.add(e.adjusted);
  h.add(e.results_extra_json);
}

}  // namespace massive::test
