// The stream client against massive::mock::stream_server over TLS on loopback: the handshake
// and the subscription replay after each fault kind (the server records what it received),
// fragmented frames, the fatal ends, certificate and host-name refusal, the key kept secret; and
// against a server that breaks the WebSocket protocol (rogue_server.hpp).
#include "frame_compare.hpp"
#include "rogue_server.hpp"
#include "stream_test_support.hpp"

#include <massive/mock/stream_server.hpp>
#include <massive/stream/client.hpp>
#include <massive/stream/error.hpp>

#include <boost/asio.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace ms = massive::stream;
namespace mock = massive::mock;
using massive::test::run;

namespace {

constexpr const char* key = "mock-stream-key";

ms::stream_config options_for(const mock::stream_server& server) {
  ms::stream_config o;
  o.api_key = key;
  o.url = server.url("stocks");
  o.tls.ca_pem = server.certificate_pem();
  o.reconnect.initial_backoff = std::chrono::milliseconds(1);
  o.reconnect.max_backoff = std::chrono::milliseconds(5);
  o.connect_timeout = std::chrono::milliseconds(5000);
  return o;
}

const std::string auth_message = R"({"action":"auth","params":"mock-stream-key"})";

}  // namespace

TEST_CASE("handshake, subscription, events; the server receives auth then the topics") {
  mock::stream_server server;
  std::vector<std::string> traces;
  ms::stream_config o = options_for(server);
  o.trace = [&](const ms::stream_trace& t) { traces.push_back(std::string(t.what) + " " + std::string(t.detail)); };
  run([&]() -> asio::awaitable<void> {
    ms::client stream(co_await asio::this_coro::executor, o);
    stream.subscribe({ms::stocks::trades("AAPL"), ms::stocks::quotes("*")});
    std::size_t trades = 0, quotes = 0;
    while (trades < 5 || quotes < 5) {
      const ms::batch b = co_await stream.next();
      CHECK(!b.gap());
      for (const auto& t : b.events<massive::stock_trade_event>()) {
        CHECK(t.ticker == "AAPL");
        ++trades;
      }
      quotes += b.events<massive::stock_quote_event>().size();
    }
    CHECK(stream.state().ready());
    CHECK(stream.state().acknowledged() == 2);
  });
  const auto received = server.received();
  REQUIRE(received.size() == 1);
  REQUIRE(received[0].size() >= 2);
  CHECK(received[0][0] == auth_message);
  CHECK(received[0][1] == R"({"action":"subscribe","params":"T.AAPL,Q.*"})");
  for (const std::string& line : traces) CHECK(line.find(key) == std::string::npos);
}

TEST_CASE("after every fault the client reconnects, authenticates, replays every topic and marks the gap") {
  for (const mock::stream_fault fault : {mock::stream_fault::close, mock::stream_fault::reset,
                                         mock::stream_fault::slow_consumer, mock::stream_fault::force_disconnect,
                                         mock::stream_fault::auth_timeout}) {
    CAPTURE(static_cast<int>(fault));
    mock::stream_server server;
    server.script({{fault, 2}});
    run([&]() -> asio::awaitable<void> {
      ms::client stream(co_await asio::this_coro::executor, options_for(server));
      stream.subscribe({ms::stocks::trades("AAPL"), ms::stocks::second_aggregates("MSFT")});
      for (int frames = 0;; ++frames) {
        REQUIRE(frames < 100);
        const ms::batch b = co_await stream.next();
        if (stream.state().reconnects() == 0) {
          CHECK(!b.gap());
          continue;
        }
        // The first batch after the reconnect follows a gap, unless nothing had streamed yet
        // (an authentication that timed out).
        CHECK(b.gap() == (fault != mock::stream_fault::auth_timeout));
        break;
      }
    });
    const auto received = server.received();
    REQUIRE(received.size() == 2);
    // The second connection: auth, then every subscription at once.
    REQUIRE(received[1].size() >= 2);
    CHECK(received[1][0] == auth_message);
    CHECK(received[1][1] == R"({"action":"subscribe","params":"T.AAPL,A.MSFT"})");
  }
}

