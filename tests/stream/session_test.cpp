// The stream protocol without sockets: handshake, subscription replay with acknowledgement
// counting, the fatal and the retried ends, backoff; the idle rule of a connection.
#include "stream/idle_check.hpp"

#include <massive/stream/events.hpp>
#include <massive/stream/session.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <vector>

namespace ms = massive::stream;
namespace hp = massive::stream::happened;
using kind = ms::session_action::kind;

namespace {

constexpr const char* key = "k3y-SECRET";

ms::session make(std::optional<unsigned> max_attempts = std::nullopt) {
  ms::reconnect_policy p;
  p.max_attempts = max_attempts;
  p.initial_backoff = std::chrono::milliseconds(100);
  p.max_backoff = std::chrono::milliseconds(1000);
  return ms::session(key, p);
}

/// Connects and authenticates; returns the action auth_success gave.
ms::session_action handshake(ms::session& s) {
  s.resume(hp::connected{});
  const ms::session_action auth = s.resume(hp::status{"connected", "Connected Successfully"});
  REQUIRE(auth.what == kind::send);
  CHECK(auth.text == R"({"action":"auth","params":"k3y-SECRET"})");
  return s.resume(hp::status{"auth_success", "authenticated"});
}

}  // namespace

TEST_CASE("handshake, subscription and one acknowledgement per topic") {
  ms::session s = make();
  const std::vector<ms::topic> topics{ms::stocks::trades("AAPL"), ms::stocks::quotes("MSFT")};
  CHECK(s.resume(hp::subscribe{topics}).what == kind::none);  // waits for authentication
  CHECK(s.resume(hp::start{}).what == kind::connect);
  const ms::session_action sub = handshake(s);
  REQUIRE(sub.what == kind::send);
  CHECK(sub.text == R"({"action":"subscribe","params":"T.AAPL,Q.MSFT"})");
  CHECK(!s.ready());
  s.resume(hp::status{"success", "subscribed to: T.AAPL"});
  CHECK(s.pending() == std::vector<std::string>{"Q.MSFT"});
  s.resume(hp::status{"success", "subscribed to: Q.MSFT"});
  CHECK(s.ready());
  CHECK(s.acknowledged() == 2);
  // An acknowledgement of nothing sent is counted, not taken.
  s.resume(hp::status{"success", "subscribed to: T.NOPE"});
  CHECK(s.unexpected_statuses() == 1);
  // A later subscription is sent at once and awaited.
  const std::vector<ms::topic> more{ms::stocks::trades("*")};
  CHECK(s.resume(hp::subscribe{more}).text == R"({"action":"subscribe","params":"T.*"})");
  CHECK(!s.ready());
  s.resume(hp::status{"success", "subscribed to: T.*"});
  CHECK(s.ready());
  const std::vector<ms::topic> less{ms::stocks::quotes("MSFT")};
  CHECK(s.resume(hp::unsubscribe{less}).text == R"({"action":"unsubscribe","params":"Q.MSFT"})");
  CHECK(s.topics() == std::vector<std::string>{"T.AAPL", "T.*"});
}

TEST_CASE("the description's connect status (success, Connected Successfully) opens the handshake too") {
  ms::session s = make();
  s.resume(hp::start{});
  s.resume(hp::connected{});
  CHECK(s.resume(hp::status{"success", "Connected Successfully"}).what == kind::send);
}

