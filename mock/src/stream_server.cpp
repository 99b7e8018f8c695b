#include "massive/mock/stream_server.hpp"

#include "catalog.hpp"
#include "stream_catalog.hpp"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace massive::mock {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;

namespace {

using ws_stream = websocket::stream<asio::ssl::stream<tcp::socket>>;

constexpr std::string_view star_tickers[] = {"AAPL", "MSFT", "NVDA"};

std::string status_frame(std::string_view status, std::string_view message) {
  return R"([{"ev":"status","status":")" + std::string(status) + R"(","message":")" + std::string(message) + "\"}]";
}

/// The string value of `"name":"..."` in a client message (the client's messages are flat
/// objects of plain strings).
std::string string_member(std::string_view message, std::string_view name) {
  const std::string lead = "\"" + std::string(name) + "\":\"";
  const auto at = message.find(lead);
  if (at == std::string_view::npos) return {};
  const auto from = at + lead.size();
  const auto to = message.find('"', from);
  return to == std::string_view::npos ? std::string() : std::string(message.substr(from, to - from));
}

/// One event of `channel` for `ticker`, every field of its model present, values from `seq`.
void write_event(std::string& out, const stream_catalog::channel& c, int model, std::string_view ticker,
                 std::uint64_t seq) {
  const auto event = static_cast<std::int64_t>(seq);
  char number[64];
  out += R"({"ev":")" + std::string(c.ev) + "\"";
  for (const catalog::field& f : catalog::fields_of(catalog::models()[static_cast<std::size_t>(model)])) {
    out += ",\"" + std::string(f.key) + "\":";
    if (f.shape == catalog::form::array) {
      out += f.element == catalog::scalar::number ? "[1.5,2.5]" : "[" + std::to_string(seq % 50) + ",12]";
      continue;
    }
    switch (f.element) {
      case catalog::scalar::string: {
        const bool names_ticker = f.key == "sym" || f.key == "T" || f.key == "pair" || f.key == "p";
        out += "\"" + (names_ticker ? std::string(ticker) : "x" + std::to_string(seq % 7)) + "\"";
        break;
      }
      case catalog::scalar::number:
        std::snprintf(number, sizeof number, "%.2f", 100.25 + static_cast<double>(seq % 400) / 4.0);
        out += number;
        break;
      case catalog::scalar::boolean: out += "true"; break;
      case catalog::scalar::timestamp_ms: out += std::to_string(stream_first_timestamp_ms + event); break;
      case catalog::scalar::timestamp_ns: out += std::to_string((stream_first_timestamp_ms + event) * 1'000'000); break;
      case catalog::scalar::json: out += "[[100.5,1.25],[100.75,2.5]]"; break;
      default: out += std::to_string(100 + seq % 1000); break;
    }
  }
  out += "}";
}