TEST_CASE("a stalled connection (no frame, no pong) is replaced, with every topic replayed") {
  mock::stream_server server;
  server.script({{mock::stream_fault::stall, 2}});
  ms::stream_config o = options_for(server);
  o.idle_timeout = std::chrono::milliseconds(300);  // a ping at 150 ms, given up at 300 ms
  std::vector<std::string> lost;
  o.trace = [&](const ms::stream_trace& t) {
    if (t.what == "disconnected") lost.emplace_back(t.detail);
  };
  run([&]() -> asio::awaitable<void> {
    ms::client stream(co_await asio::this_coro::executor, o);
    stream.subscribe({ms::stocks::trades("AAPL")});
    for (int frames = 0;; ++frames) {
      REQUIRE(frames < 100);
      const ms::batch b = co_await stream.next();
      if (stream.state().reconnects() == 1) {
        CHECK(b.gap());
        break;
      }
    }
  });
  // The client gave up on the silent connection itself; the server would have held it 60 s.
  // Seen failing with the idle check not started (client.cpp's co_spawn of watch() disabled;
  // before issue 35, with Beast's `t.idle_timeout` removed): the connection ended only when the
  // server dropped it after 60 s,
  // "CHECK( lost.front() == "stalled: no frame or pong in time" ) is NOT correct! values:
  // CHECK( stream truncated == stalled: no frame or pong in time )" (the stall's words then).
  REQUIRE(lost.size() == 1);
  CHECK(lost.front() == "stalled: no message or pong in 300 ms (idle_timeout)");
  const auto received = server.received();
  REQUIRE(received.size() == 2);
  CHECK(received[1][1] == R"({"action":"subscribe","params":"T.AAPL"})");
}

TEST_CASE("a quiet connection that answers pings is kept: its pongs count as activity") {
  using namespace asio::experimental::awaitable_operators;
  mock::stream_server server({.max_frames = 1});  // one frame, then silent but reading
  ms::stream_config o = options_for(server);
  o.idle_timeout = std::chrono::milliseconds(300);  // a tick every 150 ms
  std::vector<std::string> lost;
  o.trace = [&](const ms::stream_trace& t) {
    if (t.what == "disconnected") lost.emplace_back(t.detail);
  };
  run([&]() -> asio::awaitable<void> {
    ms::client stream(co_await asio::this_coro::executor, o);
    stream.subscribe({ms::stocks::trades("AAPL")});
    (void)co_await stream.next();
    asio::steady_timer quiet(co_await asio::this_coro::executor, std::chrono::milliseconds(1200));
    const auto winner = co_await (stream.next() || quiet.async_wait(asio::use_awaitable));
    CHECK(winner.index() == 1);
  });
  // Eight ticks of silence but for the pongs; the one loss is the cancelled next() at the end.
  // Seen failing with the control callback not counting them (client.cpp's `++activity` in
  // control_callback removed, before the idle rule counted whole messages): the connection
  // replaced after 300 ms, next() won with the new connection's frame and lost.front() was
  // "stalled: no frame or pong in time".
  REQUIRE(lost.size() == 1);
  CHECK(lost.front() == "Operation canceled");
}

