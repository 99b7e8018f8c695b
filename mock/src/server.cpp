#include "massive/mock/server.hpp"

#include "massive/mock/gzip.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>

#include <openssl/ssl.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <mutex>
#include <thread>

namespace massive::mock {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using asio::as_tuple;
using asio::use_awaitable;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string chunk_encode(std::string_view body, const std::vector<std::size_t>& sizes) {
  std::string out;
  std::size_t i = 0;
  char hex[32];
  while (!body.empty()) {
    const std::size_t want = std::max<std::size_t>(1, sizes[std::min(i++, sizes.size() - 1)]);
    const auto piece = body.substr(0, want);
    std::snprintf(hex, sizeof hex, "%zx\r\n", piece.size());
    out += hex;
    out += piece;
    out += "\r\n";
    body.remove_prefix(piece.size());
  }
  out += "0\r\n\r\n";
  return out;
}

asio::awaitable<void> sleep_for(std::chrono::milliseconds d) {
  if (d.count() <= 0) co_return;
  asio::steady_timer t(co_await asio::this_coro::executor, d);
  co_await t.async_wait(as_tuple(use_awaitable));
}

void hard_reset(tcp::socket& s) {
  boost::system::error_code ignored;
  s.set_option(asio::socket_base::linger(true, 0), ignored);
  s.close(ignored);
}

}  // namespace

std::string recorded_request::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return v;
  }
  return {};
}

bool recorded_request::has_header(std::string_view name) const {
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return iequals(h.first, name); });
}

struct server::impl {
  explicit impl(server_options o) : options(std::move(o)) {
    identity = options.identity ? *options.identity : make_self_signed(loopback_names());
    if (options.tls) {
      ssl.emplace(asio::ssl::context::tls_server);
      ssl->use_certificate_chain(asio::buffer(identity.certificate));
      ssl->use_private_key(asio::buffer(identity.private_key), asio::ssl::context::pem);
    }
    acceptor.open(tcp::v4());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind({asio::ip::make_address_v4("127.0.0.1"), 0});
    acceptor.listen();
    port = acceptor.local_endpoint().port();
    asio::co_spawn(ioc, accept_loop(), [](std::exception_ptr) {});
    thread = std::thread([this] { ioc.run(); });
  }

  ~impl() { stop(); }

