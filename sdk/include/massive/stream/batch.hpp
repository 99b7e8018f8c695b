// A stream's frames, decoded: every text frame the server sends is a JSON array of events,
// possibly of several types; frame_decoder turns one into a batch of typed events, in wire
// order, as its bytes arrive (in chunks of any size: a frame split into continuation frames
// decodes like the whole). It is sans-I/O: the stream client feeds it what the socket reads.
//
// How: the frame goes through the REST decoder's engine (sdk/src/decode/: the framer finds the
// events' ends, simdjson On Demand decodes complete events in place in its window) with a
// codec that reads each event's `ev` and hands the object to that event type's generated
// decoder. Events land in per-type arrays of the batch; their strings in the batch's arena.
// Batches come from a pool and go back to it when dropped, so a warm stream allocates nothing
// per frame.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "massive/decoder.hpp"
#include "massive/page.hpp"
#include "massive/stream/events.hpp"
#include "massive/stream/topic.hpp"

namespace massive::stream {

namespace detail {

/// One event of a frame in wire order: its type and its index among that type's events.
/// Events of an `ev` the connection's channels do not carry are kept in the order as skipped.
struct wire_entry {
  event_kind kind;
  bool skipped;
  std::uint32_t index;
  std::string_view
      text;  ///< the event's JSON as the frame carried it (frame_limits::keep_event_text)
};

/// A batch's memory, reused from frame to frame.
struct batch_storage {
  struct typed {
    std::vector<std::byte> bytes;  // count events of one type, back to back
    std::size_t count = 0;
    std::size_t size = 0;  // bytes of one event
  };
  massive::detail::page_memory memory;  // the wire order and the events' strings
  std::span<const wire_entry> order;
  std::array<typed, event_kind_count> events;
  std::size_t skipped = 0;
  bool gap = false;

  /// Room for one more event of `kind` (`size` bytes), grown by doubling: a warm stream has room.
  void* append(event_kind kind, std::size_t size);
  void clear() noexcept;
};

class batch_pool;

}  // namespace detail

/// The events of one frame, in wire order. Move-only; dropping it returns its memory to the
/// stream's pool. Strings and spans in the events are valid while the batch lives.
class batch {
 public:
  /// An empty batch holding no memory.
  batch() noexcept = default;
  /// Takes the events and their memory; `other` becomes empty. Views into the events stay valid.
  batch(batch&& other) noexcept
      : storage_(std::exchange(other.storage_, nullptr)), pool_(std::move(other.pool_)) {}
  /// Returns this batch's memory to its pool, then takes `other`'s events as the constructor does.
  batch& operator=(batch&& other) noexcept {
    if (this != &other) {
      release();
      storage_ = std::exchange(other.storage_, nullptr);
      pool_ = std::move(other.pool_);
    }
    return *this;
  }
  ~batch() { release(); }

  /// The events decoded (skipped ones not counted).
  std::size_t size() const noexcept {
    return storage_ == nullptr ? 0 : storage_->order.size() - storage_->skipped;
  }
  /// True when no event was decoded.
  bool empty() const noexcept { return size() == 0; }
  /// Events whose `ev` the connection's channels do not carry (an event type added to the API
  /// since this build's description, say): counted, not decoded. client::next() delivers a
  /// frame of such events alone as an empty batch with this count.
  std::size_t skipped() const noexcept { return storage_ == nullptr ? 0 : storage_->skipped; }
  /// Events may be missing before this batch: the stream reconnected or dropped frames since
  /// the previous batch (stream::client says which).
  bool gap() const noexcept { return storage_ != nullptr && storage_->gap; }

  /// The events of one type, in wire order: batch.events<massive::stock_trade_event>().
  template <class Event>
  std::span<const Event> events() const noexcept {
    if (storage_ == nullptr) return {};
    const auto& typed = storage_->events[static_cast<std::size_t>(event_traits<Event>::kind)];
    return {reinterpret_cast<const Event*>(typed.bytes.data()), typed.count};
  }

  /// Calls f(event) for every event in wire order, each as its own type (a generic lambda or
  /// an overload set).
  template <class F>
  void visit(F&& f) const {
    visit_with_text([&](const auto& event, std::string_view) { f(event); });
  }

  /// Calls f(event, text) for every event in wire order, each event as its own type and `text`
  /// its JSON exactly as the frame carried it (a relay forwards those bytes). The texts are kept
  /// only by a decoder made with frame_limits::keep_event_text; otherwise `text` is empty.
  template <class F>
  void visit_with_text(F&& f) const {
    if (storage_ == nullptr) return;
    for (const detail::wire_entry& e : storage_->order) {
      if (e.skipped) continue;
      const auto& typed = storage_->events[static_cast<std::size_t>(e.kind)];
      visit_event(e.kind, typed.bytes.data() + e.index * typed.size,
                  [&](const auto& event) { f(event, e.text); });
    }
  }

  /// Marks the batch as following a possible gap (used by the stream client).
  void mark_gap() noexcept {
    if (storage_ != nullptr) storage_->gap = true;
  }

 private:
  friend class frame_decoder;
  batch(detail::batch_storage* storage, std::shared_ptr<detail::batch_pool> pool) noexcept
      : storage_(storage), pool_(std::move(pool)) {}
  void release() noexcept;

  detail::batch_storage* storage_ = nullptr;
  std::shared_ptr<detail::batch_pool> pool_;
};

/// The wire's `ev` of an event kind ("T" for stock_trade, "status"): what a relay puts in the
/// subjects of the events it forwards.
std::string_view wire_ev(event_kind kind) noexcept;

/// Ceilings on what one frame may make the decoder do.
struct frame_limits {
  /// A frame larger than this is refused (stream_error frame_too_large) before it is decoded
  /// whole: the official Go client caps a read at 1 MB.
  std::size_t max_frame_bytes = 1 << 20;
  /// Ceilings for decoding each event (depth, string and element sizes), as for REST pages.
  decode_limits decode{};
  /// Keep each event's JSON text in the batch beside the decoded event (batch::visit_with_text),
  /// for a relay that forwards the upstream's bytes. Not a ceiling: it travels with them because
  /// they are what a stream client hands its frame decoder. Costs a copy of each event's bytes.
  bool keep_event_text = false;
};

/// Decodes frames of one connection (one market, one channel set). Not thread-safe: one frame
/// at a time; the batches it hands out may live on other threads.
class frame_decoder {
 public:
  /// `pool`: where the batches' strings and wire order live; null for one sized for frames.
  explicit frame_decoder(market m, channel_set channels = channel_set::market,
                         frame_limits limits = {}, std::shared_ptr<page_pool> pool = nullptr);
  /// Takes over the decoder's working memory; `other` may only be destroyed or assigned to.
  frame_decoder(frame_decoder&&) noexcept;
  /// Takes over `other`'s working memory, as the move constructor does.
  frame_decoder& operator=(frame_decoder&&) noexcept;
  ~frame_decoder();

  /// Bytes of the current frame, in chunks of any size. Throws decode_error naming the event
  /// and field ("[3].p"), or stream_error frame_too_large; the frame is then dead until reset().
  void feed(std::span<const char> chunk);
  /// The frame is complete: its events. Throws decode_error if it is not a whole JSON array.
  batch finish();
  /// Abandons the current frame.
  void reset() noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::stream