TEST_CASE("a slow consumer: back_pressure loses nothing, drop_oldest drops the oldest and counts them") {
  constexpr std::size_t frames = 200;
  for (const ms::slow_consumer_policy policy :
       {ms::slow_consumer_policy::back_pressure, ms::slow_consumer_policy::drop_oldest}) {
    CAPTURE(static_cast<int>(policy));
    mock::stream_server_options so;
    so.frame_interval = std::chrono::microseconds(0);  // as fast as the socket takes them
    mock::stream_server server(so);
    server.script({{mock::stream_fault::close, frames}});
    ms::stream_config o = options_for(server);
    o.slow_consumer = policy;
    o.buffered_batches = 4;
    o.reconnect.max_attempts = 0;  // the close after the last frame ends the stream
    std::size_t seen = 0, gaps = 0;
    ms::drop_count dropped;
    run([&]() -> asio::awaitable<void> {
      ms::client stream(co_await asio::this_coro::executor, o);
      stream.subscribe({ms::stocks::trades("AAPL")});
      asio::steady_timer slow(co_await asio::this_coro::executor);
      // The mock numbers its events by their timestamps, one millisecond apart from the first.
      std::int64_t next_ms = massive::mock::stream_first_timestamp_ms;
      try {
        for (;;) {
          const ms::batch b = co_await stream.next();
          const auto trades = b.events<massive::stock_trade_event>();
          REQUIRE(trades.size() == b.size());
          // A batch continues the one before it unless it says it follows a gap.
          if (b.gap()) {
            ++gaps;
            CHECK(trades.front().timestamp.count() > next_ms);
          } else {
            CHECK(trades.front().timestamp.count() == next_ms);
          }
          next_ms = trades.back().timestamp.count() + 1;
          seen += b.size();
          slow.expires_after(std::chrono::milliseconds(3));  // the server sends far faster
          co_await slow.async_wait(asio::use_awaitable);
        }
      } catch (const ms::stream_error& e) {
        CHECK(e.code() == ms::stream_errc::reconnects_exhausted);
      }
      dropped = stream.dropped();
    });
    REQUIRE(server.frames_sent() == frames);
    // Seen failing with the pump's `dropped.events += ...` removed (drop_oldest): "CHECK( seen +
    // dropped.events == frames * so.events_per_frame ) is NOT correct! values: CHECK( 44 == 800 )".
    CHECK(seen + dropped.events == frames * so.events_per_frame);
    CHECK(dropped.events == dropped.frames * so.events_per_frame);
    if (policy == ms::slow_consumer_policy::back_pressure) {
      CHECK(dropped == ms::drop_count{});
      CHECK(gaps == 0);
    } else {
      CHECK(dropped.frames > 0);
      CHECK(gaps > 0);
    }
  }
}

TEST_CASE("frames fragmented into continuation frames decode like whole frames") {
  std::vector<std::string> seen[2];
  for (int fragmented = 0; fragmented < 2; ++fragmented) {
    mock::stream_server_options so;
    so.fragment_bytes = fragmented ? 16 : 0;
    so.max_frames = 6;
    mock::stream_server server(so);
    run([&]() -> asio::awaitable<void> {
      ms::client stream(co_await asio::this_coro::executor, options_for(server));
      stream.subscribe({ms::stocks::trades("AAPL"), ms::stocks::quotes("MSFT")});
      for (int i = 0; i < 6; ++i) seen[fragmented].push_back(massive::test::written_events(co_await stream.next()));
    });
  }
  CHECK(seen[0] == seen[1]);
  CHECK(seen[0].size() == 6);
}

namespace {
/// How a stream that must not stream ended: next() threw this stream_error (its code and
/// message). Subscribes to AAPL's trades first when `subscribe` is set; fails the test case
/// when next() returned.
struct ending {
  ms::stream_errc code{};
  std::string what;
};
ending first_error(const ms::stream_config& o, bool subscribe) {
  ending out;
  bool threw = false;
  run([&]() -> asio::awaitable<void> {
    ms::client stream(co_await asio::this_coro::executor, o);
    if (subscribe) stream.subscribe({ms::stocks::trades("AAPL")});
    try {
      co_await stream.next();
    } catch (const ms::stream_error& e) {
      threw = true;
      out = {e.code(), e.what()};
    }
  });
  CHECK_MESSAGE(threw, "next() returned an event where the stream had to end");
  return out;
}
}  // namespace

TEST_CASE("authentication failure, a plan without access and max_connections end the stream naming the cause") {
  for (const auto& [fault, code] : {std::pair{mock::stream_fault::auth_failed, ms::stream_errc::auth_failed},
                                    std::pair{mock::stream_fault::no_plan, ms::stream_errc::no_stream_access},
                                    std::pair{mock::stream_fault::max_connections, ms::stream_errc::max_connections}}) {
    mock::stream_server server;
    server.script({{fault, 0}});
    const ending end = first_error(options_for(server), true);
    CHECK(end.code == code);
    CHECK(end.what.find(key) == std::string::npos);
    CHECK(server.connections() == 1);  // no reconnect loop
  }
}

// The limit is the decoder's, as the bytes arrive (client.cpp, read_frame()). Seen failing with
// frame_decoder::feed's count removed: "streamed a frame over max_frame_bytes". That a hostile
// server resetting the connection does not turn the refusal into a reset and a reconnect loop
// (what Beast's own limit did) was checked by hand against a server that resets.
TEST_CASE("a frame over stream_config::limits.max_frame_bytes ends next() with frame_too_large") {
  mock::stream_server server;
  ms::stream_config o = options_for(server);
  o.limits.max_frame_bytes = 120;  // above the status frames, below a frame of four trades
  const ending end = first_error(o, true);
  CHECK(end.code == ms::stream_errc::frame_too_large);
  CHECK(end.what.find("a frame longer than 120 bytes") != std::string::npos);
}

