// The stream client's I/O: connect, read frames into the frame decoder, write what the session
// asks for, wait its backoffs. Every decision is the session's (stream_session.hpp).
#include "massive/stream_client.hpp"

#include "massive/cpu_support.hpp"
#include "massive/error.hpp"
#include "massive/stream_error.hpp"
#include "transport/tls.hpp"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/url/parse.hpp>

#include <cstdlib>
#include <optional>
#include <random>

namespace massive::stream {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using asio::use_awaitable;
using boost::system::error_code;

namespace {

using ws_stream = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

struct endpoint {
  std::string host;
  std::string port = "443";
  std::string path;
};

endpoint endpoint_of(const client_options& o) {
  if (o.url.empty()) return {std::string(feed_host(o.feed)), "443", "/" + std::string(market_path(o.market))};
  const auto u = boost::urls::parse_uri(o.url);
  if (!u || u->scheme() != "wss" || u->host().empty()) {
    throw stream_error(stream_errc::protocol_violation, "client_options.url: not a wss:// URL: " + o.url);
  }
  endpoint e;
  e.host = u->host_address();
  if (u->has_port()) e.port = std::string(u->port());
  e.path = u->path().empty() ? "/" : std::string(u->encoded_path());
  return e;
}

std::string resolved_key(std::string key) {
  if (key.empty()) {
    if (const char* env = std::getenv("MASSIVE_API_KEY")) key = env;
  }
  if (key.empty()) throw transport_error(errc::invalid_option, "client_options.api_key: empty and MASSIVE_API_KEY unset");
  return key;
}

}  // namespace

struct client::impl {
  impl(const asio::any_io_executor& executor, client_options o)
      // The CPU is checked before the frame decoder, built for MASSIVE_SIMD_ARCH, can run.
      : options((massive::detail::require_cpu_support(), std::move(o))),
        where(endpoint_of(options)),
        tls(transport::make_tls_context({options.verify_peer, options.ca_file, {}, options.ca_pem, "client_options"})),
        protocol(resolved_key(options.api_key), options.reconnect),
        decoder(options.market, options.channels, options.limits),
        timer(executor),
        random(std::random_device{}()) {
    options.api_key.clear();  // the session holds the key; nothing else does
  }

  void trace(std::string_view what, std::string_view detail) const {
    if (!options.trace) return;
    try {
      options.trace({what, detail});
    } catch (...) {  // a trace hook's failure is not the stream's
    }
  }

  void apply(session_action a) {
    switch (a.what) {
      case session_action::kind::connect: connect_due = true; break;
      case session_action::kind::send: outbox.push_back(std::move(a.text)); break;
      case session_action::kind::wait: backoff = a.delay; break;
      case session_action::kind::fail:
        failure = std::make_exception_ptr(*a.error);
        drop();
        break;
      case session_action::kind::close: drop(); break;
      case session_action::kind::none: break;
    }
  }

  void lost(std::string_view why) {
    trace("disconnected", why);
    drop();
    decoder.reset();
    apply(protocol.resume(happened::disconnected{why, std::uniform_real_distribution<double>(0.0, 1.0)(random)}));
  }

  void drop() {
    if (!ws) return;
    error_code ignored;
    beast::get_lowest_layer(*ws).socket().close(ignored);
    ws.reset();
    outbox.clear();
  }

  asio::awaitable<void> connect() {
    connect_due = false;
    trace("connect", where.host + ":" + where.port + where.path);
    auto executor = co_await asio::this_coro::executor;
    ws.emplace(executor, tls);
    beast::tcp_stream& tcp = beast::get_lowest_layer(*ws);
    try {
      asio::ip::tcp::resolver resolver(executor);
      const auto found = co_await resolver.async_resolve(where.host, where.port, use_awaitable);
      tcp.expires_after(options.connect_timeout);
      co_await tcp.async_connect(found, use_awaitable);
      if (!transport::expect_peer(ws->next_layer().native_handle(), where.host, options.verify_peer)) {
        throw stream_error(stream_errc::protocol_violation, "cannot set the expected host name " + where.host);
      }
      co_await ws->next_layer().async_handshake(asio::ssl::stream_base::client, use_awaitable);
      tcp.expires_never();
      websocket::stream_base::timeout t;
      t.handshake_timeout = options.connect_timeout;
      t.idle_timeout = options.idle_timeout;
      t.keep_alive_pings = true;
      ws->set_option(t);
      ws->read_message_max(options.limits.max_frame_bytes);
      // Named, not a temporary of the co_await expression: g++ 12 destroys such temporaries wrongly.
      const std::string host = where.host + (where.port == "443" ? "" : ":" + where.port);
      co_await ws->async_handshake(host, where.path, use_awaitable);
      ws->text(true);
      trace("connected", where.host);
      apply(protocol.resume(happened::connected{}));
    } catch (const boost::system::system_error& e) {
      const long verify = SSL_get_verify_result(ws->next_layer().native_handle());
      std::string why = e.code().message();
      if (verify != X509_V_OK) why += std::string(" (certificate: ") + X509_verify_cert_error_string(verify) + ")";
      last_connect_error = why;
      lost("connecting to " + where.host + ": " + why);
    }
  }

