// The stream files: the event kinds and topic helpers (public), and the table the frame decoder
// dispatches on (private: it names each event model's inline decoder). The event models
// themselves are written by emit_models like every other model.
#include "stream.hpp"

#include <map>
#include <set>

namespace massive::codegen {

namespace {

/// stock_trade_event -> stock_trade: the enumerator of the event's kind.
std::string kind_of(const model& m) { return m.name.substr(0, m.name.size() - std::string("_event").size()); }

std::string market_value(const stream_event& e) {
  return e.market.empty() ? "std::nullopt" : "market::" + e.market;
}

std::string events_header(const stream_api& s) {
  std::string out = text::banner();
  out += "// The stream's event types (one per channel of the stream description, the futures events\n"
         "// of the map, and status events): their kinds, how to visit one, the channels of each market\n"
         "// and the topic helpers.\n";
  out += "#pragma once\n\n";
  for (const auto& m : s.models) out += "#include \"massive/models/" + m->name + ".hpp\"\n";
  out += "#include \"massive/stream/topic.hpp\"\n\n#include <cstddef>\n#include <cstdint>\n#include <string_view>\n"
         "#include <utility>\n\nnamespace massive::stream {\n\n";
  out += "/// Every event type a stream delivers, in name order.\nenum class event_kind : std::uint8_t {\n";
  for (const auto& m : s.models) out += "  " + kind_of(*m) + ",\n";
  out += "};\ninline constexpr std::size_t event_kind_count = " + std::to_string(s.models.size()) + ";\n\n";
  out += "/// The names of the kinds, indexed by event_kind.\ninline constexpr std::string_view event_kind_names[] = {\n";
  for (const auto& m : s.models) out += "    \"" + kind_of(*m) + "\",\n";
  out += "};\n\n/// An event type's kind: event_traits<stock_trade_event>::kind.\ntemplate <class Event>\nstruct event_traits;\n";
  for (const auto& m : s.models) {
    out += "template <>\nstruct event_traits<" + m->name + "> {\n  static constexpr event_kind kind = event_kind::" +
           kind_of(*m) + ";\n};\n";
  }
  out += "\n/// Calls f with the event of kind `kind` at `event`, as its own type.\ntemplate <class F>\n"
         "decltype(auto) visit_event(event_kind kind, const void* event, F&& f) {\n  switch (kind) {\n";
  for (std::size_t i = 0; i < s.models.size(); ++i) {
    const model& m = *s.models[i];
    const bool last = i + 1 == s.models.size();
    out += std::string(last ? "    default:" : "    case event_kind::" + kind_of(m) + ":") +
           " return std::forward<F>(f)(*static_cast<const " + m.name + "*>(event));\n";
  }
  out += "  }\n}\n";

  out += "\n/// One channel of a market, as the stream description has it: the prefix a topic names\n"
         "/// (T in T.AAPL), the smallest channel set that carries it (stream_config::channels), the\n"
         "/// event it carries and that event's description.\nstruct channel_info {\n"
         "  stream::market market;     ///< the market whose connection carries it\n"
         "  std::string_view prefix;   ///< the topic prefix\n"
         "  channel_set channels;      ///< market, business (fair market value) or launchpad\n"
         "  event_kind kind;           ///< the event it carries\n"
         "  std::string_view summary;  ///< the event's description, its first sentence\n};\n\n"
         "/// Every channel of every market, by market in the description's order.\n"
         "inline constexpr channel_info channel_table[] = {\n";
  for (const stream_event& e : s.events) {
    if (e.market.empty()) continue;
    std::string summary = e.event->doc;
    if (const auto end = summary.find(". "); end != std::string::npos) summary.resize(end + 1);
    out += "    {market::" + e.market + ", \"" + text::literal(e.prefix) + "\", channel_set::" + e.feed +
           ", event_kind::" + kind_of(*e.event) + ", \"" + text::literal(summary) + "\"},\n";
  }
  out += "};\n";

  std::map<std::string, std::vector<const stream_event*>> by_market;
  for (const stream_event& e : s.events) {
    if (!e.market.empty()) by_market[e.market].push_back(&e);
  }
  for (const auto& [market, events] : by_market) {
    out += "\n/// The " + market + " channels' topics: a ticker, or \"*\" for every ticker.\nnamespace " + market + " {\n";
    for (const stream_event* e : events) {
      out += "/// " + e->prefix + ".<ticker>: " + e->event->name + (e->feed == "market" ? "" : " (" + e->feed + " feeds)") +
             ".\ninline topic " + e->topic + "(std::string_view ticker = \"*\") { return {market::" + market + ", \"" +
             e->prefix + "\", ticker}; }\n";
    }
    out += "}  // namespace " + market + "\n";
  }
  out += "\n}  // namespace massive::stream\n";
  return out;
}

/// A source file with one constant table, a row per stream event, and the function that hands it out: what the
/// SDK's event table and the mock's channels differ in.
struct event_array {
  std::string comment;   // the file's comment line after the banner
  std::string includes;  // what comes before the namespace
  std::string space;     // the namespace
  std::string array;     // the table's declaration, e.g. "constexpr channel all_channels[]"
  std::string getter;    // the function that returns the table
};

template <class Row>
std::string event_array_file(const stream_api& s, const event_array& file, Row row) {
  std::string out = text::banner() + file.comment + file.includes;
  out += "namespace " + file.space + " {\n\nnamespace {\n\n" + file.array + " = {\n";
  for (const stream_event& e : s.events) out += row(e);
  out += "};\n\n}  // namespace\n\n" + file.getter + "\n\n}  // namespace " + file.space + "\n";
  return out;
}

std::string event_table(const stream_api& s) {
  std::string includes = "#include \"stream/event_table.hpp\"\n\n";
  for (const auto& m : s.models) includes += "#include \"models/" + m->name + "_decode.hpp\"\n";
  const event_array file{"// The event table (declared in sdk/src/stream/event_table.hpp): " +
                             std::to_string(s.events.size()) + " events by market, feed and ev.\n",
                         includes + "\n", "massive::stream::detail", "constexpr event_decoder all_events[]",
                         "std::span<const event_decoder> event_decoders() noexcept { return all_events; }"};
  return event_array_file(s, file, [](const stream_event& e) {
    const std::string& type = e.event->name;
    return "    {\"" + text::literal(e.ev) + "\", " + market_value(e) + ", channel_feed::" +
           (e.feed.empty() ? std::string("any") : e.feed) + ", event_kind::" + kind_of(*e.event) + ", sizeof(" + type +
           "), &decode_into<" + type + ", massive::detail::decode_" + type + ">},\n";
  });
}

/// The mock's stream channels (declared in mock/src/stream_catalog.hpp): what it streams for a
/// topic, by the event model's name in the catalog.
std::string mock_channels(const stream_api& s) {
  const event_array file{"// The mock's stream channels (declared in mock/src/stream_catalog.hpp): " +
                             std::to_string(s.events.size()) + " events.\n",
                         "#include \"stream_catalog.hpp\"\n\n", "massive::mock::stream_catalog",
                         "constexpr channel all_channels[]", "std::span<const channel> channels() { return all_channels; }"};
  return event_array_file(s, file, [](const stream_event& e) {
    return "    {\"" + e.market + "\", \"" + e.feed + "\", \"" + text::literal(e.prefix) + "\", \"" + text::literal(e.ev) +
           "\", \"" + e.event->name + "\"},\n";
  });
}

}  // namespace

void emit_stream(const stream_api& s, file_set& out) {
  out["include/massive/stream/events.hpp"] = events_header(s);
  out["src/stream/event_table.cpp"] = event_table(s);
  out["mock/stream_channels.cpp"] = mock_channels(s);
}

}  // namespace massive::codegen