  void stop() {
    ioc.stop();
    if (thread.joinable()) thread.join();
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor.async_accept(as_tuple(use_awaitable));
      if (ec) co_return;
      std::size_t id = 0;
      {
        std::lock_guard lock(mutex);
        id = ++accepted;
      }
      asio::co_spawn(ioc, session(std::move(socket), id), [](std::exception_ptr) {});
    }
  }

  asio::awaitable<void> session(tcp::socket socket, std::size_t id) {
    {
      std::lock_guard lock(mutex);
      max_open = std::max(max_open, ++open);
    }
    struct close_count {
      impl& self;
      ~close_count() {
        std::lock_guard lock(self.mutex);
        --self.open;
      }
    } counted{*this};
    boost::system::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    if (ssl) {
      asio::ssl::stream<tcp::socket> stream(std::move(socket), *ssl);
      auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::server, as_tuple(use_awaitable));
      if (ec) co_return;
      {
        const char* sni = SSL_get_servername(stream.native_handle(), TLSEXT_NAMETYPE_host_name);
        std::lock_guard lock(mutex);
        ++handshakes;
        sni_names.emplace_back(sni != nullptr ? sni : "");
      }
      co_await serve(stream, stream.next_layer(), id);
    } else {
      co_await serve(socket, socket, id);
    }
  }

  reply next_reply(const recorded_request& request) {
    std::unique_lock lock(mutex);
    const std::size_t index = requests.size();
    ++received;
    if (options.record_requests) requests.push_back(request);
    reply r{.body = "{}"};
    if (!queue.empty()) {
      r = std::move(queue.front());
      queue.pop_front();
    } else if (respond) {
      auto make = respond;
      lock.unlock();
      r = make(request);
      lock.lock();
    }
    if (options.record_requests) {
      requests[index].response_status = r.status;
      requests[index].response_body = r.body;
    }
    return r;
  }

  // Sends close_notify, gives the peer a moment to answer it, then closes.
  template <class Stream>
  asio::awaitable<void> close_gracefully(Stream& stream, tcp::socket& raw) {
    if constexpr (!std::is_same_v<Stream, tcp::socket>) {
      asio::steady_timer guard(co_await asio::this_coro::executor, std::chrono::milliseconds(200));
      guard.async_wait([&raw](boost::system::error_code ec) {
        if (!ec) {
          boost::system::error_code ignored;
          raw.close(ignored);
        }
      });
      co_await stream.async_shutdown(as_tuple(use_awaitable));
      guard.cancel();
      // Let the timer's cancelled handler run before `raw` may go away.
      co_await sleep_for(std::chrono::milliseconds(1));
    }
    boost::system::error_code ignored;
    raw.shutdown(tcp::socket::shutdown_send, ignored);
    raw.close(ignored);
  }

  template <class Stream>
  asio::awaitable<void> serve(Stream& stream, tcp::socket& raw, std::size_t id) {
    beast::flat_buffer input;
    for (;;) {
      http::request_parser<http::empty_body> parser;
      auto [ec, n] = co_await http::async_read(stream, input, parser, as_tuple(use_awaitable));
      if (ec) co_return;
      recorded_request request;
      const auto& msg = parser.get();
      request.method = std::string(msg.method_string());
      request.target = std::string(msg.target());
      request.connection = id;
      for (const auto& field : msg) {
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      }
      reply r = next_reply(request);
      co_await sleep_for(r.head_delay);
      if (r.raw) {
        co_await asio::async_write(stream, asio::buffer(*r.raw), as_tuple(use_awaitable));
        co_await close_gracefully(stream, raw);
        co_return;
      }

      std::string wire = r.gzip ? gzip_compress(r.body) : r.body;
      const bool chunked = !r.chunks.empty();
      if (chunked) wire = chunk_encode(wire, r.chunks);
      const bool closing = !r.keep_alive || r.close_delimited;
      std::string head = "HTTP/1.1 " + std::to_string(r.status) + " " +
                         std::string(http::obsolete_reason(static_cast<http::status>(r.status))) + "\r\n";
      bool has_type = false;
      for (const auto& [k, v] : r.headers) {
        head += k + ": " + v + "\r\n";
        has_type = has_type || iequals(k, "Content-Type");
      }
      if (!has_type) head += "Content-Type: application/json\r\n";
      for (const std::string& interim : r.interim) {
        auto [iec, in] = co_await asio::async_write(stream, asio::buffer(interim), as_tuple(use_awaitable));
        if (iec) co_return;
      }
      if (r.gzip) head += "Content-Encoding: gzip\r\n";
      if (chunked) {
        head += "Transfer-Encoding: chunked\r\n";
      } else if (!r.close_delimited) {
        head += "Content-Length: " + std::to_string(r.gzip ? gzip_compress(r.body).size() : r.body.size()) + "\r\n";
      }
      if (closing) head += "Connection: close\r\n";
      head += "\r\n";
      auto [hec, hn] = co_await asio::async_write(stream, asio::buffer(head), as_tuple(use_awaitable));
      if (hec) co_return;

      std::size_t limit = r.head_only ? 0 : wire.size();
      for (const auto& cut : {r.reset_after, r.truncate_after, r.stall_after}) {
        if (cut) limit = std::min(limit, *cut);
      }
      const std::size_t piece = r.write_size > 0 ? r.write_size : std::max<std::size_t>(limit, 1);
      for (std::size_t at = 0; at < limit; at += piece) {
        if (at > 0) co_await sleep_for(r.write_delay);
        const auto size = std::min(piece, limit - at);
        auto [wec, wn] = co_await asio::async_write(stream, asio::buffer(wire.data() + at, size), as_tuple(use_awaitable));
        if (wec) co_return;
      }
      if (r.reset_after && *r.reset_after == limit) {
        hard_reset(raw);
        co_return;
      }
      if (r.truncate_after && *r.truncate_after == limit) {
        boost::system::error_code ignored;
        raw.shutdown(tcp::socket::shutdown_send, ignored);
        co_await sleep_for(std::chrono::milliseconds(20));
        raw.close(ignored);
        co_return;
      }
      if (r.stall_after && *r.stall_after == limit) {
        char byte;
        co_await stream.async_read_some(asio::buffer(&byte, 1), as_tuple(use_awaitable));
        co_return;
      }
      if (closing || r.after == after_response::close) {
        co_await close_gracefully(stream, raw);
        co_return;
      }
      if (r.after == after_response::reset) {
        hard_reset(raw);
        co_return;
      }
      if (r.pushed) {
        co_await sleep_for(std::chrono::milliseconds(20));
        auto [pec, pn] = co_await asio::async_write(stream, asio::buffer(*r.pushed), as_tuple(use_awaitable));
        if (pec) co_return;
      }
    }
  }

  // Everything a session touches is declared before the io_context, whose destruction
  // destroys the sessions still pending.
  server_options options;
  pem_pair identity;
  std::optional<asio::ssl::context> ssl;
  mutable std::mutex mutex;
  responder respond;
  std::deque<reply> queue;
  std::vector<recorded_request> requests;
  std::size_t received = 0;
  std::size_t handshakes = 0;
  std::vector<std::string> sni_names;
  std::size_t accepted = 0;
  std::size_t open = 0;
  std::size_t max_open = 0;
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  std::uint16_t port = 0;
  std::thread thread;
};

server::server(server_options options) : impl_(std::make_unique<impl>(std::move(options))) {}
server::~server() = default;

void server::stop() { impl_->stop(); }

std::uint16_t server::port() const noexcept { return impl_->port; }

std::string server::base_url() const {
  return std::string(impl_->ssl ? "https" : "http") + "://127.0.0.1:" + std::to_string(impl_->port);
}

const std::string& server::certificate_pem() const noexcept { return impl_->identity.certificate; }

void server::respond_with(responder r) {
  std::lock_guard lock(impl_->mutex);
  impl_->respond = std::move(r);
}

void server::enqueue(reply r) {
  std::lock_guard lock(impl_->mutex);
  impl_->queue.push_back(std::move(r));
}

std::vector<recorded_request> server::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

std::size_t server::request_count() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->received;
}

std::size_t server::tls_handshakes() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->handshakes;
}

std::vector<std::string> server::server_names() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->sni_names;
}

std::size_t server::connections_accepted() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->accepted;
}

std::size_t server::max_concurrent_connections() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->max_open;
}

std::size_t server::open_connections() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->open;
}

}  // namespace massive::mock
