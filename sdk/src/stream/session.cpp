#include "massive/stream/session.hpp"

#include "transport/error_body.hpp"

#include <algorithm>

namespace massive::stream {

namespace {

template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
// C++20 deduces it without this guide; clang 14 does not (scripts/fuzz.sh compiles the SDK with it).
template <class... F>
overloaded(F...) -> overloaded<F...>;

session_action only(session_action::kind what) {
  session_action a;
  a.what = what;
  return a;
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// The topic an acknowledgement names: "subscribed to: T.AAPL" -> "T.AAPL".
std::string_view acknowledged_topic(std::string_view message, std::string_view lead) {
  if (message.substr(0, lead.size()) != lead) return {};
  message.remove_prefix(lead.size());
  while (!message.empty() && message.front() == ' ') message.remove_prefix(1);
  return message;
}

/// Appends `text` as the body of a JSON string (the key and topics are plain ASCII in
/// practice; quotes, backslashes and control characters are escaped all the same).
void append_json_string(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += "\\u00";
      out += hex[(c >> 4) & 0xf];
      out += hex[c & 0xf];
    } else {
      out += c;
    }
  }
}

}  // namespace

session::session(std::string api_key, reconnect_policy policy) : api_key_(std::move(api_key)), policy_(policy) {}

session_action session::resume(const session_event& e) {
  if (state_ == state::failed || state_ == state::closed) return {};
  return std::visit(
      overloaded{
          [&](const happened::start&) -> session_action {
            if (state_ != state::idle) return {};
            state_ = state::connecting;
            return only(session_action::kind::connect);
          },
          [&](const happened::connected&) -> session_action {
            if (state_ != state::connecting) return {};
            state_ = state::awaiting_connected;
            return {};
          },
          [&](const happened::status& s) { return on_status(s.status, s.message); },
          [&](const happened::disconnected& d) { return on_disconnected(d); },
          [&](const happened::refused&) -> session_action {
            state_ = state::failed;
            pending_.clear();
            return {};
          },
          [&](const happened::backoff_elapsed&) -> session_action {
            if (state_ != state::backoff) return {};
            state_ = state::connecting;
            ++reconnects_;
            return only(session_action::kind::connect);
          },
          [&](const happened::subscribe& s) -> session_action {
            std::vector<std::string> added;
            for (const topic& t : s.topics) {
              if (!contains(topics_, t.text)) topics_.push_back(t.text), added.push_back(t.text);
            }
            // Before authentication the topics wait: auth_success sends them all.
            if (added.empty() || (state_ != state::subscribing && state_ != state::streaming)) return {};
            state_ = state::subscribing;
            return subscribe_action("subscribe", added);
          },
          [&](const happened::unsubscribe& u) -> session_action {
            std::vector<std::string> removed;
            for (const topic& t : u.topics) {
              if (const auto it = std::find(topics_.begin(), topics_.end(), t.text); it != topics_.end()) {
                topics_.erase(it);
                std::erase(pending_, t.text);
                removed.push_back(t.text);
              }
            }
            if (removed.empty() || (state_ != state::subscribing && state_ != state::streaming)) return {};
            return subscribe_action("unsubscribe", removed);
          },
          [&](const happened::close&) -> session_action {
            state_ = state::closed;
            return only(session_action::kind::close);
          },
      },
      e);
}

session_action session::on_status(std::string_view status, std::string_view message) {
  // The notes record "connected"; the description's example says "success" with "Connected
  // Successfully". Either opens the handshake.
  if (state_ == state::awaiting_connected &&
      (status == "connected" || (status == "success" && message.starts_with("Connected")))) {
    state_ = state::authenticating;
    session_action a;
    a.what = session_action::kind::send;
    a.text = R"({"action":"auth","params":")";
    append_json_string(a.text, api_key_);
    a.text += "\"}";
    return a;
  }
  if (status == "auth_success" && state_ == state::authenticating) {
    if (authenticated_once_) gap_ = true;
    authenticated_once_ = true;
    acknowledged_ = 0;
    pending_.clear();
    if (topics_.empty()) {
      state_ = state::streaming;
      return {};
    }
    state_ = state::subscribing;
    return subscribe_action("subscribe", topics_);
  }
  if (status == "auth_failed") {
    // The plan message is "Your plan doesn't include websocket access..." (API-NOTES).
    const bool plan = message.find("plan") != std::string_view::npos;
    return fail(plan ? stream_errc::no_stream_access : stream_errc::auth_failed, message);
  }
  if (status == "max_connections") return fail(stream_errc::max_connections, message);
  if (status == "auth_timeout" || status == "force_disconnect" || status == "slow_consumer") {
    // The server closes the connection next: the close (reported as disconnected) reconnects.
    return {};
  }
  if (status == "success") {
    if (const std::string_view t = acknowledged_topic(message, "subscribed to:"); !t.empty() && contains(pending_, t)) {
      std::erase(pending_, t);
      ++acknowledged_;
      if (pending_.empty() && state_ == state::subscribing) state_ = state::streaming;
      return {};
    }
    if (!acknowledged_topic(message, "unsubscribed to:").empty()) return {};
  }
  ++unexpected_;
  return {};
}

session_action session::on_disconnected(const happened::disconnected& d) {
  if (state_ == state::idle || state_ == state::backoff) return {};
  // Authenticating is not yet success: a connection closed right after it (by a server or a
  // proxy that does so every time) would reconnect every initial_backoff for ever. One that
  // stayed up stable_after was; the failures count afresh from it.
  const bool authenticated = state_ == state::subscribing || state_ == state::streaming;
  if (authenticated && d.up_for >= policy_.stable_after) attempts_ = 0;
  ++attempts_;
  if (policy_.max_attempts && attempts_ > *policy_.max_attempts) {
    return fail(stream_errc::reconnects_exhausted,
                std::to_string(attempts_ - 1) + " reconnect attempts failed; last: " + std::string(d.detail));
  }
  state_ = state::backoff;
  pending_.clear();
  retry_policy backoff;
  backoff.initial_backoff = policy_.initial_backoff;
  backoff.max_backoff = policy_.max_backoff;
  session_action a;
  a.what = session_action::kind::wait;
  a.delay = backoff_delay(backoff, attempts_, d.jitter);
  return a;
}

session_action session::subscribe_action(std::string_view action, const std::vector<std::string>& topics) {
  session_action a;
  a.what = session_action::kind::send;
  a.text = R"({"action":")" + std::string(action) + R"(","params":")";
  for (std::size_t i = 0; i < topics.size(); ++i) {
    if (i != 0) a.text += ',';
    append_json_string(a.text, topics[i]);
    // Unsubscriptions are acknowledged too, but nothing waits for them.
    if (action == "subscribe" && !contains(pending_, topics[i])) pending_.push_back(topics[i]);
  }
  a.text += "\"}";
  return a;
}

session_action session::fail(stream_errc code, std::string_view detail) {
  state_ = state::failed;
  session_action a;
  a.what = session_action::kind::fail;
  a.error = stream_error(code, without_key(detail));
  return a;
}

std::string session::overdue(std::chrono::milliseconds limit) const {
  const std::string within = " within " + std::to_string(limit.count()) + " ms";
  switch (state_) {
    case state::connecting: return "no WebSocket connection" + within;
    case state::awaiting_connected: return "no 'connected' status" + within;
    case state::authenticating: return "no answer to auth" + within;
    default: return {};
  }
}

std::string session::without_key(std::string_view text) const { return transport::redact(text, api_key_); }

}  // namespace massive::stream