  /// Reads one whole message into the decoder.
  asio::awaitable<std::optional<batch>> read_frame() {
    try {
      do {
        const std::size_t n = co_await ws->async_read_some(buffer.prepare(64 * 1024), use_awaitable);
        buffer.commit(n);
        const auto bytes = buffer.data();  // a flat_buffer: one contiguous piece
        decoder.feed({static_cast<const char*>(bytes.data()), bytes.size()});
        buffer.consume(buffer.size());
      } while (!ws->is_message_done());
      co_return decoder.finish();
    } catch (const boost::system::system_error& e) {
      buffer.consume(buffer.size());
      if (e.code() == websocket::error::message_too_big) {
        drop();
        decoder.reset();
        throw stream_error(stream_errc::frame_too_large,
                           "a frame longer than " + std::to_string(options.limits.max_frame_bytes) + " bytes");
      }
      lost(e.code() == beast::error::timeout ? "stalled: no frame or pong in time" : e.code().message());
      co_return std::nullopt;
    } catch (...) {
      // A refused frame (decode_error, frame_too_large): the rest of the connection cannot be
      // trusted to be in step; the next call reconnects.
      buffer.consume(buffer.size());
      lost("a frame was refused");
      throw;
    }
  }

  asio::awaitable<batch> next() {
    if (!started) {
      started = true;
      apply(protocol.resume(happened::start{}));
    }
    for (;;) {
      if (failure) std::rethrow_exception(failure);
      if (protocol.current() == session::state::closed) throw stream_error(stream_errc::connection_lost, "closed");
      if (backoff) {
        trace("backoff", std::to_string(backoff->count()) + " ms");
        timer.expires_after(*std::exchange(backoff, std::nullopt));
        co_await timer.async_wait(use_awaitable);
        apply(protocol.resume(happened::backoff_elapsed{}));
        continue;
      }
      if (connect_due) {
        co_await connect();
        continue;
      }
      if (!ws) throw stream_error(stream_errc::connection_lost, "no connection and none due");
      try {
        while (!outbox.empty()) {
          const std::string text = std::move(outbox.front());
          outbox.erase(outbox.begin());
          co_await ws->async_write(asio::buffer(text), use_awaitable);
        }
      } catch (const boost::system::system_error& e) {
        lost(e.code().message());
        continue;
      }
      std::optional<batch> b = co_await read_frame();
      if (!b) continue;
      for (const status_event& s : b->events<status_event>()) {
        trace("status", std::string(s.status) + ": " + std::string(s.message.value_or("")));
        apply(protocol.resume(happened::status{s.status, s.message.value_or("")}));
      }
      if (failure) std::rethrow_exception(failure);
      if (b->size() > b->events<status_event>().size()) {
        if (protocol.take_gap()) b->mark_gap();
        co_return std::move(*b);
      }
    }
  }

  client_options options;
  endpoint where;
  asio::ssl::context tls;
  session protocol;
  frame_decoder decoder;
  asio::steady_timer timer;
  std::minstd_rand random;
  std::optional<ws_stream> ws;
  beast::flat_buffer buffer;
  std::vector<std::string> outbox;
  std::optional<std::chrono::milliseconds> backoff;
  std::exception_ptr failure;
  std::string last_connect_error;
  bool started = false;
  bool connect_due = false;
};

client::client(asio::any_io_executor executor, client_options options)
    : executor_(executor), impl_(std::make_shared<impl>(executor, std::move(options))) {}
client::~client() = default;

void client::subscribe(std::vector<topic> topics) { impl_->apply(impl_->protocol.resume(happened::subscribe{topics})); }
void client::unsubscribe(std::vector<topic> topics) {
  impl_->apply(impl_->protocol.resume(happened::unsubscribe{topics}));
}
void client::close() { impl_->apply(impl_->protocol.resume(happened::close{})); }
const session& client::state() const noexcept { return impl_->protocol; }

asio::awaitable<batch> client::next_awaitable() {
  // The impl outlives the operation even if the client is destroyed meanwhile.
  const std::shared_ptr<impl> keep = impl_;
  co_return co_await keep->next();
}

}  // namespace massive::stream