TEST_CASE("a wrong key is auth_failed and is never echoed") {
  mock::stream_server server;
  ms::stream_config o = options_for(server);
  o.api_key = "wrong-key-123";
  const ending end = first_error(o, false);
  CHECK(end.code == ms::stream_errc::auth_failed);
  CHECK(end.what.find("wrong-key-123") == std::string::npos);
}

/// Runs a stream that must not get past TLS: it fails, naming the certificate, and the server
/// never sees a WebSocket connection.
void expect_refused(const mock::stream_server& server, ms::stream_config o) {
  o.reconnect.max_attempts = 0;
  const ending end = first_error(o, false);
  CHECK(end.code == ms::stream_errc::reconnects_exhausted);
  CHECK(end.what.find("certificate") != std::string::npos);
  CHECK(server.connections() == 0);
}

// The stream takes REST's trust options whole, a CA directory included (it had none before
// massive::tls_options). Seen failing with make_tls_context given no ca_directory by the stream
// client: "THREW exception: stream: reconnects_exhausted: ... certificate verify failed".
TEST_CASE("a CA directory in c_rehash layout is the stream's trust store too") {
  massive::mock::certificate_authority ca("directory CA");
  mock::stream_server_options so;
  so.identity = ca.issue(massive::mock::loopback_names());
  mock::stream_server server(so);
  massive::mock::temp_directory store;
  store.write(massive::mock::ca_directory_file_name(ca.certificate_pem()), ca.certificate_pem());
  ms::stream_config o = options_for(server);
  o.tls.ca_pem.clear();
  o.tls.ca_directory = store.path().string();
  o.reconnect.max_attempts = 0;
  std::size_t events = 0;
  run([&]() -> asio::awaitable<void> {
    ms::client stream(co_await asio::this_coro::executor, o);
    stream.subscribe({ms::stocks::trades("AAPL")});
    events = (co_await stream.next()).size();
  });
  CHECK(events > 0);
}

TEST_CASE("an untrusted certificate and a host name mismatch are refused") {
  SUBCASE("untrusted") {
    mock::stream_server server;
    ms::stream_config o = options_for(server);
    o.tls.ca_pem = massive::mock::make_self_signed(massive::mock::loopback_names()).certificate;  // another CA
    expect_refused(server, o);
  }
  SUBCASE("host name") {
    mock::stream_server_options so;
    so.identity = massive::mock::make_self_signed({{"elsewhere.example"}, {}});
    mock::stream_server server(so);
    expect_refused(server, options_for(server));
  }
}

namespace {
/// A stream to `server`, with no reconnect allowed: one connection.
ms::stream_config one_connection_to(const massive::test::rogue_server& server) {
  ms::stream_config o;
  o.api_key = key;
  o.url = server.url();
  o.tls.ca_pem = server.certificate_pem();
  o.reconnect.max_attempts = 0;
  return o;
}

/// How a stream to `server`, with no reconnect allowed, ended: the error of its one connection.
ending stream_to(const massive::test::rogue_server& server) {
  const ending end = first_error(one_connection_to(server), false);
  CHECK(end.code == ms::stream_errc::reconnects_exhausted);
  return end;
}
}  // namespace

namespace {
/// `payload` as a server writes a text frame: unmasked, its length in the shortest form.
std::string text_frame(std::string_view payload) {
  std::string frame = "\x81";
  if (payload.size() < 126) {
    frame += static_cast<char>(payload.size());
  } else {
    frame += '\x7E';
    frame += static_cast<char>(payload.size() >> 8);
    frame += static_cast<char>(payload.size() & 0xff);
  }
  return frame + std::string(payload);
}
}  // namespace

