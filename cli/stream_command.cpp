// `massive stream <market> <topics> [flag]...`: streams a market's events and prints each one
// with its type, through the same printers as the calls (output.hpp). Topics are as the server
// takes them, comma-separated: T.AAPL,Q.*. Their prefixes are checked against the stream
// description's channels for the market (the generated channel_table) before connecting; a
// topic the server does not acknowledge within --ack-timeout (it drops what it does not serve
// without a word) ends the command with exit 3 rather than a silent wait. Reconnects, their
// causes and the gaps they leave are reported on stderr.
#include <algorithm>
#include <boost/asio.hpp>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <massive/mock/stream_server.hpp>
#include <massive/stream/client.hpp>
#include <massive/stream/error.hpp>
#include <massive/stream/events.hpp>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace massive::cli {

namespace {

namespace asio = boost::asio;

constexpr stream::market markets[] = {stream::market::stocks,  stream::market::options,
                                      stream::market::forex,   stream::market::crypto,
                                      stream::market::indices, stream::market::futures};

/// What the flags of `massive stream` set: the flags it shares with a call (format, times,
/// output, CA, proxy, headers, --verbose, --mock, --help), and its own.
struct stream_settings {
  call_settings call;
  std::string url;          ///< --url: instead of the feed's host
  std::uint64_t count = 0;  ///< --count: events to print, 0 for no end
  stream::feed feed = stream::feed::realtime;
  /// --channels: which channel set the frames carry; by default the feed's (business feeds:
  /// business, others: the market's).
  std::optional<stream::channel_set> channels;
  std::chrono::milliseconds ack_timeout{10'000};
};

using stream_flag = basic_flag<stream_settings>;

// In stream::channel_set's order.
constexpr std::string_view channel_set_names[] = {"market", "business", "launchpad"};

constexpr std::string_view feed_names[] = {"realtime",         "delayed",    "business",
                                           "delayed-business", "polyfeed",   "polyfeedplus",
                                           "nasdaqfeed",       "starterfeed"};

/// The flags of a call that a stream takes too, spelled as the call spells them.
constexpr std::string_view shared_flag_names[] = {
    "--format",         "--raw-times", "--output",  "--ca-file", "--proxy",
    "--proxy-from-env", "--header",    "--verbose", "--mock",    "--help"};

template <std::size_t I>
void apply_shared(stream_settings& s, std::string_view value) {
  find_call_flag(shared_flag_names[I])->apply(s.call, value);
}

template <std::size_t... I>
void add_shared(std::vector<stream_flag>& table, std::index_sequence<I...>) {
  (
      [&] {
        const flag& f = *find_call_flag(shared_flag_names[I]);
        table.push_back({f.name, f.short_name, f.value, f.choices, f.help, &apply_shared<I>});
      }(),
      ...);
}

/// Every flag of `massive stream`, in the order its help lists them.
const std::vector<stream_flag>& stream_flags() {
  static const std::vector<stream_flag> table = [] {
    std::vector<stream_flag> t = {
        {"--count",
         "",
         "N",
         {},
         "stop after N events (status events not counted)",
         [](stream_settings& s, std::string_view v) {
           std::uint64_t n = 0;
           const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
           if (ec != std::errc{} || end != v.data() + v.size() || n == 0) {
             throw usage_error("--count takes a positive count, not '" + std::string(v) + "'");
           }
           s.count = n;
         }},
        {"--feed", "", "FEED", feed_names,
         "the feed's host: realtime (default), delayed, business, ...",
         [](stream_settings& s, std::string_view v) {
           for (std::size_t i = 0; i < std::size(feed_names); ++i) {
             if (v == feed_names[i]) return void(s.feed = static_cast<stream::feed>(i));
           }
           throw usage_error(
               "--feed is one of realtime, delayed, business, delayed-business, polyfeed, "
               "polyfeedplus, "
               "nasdaqfeed, starterfeed; not '" +
               std::string(v) + "'");
         }},
        {"--channels", "", "SET", channel_set_names,
         "the channels the frames carry: market, business or launchpad (default: the feed's)",
         [](stream_settings& s, std::string_view v) {
           for (std::size_t i = 0; i < std::size(channel_set_names); ++i) {
             if (v == channel_set_names[i]) return void(s.channels = static_cast<stream::channel_set>(i));
           }
           throw usage_error("--channels is one of market, business, launchpad; not '" + std::string(v) + "'");
         }},
        {"--delayed",
         "",
         "",
         {},
         "the 15-minute delayed feed (--feed delayed)",
         [](stream_settings& s, std::string_view) { s.feed = stream::feed::delayed; }},
        {"--url",
         "",
         "URL",
         {},
         "connect to this wss:// URL instead of the feed's (wss://host:port/stocks)",
         [](stream_settings& s, std::string_view v) { s.url = std::string(v); }},
        {"--ack-timeout",
         "",
         "SECONDS",
         {},
         "fail (exit 3) when a topic is not acknowledged this long after subscribing (default 10)",
         [](stream_settings& s, std::string_view v) {
           double seconds = 0;
           const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seconds);
           if (ec != std::errc{} || end != v.data() + v.size() || !(seconds > 0) ||
               seconds > 3600) {
             throw usage_error("--ack-timeout takes seconds (10, 2.5; at most an hour), not '" +
                               std::string(v) + "'");
           }
           s.ack_timeout =
               std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000 + 0.5));
         }},
    };
    add_shared(t, std::make_index_sequence<std::size(shared_flag_names)>());
    return t;
  }();
  return table;
}

