// The stream client's I/O: connect, read frames into the frame decoder, write what the session
// asks for, wait its backoffs. Every decision is the session's (stream/session.hpp). Under
// drop_oldest a coroutine of its own (pump) reads ahead into a bounded queue that next() takes
// from; under back_pressure next() reads itself.
#include "massive/stream/client.hpp"

#include "idle_check.hpp"
#include "route.hpp"
#include "tls_layer.hpp"

#include "massive/cpu_support.hpp"
#include "massive/error.hpp"
#include "massive/proxy_error.hpp"
#include "massive/stream/error.hpp"
#include "transport/tls.hpp"
#include "transport/tunnel_io.hpp"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <optional>
#include <random>

namespace massive::stream {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using asio::use_awaitable;
using boost::system::error_code;

namespace {

using ws_stream = websocket::stream<detail::tls_layer>;
// Shared by the operations in flight on it: close() may drop the connection while one is pending.
using ws_pointer = std::shared_ptr<ws_stream>;

std::string resolved_key(std::string key) {
  if (key.empty()) {
    if (const char* env = std::getenv("MASSIVE_API_KEY")) key = env;
  }
  if (key.empty()) throw transport_error(errc::invalid_option, "stream_config.api_key: empty and MASSIVE_API_KEY unset");
  return key;
}

}  // namespace

struct client::impl : std::enable_shared_from_this<client::impl> {
  // drop_oldest: what the pump read and next() has not taken (queue, in wire order).
  struct queued {
    batch events;
    std::exception_ptr error;  // a refused frame, in place of its batch
  };

