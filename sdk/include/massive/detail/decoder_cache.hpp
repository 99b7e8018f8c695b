// Decoders kept warm between calls. A decoder's window and simdjson parser cost about 250 KB
// to allocate, far more than anything else a call needs, so a client hands the same decoders
// out call after call and traversal after traversal.
#pragma once

#include "massive/detail/body_sink.hpp"
#include "massive/decoder.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

namespace massive::detail {

/// A page_decoder<T> seen without its T, for code compiled once (the cursor core): the
/// body_sink that owns it, its engine (take and reset without a virtual call), its type's key.
struct untyped_decoder {
  std::unique_ptr<body_sink> owner;
  decoder_core* engine = nullptr;
  const void* key = nullptr;
};

/// Thread-safe. Keeps at most `capacity` idle decoders; one given back beyond that is freed.
class decoder_cache {
 public:
  static constexpr std::size_t capacity = 16;

  /// Decoders made by this cache decode with `policy`.
  explicit decoder_cache(decode_policy policy = decode_policy::lenient) : policy_(policy) { idle_.reserve(capacity); }

  /// An idle decoder of T for `shape`, or a new one drawing from `pool`.
  template <class T>
  std::unique_ptr<page_decoder<T>> take(const std::shared_ptr<page_pool>& pool,
                                        payload_shape shape) {
    if (std::unique_ptr<body_sink> idle = take_idle(key<T>(), shape)) {
      return std::unique_ptr<page_decoder<T>>(static_cast<page_decoder<T>*>(idle.release()));
    }
    return std::make_unique<page_decoder<T>>(pool, shape, decode_limits{}, policy_);
  }

  /// As take<T>, seen without its T.
  template <class T>
  untyped_decoder take_untyped(const std::shared_ptr<page_pool>& pool, payload_shape shape) {
    std::unique_ptr<page_decoder<T>> decoder = take<T>(pool, shape);
    decoder_core* engine = &decoder->core_;
    return {std::move(decoder), engine, key<T>()};
  }

  /// Returns a decoder for reuse, whatever state its last body left it in.
  void give_back(untyped_decoder decoder, payload_shape shape) noexcept {
    if (!decoder.owner) return;
    decoder.engine->reset();
    keep_idle(decoder.key, shape, std::move(decoder.owner));
  }

  /// Returns a decoder for reuse, whatever state its last body left it in.
  template <class T>
  void give_back(std::unique_ptr<page_decoder<T>> decoder, payload_shape shape) noexcept {
    if (!decoder) return;
    decoder->reset();
    keep_idle(key<T>(), shape, std::move(decoder));
  }

 private:
  template <class T>
  static const void* key() noexcept {
    return &row_codec_for(std::type_identity<T>{});
  }

  struct entry {
    const void* key;
    payload_shape shape;
    std::unique_ptr<body_sink> decoder;
  };

  std::unique_ptr<body_sink> take_idle(const void* key, payload_shape shape) {
    std::lock_guard lock(mutex_);
    for (auto it = idle_.begin(); it != idle_.end(); ++it) {
      if (it->key == key && it->shape == shape) {
        auto decoder = std::move(it->decoder);
        idle_.erase(it);
        return decoder;
      }
    }
    return nullptr;
  }

  void keep_idle(const void* key, payload_shape shape, std::unique_ptr<body_sink> decoder) noexcept {
    std::lock_guard lock(mutex_);
    if (idle_.size() < capacity) idle_.push_back({key, shape, std::move(decoder)});
  }

  decode_policy policy_;
  std::mutex mutex_;
  std::vector<entry> idle_;  // reserved to capacity: keeping a decoder never allocates
};

}  // namespace massive::detail