/// The channels the description has for `m`.
std::vector<const stream::channel_info*> channels_of(stream::market m) {
  std::vector<const stream::channel_info*> out;
  for (const stream::channel_info& c : stream::channel_table) {
    if (c.market == m) out.push_back(&c);
  }
  return out;
}

/// Whether a connection decoding `set` carries channels of `channel`'s set.
bool carries(stream::channel_set set, stream::channel_set channel) {
  if (channel == stream::channel_set::market) return true;
  if (channel == stream::channel_set::business) return set != stream::channel_set::market;
  return set == stream::channel_set::launchpad;
}

std::string_view set_name(stream::channel_set set) {
  switch (set) {
    case stream::channel_set::market:
      return "every feed";
    case stream::channel_set::business:
      return "business feeds: --feed business";
    case stream::channel_set::launchpad:
      return "launchpad feeds: --channels launchpad";
  }
  return "";
}

/// The event type's name without its market and `_event`: trade, minute_agg.
std::string_view event_name(stream::event_kind kind) {
  std::string_view name = stream::event_kind_names[static_cast<std::size_t>(kind)];
  return name.substr(name.find('_') + 1);
}

int stream_usage(std::string_view problem) {
  std::cerr << "massive stream: " << problem
            << "\nusage: massive stream <market> <topics> [flag]... (massive stream --help)\n";
  return exit_usage;
}