  impl(const asio::any_io_executor& executor, stream_config o)
      // The CPU is checked before the frame decoder, built for MASSIVE_SIMD_ARCH, can run.
      : options((massive::detail::require_cpu_support(), std::move(o))),
        where(detail::route_of(options, &std::getenv)),
        tls(transport::make_tls_context(options.tls, "stream_config.tls")),
        protocol(resolved_key(options.api_key), options.reconnect),
        decoder(options.market, options.channels, options.limits),
        timer(executor),
        arrived(executor),
        watchdog(executor),
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
      case session_action::kind::close:
        drop();
        timer.cancel();  // a backoff in progress ends now, and the loop sees the closed session
        break;
      case session_action::kind::none: break;
    }
  }

  void lost(std::string_view why) {
    trace("disconnected", why);
    drop();
    decoder.reset();
    // How long it was up: a connection dropped right after authenticating is a failed attempt.
    const auto up_for = connected_at ? std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::steady_clock::now() - *connected_at)
                                     : std::chrono::milliseconds(0);
    connected_at.reset();
    apply(protocol.resume(
        happened::disconnected{why, std::uniform_real_distribution<double>(0.0, 1.0)(random), up_for}));
  }

  void drop() {
    watchdog.cancel();
    if (!ws) return;
    error_code ignored;
    beast::get_lowest_layer(*ws).socket().close(ignored);
    ws.reset();
    outbox.clear();
  }

  asio::awaitable<void> connect() {
    connect_due = false;
    const auto& proxy = where.proxy;
    trace("connect", where.authority + where.path + (proxy ? " through proxy " + proxy->name : ""));
    auto executor = co_await asio::this_coro::executor;
    const ws_pointer socket = ws = std::make_shared<ws_stream>(executor, tls);
    beast::tcp_stream& tcp = beast::get_lowest_layer(*socket);
    websocket::response_type answer;  // the server's answer to the upgrade, for a refusal's status
    try {
      asio::ip::tcp::resolver resolver(executor);
      const auto found = co_await resolver.async_resolve(proxy ? proxy->connect_host : where.host,
                                                         proxy ? proxy->port_text : where.port, use_awaitable);
      // One deadline for the whole opening: TCP, the tunnel, TLS, the upgrade, then `connected`
      // and auth's answer (read_next() lifts it once the session has the answer). The tcp_stream
      // closes the socket when it passes; its timer is armed per read only until then.
      tcp.expires_after(options.connect_timeout);
      opening_deadline = true;
      co_await tcp.async_connect(found, use_awaitable);
      if (proxy) co_await open_tunnel(tcp);
      if (!transport::expect_peer(socket->next_layer().native_handle(), where.host, options.tls.verify_peer)) {
        throw stream_error(stream_errc::protocol_violation, "cannot set the expected host name " + where.host);
      }
      co_await socket->next_layer().async_handshake(asio::ssl::stream_base::client, use_awaitable);
      // No idle timeout of Beast's: it re-arms a timer on every read (a timerfd_settime and a
      // cancelled handler each, about 6 % of a saturated stream's samples); watch() checks the
      // connection on a coarse tick instead.
      websocket::stream_base::timeout t;
      t.handshake_timeout = options.connect_timeout;
      t.idle_timeout = websocket::stream_base::none();
      t.keep_alive_pings = false;
      socket->set_option(t);
      // A pong is progress: the answer to watch()'s ping. The server's own pings are not.
      socket->control_callback([this](websocket::frame_type kind, beast::string_view) {
        if (kind == websocket::frame_type::pong) ++progress;
      });
      socket->set_option(websocket::stream_base::decorator([headers = &where.headers](websocket::request_type& request) {
        for (const auto& [name, value] : *headers) request.insert(name, value);
      }));
      // The frame limit is the decoder's, counted as the bytes arrive (read_frame()). Left to
      // Beast, an oversize frame fails the connection inside Beast, whose close handshake then
      // reports its own error in place of message_too_big when the server resets rather than
      // closing: the client reconnected for ever, naming a reset.
      socket->read_message_max(0);
      co_await socket->async_handshake(answer, where.host_header, where.path, use_awaitable);
      socket->text(true);
      stall.clear();
      if (options.idle_timeout.count() > 0) asio::co_spawn(executor, watch(shared_from_this(), socket), asio::detached);
      trace("connected", where.host);
      connected_at = std::chrono::steady_clock::now();
      apply(protocol.resume(happened::connected{}));
    } catch (const proxy_error& e) {
      if (transport::tunnel_refusal_is_final(e)) {
        trace("refused", e.what());
        failure = std::current_exception();
        apply(protocol.resume(happened::refused{}));
        drop();
      } else {
        lost(e.what());
      }
    } catch (const boost::system::system_error& e) {
      const long verify = SSL_get_verify_result(socket->next_layer().native_handle());
      std::string why = e.code().message();
      if (verify != X509_V_OK) why += std::string(" (certificate: ") + X509_verify_cert_error_string(verify) + ")";
      // The status alone: the reason phrase is the server's text.
      if (e.code() == websocket::error::upgrade_declined) {
        why += " (HTTP " + std::to_string(answer.result_int()) + ")";
      }
      lost("connecting to " + where.host + ": " + why);
    }
  }

  /// CONNECT through the proxy on a connected `tcp`, within its deadline; throws proxy_error.
  asio::awaitable<void> open_tunnel(beast::tcp_stream& tcp) {
    try {
      co_await transport::open_tunnel<asio::any_io_executor>(tcp, where.connect_request, *where.proxy, where.authority);
      co_return;
    } catch (const proxy_error&) {
      // The proxy leaves the socket open whatever it answers; only the deadline closes it.
      if (tcp.socket().is_open()) throw;
    }
    throw proxy_error(proxy_errc::failed, 0, where.proxy->name,
                      "no tunnel through proxy " + where.proxy->name + " to " + where.authority + " within " +
                          std::to_string(options.connect_timeout.count()) + " ms");
  }

  /// The idle check of one connection, on idle_check's tick: a connection without a whole
  /// message or a pong for half of idle_timeout is pinged, and one without for all of it is
  /// stalled: closed, which ends the read in progress. Ends with its connection.
  static asio::awaitable<void> watch(std::shared_ptr<impl> self, ws_pointer socket) {
    detail::idle_check idle(self->options.idle_timeout, std::chrono::steady_clock::now(), self->progress);
    for (;;) {
      self->watchdog.expires_after(idle.tick());
      co_await self->watchdog.async_wait(asio::as_tuple(use_awaitable));  // drop() cancels it
      if (self->ws != socket) co_return;  // dropped or replaced (a new watch() took the timer)
      const auto verdict = idle.at(std::chrono::steady_clock::now(), self->progress);
      if (verdict == detail::idle_check::verdict::stalled) {
        // Beast's read is between the frames of a message, or waits for one to begin.
        self->stall = idle.stalled(!socket->is_message_done());
        error_code ignored;
        beast::get_lowest_layer(*socket).socket().close(ignored);
        co_return;
      }
      if (verdict == detail::idle_check::verdict::ping) {
        const auto [ec] = co_await socket->async_ping({}, asio::as_tuple(use_awaitable));
        if (ec) co_return;  // the read in progress reports what happened to the connection
      }
    }
  }

  /// Why the connection was lost, from the error its read or write ended with.
  std::string cause(const error_code& ec) const {
    if (!stall.empty()) return stall;
    if (ec == beast::error::timeout && opening_deadline) return protocol.overdue(options.connect_timeout);
    if (ec == websocket::condition::protocol_violation) return "protocol violation by the server: " + ec.message();
    return ec.message();
  }

  /// Reads one whole message into the decoder.
  asio::awaitable<std::optional<batch>> read_frame() {
    const ws_pointer socket = ws;
    try {
      do {
        const std::size_t n = co_await socket->async_read_some(buffer.prepare(64 * 1024), use_awaitable);
        buffer.commit(n);
        const auto bytes = buffer.data();  // a flat_buffer: one contiguous piece
        decoder.feed({static_cast<const char*>(bytes.data()), bytes.size()});
        buffer.consume(buffer.size());
      } while (!socket->is_message_done());
      ++progress;
      co_return decoder.finish();
    } catch (const boost::system::system_error& e) {
      buffer.consume(buffer.size());
      lost(cause(e.code()));
      co_return std::nullopt;
    } catch (...) {
      // A refused frame (decode_error, frame_too_large): the rest of the connection cannot be
      // trusted to be in step; the next call reconnects.
      buffer.consume(buffer.size());
      lost("a frame was refused");
      throw;
    }
  }

  /// The next frame with events from the connection (back_pressure's next(), drop_oldest's pump).
  asio::awaitable<batch> read_next() {
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
        co_await timer.async_wait(asio::as_tuple(use_awaitable));  // close() cancels it
        apply(protocol.resume(happened::backoff_elapsed{}));
        continue;
      }
      if (connect_due) {
        co_await connect();
        continue;
      }
      if (!ws) throw stream_error(stream_errc::connection_lost, "no connection and none due");
      try {
        const ws_pointer socket = ws;
        while (!outbox.empty()) {
          const std::string text = std::move(outbox.front());
          outbox.erase(outbox.begin());
          co_await socket->async_write(asio::buffer(text), use_awaitable);
        }
      } catch (const boost::system::system_error& e) {
        lost(cause(e.code()));
        continue;
      }
      std::optional<batch> b = co_await read_frame();
      if (!b) continue;
      for (const status_event& s : b->events<status_event>()) {
        trace("status", protocol.without_key(std::string(s.status) + ": " + std::string(s.message.value_or(""))));
        apply(protocol.resume(happened::status{s.status, s.message.value_or("")}));
      }
      if (failure) std::rethrow_exception(failure);
      if (opening_deadline && ws && !protocol.opening()) {
        beast::get_lowest_layer(*ws).expires_never();  // auth answered: the connection is open
        opening_deadline = false;
      }
      // A frame of status events alone is the protocol's; one of skipped events alone is still
      // the user's to see (batch::skipped()).
      if (b->size() > b->events<status_event>().size() || b->skipped() != 0) {
        if (protocol.take_gap()) b->mark_gap();
        co_return std::move(*b);
      }
    }
  }

  asio::awaitable<batch> next() {
    if (options.slow_consumer == slow_consumer_policy::back_pressure) co_return co_await read_next();
    if (!pumping) {
      pumping = true;
      asio::co_spawn(timer.get_executor(), pump(shared_from_this()), asio::detached);
    }
    while (queue.empty()) {
      if (pump_failure) std::rethrow_exception(pump_failure);
      arrived.expires_at(asio::steady_timer::time_point::max());
      co_await arrived.async_wait(asio::as_tuple(use_awaitable));  // the pump cancels it
    }
    queued entry = std::move(queue.front());
    queue.pop_front();
    if (entry.error) std::rethrow_exception(entry.error);
    co_return std::move(entry.events);
  }

  /// drop_oldest: reads frames as they come until the stream ends. A refused frame is queued in
  /// its place, as back_pressure's next() would have thrown it, and the pump reads on after the
  /// reconnect; the error that ends the stream is next()'s once the queue is empty.
  static asio::awaitable<void> pump(std::shared_ptr<impl> self) {
    for (;;) {
      queued entry;
      try {
        entry.events = co_await self->read_next();
      } catch (...) {
        entry.error = std::current_exception();
      }
      if (entry.error && self->protocol.current() != session::state::backoff) {
        self->pump_failure = entry.error;
        self->arrived.cancel();
        co_return;
      }
      self->enqueue(std::move(entry));
    }
  }

  /// Queues a batch or an error; with buffered_batches batches queued, the oldest batch is
  /// dropped (errors never are) and the batch after it marked as following a gap.
  void enqueue(queued entry) {
    const auto is_batch = [](const queued& q) { return !q.error; };
    const auto capacity = static_cast<std::ptrdiff_t>(std::max<std::size_t>(options.buffered_batches, 1));
    if (std::count_if(queue.begin(), queue.end(), is_batch) >= capacity) {
      const auto oldest = std::find_if(queue.begin(), queue.end(), is_batch);
      ++dropped.frames;
      dropped.events += oldest->events.size();
      const auto after = std::find_if(queue.erase(oldest), queue.end(), is_batch);
      (after == queue.end() ? entry.events : after->events).mark_gap();
    }
    queue.push_back(std::move(entry));
    arrived.cancel();
  }

  stream_config options;
  detail::route where;
  asio::ssl::context tls;
  session protocol;
  frame_decoder decoder;
  asio::steady_timer timer;
  asio::steady_timer arrived;  // drop_oldest: next() waits on it for the pump's next batch
  asio::steady_timer watchdog;  // watch()'s tick
  std::uint64_t progress = 0;   // whole messages and pongs so far: what watch() looks at
  std::string stall;            // why watch() closed the connection; empty: it did not
  bool opening_deadline = false;  // connect_timeout runs on the tcp_stream (until auth's answer)
  std::minstd_rand random;
  std::optional<std::chrono::steady_clock::time_point> connected_at;  // while a connection is up
  ws_pointer ws;
  beast::flat_buffer buffer;
  std::vector<std::string> outbox;
  std::optional<std::chrono::milliseconds> backoff;
  std::exception_ptr failure;
  bool started = false;
  bool connect_due = false;
  bool pumping = false;
  std::deque<queued> queue;
  std::exception_ptr pump_failure;  // what ended the stream, after the queue
  drop_count dropped;
};

client::client(asio::any_io_executor executor, stream_config options)
    : async_object(executor), impl_(std::make_shared<impl>(this->executor(), std::move(options))) {}
// Ends the pump, or a next() in flight, which would otherwise read on with nobody to hand to.
client::~client() { close(); }

void client::subscribe(std::vector<topic> topics) { impl_->apply(impl_->protocol.resume(happened::subscribe{topics})); }
void client::unsubscribe(std::vector<topic> topics) {
  impl_->apply(impl_->protocol.resume(happened::unsubscribe{topics}));
}
void client::close() { impl_->apply(impl_->protocol.resume(happened::close{})); }
const session& client::state() const noexcept { return impl_->protocol; }
drop_count client::dropped() const noexcept { return impl_->dropped; }

asio::awaitable<batch> client::next_awaitable() {
  // The impl outlives the operation even if the client is destroyed meanwhile.
  const std::shared_ptr<impl> keep = impl_;
  co_return co_await keep->next();
}

}  // namespace massive::stream