// A server may echo the key: in any status event's message (traced) and in auth_failed's (the
// error). Neither shows it. Seen failing with the status trace and session::fail's detail taken
// as they came: "CHECK( end.what.find(key) == std::string::npos ) is NOT correct! values: CHECK(
// 51 == 18446744073709551615 )", and "CHECK( line.find(key) == std::string::npos ) is NOT
// correct! ... logged: status info: your key is mock-stream-key" (and the auth_failed line).
TEST_CASE("a key the server echoes is in no trace line and no error") {
  massive::test::rogue_server server(
      text_frame(R"([{"ev":"status","status":"info","message":"your key is mock-stream-key"}])") +
          text_frame(R"([{"ev":"status","status":"connected","message":"Connected Successfully"}])") +
          text_frame(R"([{"ev":"status","status":"auth_failed","message":"authentication failed for key mock-stream-key"}])"),
      massive::test::rogue_ending::wait_for_close);
  ms::stream_config o;
  o.api_key = key;
  o.url = server.url();
  o.tls.ca_pem = server.certificate_pem();
  std::vector<std::string> traces;
  o.trace = [&](const ms::stream_trace& t) { traces.push_back(std::string(t.what) + " " + std::string(t.detail)); };
  const ending end = first_error(o, false);
  CHECK(end.code == ms::stream_errc::auth_failed);
  CHECK(end.what == "stream: auth_failed: authentication failed for key REDACTED");
  CHECK(end.what.find(key) == std::string::npos);
  CHECK(std::find(traces.begin(), traces.end(), "status info: your key is REDACTED") != traces.end());
  for (const std::string& line : traces) CHECK_MESSAGE(line.find(key) == std::string::npos, line);
}

// connect_timeout covers the opening up to auth's answer, not only TCP, TLS and the upgrade: a
// server that upgrades and then says nothing, or never answers auth, ends the attempt at the
// deadline, named by the stage it did not pass. The idle timeout, longer here, does not get to
// end it first. Seen failing with the tcp_stream's deadline lifted after TLS (client.cpp,
// connect(), as before): both ended by the idle check 2 s later, "... last: stalled: no frame or
// pong in time".
TEST_CASE("a server that never sends connected, or never answers auth, is left at connect_timeout, naming the stage") {
  const std::string connected =
      text_frame(R"([{"ev":"status","status":"connected","message":"Connected Successfully"}])");
  for (const auto& stage : {std::pair{std::string(), "no 'connected' status within 300 ms"},
                             std::pair{connected, "no answer to auth within 300 ms"}}) {
    const std::string named = stage.second;
    CAPTURE(named);
    massive::test::rogue_server server(stage.first, massive::test::rogue_ending::wait_for_close);
    ms::stream_config o = one_connection_to(server);
    o.connect_timeout = std::chrono::milliseconds(300);
    o.idle_timeout = std::chrono::milliseconds(2000);
    const ending end = first_error(o, true);
    CHECK(end.code == ms::stream_errc::reconnects_exhausted);
    CHECK(end.what == "stream: reconnects_exhausted: 0 reconnect attempts failed; last: " + named);
  }
}

// Idle is no whole message (or pong) within idle_timeout, not no byte: a frame trickled a byte
// at a time, or a message of empty continuation frames without end, is cut at idle_timeout,
// named as a message that does not complete. Both servers trickle for 3 s, then close. Seen
// failing with the idle check counting reads (client.cpp before the idle rule): the trickled
// frame held the connection until the server closed it, "... last: Connection reset by peer";
// the empty fragments, which Beast's read takes without returning, were called silence, "...
// last: stalled: no frame or pong in time".
TEST_CASE("a message that never completes is cut at idle_timeout, trickled or of empty fragments") {
  const std::string opened =
      text_frame(R"([{"ev":"status","status":"connected","message":"Connected Successfully"}])") +
      text_frame(R"([{"ev":"status","status":"auth_success","message":"authenticated"}])");
  struct trickle {
    const char* what;
    std::string begun;  // the message's start, after the opening
    std::string drip;   // every 20 ms
  };
  using namespace std::string_literals;
  const trickle trickles[] = {
      // A text frame of 100000 bytes announced, its `[` sent, then a space every 20 ms.
      {"a byte at a time", "\x81\x7F\x00\x00\x00\x00\x00\x01\x86\xA0["s, " "},
      // A text frame `[` without FIN, then empty continuation frames without FIN.
      {"empty continuation frames", "\x01\x01["s, std::string(400, '\0')},
  };
  for (const trickle& t : trickles) {
    const std::string what = t.what;
    CAPTURE(what);
    const auto server = massive::test::rogue_server::dripping(opened + t.begun, t.drip, std::chrono::milliseconds(20),
                                                              std::chrono::seconds(3));
    ms::stream_config o = one_connection_to(server);
    o.idle_timeout = std::chrono::milliseconds(400);
    const ending end = first_error(o, false);
    CHECK(end.code == ms::stream_errc::reconnects_exhausted);
    CHECK(end.what ==
          "stream: reconnects_exhausted: 0 reconnect attempts failed; last: stalled: no complete message in 400 ms "
          "(idle_timeout), one begun still incomplete");
  }
}

