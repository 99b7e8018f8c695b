// libFuzzer target for the streaming decoder's entry points (feed, finish, take, reset).
//
// Input: byte 0 picks the model and the payload shape, byte 1 the chunking (bits 0-2) and
// the limits (bits 6-7),
// the rest is the body. The body is decoded twice with one decoder: first in chunks whose
// sizes derive from the input itself (sometimes after a first attempt abandoned halfway
// with reset()), then whole. decode_error is an accepted outcome; a crash, a sanitizer
// report, any other exception, or the two decodes disagreeing is a finding: one succeeds and
// the other fails, their rows or envelopes differ, or they fail with different errors (code,
// field path or row). The limits are the defaults or tight ones (depth, string and element
// lengths), which make the too_deep and too_long paths reachable with small inputs; every
// limit is compared (F1 in issue 3's fuzz findings: a tight max_string_bytes used to be
// checked only on strings that crossed a chunk boundary).
#include <massive/decoder.hpp>
#include <massive/error.hpp>
#include <massive/models/agg.hpp>
#include <massive/models/quote.hpp>
#include <massive/models/trade.hpp>
#include <massive/page.hpp>

#include "row_digest.hpp"  // tests/support

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace {

using namespace massive;

constexpr std::array shapes = {payload_shape::results_array, payload_shape::results_object,
                               payload_shape::document, payload_shape::top_level_array,
                               payload_shape::results_values};
constexpr std::array<std::size_t, 8> max_chunk = {1, 2, 3, 7, 16, 64, 511, 16384};

constexpr decode_limits tight_limits{.max_depth = 4, .max_string_bytes = 8, .max_element_bytes = 96};
// Above 62 bytes only strings that cross a 64-byte block can be too long: the framer's other path.
constexpr decode_limits tight_long_strings{.max_depth = 4, .max_string_bytes = 70, .max_element_bytes = 96};

enum class limits_mode { defaults, tight_long_strings, tight };

using test::row_hasher;

template <class T>
std::uint64_t digest(const page<T>& p) {
  row_hasher h;
  h.add(std::uint64_t{p.size()});
  for (const T& row : p) add_row(h, row);
  const page_envelope& e = p.envelope();
  h.add(e.status);
  h.add(e.request_id);
  h.add(e.next_url);
  h.add(e.ticker);
  h.add(e.count);
  h.add(e.query_count);
  h.add(e.results_count);
  h.add(e.adjusted);
  h.add(e.results_extra_json);
  return h.value();
}

struct failure {
  decode_errc code;
  std::string path;
  std::optional<std::size_t> row;
  bool operator==(const failure&) const = default;
};

// The outcome of one decode: the page's digest, or the decode_error's code, path and row.
using outcome = std::variant<std::uint64_t, failure>;

template <class T, class Feed>
outcome decode(page_decoder<T>& decoder, Feed feed) {
  try {
    feed(decoder);
    decoder.finish();
    return digest(decoder.take());
  } catch (const decode_error& e) {
    // The message is built from the input; reading it checks that it is well-formed.
    volatile std::size_t n = std::string_view(e.what()).size();
    (void)n;
    decoder.reset();
    return failure{e.code(), e.field_path(), e.row()};
  }
}

std::string describe(const outcome& o) {
  if (const auto* f = std::get_if<failure>(&o)) {
    return "failed (code " + std::to_string(static_cast<int>(f->code)) + ", path '" + f->path + "', row " +
           (f->row ? std::to_string(*f->row) : std::string("none")) + ")";
  }
  return "decoded";
}

std::shared_ptr<page_pool> shared_pool() {
  static const std::shared_ptr<page_pool> pool = make_page_pool();
  return pool;
}

template <class T>
void run(std::span<const char> body, payload_shape shape, limits_mode mode, std::size_t max,
         std::uint64_t seed) {
  const decode_limits limits = mode == limits_mode::tight               ? tight_limits
                               : mode == limits_mode::tight_long_strings ? tight_long_strings
                                                                        : decode_limits{};
  page_decoder<T> decoder(shared_pool(), shape, limits);
  // Sometimes abandon a first attempt halfway: reset() must leave nothing behind.
  if (seed % 4 == 0 && body.size() > 1) {
    try {
      decoder.feed(body.first(body.size() / 2));
    } catch (const decode_error&) {
      // The half body may already be invalid; reset() must recover from that too.
    }
    decoder.reset();
  }
  const auto chunked = decode(decoder, [&](page_decoder<T>& d) {
    std::uint64_t state = seed;
    for (std::size_t at = 0; at < body.size();) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::size_t n = std::min(body.size() - at, 1 + (state >> 33) % max);
      d.feed(body.subspan(at, n));
      at += n;
      // Empty chunks are legal and must change nothing.
      if ((state >> 20) % 16 == 0) d.feed({});
    }
  });
  const auto whole = decode(decoder, [&](page_decoder<T>& d) { d.feed(body); });
  if (chunked != whole) {
    std::fprintf(stderr,
                 "fuzz_decode: chunked and whole decodes disagree: chunked %s, whole %s "
                 "(max chunk %zu)\n",
                 describe(chunked).c_str(), describe(whole).c_str(), max);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t selector = data[0];
  const std::uint8_t split = data[1];
  const std::span<const char> body(reinterpret_cast<const char*>(data) + 2, size - 2);

  const payload_shape shape = shapes[(selector / 3) % shapes.size()];
  const limits_mode limits = (split & 0x80) != 0   ? limits_mode::tight
                             : (split & 0x40) != 0 ? limits_mode::tight_long_strings
                                                   : limits_mode::defaults;
  const std::size_t max = max_chunk[split & 0x07];
  std::uint64_t seed = split;
  for (char c : body.first(std::min<std::size_t>(body.size(), 8))) {
    seed = seed * 131 + static_cast<unsigned char>(c);
  }
  switch (selector % 3) {
    case 0: run<agg>(body, shape, limits, max, seed); break;
    case 1: run<trade>(body, shape, limits, max, seed); break;
    default: run<quote>(body, shape, limits, max, seed); break;
  }
  return 0;
}
