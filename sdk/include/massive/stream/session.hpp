// The stream protocol, sans-I/O: what a connection must do next, given what just happened.
// The client (stream/client.hpp) owns the socket and the timers and only does what resume()
// returns; every rule of the protocol lives here and is tested without sockets:
//
//   connect --> server `connected` --> send auth --> `auth_success` --> send subscribe (every
//   topic, replayed after each reconnect) --> one `success` acknowledgement per topic --> ready
//
// `auth_failed` (a wrong key, or a plan without stream access) and `max_connections` (another
// connection with the key took over: reconnecting would evict it in turn) end the session with
// an error naming the cause; so does a proxy's refusal of the tunnel for good (`refused`). A
// lost connection (closed, reset, stalled, `force_disconnect`, `slow_consumer`, `auth_timeout`,
// a tunnel the proxy failed to open) is retried after a jittered exponential backoff, bounded
// or not; the first batch after a reconnect is marked as following a gap.
#pragma once

#include "massive/retry.hpp"
#include "massive/stream/error.hpp"
#include "massive/stream/topic.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace massive::stream {

/// When and how often a lost connection is replaced.
struct reconnect_policy {
  /// Reconnect attempts in a row before the stream fails with reconnects_exhausted; nullopt:
  /// without limit (the official Go client's default). 0 disables reconnecting. A connection
  /// that authenticates but drops before stable_after counts as a failed attempt.
  std::optional<unsigned> max_attempts;
  /// Backoff before the first attempt; doubled for each attempt after it, up to max_backoff,
  /// with equal jitter (massive::backoff_delay).
  std::chrono::milliseconds initial_backoff{250};
  /// The longest backoff between two attempts.
  std::chrono::milliseconds max_backoff{30'000};
  /// How long an authenticated connection must stay up to count as a success: the failure
  /// after it backs off from initial_backoff again. One that drops sooner (a server or proxy
  /// that closes each connection right after authenticating) backs off further each time, as
  /// failed connections do, rather than reconnecting several times a second for ever.
  std::chrono::milliseconds stable_after{10'000};
};

/// What happened, as the session's input.
namespace happened {
/// The user started the stream.
struct start {};
/// The connection (TCP, TLS, WebSocket handshake) is up.
struct connected {};
/// The server sent a status event (in wire order, among the frame's other events).
struct status {
  std::string_view status;   ///< e.g. "connected", "auth_success", "success", "max_connections"
  std::string_view message;  ///< the server's text beside it
};
/// The connection ended: closed, reset, stalled, or could not be made.
struct disconnected {
  std::string_view detail;
  double jitter;  ///< a uniform draw in [0, 1) for the backoff
  std::chrono::milliseconds up_for{0};  ///< how long the connection had been up (0: it never came up)
};
/// The connection was refused for good before the WebSocket was up (a proxy's 4xx to CONNECT:
/// its credentials or its policy), which another attempt would meet again. The session is
/// over; the client delivers the refusal itself.
struct refused {};
/// The backoff the session asked for has elapsed.
struct backoff_elapsed {};
/// The user subscribes topics (at any time, connected or not).
struct subscribe {
  std::span<const topic> topics;  ///< the topics added
};
/// The user unsubscribes topics (at any time, connected or not).
struct unsubscribe {
  std::span<const topic> topics;  ///< the topics removed
};
/// The user closes the stream.
struct close {};
}  // namespace happened

using session_event = std::variant<happened::start, happened::connected, happened::status, happened::disconnected,
                                   happened::refused, happened::backoff_elapsed, happened::subscribe,
                                   happened::unsubscribe, happened::close>;

/// What the client must do next.
struct session_action {
  /// The kinds of action.
  enum class kind {
    none,     ///< keep reading
    connect,  ///< open a connection
    send,     ///< send `text` (one JSON object) as a text frame
    wait,     ///< the connection is gone: wait `delay`, then report backoff_elapsed
    fail,     ///< the stream is over: deliver `error` to the user, close the connection
    close,    ///< the user closed the stream: close the connection
  };
  kind what = kind::none;               ///< what to do
  std::string text;                     ///< send: the frame's text
  std::chrono::milliseconds delay{0};   ///< wait: how long
  std::optional<stream_error> error;    ///< fail: what to deliver
};

/// The protocol state of one stream (one market on one feed), across its reconnects.
class session {
 public:
  /// Where the protocol stands: before start, opening a connection, waiting for the server's
  /// `connected`, for auth's answer, for subscription acknowledgements, streaming, waiting out
  /// a backoff, or over (failed: an error was delivered; closed: by the user).
  enum class state { idle, connecting, awaiting_connected, authenticating, subscribing, streaming, backoff, failed, closed };

  /// `api_key` goes only into the auth frame, never into an error.
  session(std::string api_key, reconnect_policy policy);

  /// Takes what happened and answers what the client must do next (sans-I/O: the client does
  /// the I/O and reports its outcome as the next event).
  session_action resume(const session_event& e);

  /// The protocol state now.
  state current() const noexcept { return state_; }
  /// From the connection attempt to auth's answer: one deadline covers it all
  /// (stream_config::connect_timeout), the wait for `connected` and for the answer included.
  bool opening() const noexcept {
    return state_ == state::connecting || state_ == state::awaiting_connected || state_ == state::authenticating;
  }
  /// Why a connection still opening when its deadline (`limit`) passed is lost: the stage it
  /// did not get past, e.g. "no 'connected' status within 10000 ms". Empty when not opening.
  std::string overdue(std::chrono::milliseconds limit) const;
  /// Authenticated, every subscription acknowledged.
  bool ready() const noexcept { return state_ == state::streaming && pending_.empty(); }
  /// The topics subscribed, in the order first subscribed (what a reconnect replays).
  const std::vector<std::string>& topics() const noexcept { return topics_; }
  /// Topics sent and not yet acknowledged.
  const std::vector<std::string>& pending() const noexcept { return pending_; }
  /// Acknowledgements received on this connection / in total.
  std::size_t acknowledged() const noexcept { return acknowledged_; }
  /// Connections made after the first (successful or not).
  std::size_t reconnects() const noexcept { return reconnects_; }
  /// Status events the protocol has no use for (`error`, an acknowledgement of nothing sent):
  /// counted, never silently dropped.
  std::size_t unexpected_statuses() const noexcept { return unexpected_; }
  /// True once after each reconnect: events may be missing; the next batch says so.
  bool take_gap() noexcept { return std::exchange(gap_, false); }
  /// `text` with every occurrence of the key replaced by REDACTED: what the server says goes
  /// through it before it is traced or put in an error, since a server may echo the key
  /// ("authentication failed for key ...").
  std::string without_key(std::string_view text) const;

 private:
  session_action on_status(std::string_view status, std::string_view message);
  session_action on_disconnected(const happened::disconnected& d);
  session_action subscribe_action(std::string_view action, const std::vector<std::string>& topics);
  session_action fail(stream_errc code, std::string_view detail);

  std::string api_key_;
  reconnect_policy policy_;
  state state_ = state::idle;
  std::vector<std::string> topics_;
  std::vector<std::string> pending_;
  std::size_t acknowledged_ = 0;
  std::size_t reconnects_ = 0;
  unsigned attempts_ = 0;  // failed attempts since a connection stayed up stable_after
  std::size_t unexpected_ = 0;
  bool gap_ = false;
  bool authenticated_once_ = false;
};

}  // namespace massive::stream
