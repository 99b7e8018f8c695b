// The stream description (massive-websocket.json): one event model per channel, read with the
// map's stream rows (docs/maintainers/codegen.md, "Streams"), and the files that tie the event models to
// the stream decoder (the event kinds, the topics, and the table the frame decoder dispatches
// on by `ev`).
#pragma once

#include "build.hpp"
#include "emit.hpp"
#include "ir.hpp"
#include "json.hpp"
#include "map.hpp"

#include <memory>
#include <string>
#include <vector>

namespace massive::codegen {

/// One event type as the server sends it on one channel.
struct stream_event {
  std::string path;    // the channel as in the description (/stocks/T), or the map's for futures
  std::string market;  // stocks, options, forex, crypto, indices, futures; "" for status events
  std::string feed;    // market, business or launchpad: which hosts serve the channel
  std::string ev;      // the `ev` value that identifies the event in a frame
  std::string topic;   // the topic helper's name (trades), "" for status events
  std::string prefix;  // the subscription prefix (T in T.AAPL)
  const model* event = nullptr;
};

struct stream_api {
  std::vector<std::unique_ptr<model>> models;  // sorted by name; plain models (not REST rows)
  std::vector<stream_event> events;            // in the map's order
};

/// Reads the stream description with the map's `stream`, `stream_key` and `stream_field` rows.
/// A channel or key without a row gets a default name, a key without a type is kept as JSON
/// text, a row naming nothing is a warning (all in `out`); throws generation_error listing every
/// problem only a person can settle (two curated names for one member, a malformed row).
stream_api build_stream(const json& spec, const curated_map& map, notices& out);

/// generated/include/massive/stream/events.hpp, generated/src/stream/event_table.cpp and the
/// mock's channels, generated/mock/stream_channels.cpp.
void emit_stream(const stream_api& s, file_set& out);

}  // namespace massive::codegen
