// The frame decoder: the REST decoder's engine over a frame (a top-level array) with a codec
// whose rows are the frame's wire order and whose events go, by `ev`, to their type's array in
// the batch being filled. The engine hands a codec nothing but the batch of JSON; the decoder
// whose frame is being decoded is found through a thread-local pointer set for the duration of
// each call into the engine (decoding_scope), which keeps the engine untouched.
#include "massive/stream/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "decode/region.hpp"
#include "decode/row_codec.hpp"
#include "decode/row_decoding.hpp"
#include "massive/stream/error.hpp"
#include "stream/event_table.hpp"

namespace massive::stream {

namespace detail {

void* batch_storage::append(event_kind kind, std::size_t size) {
  typed& t = events[static_cast<std::size_t>(kind)];
  t.size = size;
  const std::size_t need = (t.count + 1) * size;
  if (need > t.bytes.size()) t.bytes.resize(std::max(need, t.bytes.size() * 2));
  return t.bytes.data() + t.count++ * size;
}

namespace {

/// Empties the batch but for its memory. A batch handed out has an entry in its wire order
/// for every event of its typed arrays, so the types it holds are found there: a frame of a few
/// events clears a few counts rather than one per event kind.
void forget_events(batch_storage& s, bool handed_out) noexcept {
  if (handed_out && s.order.size() < event_kind_count) {
    for (const wire_entry& e : s.order) s.events[static_cast<std::size_t>(e.kind)].count = 0;
  } else {
    for (batch_storage::typed& t : s.events) t.count = 0;
  }
  s.order = {};
  s.skipped = 0;
  s.gap = false;
}

}  // namespace

void batch_storage::clear() noexcept {
  memory.reset();
  forget_events(*this, false);
}

/// The batches of one decoder: reused, so that a warm stream allocates none. Batches may be
/// dropped on any thread.
///
/// The batch dropped last waits in `spare_` with its memory (parked: page_memory's regions
/// kept, not returned to the page pool) for the next frame, which the decoder then decodes
/// into the same regions: a stream whose consumer drops each batch before the next frame
/// comes goes through neither this pool's mutex nor the page pool's. One batch's memory is
/// kept so; others go back to the page pool as before, which bounds what is kept.
class batch_pool {
 public:
  batch_storage* acquire() {
    if (batch_storage* s = spare_.exchange(nullptr, std::memory_order_acquire)) return s;
    const std::lock_guard lock(mutex_);
    if (free_.empty()) {
      owned_.push_back(std::make_unique<batch_storage>());
      free_.reserve(owned_.size());  // release() then never allocates
      return owned_.back().get();
    }
    batch_storage* s = free_.back();
    free_.pop_back();
    return s;
  }
  /// `handed_out`: the storage was a batch's (rather than a frame's that failed or was reset).
  void release(batch_storage* s, bool handed_out) noexcept {
    if (spare_.load(std::memory_order_relaxed) == nullptr) {
      forget_events(*s, handed_out);
      massive::detail::pool_access::park(s->memory);
      batch_storage* none = nullptr;
      if (spare_.compare_exchange_strong(none, s, std::memory_order_release,
                                         std::memory_order_relaxed))
        return;
    }
    s->clear();
    const std::lock_guard lock(mutex_);
    free_.push_back(s);
  }

 private:
  std::atomic<batch_storage*> spare_{nullptr};
  std::mutex mutex_;
  std::vector<std::unique_ptr<batch_storage>> owned_;
  std::vector<batch_storage*> free_;
};

}  // namespace detail

void batch::release() noexcept {
  if (storage_ != nullptr) pool_->release(std::exchange(storage_, nullptr), true);
  pool_.reset();
}

namespace {

namespace od = massive::detail::od;
using detail::channel_feed;
using detail::event_decoder;

/// The events a connection decodes, most specific channel set first: the first entry with an
/// event's `ev` is its decoder.
std::vector<const event_decoder*> events_for(market m, channel_set channels) {
  std::vector<channel_feed> order{channel_feed::any};
  if (channels == channel_set::launchpad) order.push_back(channel_feed::launchpad);
  if (channels != channel_set::market) order.push_back(channel_feed::business);
  order.push_back(channel_feed::market);
  std::vector<const event_decoder*> out;
  for (const channel_feed f : order) {
    for (const event_decoder& d : detail::event_decoders()) {
      if (d.feed == f && (!d.on || *d.on == m)) out.push_back(&d);
    }
  }
  return out;
}

/// A frame's rows (its wire order) and arena are small: regions of 64 MiB rather than the REST
/// pages' 4 GiB, and more of them kept, one pair per batch a consumer may hold.
std::shared_ptr<page_pool> frame_pool() {
  page_pool::options o;
  o.region_bytes = std::size_t{64} << 20;
  o.retained_bytes_per_region = std::size_t{1} << 20;
  o.max_free_regions = 64;
  return make_page_pool(o);
}

}  // namespace

namespace {

// The frame_decoder::impl whose frame the engine is decoding on this thread.
thread_local const void* decoding = nullptr;

/// Sets `decoding` while the engine runs on this thread (nested decoders restore theirs).
class decoding_scope {
 public:
  explicit decoding_scope(const void* d) noexcept : saved_(std::exchange(decoding, d)) {}
  decoding_scope(const decoding_scope&) = delete;
  decoding_scope& operator=(const decoding_scope&) = delete;
  ~decoding_scope() { decoding = saved_; }

