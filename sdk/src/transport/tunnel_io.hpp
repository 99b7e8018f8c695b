// The thin Asio driver of the CONNECT exchange (tunnel.hpp holds its logic): writes the
// rendered request on a connected socket, reads until the proxy's answer head is parsed.
// A coroutine template over the caller's executor and stream (the REST transport's socket,
// the stream client's beast::tcp_stream with its deadline), so that any connection of the
// SDK can open a tunnel before its own TLS handshake.
#pragma once

#include "tunnel.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <string>
#include <string_view>

namespace massive::transport {

/// Sends `request` (from render_connect_request) to `proxy` over `socket`, a connected TCP
/// stream, and returns once the tunnel to `authority` is established; throws proxy_error
/// otherwise. An operation aborted by the caller (a timeout closing the socket) surfaces as a
/// proxy_error too: the caller checks its own reason.
template <class Executor, class AsyncStream>
boost::asio::awaitable<void, Executor> open_tunnel(AsyncStream& socket,
                                                   std::string_view request, const proxy_endpoint& proxy,
                                                   std::string_view authority) {
  namespace asio = boost::asio;
  constexpr auto token = asio::as_tuple(asio::use_awaitable_t<Executor>{});
  const bool credentials = !proxy.authorization.empty();
  auto [wec, written] = co_await asio::async_write(socket, asio::buffer(request), token);
  if (wec) throw tunnel_failure({}, proxy, authority, credentials, wec.message());
  std::string received;
  std::array<char, 2048> chunk;
  for (;;) {
    auto [ec, n] = co_await socket.async_read_some(asio::buffer(chunk), token);
    received.append(chunk.data(), n);
    const tunnel_response response = parse_tunnel_response(received);
    if (response.what == tunnel_response::kind::established) co_return;
    if (response.what != tunnel_response::kind::incomplete) {
      throw tunnel_failure(response, proxy, authority, credentials);
    }
    if (ec) throw tunnel_failure(response, proxy, authority, credentials, ec.message());
  }
}

}  // namespace massive::transport
