// The streaming decoder: a detail::body_sink that turns a response body, fed in chunks of any size,
// into a page<T>, without ever holding the whole body.
//
// How it works (sdk/src/decode/): bytes are copied into a small padded window; a framer
// classifies 64-byte blocks into bitmasks (quotes, backslashes, brackets, commas) to find
// where the elements of the results array end; complete elements are decoded in batches by
// simdjson On Demand in place in the window, and the incomplete tail moves to the window's
// front. The envelope around the array (status, request_id, next_url, counts, ...) is walked
// byte by byte, in any key order, before or after the results. Working memory is the window
// (32 KiB) plus simdjson's parser for it (about 220 KiB in all), independent of the body's
// size; an element larger than half the window grows both, and they stay grown for the
// decoder's later bodies.
#pragma once

#include "massive/detail/body_sink.hpp"
#include "massive/cpu_support.hpp"
#include "massive/decode_policy.hpp"
#include "massive/error.hpp"
#include "massive/page.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

namespace massive {

/// Ceilings that bound what a hostile or broken body can make the decoder do.
struct decode_limits {
  std::size_t max_depth = 64;                ///< nesting of objects and arrays, envelope included
  /// One string or key, measured as sent between its quotes (an escape counts its
  /// backslash), in rows and envelope alike, whatever the split: a longer one is too_long,
  /// naming the field (e.g. "results[3].conditions[1]") or, for a key, its first bytes and
  /// "..." (with a limit of 8: "results[3].particip...").
  std::size_t max_string_bytes = 1 << 20;
  std::size_t max_element_bytes = 16 << 20;  ///< one element of the results array, as sent
};

/// Where the rows are in the body.
enum class payload_shape {
  results_array,   ///< {"results":[row, ...], envelope...}: list endpoints
  results_object,  ///< {"results":row, envelope...}: one row (last trade, ticker details)
  document,        ///< the whole body is one row, with no envelope (market status)
  top_level_array, ///< the body is [row, ...] (upcoming market holidays)
  /// {"results":{"values":[row, ...], "underlying":{...}}, envelope...}: technical indicators.
  /// The members of `results` other than `values` are kept as raw JSON in
  /// page_envelope::results_extra_json; massive::underlying(page) types `underlying`.
  results_values,
};

namespace detail {

struct row_codec;
class decoder_cache;

/// The model-independent engine behind page_decoder<T>; T reaches it only through its
/// row_codec (found with row_codec_for(std::type_identity<T>), declared in T's header).
class decoder_core {
 public:
  decoder_core(std::shared_ptr<page_pool> pool, const row_codec& codec, payload_shape shape,
               decode_limits limits, decode_policy policy = decode_policy::lenient);
  decoder_core(decoder_core&&) noexcept;
  decoder_core& operator=(decoder_core&&) noexcept;
  ~decoder_core();

  void feed(std::span<const char> chunk);
  void finish();
  page_parts take();
  void reset() noexcept;
  /// The next body's page goes into `memory`, a page's memory from this decoder's pool that
  /// its owner gave back (parked) rather than released, instead of two regions taken from the
  /// pool. Between bodies only; otherwise `memory` simply goes back to the pool.
  void recycle(page_memory&& memory);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace detail

/// Decodes one body at a time into a page<T>. Not thread-safe: one body, one thread at a
/// time (the pool it draws from is shared and thread-safe). Reuse one decoder for many
/// bodies: its window and parser are allocated once, at construction.
///
/// A value the model did not foresee is coerced or skipped and counted in the page's
/// leniency() (decode_policy::lenient, the default), or is a decode_error
/// (decode_policy::strict). feed() and finish() throw decode_error naming the field path
/// (e.g. "results[12].v") and row index of the first problem; after one of them threw, the body is dead: feed() and
/// finish() rethrow that error until reset(). No page is ever handed out for a body that did
/// not finish() successfully.
template <class T>
class page_decoder final : public detail::body_sink {
 public:
  /// Decodes `shape` bodies into pages drawn from `pool`, refusing what exceeds `limits`,
  /// treating surprises as `policy` says. Throws unsupported_cpu when this CPU lacks what the
  /// decoding code was built for.
  explicit page_decoder(std::shared_ptr<page_pool> pool,
                        payload_shape shape = payload_shape::results_array,
                        decode_limits limits = {}, decode_policy policy = decode_policy::lenient)
      : core_((detail::require_cpu_support(), std::move(pool)), row_codec_for(std::type_identity<T>{}), shape,
              limits, policy) {}

  /// Any number of times, with chunks of any size (empty ones included).
  void feed(std::span<const char> chunk) override { core_.feed(chunk); }
  /// The body is complete; throws decode_error if it is not a whole, valid document.
  void finish() override { core_.finish(); }
  /// The page, after a successful finish(); then the decoder is ready for the next body.
  /// Throws std::logic_error when no successfully finished body is pending.
  page<T> take() { return page<T>(core_.take()); }
  /// Abandons the current body (its memory goes back to the pool); keeps the window and
  /// parser capacity.
  void reset() noexcept { core_.reset(); }

 private:
  friend class detail::decoder_cache;  // lends the engine to code compiled once (the cursor core)

  detail::decoder_core core_;
};

}  // namespace massive