 private:
  const void* saved_;
};

}  // namespace

struct frame_decoder::impl {
  impl(market m, channel_set channels, frame_limits l, std::shared_ptr<page_pool> p)
      : limits(l),
        events(events_for(m, channels)),
        codec{sizeof(detail::wire_entry), alignof(detail::wire_entry), &decode_events},
        core(p ? std::move(p) : frame_pool(), codec, payload_shape::top_level_array, l.decode) {}

  /// The batch the frame fills; the engine's page goes into its memory when it kept some.
  void begin_frame() {
    current = batches->acquire();
    core.recycle(std::move(current->memory));
  }

  const event_decoder* find(std::string_view ev) const noexcept {
    for (const event_decoder* d : events) {
      if (d->ev == ev) return d;
    }
    return nullptr;
  }

  /// The event's bytes as the frame carried them, copied into the batch's arena; the object is
  /// rewound for its decoder.
  static std::string_view event_text(massive::detail::row_context& ctx, massive::detail::batch& b,
                                     od::object& object) {
    std::string_view text;
    bool rewound = false;
    if (object.raw_json().get(text) != simdjson::SUCCESS ||
        object.reset().get(rewound) != simdjson::SUCCESS) [[unlikely]] {
      ctx.fail(decode_errc::invalid_json, "", "the event cannot be read again");
    }
    // raw_json() ends at the next token: white space after the object is not the event's.
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                             text.back() == '\t')) {
      text.remove_suffix(1);
    }
    return b.builder.store(text);
  }

  /// An event whose `ev` is given twice has no one type (simdjson's lookup takes the first, most
  /// clients the last): the frame is refused at `ev` as for any key given twice.
  [[gnu::cold, gnu::noinline]] static void refuse_second_ev(massive::detail::row_context& ctx,
                                                           od::object& object) {
    bool rewound = false;
    if (object.reset().get(rewound) != simdjson::SUCCESS) [[unlikely]] {
      ctx.fail(decode_errc::invalid_json, "", "the event cannot be read again");
    }
    bool met = false;
    for (auto item : object) {
      od::field field;
      if (auto e = std::move(item).get(field)) massive::detail::fail_field_iteration(ctx, e);
      if (!massive::detail::key_is(field.key().raw(), "ev")) continue;
      if (met) return ctx.repeated_key("ev");
      met = true;
    }
  }

  /// The codec's batch loop: one wire entry per element, the event into its type's array.
  static void decode_events(massive::detail::batch& b) {
    const impl& self = *static_cast<const impl*>(decoding);
    detail::batch_storage& store = *self.current;
    od::document doc;
    od::array elements;
    if (auto e = massive::detail::iterate_elements(b, doc, elements))
      massive::detail::fail_batch(b, e);
    // Every event has a key its decoder does not declare (`ev`), and a batch reports no
    // unknown keys: counting from one spares the engine writing the first one's path each frame.
    std::uint32_t& unknown_keys = b.builder.leniency().unknown_keys;
    if (unknown_keys == 0) unknown_keys = 1;
    std::byte* out = b.builder.row_end();
    std::byte* const limit = b.builder.row_limit();
    std::size_t row = b.first_row;
    for (auto element : elements) {
      od::object object;
      if (auto e = element.get_object().get(object)) [[unlikely]] {
        massive::detail::fail_element(
            b, row, e,
            e == simdjson::INCORRECT_TYPE ? element.value_unsafe().raw_json_token() : "");
      }
      if (out == limit) massive::detail::throw_page_full("events");
      massive::detail::row_context ctx(b.builder, b.path, row);
      od::value value;
      std::string_view ev;
      if (object.find_field_unordered("ev").get(value) != simdjson::SUCCESS) [[unlikely]] {
        ctx.fail(decode_errc::missing_field, "ev", "an event without an ev key");
      }
      if (value.get_string().get(ev) != simdjson::SUCCESS) [[unlikely]] {
        ctx.fail(decode_errc::wrong_type, "ev", "expected a string");
      }
      detail::wire_entry entry{};
      if (const event_decoder* d = self.find(ev)) {
        bool rewound = false;
        if (object.reset().get(rewound) != simdjson::SUCCESS) [[unlikely]] {
          ctx.fail(decode_errc::invalid_json, "", "the event cannot be read again");
        }
        if (self.limits.keep_event_text) entry.text = event_text(ctx, b, object);
        entry.kind = d->kind;
        entry.index =
            static_cast<std::uint32_t>(store.events[static_cast<std::size_t>(d->kind)].count);
        const std::uint32_t unknown_before = unknown_keys;
        d->decode(ctx, object, store.append(d->kind, d->size));
        // `ev` is one unknown key to the event's decoder; a second may be `ev` again.
        if (unknown_keys - unknown_before > 1) [[unlikely]] refuse_second_ev(ctx, object);
        // An event keeps its place in the batch's typed arrays even when it lacks a required
        // field (counted missing in the frame's leniency): the mark is the REST rows' to use.
        b.builder.take_incomplete();
      } else {
        refuse_second_ev(ctx, object);
        entry.skipped = true;
        ++store.skipped;
      }
      std::memcpy(out, &entry, sizeof entry);
      out += sizeof entry;
      ++row;
    }
    b.builder.commit_rows(out);
  }

  frame_limits limits;
  std::vector<const event_decoder*> events;
  massive::detail::row_codec codec;
  massive::detail::decoder_core core;
  std::shared_ptr<detail::batch_pool> batches = std::make_shared<detail::batch_pool>();
  detail::batch_storage* current = nullptr;  // the batch the frame in progress fills
  std::size_t frame_bytes = 0;
  bool oversize = false;
};

