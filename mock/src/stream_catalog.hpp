// The stream channels the mock serves: for each, the market, the feed that carries it, its
// subscription prefix, its `ev` and the name of its event model in the catalog (catalog.hpp),
// whose fields the mock synthesises. Generated (generated/mock/stream_channels.cpp, written by
// codegen/src/emit_stream.cpp) from the stream description and the map.
#pragma once

#include <span>
#include <string_view>

namespace massive::mock::stream_catalog {

struct channel {
  std::string_view market;  ///< "stocks", ...; "" for status events
  std::string_view feed;    ///< "market", "business" or "launchpad"
  std::string_view prefix;  ///< T in T.AAPL
  std::string_view ev;
  std::string_view model;   ///< the event model's name in catalog::models()
};

std::span<const channel> channels();

}  // namespace massive::mock::stream_catalog
