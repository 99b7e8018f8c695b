// `massive stream <market> <topics> [--delayed] [--count N] [--format json|jsonl|csv|table] [--mock]`:
// streams a market's events and prints each frame's events as they arrive, through the same
// printers as the calls (output.hpp). Topics are as the server takes them, comma-separated:
// T.AAPL,Q.* (CSV and the table fix their columns by the first frame: one event type at a time).
#include "commands.hpp"
#include "output.hpp"

#include <massive/json_writer.hpp>
#include <massive/mock/stream_server.hpp>
#include <massive/stream/client.hpp>
#include <massive/stream/error.hpp>

#include <boost/asio.hpp>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace massive::cli {

namespace {

std::optional<stream::market> market_named(std::string_view name) {
  for (const stream::market m : {stream::market::stocks, stream::market::options, stream::market::forex,
                                 stream::market::crypto, stream::market::indices, stream::market::futures}) {
    if (stream::market_path(m) == name) return m;
  }
  return std::nullopt;
}

int stream_usage(std::string_view problem) {
  std::cerr << "massive stream: " << problem
            << "\nusage: massive stream <market> <topics> [--delayed] [--count N] [--format json|jsonl|csv|table] [--mock]\n"
               "  e.g. massive stream stocks T.AAPL,Q.* --count 100 --format jsonl\n";
  return exit_usage;
}

/// The events of a batch as one JSON array, each written by its generated writer.
std::string events_json(const stream::batch& b) {
  std::string out = "[";
  b.visit([&](const auto& event) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(event)>, massive::status_event>) {
      if (out.size() > 1) out += ',';
      json_writer w(out);
      write_json(w, event);
    }
  });
  return out + "]";
}

}  // namespace

int stream_command(std::span<const std::string_view> words) {
#ifdef MASSIVE_CLI_WITH_RELAY
  // --via: the relay's JetStream stream instead of Massive's (relay_command.cpp).
  if (std::find(words.begin(), words.end(), "--via") != words.end()) return stream_via_relay(words);
#endif
  if (words.size() < 2) return stream_usage("name a market and topics");
  const std::optional<stream::market> market = market_named(words[0]);
  if (!market) return stream_usage("no market '" + std::string(words[0]) + "' (stocks, options, forex, crypto, indices, futures)");
  std::vector<stream::topic> topics;
  for (std::string_view rest = words[1]; !rest.empty();) {
    const std::string_view one = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), one.size() + 1));
    const auto dot = one.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == one.size()) {
      return stream_usage("a topic is <prefix>.<ticker> (T.AAPL, Q.*), not '" + std::string(one) + "'");
    }
    topics.emplace_back(*market, one.substr(0, dot), one.substr(dot + 1));
  }
  std::size_t count = SIZE_MAX;
  output_format format = output_format::jsonl;
  bool mock = false;
  stream::stream_config options;
  options.market = *market;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_value = i + 1 < words.size();
    if (w == "--delayed") {
      options.feed = stream::feed::delayed;
    } else if (w == "--mock") {
      mock = true;
    } else if (w == "--count" && has_value) {
      const std::string_view v = words[++i];
      if (std::from_chars(v.data(), v.data() + v.size(), count).ec != std::errc{} || count == 0) {
        return stream_usage("--count takes a positive number, not '" + std::string(v) + "'");
      }
    } else if (w == "--format" && has_value) {
      const std::string_view v = words[++i];
      if (v == "json") format = output_format::json;
      else if (v == "jsonl") format = output_format::jsonl;
      else if (v == "csv") format = output_format::csv;
      else if (v == "table") format = output_format::table;
      else return stream_usage("--format is one of json, jsonl, csv, table; not '" + std::string(v) + "'");
    } else {
      return stream_usage("unknown or incomplete flag '" + std::string(w) + "'");
    }
  }
  std::unique_ptr<mock::stream_server> local;
  if (mock) {
    local = std::make_unique<mock::stream_server>();
    options.api_key = "mock-stream-key";
    options.url = local->url(stream::market_path(*market));
    options.ca_pem = local->certificate_pem();
  }

  boost::asio::io_context io;
  int status = exit_done;
  const std::unique_ptr<row_printer> printer = make_printer(format, std::cout, {}, false);
  boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
    stream::client client(io.get_executor(), options);
    client.subscribe(topics);
    for (std::size_t printed = 0; printed < count;) {
      const stream::batch b = co_await client.next();
      printer->page(events_json(b));
      printed += b.size() - b.events<massive::status_event>().size();
    }
    printer->finish();
  }, [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const stream::stream_error& failure) {
      std::cerr << "massive stream: " << failure.what() << "\n";
      const bool refused = failure.code() == stream::stream_errc::auth_failed ||
                           failure.code() == stream::stream_errc::no_stream_access;
      status = refused ? exit_api : exit_transport;
    } catch (const massive::decode_error& failure) {
      std::cerr << "massive stream: " << failure.what() << "\n";
      status = exit_decode;
    } catch (const std::exception& failure) {
      std::cerr << "massive stream: " << failure.what() << "\n";
      status = exit_transport;
    }
  });
  io.run();
  return status;
}

}  // namespace massive::cli