int model_index(std::string_view name) {
  const auto models = catalog::models();
  for (std::size_t i = 0; i < models.size(); ++i) {
    if (models[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

/// What a connection's reader shares with its writer.
struct connection_state {
  std::vector<std::string> topics;  // as subscribed: T.AAPL, T.*
  std::vector<std::string> acks;    // status events to send
  bool done = false;
};

}  // namespace

struct stream_server::impl {
  explicit impl(stream_server_options o)
      : options(std::move(o)),
        identity(options.identity ? *options.identity : make_self_signed(loopback_names())),
        acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {
    tls.use_certificate_chain(asio::buffer(identity.certificate));
    tls.use_private_key(asio::buffer(identity.private_key), asio::ssl::context::pem);
    asio::co_spawn(io, accept_loop(), asio::detached);
    thread = std::thread([this] { io.run(); });
  }
  ~impl() {
    io.stop();
    thread.join();
  }

  awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(asio::as_tuple(use_awaitable));
      if (ec) co_return;
      asio::co_spawn(io, serve(std::move(socket)), asio::detached);
    }
  }

  // Callers pass named strings, never temporaries: g++ 12 destroys a temporary of a co_await
  // expression wrongly.
  static awaitable<void> send(ws_stream& ws, const std::string& text) {
    co_await ws.async_write(asio::buffer(text), use_awaitable);
  }

  awaitable<void> serve(tcp::socket socket) {
    auto ws = std::make_shared<ws_stream>(std::move(socket), tls);
    try {
      co_await ws->next_layer().async_handshake(asio::ssl::stream_base::server, use_awaitable);
      beast::flat_buffer buffer;
      beast::http::request<beast::http::string_body> upgrade;
      co_await beast::http::async_read(ws->next_layer(), buffer, upgrade, use_awaitable);
      co_await ws->async_accept(upgrade, use_awaitable);
      const std::string market(upgrade.target().substr(upgrade.target().rfind('/') + 1));
      stream_opening opening;
      const char* sni = SSL_get_servername(ws->next_layer().native_handle(), TLSEXT_NAMETYPE_host_name);
      opening.server_name = sni != nullptr ? sni : "";
      opening.upgrade.method = std::string(upgrade.method_string());
      opening.upgrade.target = std::string(upgrade.target());
      for (const auto& field : upgrade) opening.upgrade.headers.emplace_back(field.name_string(), field.value());
      std::size_t id = 0;
      stream_script script;
      {
        const std::lock_guard lock(mutex);
        id = received.size();
        received.emplace_back();
        openings.push_back(std::move(opening));
        if (next_script < scripts.size()) script = scripts[next_script++];
      }
      ws->text(true);
      if (options.fragment_bytes != 0) {
        ws->auto_fragment(true);
        ws->write_buffer_bytes(std::max<std::size_t>(options.fragment_bytes, 8));
      }
      const std::string connected = status_frame("connected", "Connected Successfully");
      co_await send(*ws, connected);
      const std::string auth = co_await read(*ws, buffer, id);
      if (script.fault == stream_fault::auth_timeout) {
        const std::string timeout = status_frame("auth_timeout", "authentication timed out");
        co_await send(*ws, timeout);
        co_await ws->async_close(websocket::close_code::policy_error, use_awaitable);
        co_return;
      }
      const bool key_ok = string_member(auth, "action") == "auth" && string_member(auth, "params") == options.api_key;
      if (!key_ok || script.fault == stream_fault::auth_failed || script.fault == stream_fault::no_plan) {
        const std::string failed = status_frame(
            "auth_failed", script.fault == stream_fault::no_plan
                               ? "Your plan doesn't include websocket access. Visit https://massive.com/pricing to upgrade."
                               : "authentication failed");
        co_await send(*ws, failed);
        ws->next_layer().next_layer().close();  // the real server drops TCP without a close handshake
        co_return;
      }
      const std::string success = status_frame("auth_success", "authenticated");
      co_await send(*ws, success);
      if (script.fault == stream_fault::max_connections) {
        const std::string evicted = status_frame("max_connections", "Maximum number of connections exceeded.");
        co_await send(*ws, evicted);
        co_await ws->async_close(websocket::close_code::policy_error, use_awaitable);
        co_return;
      }
      auto state = std::make_shared<connection_state>();
      asio::co_spawn(io, reader(ws, state, market, id), asio::detached);
      co_await stream_events(ws, state, market, script);
    } catch (const std::exception&) {
      // The client left or broke the connection: nothing to answer.
    }
  }

  awaitable<std::string> read(ws_stream& ws, beast::flat_buffer& buffer, std::size_t id) {
    buffer.consume(buffer.size());
    co_await ws.async_read(buffer, use_awaitable);
    std::string text = beast::buffers_to_string(buffer.data());
    const std::lock_guard lock(mutex);
    received[id].push_back(text);
    co_return text;
  }

  awaitable<void> reader(std::shared_ptr<ws_stream> ws, std::shared_ptr<connection_state> state, std::string market,
                         std::size_t id) {
    beast::flat_buffer buffer;
    try {
      for (;;) {
        const std::string message = co_await read(*ws, buffer, id);
        const std::string action = string_member(message, "action");
        const std::string params = string_member(message, "params");
        for (std::size_t from = 0; from < params.size();) {
          const std::size_t comma = std::min(params.find(',', from), params.size());
          const std::string topic = params.substr(from, comma - from);
          from = comma + 1;
          const std::string prefix = topic.substr(0, topic.find('.'));
          // An unknown prefix, or one not served here: dropped silently, as the server does.
          if (channel_of(market, prefix) == nullptr) continue;
          const auto& unserved = options.unserved_prefixes;
          if (std::find(unserved.begin(), unserved.end(), prefix) != unserved.end()) continue;
          const auto at = std::find(state->topics.begin(), state->topics.end(), topic);
          if (action == "subscribe") {
            if (at == state->topics.end()) state->topics.push_back(topic);
            state->acks.push_back(R"({"ev":"status","status":"success","message":"subscribed to: )" + topic + "\"}");
          } else if (action == "unsubscribe") {
            if (at != state->topics.end()) state->topics.erase(at);
            state->acks.push_back(R"({"ev":"status","status":"success","message":"unsubscribed to: )" + topic + "\"}");
          }
        }
      }
    } catch (const std::exception&) {
      state->done = true;
    }
  }

  static const stream_catalog::channel* channel_of(std::string_view market, std::string_view prefix) {
    for (const stream_catalog::channel& c : stream_catalog::channels()) {
      if (c.market == market && c.prefix == prefix) return &c;
    }
    return nullptr;
  }

  awaitable<void> stream_events(std::shared_ptr<ws_stream> ws, std::shared_ptr<connection_state> state,
                                const std::string& market, stream_script script) {
    asio::steady_timer timer(io);
    std::size_t frames = 0;
    std::uint64_t seq = 0;
    while (!state->done) {
      if (!state->acks.empty()) {
        std::string frame = "[";
        for (const std::string& a : state->acks) frame += (frame.size() > 1 ? "," : "") + a;
        state->acks.clear();
        frame += "]";
        co_await send(*ws, frame);
      }
      if (!state->topics.empty() && frames < options.max_frames) {
        std::string frame = "[";
        for (std::size_t i = 0; i < options.events_per_frame; ++i, ++seq) {
          const std::string& topic = state->topics[seq % state->topics.size()];
          const std::string prefix = topic.substr(0, topic.find('.'));
          std::string ticker = topic.substr(topic.find('.') + 1);
          if (ticker == "*") ticker = std::string(star_tickers[seq % std::size(star_tickers)]);
          const stream_catalog::channel* c = channel_of(market, prefix);
          if (i != 0) frame += ",";
          write_event(frame, *c, model_index(c->model), ticker, seq);
        }
        frame += "]";
        co_await send(*ws, frame);
        ++frames;
        {
          const std::lock_guard lock(mutex);
          ++frames_sent;
        }
        if (frames == script.after_frames && co_await act(*ws, script)) co_return;
      }
      timer.expires_after(options.frame_interval.count() > 0 ? std::chrono::microseconds(options.frame_interval)
                                                             : std::chrono::microseconds(0));
      co_await timer.async_wait(use_awaitable);
    }
  }

  /// Does what the script does after its frames: ends the connection (true), or sends its
  /// frame and goes on (false); false too when the script does nothing here.
  static awaitable<bool> act(ws_stream& ws, const stream_script& script) {
    switch (script.fault) {
      case stream_fault::frame:
        co_await send(ws, script.frame);
        co_return false;
      case stream_fault::close:
        co_await ws.async_close(websocket::close_code::normal, use_awaitable);
        co_return true;
      case stream_fault::reset: {
        tcp::socket& s = ws.next_layer().next_layer();
        s.set_option(asio::socket_base::linger(true, 0));
        s.close();
        co_return true;
      }
      case stream_fault::stall: {
        // Cancels the reader too: a read in progress would answer the client's pings.
        tcp::socket& s = ws.next_layer().next_layer();
        s.cancel();
        asio::steady_timer quiet(s.get_executor());
        quiet.expires_after(std::chrono::seconds(60));
        co_await quiet.async_wait(asio::as_tuple(use_awaitable));  // ends early when the server stops
        co_return true;
      }
      case stream_fault::slow_consumer:
      case stream_fault::force_disconnect: {
        const bool slow = script.fault == stream_fault::slow_consumer;
        const std::string last = status_frame(slow ? "slow_consumer" : "force_disconnect",
                                              slow ? "client is a slow consumer" : "disconnected by the server");
        co_await send(ws, last);
        co_await ws.async_close(websocket::close_code::policy_error, use_awaitable);
        co_return true;
      }
      default: co_return false;
    }
  }

  stream_server_options options;
  pem_pair identity;
  asio::io_context io;
  asio::ssl::context tls{asio::ssl::context::tls_server};
  tcp::acceptor acceptor;
  std::thread thread;
  mutable std::mutex mutex;
  std::vector<stream_script> scripts;
  std::size_t next_script = 0;
  std::vector<std::vector<std::string>> received;
  std::vector<stream_opening> openings;
  std::size_t frames_sent = 0;
};

stream_server::stream_server(stream_server_options options) : impl_(std::make_unique<impl>(std::move(options))) {}
stream_server::~stream_server() = default;

std::string stream_server::url(std::string_view path) const {
  return "wss://127.0.0.1:" + std::to_string(port()) + "/" + std::string(path);
}
std::uint16_t stream_server::port() const noexcept { return impl_->acceptor.local_endpoint().port(); }
const std::string& stream_server::certificate_pem() const noexcept { return impl_->identity.certificate; }
void stream_server::script(std::vector<stream_script> scripts) {
  const std::lock_guard lock(impl_->mutex);
  impl_->scripts = std::move(scripts);
  impl_->next_script = 0;
}
std::vector<std::vector<std::string>> stream_server::received() const {
  const std::lock_guard lock(impl_->mutex);
  return impl_->received;
}
std::vector<stream_opening> stream_server::openings() const {
  const std::lock_guard lock(impl_->mutex);
  return impl_->openings;
}
std::size_t stream_server::connections() const {
  const std::lock_guard lock(impl_->mutex);
  return impl_->received.size();
}
std::size_t stream_server::frames_sent() const {
  const std::lock_guard lock(impl_->mutex);
  return impl_->frames_sent;
}

}  // namespace massive::mock
