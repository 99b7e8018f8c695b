// Connection set-up: resolve, connect, open a tunnel through the proxy, handshake TLS.
#include "connection_setup.hpp"

#include "tunnel_io.hpp"

#include "massive/proxy_error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/this_coro.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace massive::transport {

namespace {

std::string verification_reason(SSL* ssl, const error_code& ec) {
  const long result = SSL_get_verify_result(ssl);
  if (result != X509_V_OK) {
    return std::string("certificate verify failed: ") + X509_verify_cert_error_string(result);
  }
  return ec.message();
}

}  // namespace

call_awaitable<std::unique_ptr<connection>> open_connection(client_state& st, call_control& ctl,
                                                             clock_type::time_point deadline) {
  using asio::as_tuple;
  const auto& cfg = st.cfg;
  const auto connect_deadline = clock_type::now() + cfg.opts.connect_timeout;
  if (connect_deadline < deadline) ctl.arm(connect_deadline, abort_reason::connect_timeout);

  // Through a proxy, the TCP connection goes to the proxy and a CONNECT opens the tunnel;
  // everything after (TLS with the API's host name, the requests) runs inside it.
  const auto& proxy = cfg.proxy;
  const std::string& host = proxy ? proxy->connect_host : cfg.connect_host;
  const std::string& port = proxy ? proxy->port_text : cfg.port_text;
  const std::string peer = proxy ? "proxy " + proxy->name : cfg.host_header;
  tcp::resolver resolver(co_await asio::this_coro::executor);
  ctl.resolver = &resolver;
  auto [rec, endpoints] = co_await resolver.async_resolve(host, port, as_tuple(use_call_awaitable));
  ctl.resolver = nullptr;
  if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  if (rec) fail(errc::resolve_failed, "resolving " + (proxy ? "proxy " + host : host) + ": " + rec.message());

  auto conn = std::make_unique<connection>(st.executor, st.tls ? &*st.tls : nullptr);
  ctl.socket = &conn->socket();
  auto [cec, endpoint] = co_await asio::async_connect(conn->socket(), endpoints, as_tuple(use_call_awaitable));
  if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  if (cec) fail(errc::connect_failed, "connecting to " + peer + ": " + cec.message());
  error_code ignored;
  conn->socket().set_option(tcp::no_delay(true), ignored);
  // The body loop reads what has already arrived with synchronous reads (read_arrived), which
  // must return would_block rather than wait on the executor's thread.
  conn->socket().non_blocking(true, ignored);
  if (proxy) {
    try {
      co_await open_tunnel<call_executor>(conn->socket(), cfg.connect_request, *proxy,
                                                     cfg.base.host + ":" + cfg.port_text);
    } catch (const proxy_error&) {
      if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
      throw;
    }
  }

  if (auto* tls = conn->tls()) {
    SSL* ssl = tls->native_handle();
    if (!expect_peer(ssl, cfg.connect_host, cfg.opts.tls.verify_peer)) {
      fail(errc::tls_handshake_failed, "cannot set the expected host name");
    }
    auto [hec] = co_await tls->async_handshake(asio::ssl::stream_base::client, as_tuple(use_call_awaitable));
    if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
    if (hec) {
      fail(errc::tls_handshake_failed,
           "TLS handshake with " + cfg.host_header + ": " + verification_reason(ssl, hec));
    }
  }
  if (connect_deadline < deadline) ctl.arm(deadline, abort_reason::deadline);
  co_return conn;
}

}  // namespace massive::transport