std::string_view wire_ev(event_kind kind) noexcept {
  for (const event_decoder& d : detail::event_decoders()) {
    if (d.kind == kind) return d.ev;
  }
  return {};
}

frame_decoder::frame_decoder(market m, channel_set channels, frame_limits limits,
                             std::shared_ptr<page_pool> pool)
    : impl_(std::make_unique<impl>(m, channels, limits, std::move(pool))) {}
frame_decoder::frame_decoder(frame_decoder&&) noexcept = default;
frame_decoder& frame_decoder::operator=(frame_decoder&&) noexcept = default;
frame_decoder::~frame_decoder() { reset(); }

void frame_decoder::feed(std::span<const char> chunk) {
  impl& d = *impl_;
  d.frame_bytes += chunk.size();
  if (d.oversize || d.frame_bytes > d.limits.max_frame_bytes) {
    d.oversize = true;
    throw stream_error(
        stream_errc::frame_too_large,
        "a frame longer than " + std::to_string(d.limits.max_frame_bytes) + " bytes");
  }
  if (d.current == nullptr) d.begin_frame();
  const decoding_scope scope(&d);
  d.core.feed(chunk);
}

batch frame_decoder::finish() {
  impl& d = *impl_;
  if (d.oversize) {
    throw stream_error(
        stream_errc::frame_too_large,
        "a frame longer than " + std::to_string(d.limits.max_frame_bytes) + " bytes");
  }
  if (d.current == nullptr) d.begin_frame();
  {
    const decoding_scope scope(&d);
    d.core.finish();
  }
  massive::detail::page_parts parts = d.core.take();
  // Events keep their rule: a value of another type or out of range, a key given twice or a
  // missing required key refuses the frame, naming the first (the core decodes leniently and
  // counts, docs/guide/decoding.md); unknown keys, `ev` among them, are skipped.
  if (const page_leniency& counts = parts.envelope.leniency; !counts.exact()) {
    d.batches->release(std::exchange(d.current, nullptr), false);
    d.frame_bytes = 0;
    const bool missing = counts.coerced + counts.skipped == 0;
    throw decode_error(missing ? decode_errc::missing_field : decode_errc::wrong_type,
                       std::string(counts.first), std::nullopt,
                       missing ? "required key absent or null"
                               : "a value of another type or out of range, or a key given twice");
  }
  detail::batch_storage* s = std::exchange(d.current, nullptr);
  s->memory = std::move(parts.memory);
  s->order = {static_cast<const detail::wire_entry*>(parts.rows), parts.size};
  d.frame_bytes = 0;
  return batch(s, d.batches);
}

void frame_decoder::reset() noexcept {
  if (!impl_) return;
  impl_->core.reset();
  if (impl_->current != nullptr)
    impl_->batches->release(std::exchange(impl_->current, nullptr), false);
  impl_->frame_bytes = 0;
  impl_->oversize = false;
}

}  // namespace massive::stream