TEST_CASE("every drop reconnects, re-authenticates and replays every subscription, marking a gap") {
  for (const char* why : {"force_disconnect", "slow_consumer", "auth_timeout", ""}) {
    CAPTURE(why);
    ms::session s = make();
    const std::vector<ms::topic> topics{ms::stocks::trades("AAPL"), ms::stocks::quotes("*")};
    s.resume(hp::subscribe{topics});
    s.resume(hp::start{});
    handshake(s);
    s.resume(hp::status{"success", "subscribed to: T.AAPL"});
    s.resume(hp::status{"success", "subscribed to: Q.*"});
    CHECK(!s.take_gap());
    if (*why != '\0') CHECK(s.resume(hp::status{why, "bye"}).what == kind::none);  // the close follows
    const ms::session_action wait = s.resume(hp::disconnected{"closed", 0.5});
    REQUIRE(wait.what == kind::wait);
    CHECK(wait.delay == std::chrono::milliseconds(75));  // equal jitter: 50 + 0.5 * 50
    CHECK(s.resume(hp::backoff_elapsed{}).what == kind::connect);
    const ms::session_action replay = handshake(s);
    CHECK(replay.text == R"({"action":"subscribe","params":"T.AAPL,Q.*"})");
    CHECK(s.pending().size() == 2);
    s.resume(hp::status{"success", "subscribed to: T.AAPL"});
    s.resume(hp::status{"success", "subscribed to: Q.*"});
    CHECK(s.ready());
    CHECK(s.take_gap());
    CHECK(!s.take_gap());
    CHECK(s.reconnects() == 1);
  }
}

TEST_CASE("authentication failure and a plan without stream access are fatal, naming the cause, never retried") {
  for (const auto& [message, code] : {std::pair{"authentication failed", ms::stream_errc::auth_failed},
                                      std::pair{"Your plan doesn't include websocket access. Visit https://massive.com/pricing to upgrade.",
                                                ms::stream_errc::no_stream_access}}) {
    ms::session s = make();
    s.resume(hp::start{});
    s.resume(hp::connected{});
    s.resume(hp::status{"connected", "Connected Successfully"});
    const ms::session_action a = s.resume(hp::status{"auth_failed", message});
    REQUIRE(a.what == kind::fail);
    REQUIRE(a.error);
    CHECK(a.error->code() == code);
    CHECK(std::string(a.error->what()).find(key) == std::string::npos);
    // The server then drops the TCP connection: no reconnect loop.
    CHECK(s.resume(hp::disconnected{"reset", 0.0}).what == kind::none);
    CHECK(s.current() == ms::session::state::failed);
  }
}

// A server may echo the key it was sent; the error shows the message without it. Seen failing
// with session::fail's detail kept as it came: "CHECK( std::string(a.error->what()) == "stream:
// auth_failed: authentication failed for key REDACTED" ) is NOT correct! values: CHECK( stream:
// auth_failed: authentication failed for key k3y-SECRET == stream: auth_failed: authentication
// failed for key REDACTED )".
TEST_CASE("a key the server echoes in auth_failed's message is not in the error") {
  ms::session s = make();
  s.resume(hp::start{});
  s.resume(hp::connected{});
  s.resume(hp::status{"connected", "Connected Successfully"});
  const ms::session_action a = s.resume(hp::status{"auth_failed", "authentication failed for key k3y-SECRET"});
  REQUIRE(a.error);
  CHECK(std::string(a.error->what()) == "stream: auth_failed: authentication failed for key REDACTED");
  CHECK(s.without_key("k3y-SECRET,k3y-SECRET.") == "REDACTED,REDACTED.");
}