void print_stream_help(std::ostream& out) {
  out << "massive stream <market> <topics> [flag]...\n\n"
         "  Streams a market's events over the WebSocket API and prints each event with its type: "
         "`ev` in\n"
         "  JSON and JSON Lines (the default), the first column in CSV and the table. Topics are\n"
         "  <prefix>.<ticker>, comma-separated, `*` for every ticker: T.AAPL,Q.AAPL or 'AM.*'. A "
         "prefix the\n"
         "  market does not have is refused before connecting (exit 2); a topic the server does "
         "not\n"
         "  acknowledge within --ack-timeout fails (exit 3): the server drops what it does not "
         "serve\n"
         "  without a word. Reconnects, their causes and the gaps they leave are reported on "
         "stderr.\n\n"
         "markets and their topic prefixes (from the stream description):\n";
  for (const stream::market m : markets) {
    out << "  " << stream::market_path(m) << "\n";
    for (const stream::channel_info* c : channels_of(m)) {
      std::string line = "    " + std::string(c->prefix);
      line.resize(std::max<std::size_t>(line.size() + 2, 10), ' ');
      line += std::string(event_name(c->kind));
      line.resize(std::max<std::size_t>(line.size() + 2, 36), ' ');
      line += std::string(c->summary);
      if (c->channels != stream::channel_set::market)
        line += " (" + std::string(set_name(c->channels)) + ")";
      out << line << "\n";
    }
  }
  out << "\nflags:\n";
  for (const stream_flag& f : stream_flags()) {
    std::string usage = f.short_name.empty() ? "    " : std::string(f.short_name) + ", ";
    usage += std::string(f.name) + (f.value.empty() ? "" : " " + std::string(f.value));
    usage.resize(std::max<std::size_t>(usage.size() + 2, 26), ' ');
    out << "  " << usage << f.help << "\n";
  }
  out << "\ncolumns of -f csv and -f table:\n"
         "  ev, then the event's keys; with several event types, each type's keys prefixed by its\n"
         "  prefix (T.p, Q.bp), so that no column holds two meanings, as are those of a type not\n"
         "  subscribed that the server sends. Times as ISO 8601 (--raw-times: the wire's "
         "integers).\n"
         "\nexit codes:\n"
         "  0 done (--count reached), 2 bad usage (an unknown market or prefix: before "
         "connecting), 3 the\n"
         "  server refused (key, plan, another connection) or did not acknowledge a topic, 4 "
         "transport\n"
         "  failure (three failed connections before the first authentication; after it, "
         "reconnects\n"
         "  without end), 5 a frame that does not decode\n"
         "\nexamples:\n"
         "  massive stream stocks T.AAPL,Q.AAPL --count 10 -f table\n"
         "  massive stream crypto XT.BTC-USD -f csv -o trades.csv\n"
         "  massive stream stocks 'AM.*' --delayed\n"
         "  massive stream stocks T.AAPL --mock --count 3        (the embedded mock stream, "
         "offline)\n";
}

/// What one event type prints as: its `ev` and, with several types, its columns' prefix.
struct event_print {
  std::string ev;
  std::string column_prefix;
};

/// The columns of the events of `kinds`: ev, then each type's keys (prefixed with several types).
std::vector<std::string> stream_columns(const std::vector<const stream::channel_info*>& kinds) {
  std::vector<std::string> out{"ev"};
  alignas(std::max_align_t) static std::byte storage[4096];
  for (const stream::channel_info* c : kinds) {
    stream::visit_event(c->kind, storage, [&](const auto& typed) {
      using event = std::decay_t<decltype(typed)>;
      static_assert(sizeof(event) <= sizeof storage);
      const event* blank = new (storage) event{};
      for (const std::string& name : columns_of(reflection::row_functions_of<event>, blank)) {
        out.push_back(kinds.size() > 1 ? std::string(c->prefix) + "." + name : name);
      }
      blank->~event();
    });
  }
  return out;
}

}  // namespace

std::optional<stream::market> market_named(std::string_view name) {
  for (const stream::market m : markets) {
    if (stream::market_path(m) == name) return m;
  }
  return std::nullopt;
}

topic_words split_topics(std::string_view list) {
  topic_words out;
  for (std::string_view rest = list; !rest.empty();) {
    const std::string_view one = rest.substr(0, rest.find(','));
    rest.remove_prefix(std::min(rest.size(), one.size() + 1));
    const auto dot = one.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == one.size()) {
      out.problem = "a topic is <prefix>.<ticker> (T.AAPL, Q.*), not '" + std::string(one) + "'";
      return out;
    }
    out.topics.emplace_back(one.substr(0, dot), one.substr(dot + 1));
  }
  return out;
}

