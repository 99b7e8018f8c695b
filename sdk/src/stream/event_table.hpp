// The generated event table (generated/src/stream/event_table.cpp): for each event a market
// sends, its `ev`, the channels that carry it, its kind, and its decoder, by which the frame
// decoder turns one JSON object of a frame into a typed event.
#pragma once

#include "decode/row_decoding.hpp"
#include "massive/stream/events.hpp"
#include "massive/stream/topic.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace massive::stream::detail {

/// Which channel set carries an event (see channel_set).
enum class channel_feed : std::uint8_t { market, business, launchpad, any };

struct event_decoder {
  std::string_view ev;
  std::optional<stream::market> on;  ///< nullopt: every market (status events)
  channel_feed feed;
  event_kind kind;
  std::size_t size;
  /// Decodes the object into a blank event at `out` (uninitialised storage of `size` bytes).
  void (*decode)(massive::detail::row_context& ctx, massive::detail::od::object& object, void* out);
};

template <class Event, void (*Decode)(massive::detail::row_context&, massive::detail::od::object&, Event&)>
void decode_into(massive::detail::row_context& ctx, massive::detail::od::object& object, void* out) {
  Decode(ctx, object, massive::detail::blank_row_at<Event>(static_cast<std::byte*>(out)));
}

/// Every event of every market, in the map's order.
std::span<const event_decoder> event_decoders() noexcept;

}  // namespace massive::stream::detail