// The client keeps connect_timeout on the connection while opening() and, when it passes, reports
// the loss as overdue() names it. Seen failing with opening() false once `connected` came:
// "CHECK( s.opening() ) is NOT correct!" and "CHECK( s.overdue(limit) == "no answer to auth within
// 10000 ms" ) is NOT correct! values: CHECK(  == no answer to auth within 10000 ms )".
TEST_CASE("the opening lasts until auth is answered; a deadline passed names the stage") {
  const std::chrono::milliseconds limit(10'000);
  ms::session s = make();
  CHECK(!s.opening());
  s.resume(hp::start{});
  CHECK(s.overdue(limit) == "no WebSocket connection within 10000 ms");
  s.resume(hp::connected{});
  CHECK(s.opening());
  CHECK(s.overdue(limit) == "no 'connected' status within 10000 ms");
  s.resume(hp::status{"connected", "Connected Successfully"});
  CHECK(s.opening());
  CHECK(s.overdue(limit) == "no answer to auth within 10000 ms");
  s.resume(hp::status{"auth_success", "authenticated"});
  CHECK(!s.opening());
  CHECK(s.overdue(limit).empty());
  // A reconnect opens again.
  s.resume(hp::disconnected{"closed", 0.0});
  s.resume(hp::backoff_elapsed{});
  CHECK(s.opening());
}

TEST_CASE("max_connections ends the stream instead of evicting the other connection") {
  ms::session s = make();
  s.resume(hp::start{});
  handshake(s);
  const ms::session_action a = s.resume(hp::status{"max_connections", "Maximum number of connections exceeded."});
  REQUIRE(a.what == kind::fail);
  CHECK(a.error->code() == ms::stream_errc::max_connections);
}

TEST_CASE("backoff grows, is capped, and a bounded policy gives up naming the attempts") {
  ms::session s = make(3);
  s.resume(hp::start{});
  std::vector<long> delays;
  for (int i = 0; i < 3; ++i) {
    const ms::session_action a = s.resume(hp::disconnected{"connection refused", 0.999});
    REQUIRE(a.what == kind::wait);
    delays.push_back(static_cast<long>(a.delay.count()));
    CHECK(s.resume(hp::backoff_elapsed{}).what == kind::connect);
  }
  CHECK(delays == std::vector<long>{99, 199, 399});
  const ms::session_action a = s.resume(hp::disconnected{"connection refused", 0.0});
  REQUIRE(a.what == kind::fail);
  CHECK(a.error->code() == ms::stream_errc::reconnects_exhausted);
  CHECK(std::string(a.error->what()).find("3 reconnect attempts failed; last: connection refused") != std::string::npos);
}

TEST_CASE("an unbounded policy keeps trying at the capped delay, and a success resets the count") {
  ms::session s = make();
  s.resume(hp::start{});
  ms::session_action a;
  for (int i = 0; i < 40; ++i) {
    a = s.resume(hp::disconnected{"refused", 0.0});
    REQUIRE(a.what == kind::wait);
    s.resume(hp::backoff_elapsed{});
  }
  CHECK(a.delay == std::chrono::milliseconds(500));  // half the 1 s cap, without jitter
  handshake(s);
  // Up for stable_after (10 s by default) after authenticating: a success.
  CHECK(s.resume(hp::disconnected{"closed", 0.0, std::chrono::seconds(10)}).delay == std::chrono::milliseconds(50));
}

// Seen failing with the count reset at auth_success, as before: "CHECK( delays ==
// std::vector<long>{50, 100, 200, 400} ) is NOT correct!" and "REQUIRE( a.what == kind::fail )
// ... ( 3 == 4 )": every delay was the first one, and no bound ended it (the CLI against a
// server closing each connection right after authenticating: 28 connections in 8 s).
TEST_CASE("a connection dropped right after authenticating is a failed attempt: backoff grows, a bound ends it") {
  ms::session s = make(4);
  s.resume(hp::start{});
  std::vector<long> delays;
  for (int i = 0; i < 4; ++i) {
    handshake(s);
    const ms::session_action a = s.resume(hp::disconnected{"closed", 0.0, std::chrono::milliseconds(300)});
    REQUIRE(a.what == kind::wait);
    delays.push_back(static_cast<long>(a.delay.count()));
    CHECK(s.resume(hp::backoff_elapsed{}).what == kind::connect);
  }
  CHECK(delays == std::vector<long>{50, 100, 200, 400});
  handshake(s);
  const ms::session_action a = s.resume(hp::disconnected{"closed", 0.0, std::chrono::milliseconds(300)});
  REQUIRE(a.what == kind::fail);
  CHECK(a.error->code() == ms::stream_errc::reconnects_exhausted);
}

TEST_CASE("a key with quotes is escaped in the auth frame") {
  ms::session s("a\"b\\c", {});
  s.resume(hp::start{});
  s.resume(hp::connected{});
  CHECK(s.resume(hp::status{"connected", ""}).text == R"({"action":"auth","params":"a\"b\\c"})");
}

