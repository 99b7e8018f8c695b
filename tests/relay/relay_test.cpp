// The relay and its consumers against the real engine: nats-server with JetStream started by
// the test on loopback (one node, or a three-node cluster), the upstream played by the mock
// stream server. What a stream holds is read back with nats.c directly, not through the
// consumer under test, where the claim is about the stream itself (epochs, order).
#include <doctest/doctest.h>
#include <nats/nats.h>

#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <massive/mock/stream_server.hpp>
#include <massive/relay/consumer.hpp>
#include <massive/relay/error.hpp>
#include <massive/relay/relay.hpp>
#include <massive/relay/subject.hpp>
#include <massive/stream/client.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "nats_fixture.hpp"

namespace asio = boost::asio;
namespace mr = massive::relay;
namespace ms = massive::stream;
using namespace std::chrono_literals;
using massive::test::nats_cluster;
using massive::test::nats_node;

namespace {

/// An io_context on a thread of its own; freeze() stops it as a hung process stops, thaw()
/// resumes it.
struct runner {
  asio::io_context io;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work{
      asio::make_work_guard(io)};
  std::thread thread{[this] { io.run(); }};
  // Waits for the work left (a relay's last requests, a consumer's last fetch) rather than
  // stopping the context under a worker thread that will still complete into it.
  ~runner() {
    work.reset();
    if (thread.joinable()) thread.join();
  }
  void freeze() {
    io.stop();
    thread.join();
  }
  void thaw() {
    io.restart();
    thread = std::thread([this] { io.run(); });
  }
};

template <class T>
T wait(std::future<T> f, std::chrono::seconds limit = 60s) {
  REQUIRE_MESSAGE(f.wait_for(limit) == std::future_status::ready,
                  "no completion within " << limit.count() << " s");
  return f.get();
}

template <class Predicate>
bool eventually(Predicate p, std::chrono::milliseconds limit = 20s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!p()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

massive::mock::stream_server_options mock_options(std::size_t max_frames,
                                                  std::chrono::microseconds interval = 1ms) {
  massive::mock::stream_server_options o;
  o.events_per_frame = 4;
  o.frame_interval = interval;
  o.max_frames = max_frames;
  return o;
}

mr::relay_config relay_config(const massive::mock::stream_server& upstream,
                              const std::string& servers, const std::string& id) {
  mr::relay_config c;
  c.upstream.api_key = "mock-stream-key";
  c.upstream.url = upstream.url("stocks");
  c.upstream.tls.ca_pem = upstream.certificate_pem();
  c.upstream.market = ms::market::stocks;
  c.nats.servers = servers;
  c.topics = {"T.*"};
  c.id = id;
  c.lease_ttl = 1s;
  c.demand_poll = 100ms;
  c.linger = 1s;
  return c;
}

mr::consumer_config consumer_config(const std::string& servers, std::vector<ms::topic> topics) {
  mr::consumer_config c;
  c.nats.servers = servers;
  c.market = ms::market::stocks;
  c.topics = std::move(topics);
  c.start = mr::start_at::all;
  c.fetch_wait = 200ms;
  c.limits.keep_event_text = true;
  return c;
}

/// Every event's bytes of a batch, in order.
void append_texts(const ms::batch& b, std::vector<std::string>& out) {
  b.visit_with_text([&](const auto&, std::string_view text) { out.emplace_back(text); });
}

std::vector<std::string> read_texts(mr::consumer& c, std::size_t events) {
  std::vector<std::string> out;
  while (out.size() < events) append_texts(wait(c.next(asio::use_future)), out);
  return out;
}

/// The upstream's events as a client connected to it directly reads them (the mock sends each
/// connection the same events for the same subscription).
std::vector<std::string> upstream_texts(const massive::mock::stream_server& server,
                                        std::size_t events) {
  runner r;
  ms::stream_config o;
  o.api_key = "mock-stream-key";
  o.url = server.url("stocks");
  o.tls.ca_pem = server.certificate_pem();
  o.limits.keep_event_text = true;
  ms::client direct(r.io.get_executor(), o);
  direct.subscribe({ms::stocks::trades("*")});
  std::vector<std::string> out;
  while (out.size() < events) append_texts(wait(direct.next(asio::use_future)), out);
  direct.close();
  return out;
}

std::vector<std::string> with_ticker(const std::vector<std::string>& texts,
                                     std::vector<std::string> tickers) {
  std::vector<std::string> out;
  for (const std::string& t : texts) {
    for (const std::string& ticker : tickers) {
      if (t.find("\"sym\":\"" + ticker + "\"") != std::string::npos) out.push_back(t);
    }
  }
  return out;
}

/// One message of the relay's stream as JetStream holds it.
struct stored {
  std::uint64_t sequence = 0;
  std::string subject;
  std::string epoch;
  std::string data;
};

/// The test's own view of JetStream through nats.c: a connection and its context, closed at the
/// end of the scope.
struct jetstream_view {
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  explicit jetstream_view(const std::string& servers) {
    REQUIRE(natsConnection_ConnectTo(&nc, servers.c_str()) == NATS_OK);
    REQUIRE(natsConnection_JetStream(&js, nc, nullptr) == NATS_OK);
  }
  ~jetstream_view() {
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
  }
  jetstream_view(const jetstream_view&) = delete;
  jetstream_view& operator=(const jetstream_view&) = delete;
  /// What `stream` holds and, in a cluster, which node leads it.
  std::unique_ptr<jsStreamInfo, void (*)(jsStreamInfo*)> info(const std::string& stream) {
    jsStreamInfo* raw = nullptr;
    REQUIRE(js_GetStreamInfo(&raw, js, stream.c_str(), nullptr, nullptr) == NATS_OK);
    return {raw, &jsStreamInfo_Destroy};
  }
};

/// Every message of `stream`, read with nats.c's ordered consumer (not the consumer under test).
std::vector<stored> stream_contents(const std::string& servers, const std::string& stream) {
  jetstream_view view(servers);
  jsCtx* js = view.js;
  const std::uint64_t last = view.info(stream)->State.LastSeq;
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = stream.c_str();
  so.Ordered = true;
  natsSubscription* sub = nullptr;
  REQUIRE(js_SubscribeSync(&sub, js, "massive.>", nullptr, &so, nullptr) == NATS_OK);
  std::vector<stored> out;
  while (out.empty() || out.back().sequence < last) {
    natsMsg* m = nullptr;
    REQUIRE(natsSubscription_NextMsg(&m, sub, 5000) == NATS_OK);
    stored s;
    jsMsgMetaData* meta = nullptr;
    REQUIRE(natsMsg_GetMetaData(&meta, m) == NATS_OK);
    s.sequence = meta->Sequence.Stream;
    jsMsgMetaData_Destroy(meta);
    s.subject = natsMsg_GetSubject(m);
    const char* epoch = nullptr;
    if (natsMsgHeader_Get(m, "Massive-Epoch", &epoch) == NATS_OK) s.epoch = epoch;
    s.data.assign(natsMsg_GetData(m), static_cast<std::size_t>(natsMsg_GetDataLength(m)));
    out.push_back(std::move(s));
    natsMsg_Destroy(m);
  }
  natsSubscription_Destroy(sub);
  return out;
}

/// The index (0, 1, 2) of the cluster node that leads `stream` (nodes are named n1, n2, n3).
std::size_t stream_leader(const std::string& servers, const std::string& stream) {
  jetstream_view view(servers);
  const auto info = view.info(stream);
  REQUIRE(info->Cluster != nullptr);
  REQUIRE(info->Cluster->Leader != nullptr);
  const std::string leader = info->Cluster->Leader;
  REQUIRE(leader.size() == 2);
  return static_cast<std::size_t>(leader[1] - '1');
}

/// A relay's trace lines, kept for a failure's report (doctest prints an INFO of it lazily).
struct trace_log {
  mutable std::mutex mutex;
  std::vector<std::string> lines;
  std::function<void(const mr::relay_trace&)> hook() {
    return [this](const mr::relay_trace& t) {
      const std::lock_guard lock(mutex);
      lines.push_back(std::string(t.what) + ": " + std::string(t.detail));
    };
  }
  friend std::ostream& operator<<(std::ostream& out, const trace_log& log) {
    const std::lock_guard lock(log.mutex);
    const std::size_t first = log.lines.size() > 40 ? log.lines.size() - 40 : 0;
    for (std::size_t i = first; i < log.lines.size(); ++i) out << "\n  " << log.lines[i];
    return out;
  }
};

/// The lease revision of an epoch ("12.0" -> 12).
std::uint64_t revision_of(const std::string& epoch) {
  return std::stoull(epoch.substr(0, epoch.find('.')));
}

}  // namespace

TEST_CASE(
    "every event reaches every consumer exactly as the upstream sent it, whatever its filter") {
  nats_node nats;
  massive::mock::stream_server upstream(mock_options(50));
  runner relays;
  runner consumers;
  mr::relay relay(relays.io.get_executor(), relay_config(upstream, nats.url(), "relay-a"));
  std::future<void> ran = relay.run(asio::use_future);

  // Three filters: the channel's wildcard (server-side), one ticker (server-side, exact), two
  // tickers (the market's subjects, the others dropped by the consumer).
  mr::consumer every(consumers.io.get_executor(),
                     consumer_config(nats.url(), {ms::stocks::trades("*")}));
  mr::consumer apple(consumers.io.get_executor(),
                     consumer_config(nats.url(), {ms::stocks::trades("AAPL")}));
  mr::consumer two(
      consumers.io.get_executor(),
      consumer_config(nats.url(), {ms::stocks::trades("AAPL"), ms::stocks::trades("MSFT")}));

  const std::vector<std::string> sent = upstream_texts(upstream, 200);
  const std::vector<std::string> all = read_texts(every, 200);
  // Seen failing with the relay not setting keep_event_text on its upstream (no bytes to
  // forward): nothing decodable arrived and the test stopped at "no completion within 20 s".
  CHECK(all == sent);
  const std::vector<std::string> aapl = with_ticker(sent, {"AAPL"});
  // Seen failing with runs cut by ev alone (the ticker ignored): MSFT and NVDA trades came in
  // messages under massive.stocks.T.AAPL.
  CHECK(read_texts(apple, aapl.size()) == aapl);
  const std::vector<std::string> aapl_msft = with_ticker(sent, {"AAPL", "MSFT"});
  // Seen failing with the consumer's subject check removed (every message of the market kept):
  // NVDA trades came through.
  CHECK(read_texts(two, aapl_msft.size()) == aapl_msft);
  CHECK(aapl.size() > 50);

  // The stream holds one message per run of one subject, each under its subject.
  for (const stored& m : stream_contents(nats.url(), "MASSIVE_STOCKS")) {
    if (mr::is_control_subject(m.subject)) continue;
    const auto sym = m.data.find("\"sym\":\"");
    REQUIRE(sym != std::string::npos);
    const std::string ticker = m.data.substr(sym + 7, m.data.find('"', sym + 7) - sym - 7);
    CHECK(m.subject == "massive.stocks.T." + ticker);
  }
  CHECK(relay.stats().events >= 200);
  relay.stop();
  wait(std::move(ran));
}

TEST_CASE(
    "a durable consumer killed and restarted resumes from its last acknowledgement: no loss") {
  nats_node nats;
  massive::mock::stream_server upstream(mock_options(50));
  runner relays;
  runner consumers;
  mr::relay relay(relays.io.get_executor(), relay_config(upstream, nats.url(), "relay-a"));
  std::future<void> ran = relay.run(asio::use_future);
  const std::vector<std::string> sent = upstream_texts(upstream, 200);

  mr::consumer_config config = consumer_config(nats.url(), {ms::stocks::trades("*")});
  config.durable = "vwap-1";
  config.fetch_batch = 16;
  std::vector<std::string> processed;  // what the owner stored, with the last sequence stored
  std::uint64_t last_processed = 0;
  {
    mr::consumer first(consumers.io.get_executor(), config);
    for (int i = 0; i < 30; ++i) {
      const ms::batch b = wait(first.next(asio::use_future));
      append_texts(b, processed);
      last_processed = first.sequence();
    }
  }  // killed: destroyed without close(), its last batch never acknowledged
  std::size_t duplicates = 0;
  mr::consumer second(consumers.io.get_executor(), config);
  while (processed.size() < sent.size()) {
    const ms::batch b = wait(second.next(asio::use_future));
    if (second.sequence() <= last_processed) {
      ++duplicates;  // recognisable: a sequence the owner already stored
      continue;
    }
    append_texts(b, processed);
    last_processed = second.sequence();
  }
  // Seen failing with the durable consumer kept as it was instead of remade from its
  // acknowledgement floor: the 16-message fetch that was in flight never came back (the
  // second run timed out waiting for events).
  CHECK(processed == sent);
  CHECK(duplicates >= 1);  // the batch the first run had not acknowledged came again
  relay.stop();
  wait(std::move(ran));
}

TEST_CASE(
    "the active relay hangs: another takes over, the gap is marked, the old one stops publishing") {
  nats_node nats;
  massive::mock::stream_server upstream(mock_options(SIZE_MAX, 2ms));
  runner ra;
  runner rb;
  runner consumers;
  mr::relay a(ra.io.get_executor(), relay_config(upstream, nats.url(), "relay-a"));
  std::future<void> a_ran = a.run(asio::use_future);
  REQUIRE(eventually([&] { return a.stats().holding; }));
  mr::relay b(rb.io.get_executor(), relay_config(upstream, nats.url(), "relay-b"));
  std::future<void> b_ran = b.run(asio::use_future);
  mr::consumer reader(consumers.io.get_executor(),
                      consumer_config(nats.url(), {ms::stocks::trades("*")}));
  std::vector<std::string> seen = read_texts(reader, 100);
  CHECK_FALSE(b.stats().holding);

  ra.freeze();  // relay A hangs: it neither renews nor publishes, its sockets stay open
  const auto hung = std::chrono::steady_clock::now();
  bool gap = false;
  while (!gap) {
    const ms::batch batch = wait(reader.next(asio::use_future), 30s);
    gap = batch.gap();
  }
  const auto takeover = std::chrono::steady_clock::now() - hung;
  MESSAGE("fail-over: the first batch of the new relay reached the consumer "
          << std::chrono::duration_cast<std::chrono::milliseconds>(takeover).count()
          << " ms after the active relay hung (lease ttl 1 s)");
  CHECK(b.stats().holding);

  ra.thaw();  // A wakes up past its deadline: it must find the lease lost and publish nothing
  REQUIRE(eventually([&] { return a.stats().losses >= 1; }));
  CHECK_FALSE(a.stats().holding);
  read_texts(reader, 200);

  // In the stream: A's messages, then B's, never A's again; within each relay's epoch every
  // event once, in the upstream's order (the mock's timestamps increase by 1 ms per event).
  const std::vector<stored> contents = stream_contents(nats.url(), "MASSIVE_STOCKS");
  std::uint64_t highest = 0;
  std::map<std::string, std::int64_t> last_time;
  std::size_t data_messages = 0;
  for (const stored& m : contents) {
    REQUIRE_FALSE(m.epoch.empty());
    const std::uint64_t revision = revision_of(m.epoch);
    // Seen failing with publish_fsm's may_publish check removed: A, thawed, published its next
    // frame under revision 1 (stream sequence 183) after B's takeover under revision 2 (110).
    CHECK(revision >= highest);
    highest = std::max(highest, revision);
    if (mr::is_control_subject(m.subject)) continue;
    ++data_messages;
    for (auto at = m.data.find("\"t\":"); at != std::string::npos;
         at = m.data.find("\"t\":", at + 4)) {
      const std::int64_t t = std::stoll(m.data.substr(at + 4));
      auto [entry, fresh] = last_time.emplace(m.epoch, t);
      if (!fresh) {
        CHECK(t > entry->second);
        entry->second = t;
      }
    }
  }
  CHECK(data_messages > 0);
  CHECK(last_time.size() >= 2);  // A's epoch and B's
  b.stop();
  wait(std::move(b_ran));
  a.stop();
  wait(std::move(a_ran));
}

TEST_CASE("a NATS node dies in a three-node cluster: the stream continues") {
  nats_cluster cluster;
  massive::mock::stream_server upstream(mock_options(SIZE_MAX, 2ms));
  runner relays;
  runner consumers;
  mr::relay_config config = relay_config(upstream, cluster.servers(), "relay-a");
  config.replicas = 3;
  trace_log log;  // the relay's last 40 trace lines, printed with a failure
  config.trace = log.hook();
  INFO("the relay's trace:" << log);
  // The cluster elects its JetStream leader after it starts: the relay's first requests may
  // fail until then, so it is started again until it runs.
  std::unique_ptr<mr::relay> relay;
  std::future<void> ran;
  REQUIRE(eventually(
      [&] {
        relay = std::make_unique<mr::relay>(relays.io.get_executor(), config);
        ran = relay->run(asio::use_future);
        if (eventually([&] { return relay->stats().holding; }, 3s)) return true;
        relay->stop();
        ran.wait_for(5s);
        return false;
      },
      30s));
  mr::consumer reader(consumers.io.get_executor(),
                      consumer_config(cluster.servers(), {ms::stocks::trades("*")}));
  read_texts(reader, 100);
  // The node that leads the relay's stream dies (the stream and its buckets elect new leaders).
  // Seen failing, 1 run in 3 to 10, with the lease's writes on the thread that also reads the
  // demand bucket: each read then took the whole request_timeout (2 s), every renewal came
  // after the lease's 1 s TTL, and the relay lost its lease and took it again for as long as the
  // test waited ("reading after the leader (node 1) died, 488 of 500 events so far ... no
  // completion within 60 s", the trace printed below it; in CI it failed so when node 0 died).
  const std::size_t leader = stream_leader(cluster.servers(), "MASSIVE_STOCKS");
  cluster.node(leader).kill();
  // Events published after the node died keep arriving. The relay may lose its lease while
  // the cluster elects new leaders (a gap, then a takeover): the stream still continues.
  const std::uint64_t before = reader.sequence();
  std::vector<std::string> after;
  INFO("reading after the leader (node " << leader << ") died, " << after.size()
                                          << " of 500 events so far");
  while (after.size() < 500) append_texts(wait(reader.next(asio::use_future), 60s), after);
  // Not yet seen failing by a regression of the relay: giving the consumer node 0 alone did not
  // break it (nats.c reconnects to the servers the cluster announced).
  CHECK(reader.sequence() >= before + 500);
  INFO("stopping the relay");
  relay->stop();
  wait(std::move(ran));
}

TEST_CASE("credentials, NATS's and Massive's, appear in no error and no trace") {
  const std::string nats_password = "Nats-Pw-7c1e";
  const std::string massive_key = "Massive-Key-4242";
  nats_node nats(nats_node::options{.user = "relay", .password = nats_password});
  massive::mock::stream_server_options o = mock_options(20);
  o.api_key = massive_key;
  massive::mock::stream_server upstream(o);
  runner r;
  std::mutex lines_mutex;
  std::vector<std::string> lines;
  const auto keep = [&](std::string_view what, std::string_view detail) {
    const std::lock_guard lock(lines_mutex);
    lines.push_back(std::string(what) + " " + std::string(detail));
  };
  const auto failure_of = [&](std::future<void> f) -> std::string {
    try {
      wait(std::move(f));
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };

  // A wrong NATS password, given as options and inside the URL.
  mr::relay_config wrong = relay_config(upstream, nats.url(), "relay-a");
  wrong.nats.user = "relay";
  wrong.nats.password = "Wrong-Pw-91";
  const std::string wrong_option =
      failure_of(mr::relay(r.io.get_executor(), wrong).run(asio::use_future));
  wrong.nats.password.clear();
  wrong.nats.user.clear();
  wrong.nats.servers = "nats://relay:Url-Pw-55@127.0.0.1:" + std::to_string(nats.port());
  const std::string wrong_url =
      failure_of(mr::relay(r.io.get_executor(), wrong).run(asio::use_future));
  CHECK(wrong_option.find("nats_failed") != std::string::npos);
  CHECK(wrong_url.find("nats_failed") != std::string::npos);
  lines.push_back(wrong_option);
  lines.push_back(wrong_url);

  // A wrong Massive key: the relay ends with upstream_failed.
  mr::relay_config bad_key = relay_config(upstream, nats.url(), "relay-a");
  bad_key.nats.user = "relay";
  bad_key.nats.password = nats_password;
  bad_key.upstream.api_key = "Wrong-Massive-Key-77";
  bad_key.upstream.trace = [&](const ms::stream_trace& t) { keep(t.what, t.detail); };
  bad_key.trace = [&](const mr::relay_trace& t) { keep(t.what, t.detail); };
  bad_key.upstream.reconnect.max_attempts = 0;
  const std::string refused =
      failure_of(mr::relay(r.io.get_executor(), bad_key).run(asio::use_future));
  CHECK(refused.find("upstream_failed") != std::string::npos);
  lines.push_back(refused);

  // The right ones: a relay and a consumer at work, every trace line kept.
  mr::relay_config good = bad_key;
  good.upstream.api_key = massive_key;
  mr::relay relay(r.io.get_executor(), good);
  std::future<void> ran = relay.run(asio::use_future);
  mr::consumer_config reader_config = consumer_config(nats.url(), {ms::stocks::trades("*")});
  reader_config.nats.user = "relay";
  reader_config.nats.password = nats_password;
  mr::consumer reader(r.io.get_executor(), reader_config);
  CHECK(read_texts(reader, 40).size() >= 40);
  reader_config.nats.password = "Wrong-Pw-92";
  mr::consumer refused_reader(r.io.get_executor(), reader_config);
  try {
    wait(refused_reader.next(asio::use_future));
  } catch (const std::exception& e) {
    lines.push_back(e.what());
  }
  relay.stop();
  wait(std::move(ran));

  const std::lock_guard lock(lines_mutex);
  CHECK(lines.size() > 10);
  for (const std::string& line : lines) {
    CAPTURE(line);
    // Seen failing with throw_nats not scrubbing: "relay: nats_failed: connecting to NATS at
    // nats://relay:Url-Pw-55@127.0.0.1:40683: Authentication Violation (...)".
    for (const std::string& secret :
         {nats_password, std::string("Wrong-Pw-91"), std::string("Url-Pw-55"),
          std::string("Wrong-Pw-92"), massive_key, std::string("Wrong-Massive-Key-77")}) {
      CHECK(line.find(secret) == std::string::npos);
    }
  }
}
