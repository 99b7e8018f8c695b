// The streaming engine behind page_decoder<T>. Bytes go into a padded window; outside the
// rows the envelope walker reads them byte by byte (envelope_walker.hpp: the envelope is
// small); inside the rows the framer finds element boundaries a block at a time; complete
// elements are decoded in place, in batches, when the window is full or the array closes; the
// incomplete tail then moves to the front.
//
// Window layout: index 0 is reserved so that there is always a byte before the first pending
// element to overwrite with '['; the batch's last separator comma is overwritten with ']'.
// The window is followed by `window_padding` readable bytes: simdjson needs 64 past the
// batch, the framer loads whole 64-byte blocks, a single object writes ']' one past its
// closing brace, and a wire-order row's check reads 128 bytes from its first value
// (commas_in in row_decoding.hpp).
#include "decode/envelope_walker.hpp"
#include "decode/fault_path.hpp"
#include "decode/framer.hpp"
#include "decode/page_builder.hpp"
#include "decode/row_codec.hpp"
#include "decode/row_decoding.hpp"
#include "massive/decoder.hpp"
#include "massive/error.hpp"

#include <simdjson.h>

#include <algorithm>
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

enum class lifecycle : std::uint8_t { idle, running, finished, failed };

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
        limits(l),
        path(path_for(s)),
        framer_(l.max_depth, l.max_string_bytes, l.max_element_bytes),
        walker(s, l, builder, parser) {
    if (!pool) throw std::invalid_argument("page_decoder needs a page_pool");
    if (codec->row_align > region::header_bytes) throw std::invalid_argument("row alignment above 64");
    resize_window(initial_window);
    builder.set_policy(policy);
    start_over();
  }

  // ---- configuration
  std::shared_ptr<page_pool> pool;
  const row_codec* codec;
  decode_limits limits;
  row_path path;

  // ---- working memory (kept from body to body)
  std::unique_ptr<char[]> window;
  std::size_t capacity = 0;  // usable bytes; window_padding more are allocated
  simdjson::ondemand::parser parser;
  framer framer_;
  page_builder builder;
  envelope_walker walker;  // writes through builder, parses scalars with parser: declared after both

  // ---- the body in progress
  lifecycle life = lifecycle::idle;
  std::exception_ptr failure;
  mode mode_ = mode::envelope;
  std::size_t begin = 1;  // first byte of the pending element(s)
  std::size_t scan = 1;   // next byte to examine
  std::size_t end = 1;    // end of the bytes received
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
    begin = scan = end = 1;
    window[0] = '[';
    cut_at_separator = false;
    walker.reset();
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
      if (mode_ != mode::envelope) throw error_here(decode_errc::truncated, "the body ended inside the document");
      walker.finish();
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
    return decode_error(code, walker.path(), std::nullopt, detail);
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
        throw error_here(decode_errc::too_deep, "nesting deeper than " + std::to_string(limits.max_depth) + " (decode_limits::max_depth)");
      case framer::fault::too_long: {
        const std::size_t start = framer_.element_start();
        const std::size_t quote = framer_.fault_position();
        const std::size_t shown = shown_bytes(limits.max_string_bytes);
        const fault_location at =
            locate_string({window.get() + start, quote - start}, {window.get() + quote + 1, shown + 1}, shown);
        std::string where = element_path();
        where += where.empty() && !at.path.empty() ? at.path.substr(1) : at.path;
        throw decode_error(decode_errc::too_long, where, element_row(), string_too_long(at.is_key, limits.max_string_bytes));
      }
      case framer::fault::element_too_long:
        throw error_here(decode_errc::too_long,
                         "an element longer than " + std::to_string(limits.max_element_bytes) +
                                                " bytes (decode_limits::max_element_bytes)");
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
                         "an element longer than " + std::to_string(limits.max_element_bytes) +
                                                " bytes (decode_limits::max_element_bytes)");
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
    // Rows are named by their index in the body's array, rows left out before them included,
    // as the framer's own errors name them.
    batch b{parser, base, cut - from + 2, capacity + window_padding - (from - 1), builder, path,
            before + builder.leniency().dropped_rows};
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

  // The walker reads up to the rows (then the framer takes over) or to the end of the bytes.
  void run_envelope() {
    const envelope_walker::stop stop = walker.walk(window.get(), scan, end);
    switch (stop.what) {
      case envelope_walker::event::need_bytes:
      case envelope_walker::event::document_end: scan = stop.at; return;
      case envelope_walker::event::rows_array:
        framer_.start_array(stop.depth, stop.at);
        mode_ = mode::elements;
        cut_at_separator = false;
        break;
      case envelope_walker::event::row_value:
        framer_.start_value(stop.depth, stop.at);
        mode_ = mode::value;
        break;
    }
    begin = scan = stop.at;
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
    } else {
      decode_value(begin, close);
    }
    walker.rows_ended();
    scan = close + 1;
    mode_ = mode::envelope;
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
void decoder_core::recycle(page_memory&& memory) {
  if (impl_->life != lifecycle::idle || impl_->builder.started()) {
    memory.reset();
    return;
  }
  impl_->builder.start(impl_->pool, impl_->codec->row_size, std::move(memory));
}

}  // namespace massive::detail