// Seen failing with the refused event handled like a drop (session.cpp's refused visitor returning
// on_disconnected("refused", 0.0)): "CHECK( s.resume(hp::refused{}).what == kind::none ) is NOT
// correct! values: CHECK( 3 == 0 )", "CHECK( s.current() == ms::session::state::failed ) is NOT
// correct! values: CHECK( 6 == 7 )", and the backoff_elapsed and reconnects() checks below; with
// resume()'s early return kept for closed only, not failed: "CHECK( s.resume(hp::disconnected{
// "closed", 0.5}).what == kind::none ) is NOT correct! values: CHECK( 3 == 0 )", "CHECK(
// s.resume(hp::backoff_elapsed{}).what == kind::none ) is NOT correct! values: CHECK( 1 == 0 )",
// "CHECK( s.reconnects() == 0 ) is NOT correct! values: CHECK( 1 == 0 )".
TEST_CASE("a refusal for good (the proxy's 4xx) ends the session: no backoff, no reconnect") {
  ms::session s = make();
  CHECK(s.resume(hp::start{}).what == kind::connect);
  CHECK(s.resume(hp::refused{}).what == kind::none);
  CHECK(s.current() == ms::session::state::failed);
  CHECK(s.resume(hp::disconnected{"closed", 0.5}).what == kind::none);
  CHECK(s.resume(hp::backoff_elapsed{}).what == kind::none);
  CHECK(s.reconnects() == 0);
}

// A stall is seen within idle_timeout and a small part of it (two ticks: an eighth), never
// before; a ping goes at half of it; a pong or a message (progress) starts the count again.
// Regression: the rule before it (a tick of idle_timeout / 2, stalled at the second tick
// without progress: within 1.5 x idle_timeout) -> fails with "CHECK( after(*stalled_at) <=
// 33'750 ) is NOT correct! values: CHECK( 45000 <= 33750 )" (44999, 44000, 43126 for the
// later messages).
TEST_CASE("the idle rule: a ping at half of idle_timeout, stalled at most an eighth after it") {
  using namespace std::chrono;
  using massive::stream::detail::idle_check;
  const milliseconds idle(30'000);
  for (const milliseconds progress_after : {milliseconds(0), milliseconds(1), milliseconds(1000), milliseconds(1874)}) {
    CAPTURE(progress_after.count());
    const idle_check::clock::time_point opened{};
    idle_check check(idle, opened, 0);
    const auto progress_at = opened + progress_after;  // the one message, between two ticks
    std::optional<idle_check::clock::time_point> pinged_at, stalled_at;
    for (auto now = opened + check.tick(); !stalled_at; now += check.tick()) {
      REQUIRE(now - opened < minutes(5));
      switch (check.at(now, now >= progress_at ? 1 : 0)) {
        case idle_check::verdict::wait: break;
        case idle_check::verdict::ping: pinged_at = now; break;
        case idle_check::verdict::stalled: stalled_at = now; break;
      }
    }
    // In milliseconds after the message.
    const auto after = [&](idle_check::clock::time_point t) { return duration_cast<milliseconds>(t - progress_at).count(); };
    REQUIRE(pinged_at);
    CHECK(after(*pinged_at) >= 15'000);
    CHECK(after(*stalled_at) >= 30'000);
    CHECK(after(*stalled_at) <= 33'750);
  }
  idle_check check(idle, {}, 0);
  CHECK(check.stalled(false) == "stalled: no message or pong in 30000 ms (idle_timeout)");
  CHECK(check.stalled(true) == "stalled: no complete message in 30000 ms (idle_timeout), one begun still incomplete");
}