// A server that breaks the WebSocket protocol is named for the rule it broke, whether it then
// waits for the close handshake, closes its socket or resets it once the client answered.
// Beast reports the violation only when the close handshake's teardown succeeds; the client's
// teardown closes the socket without waiting for the server (sdk/src/stream/tls_layer.hpp).
// Seen failing with Beast's TLS teardown in its place: all 24 cases ended naming "stream
// truncated", "Broken pipe" or "Connection reset by peer", one word for each ending.
TEST_CASE("a server that breaks the WebSocket protocol is named for the rule it broke") {
  struct violation {
    const char* what;
    std::string bytes;  // as a server writes them: unmasked, unless the violation is the mask
    const char* named;
  };
  using namespace std::string_literals;
  const violation violations[] = {
      {"reserved bit set", "\xA1\x02[]"s, "illegal reserved bits"},
      {"masked frame", "\x81\x82\x01\x02\x03\x04\x5a\x5f"s, "frame was masked"},
      {"text that is not UTF-8", "\x81\x02\xC3\x28"s, "not valid utf8"},
      {"unknown opcode", "\x83\x00"s, "illegal opcode"},
      {"fragmented ping", "\x09\x00"s, "control frame was fragmented"},
      {"continuation without a start", "\x80\x02[]"s, "continuation frame was unexpected"},
      {"length not in its shortest form", "\x81\x7E\x00\x02[]"s, "size was not canonical"},
      {"close code 999", "\x88\x02\x03\xE7"s, "close frame reason code was invalid"},
  };
  for (const violation& v : violations) {
    for (const massive::test::rogue_ending how :
         {massive::test::rogue_ending::wait_for_close, massive::test::rogue_ending::close_tcp,
          massive::test::rogue_ending::reset_after_answer}) {
      const std::string what = v.what;
      const int ending_kind = static_cast<int>(how);
      CAPTURE(what);
      CAPTURE(ending_kind);
      const ending end = stream_to(massive::test::rogue_server(v.bytes, how));
      CHECK_MESSAGE(end.what.find(v.named) != std::string::npos, end.what);
      CHECK(end.what.find("protocol violation by the server") != std::string::npos);
    }
  }
}

// What a server answers to the upgrade, refused or wrong, is named, and a head without end is
// cut at Beast's header limit. Seen failing with the refusal's status not added to the message
// (client.cpp, connect()): "... The WebSocket handshake was declined by the remote peer".
TEST_CASE("an upgrade the server refuses or answers wrongly is named") {
  struct answer {
    const char* what;
    std::string head;
    const char* named;
  };
  const answer answers[] = {
      {"403 instead of 101", "HTTP/1.1 403 Forbidden\r\nContent-Length: 5\r\n\r\nhello",
       "declined by the remote peer (HTTP 403)"},
      {"a wrong Sec-WebSocket-Accept",
       "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
       "Sec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n",
       "Sec-WebSocket-Accept"},
      {"no Upgrade field",
       "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
       "Sec-WebSocket-Accept: {accept}\r\n\r\n",
       "Upgrade field is missing"},
      {"a head that never ends",
       "HTTP/1.1 101 Switching Protocols\r\nX-Pad: " + std::string(1 << 20, 'a') + "\r\n\r\n",
       "header limit exceeded"},
      {"not HTTP", "SSH-2.0-OpenSSH_9.2\r\n\r\n", "bad version"},
  };
  for (const answer& a : answers) {
    const std::string what = a.what;
    CAPTURE(what);
    const ending end = stream_to(
        massive::test::rogue_server::answering(a.head, massive::test::rogue_ending::close_tcp));
    CHECK_MESSAGE(end.what.find(a.named) != std::string::npos, end.what);
  }
}