void stream_completion(std::ostream& out) {
  out << "# The topic prefixes of a market's channels.\n_massive_stream_prefixes() {\n  case "
         "\"$1\" in\n";
  for (const stream::market m : markets) {
    std::string prefixes;
    for (const stream::channel_info* c : channels_of(m)) {
      const std::string word = std::string(c->prefix) + ".";
      if (prefixes.find(" " + word) == std::string::npos && !prefixes.starts_with(word)) {
        prefixes += (prefixes.empty() ? "" : " ") + word;
      }
    }
    out << "    " << stream::market_path(m) << ") echo \"" << prefixes << "\" ;;\n";
  }
  out << "  esac\n}\n\n";
  out << "# Candidates after `massive stream`: $1 the position of the word completed, $2 the "
         "market,\n"
         "# $3 the word before it, $4 the word; status 2: file "
         "names.\n_massive_stream_candidates() {\n"
         "  if [ \"$1\" -eq 2 ]; then\n    echo \"";
  for (const stream::market m : markets) out << stream::market_path(m) << " ";
  out << "--help\"\n    return 0\n  fi\n"
         "  if [ \"$1\" -eq 3 ]; then\n    _massive_stream_prefixes \"$2\"\n    return 0\n  fi\n"
         "  local prev=$3\n  case $4 in --*=*) prev=${4%%=*} ;; esac\n  case $prev in\n";
  std::string names;
  for (const stream_flag& f : stream_flags()) {
    names += (names.empty() ? "" : " ") + std::string(f.name);
    if (f.value.empty()) continue;
    out << "    " << f.short_name << (f.short_name.empty() ? "" : "|") << f.name << ")";
    if (!f.choices.empty()) {
      out << " echo \"";
      for (std::size_t i = 0; i < f.choices.size(); ++i) out << (i ? " " : "") << f.choices[i];
      out << "\"; return 0 ;;\n";
    } else {
      out << " return " << (f.value == "FILE" || f.value == "PEM" ? 2 : 0) << " ;;\n";
    }
  }
  out << "  esac\n  echo \"" << names << "\"\n}\n\n";
}

