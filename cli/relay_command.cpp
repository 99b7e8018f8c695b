// The relay's commands, built where massive::relay is (libnats found):
//   massive relay <market>... [--nats URLS] [--topics T.*,Q.AAPL] [--group G] [--id ID]
//                 [--lease-ttl MS] [--replicas N] [--retention S] [--memory] [--delayed] [--mock]
//     holds one upstream connection per market and publishes into JetStream until SIGINT or
//     SIGTERM; several may run, one holds the lease per market.
//   massive stream <market> <topics> --via URLS [--durable NAME] [--all] [--count N]
//     reads the relay's stream instead of Massive's, one JSON line per event.
// The Massive key comes from MASSIVE_API_KEY, NATS credentials from NATS_USER and
// NATS_PASSWORD or NATS_TOKEN: never from the command line, where other users see them.
#include <boost/asio.hpp>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <list>
#include <massive/json_writer.hpp>
#include <massive/mock/stream_server.hpp>
#include <massive/relay/consumer.hpp>
#include <massive/relay/relay.hpp>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"

namespace massive::cli {

namespace {

int relay_usage(std::string_view problem) {
  std::cerr << "massive relay: " << problem
            << "\nusage: massive relay <market>... [--nats URLS] [--topics T.*,Q.AAPL] [--group G] "
               "[--id ID]\n"
               "         [--lease-ttl MS] [--replicas N] [--retention SECONDS] [--memory] "
               "[--delayed] [--mock]\n"
               "  the key from MASSIVE_API_KEY; NATS credentials from NATS_USER, NATS_PASSWORD or "
               "NATS_TOKEN\n";
  return exit_usage;
}

relay::nats_config nats_from_environment(std::string servers) {
  relay::nats_config n;
  n.servers = std::move(servers);
  if (const char* v = std::getenv("NATS_USER")) n.user = v;
  if (const char* v = std::getenv("NATS_PASSWORD")) n.password = v;
  if (const char* v = std::getenv("NATS_TOKEN")) n.token = v;
  return n;
}

std::optional<long> number(std::string_view v) {
  long out = 0;
  if (std::from_chars(v.data(), v.data() + v.size(), out).ec != std::errc{} || out < 0)
    return std::nullopt;
  return out;
}

}  // namespace

int relay_command(std::span<const std::string_view> words) {
  std::vector<stream::market> markets;
  relay::relay_config base;
  base.nats = nats_from_environment(base.nats.servers);
  bool mock = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_value = i + 1 < words.size();
    if (const auto m = market_named(w)) {
      markets.push_back(*m);
    } else if (w == "--nats" && has_value) {
      base.nats.servers = words[++i];
    } else if (w == "--topics" && has_value) {
      for (std::string_view rest = words[++i]; !rest.empty();) {
        const std::string_view one = rest.substr(0, rest.find(','));
        rest.remove_prefix(std::min(rest.size(), one.size() + 1));
        if (!one.empty()) base.topics.emplace_back(one);
      }
    } else if (w == "--group" && has_value) {
      base.group = words[++i];
    } else if (w == "--id" && has_value) {
      base.id = words[++i];
    } else if ((w == "--lease-ttl" || w == "--replicas" || w == "--retention") && has_value) {
      const std::optional<long> n = number(words[++i]);
      if (!n) return relay_usage(std::string(w) + " takes a number");
      if (w == "--lease-ttl") base.lease_ttl = std::chrono::milliseconds(*n);
      if (w == "--replicas") base.replicas = static_cast<int>(*n);
      if (w == "--retention") base.retention = std::chrono::seconds(*n);
    } else if (w == "--memory") {
      base.memory_storage = true;
    } else if (w == "--delayed") {
      base.upstream.feed = stream::feed::delayed;
    } else if (w == "--mock") {
      mock = true;
    } else {
      return relay_usage("unknown market or flag '" + std::string(w) + "'");
    }
  }
  if (markets.empty())
    return relay_usage("name a market (stocks, options, forex, crypto, indices, futures)");
  base.trace = [](const relay::relay_trace& t) {
    std::cerr << "relay " << t.what << ": " << t.detail << "\n";
  };

  boost::asio::io_context io;
  std::unique_ptr<mock::stream_server> local;
  if (mock) local = std::make_unique<mock::stream_server>();
  std::list<relay::relay> relays;
  int status = exit_done;
  try {
    for (const stream::market m : markets) {
      relay::relay_config c = base;
      c.upstream.market = m;
      if (local) {
        c.upstream.api_key = "mock-stream-key";
        c.upstream.url = local->url(stream::market_path(m));
        c.upstream.tls.ca_pem = local->certificate_pem();
      }
      relays.emplace_back(io.get_executor(), std::move(c));
    }
  } catch (const std::exception& e) {
    return relay_usage(e.what());
  }
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) {
      for (relay::relay& r : relays) r.stop();
    }
  });
  std::size_t running = relays.size();
  for (relay::relay& r : relays) {
    r.run([&](std::exception_ptr e) {
      if (e) {
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& failure) {
          std::cerr << "massive relay: " << failure.what() << "\n";
        }
        status = exit_transport;
        for (relay::relay& other : relays) other.stop();
      }
      if (--running == 0) signals.cancel();  // nothing left to stop: io.run() returns
    });
  }
  io.run();
  return status;
}

int stream_via_relay(std::span<const std::string_view> words) {
  if (words.size() < 2) return relay_usage("massive stream <market> <topics> --via URLS");
  const std::optional<stream::market> market = market_named(words[0]);
  if (!market) return relay_usage("no market '" + std::string(words[0]) + "'");
  relay::consumer_config config;
  config.market = *market;
  const topic_words written = split_topics(words[1]);
  if (!written.problem.empty()) return relay_usage(written.problem);
  for (const auto& [prefix, ticker] : written.topics) config.topics.emplace_back(*market, prefix, ticker);
  std::size_t count = SIZE_MAX;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_value = i + 1 < words.size();
    if (w == "--via" && has_value) {
      config.nats = nats_from_environment(std::string(words[++i]));
    } else if (w == "--durable" && has_value) {
      config.durable = words[++i];
    } else if (w == "--all") {
      config.start = relay::start_at::all;
    } else if (w == "--count" && has_value) {
      const std::optional<long> n = number(words[++i]);
      if (!n || *n == 0) return relay_usage("--count takes a positive number");
      count = static_cast<std::size_t>(*n);
    } else {
      return relay_usage("with --via: unknown or incomplete flag '" + std::string(w) + "'");
    }
  }
  boost::asio::io_context io;
  int status = exit_done;
  std::unique_ptr<relay::consumer> reader;
  try {
    reader = std::make_unique<relay::consumer>(io.get_executor(), config);
  } catch (const std::exception& e) {
    return relay_usage(e.what());
  }
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        std::string line;
        for (std::size_t printed = 0; printed < count;) {
          const stream::batch b = co_await reader->next();
          b.visit([&](const auto& event) {
            if (printed == count) return;
            line.clear();
            json_writer w(line);
            write_json(w, event);
            std::cout << line << "\n";
            ++printed;
          });
        }
        std::cout.flush();
        co_await reader->close();
      },
      [&](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& failure) {
          std::cerr << "massive stream: " << failure.what() << "\n";
        }
        status = exit_transport;
      });
  io.run();
  return status;
}

}  // namespace massive::cli