int stream_command(std::span<const std::string_view> words) {
#ifdef MASSIVE_CLI_WITH_RELAY
  // --via: the relay's JetStream stream instead of Massive's (relay_command.cpp).
  if (std::find(words.begin(), words.end(), "--via") != words.end()) return stream_via_relay(words);
#endif
  if (!words.empty() && (words[0] == "--help" || words[0] == "-h" || words[0] == "help")) {
    print_stream_help(std::cout);
    return exit_done;
  }
  if (words.size() < 2) return stream_usage("name a market and topics");
  const std::optional<stream::market> market = market_named(words[0]);
  if (!market) {
    std::vector<std::string_view> names;
    for (const stream::market m : markets) names.push_back(stream::market_path(m));
    std::string problem = "no market '" + std::string(words[0]) + "'";
    if (const auto near = reflection::nearest_name(words[0], names))
      return stream_usage(problem + " (did you mean " + std::string(*near) + "?)");
    return stream_usage(problem + " (stocks, options, forex, crypto, indices, futures)");
  }
  if (words[1].starts_with("-")) return stream_usage("name topics after the market: T.AAPL,Q.*");
  stream_settings settings;
  settings.call.format = output_format::jsonl;
  try {
    parse_flags(words.subspan(2), std::span<const stream_flag>(stream_flags()), settings);
  } catch (const usage_error& e) {
    return stream_usage(e.what());
  }
  if (settings.call.help) {
    print_stream_help(std::cout);
    return exit_done;
  }
  const bool business =
      settings.feed == stream::feed::business || settings.feed == stream::feed::delayed_business;
  const stream::channel_set set = settings.channels.value_or(
      business ? stream::channel_set::business : stream::channel_set::market);

  // Each topic's prefix, checked against the description's channels for the market.
  const std::vector<const stream::channel_info*> known = channels_of(*market);
  std::vector<stream::topic> topics;
  std::vector<const stream::channel_info*> kinds;  // the event types asked for, in topic order
  const topic_words written = split_topics(words[1]);
  if (!written.problem.empty()) return stream_usage(written.problem);
  for (const auto& [prefix, ticker] : written.topics) {
    const stream::channel_info* channel = nullptr;
    std::vector<std::string_view> prefixes;
    for (const stream::channel_info* c : known) {
      prefixes.push_back(c->prefix);
      if (c->prefix == prefix && carries(set, c->channels) && channel == nullptr) channel = c;
    }
    if (channel == nullptr) {
      for (const stream::channel_info* c : known) {
        if (c->prefix == prefix) {
          return stream_usage("'" + std::string(prefix) + "' is a channel of the " +
                              std::string(set_name(c->channels)));
        }
      }
      std::string problem = "no channel '" + std::string(prefix) + "' on " + std::string(words[0]);
      if (const auto near = reflection::nearest_name(prefix, prefixes))
        problem += " (did you mean " + std::string(*near) + "?)";
      return stream_usage(problem + "; massive stream --help lists each market's prefixes");
    }
    topics.emplace_back(*market, prefix, ticker);
    if (std::find(kinds.begin(), kinds.end(), channel) == kinds.end()) kinds.push_back(channel);
  }

  std::unique_ptr<mock::stream_server> local;
  stream::stream_config options;
  options.market = *market;
  options.feed = settings.feed;
  options.channels = set;
  options.url = settings.url;
  // The trust and proxy flags the REST commands take, as they set them (the same structs).
  options.tls = settings.call.client.tls;
  options.proxy = settings.call.client.proxy;
  options.headers = settings.call.client.headers;
  if (settings.call.mock) {
    local = std::make_unique<mock::stream_server>();
    options.api_key = "mock-stream-key";
    options.url = local->url(stream::market_path(*market));
    options.tls.ca_pem = local->certificate_pem();
  } else {
    const char* key = std::getenv("MASSIVE_API_KEY");
    if (key == nullptr || *key == '\0') return stream_usage("set MASSIVE_API_KEY (or use --mock)");
  }
  asio::io_context io;
  int status = exit_done;
  const auto end_with = [&](int code, std::string_view message) {
    if (!message.empty())
      std::cerr << "massive stream: " << terminal_safe(message, max_message_bytes) << "\n";
    status = code;
    io.stop();
  };

  // Lost connections and their causes on stderr, as they happen; everything with --verbose.
  const bool verbose = static_cast<bool>(settings.call.client.trace);
  std::string last_loss;  // why the connection was lost last: the cause of the next gap
  // A stream not yet authenticated once gives up after start_attempts failed connections, exit
  // 4 naming the last failure. At the start a failure that repeats is the URL, the trust (an
  // untrusted certificate), a server that is not one (HTTP 200 or a 4xx to the upgrade, a wrong
  // Sec-WebSocket-Accept) or none listening: waiting heals none of them, and the user is there
  // to see it. Once authenticated, a lost connection is retried without end (the SDK's default):
  // the key, the URL and the trust are known good, and drops heal.
  constexpr int start_attempts = 3;
  bool authenticated = false;
  int failed_starts = 0;
  std::optional<stream::client> client;
  options.trace = [&](const stream::stream_trace& t) {
    // The session's word, not a status traced: a server may send auth_success unasked.
    if (client && (client->state().current() == stream::session::state::subscribing ||
                   client->state().current() == stream::session::state::streaming)) {
      authenticated = true;
    }
    const bool routine_status = t.what == "status" && (t.detail.starts_with("connected") ||
                                                       t.detail.starts_with("auth_success") ||
                                                       t.detail.starts_with("success"));
    const bool loss = t.what == "disconnected" || (t.what == "status" && !routine_status);
    if (loss) last_loss = std::string(t.what) + ": " + std::string(t.detail);
    if (verbose || loss || t.what == "backoff" || t.what == "refused" ||
        (t.what == "connect" && !last_loss.empty())) {
      std::cerr << "massive stream: " << t.what << " " << terminal_safe(t.detail, max_message_bytes)
                << "\n";
    }
    if (t.what == "disconnected" && !authenticated && ++failed_starts == start_attempts) {
      end_with(exit_transport, "no stream after " + std::to_string(start_attempts) +
                                   " attempts, none authenticated; the last: " + std::string(t.detail));
    }
  };

  std::ofstream file;
  if (!settings.call.output_path.empty()) {
    file.open(settings.call.output_path, std::ios::binary | std::ios::trunc);
    if (!file) return stream_usage("cannot write " + settings.call.output_path);
  }
  std::ostream& rows_out = settings.call.output_path.empty() ? std::cout : file;
  const std::unique_ptr<row_printer> printer =
      make_printer(settings.call.format, rows_out, stream_columns(kinds), settings.call.raw_times);
  // How each kind of event prints: its ev and (with several types) its columns' prefix. A type
  // not subscribed, which a server may send all the same, is prefixed even beside one type: its
  // keys (a quote's c, its condition) would otherwise share a column with the type's (a trade's
  // c, its conditions).
  std::vector<event_print> prints(stream::event_kind_count);
  for (const stream::channel_info* c : known) {
    if (!carries(set, c->channels)) continue;
    event_print& p = prints[static_cast<std::size_t>(c->kind)];
    p.ev = std::string(c->prefix);
    const bool asked = std::any_of(kinds.begin(), kinds.end(),
                                   [&](const stream::channel_info* k) { return k->kind == c->kind; });
    if (kinds.size() > 1 || !asked) p.column_prefix = p.ev + ".";
  }

  try {
    client.emplace(io.get_executor(), options);
  } catch (const transport_error& e) {
    return stream_usage(e.what());
  } catch (const stream::stream_error& e) {
    return stream_usage(e.what());
  }
  client->subscribe(topics);

  // Every topic acknowledged within --ack-timeout of being sent, on every connection.
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        asio::steady_timer timer(io);
        std::optional<std::chrono::steady_clock::time_point> waiting_since;
        for (;;) {
          timer.expires_after(std::chrono::milliseconds(50));
          co_await timer.async_wait(asio::use_awaitable);
          const stream::session& s = client->state();
          const bool waiting = (s.current() == stream::session::state::subscribing ||
                                s.current() == stream::session::state::streaming) &&
                               !s.pending().empty();
          if (!waiting) {
            waiting_since.reset();
            continue;
          }
          const auto now = std::chrono::steady_clock::now();
          if (!waiting_since) waiting_since = now;
          if (now - *waiting_since < settings.ack_timeout) continue;
          std::string unacknowledged;
          for (const std::string& t : s.pending())
            unacknowledged += (unacknowledged.empty() ? "" : ", ") + t;
          end_with(exit_api, "the server did not acknowledge " + unacknowledged + " within " +
                                 std::to_string(settings.ack_timeout.count()) +
                                 " ms (--ack-timeout): it drops, without a word, topics the feed "
                                 "or the plan does not serve");
          co_return;
        }
      },
      asio::detached);

  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        std::uint64_t printed = 0;
        bool skipped_said = false;
        for (;;) {
          const stream::batch b = co_await client->next();
          if (b.gap()) {
            std::cerr << "massive stream: gap: events may be missing before the next one ("
                      << terminal_safe(last_loss.empty() ? "frames dropped" : last_loss,
                                       max_message_bytes)
                      << ")\n";
          }
          if (b.skipped() != 0 && !skipped_said) {
            // Events the channels do not carry (a type the API added since this build's
            // description, or another set of channels): said once, not dropped unseen.
            skipped_said = true;
            std::cerr << "massive stream: skipping events of a type the "
                      << channel_set_names[static_cast<std::size_t>(set)]
                      << " channels do not carry (" << b.skipped()
                      << " in this frame; --channels names the others)\n";
          }
          bool done = false;
          b.visit([&](const auto& event) {
            using event_type = std::decay_t<decltype(event)>;
            if constexpr (!std::is_same_v<event_type, massive::status_event>) {
              if (done) return;
              const event_print& p =
                  prints[static_cast<std::size_t>(stream::event_traits<event_type>::kind)];
              printer->row(
                  {&event, 0, &reflection::row_functions_of<event_type>, p.ev, p.column_prefix});
              done = settings.count != 0 && ++printed == settings.count;
            }
          });
          printer->end_page();
          if (done) break;
        }
        printer->finish();
        rows_out.flush();
        end_with(exit_done, "");
      },
      [&](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const stream::stream_error& failure) {
          const bool refused = failure.code() == stream::stream_errc::auth_failed ||
                               failure.code() == stream::stream_errc::no_stream_access ||
                               failure.code() == stream::stream_errc::max_connections;
          end_with(refused ? exit_api : exit_transport, failure.what());
        } catch (const massive::decode_error& failure) {
          end_with(exit_decode, failure.what());
        } catch (const output_error& failure) {
          end_with(exit_decode, std::string("the events cannot be printed: ") + failure.what());
        } catch (const std::exception& failure) {
          end_with(exit_transport, failure.what());
        }
      });
  io.run();
  return status;
}

}  // namespace massive::cli
