// The stream client's TLS layer: Beast's ssl_stream over a tcp_stream, with the close of a
// connection the server broke made quiet, so that the client names what the server did.
//
// When a server breaks the WebSocket protocol (reserved bits, a masked frame, text that is not
// UTF-8, ...), Beast's read answers with a close frame, tears the connection down, and reports
// the violation only when the teardown succeeds. Beast's teardown for TLS is a TLS shutdown: it
// waits for the server's close_notify, which a server that closed or reset its socket never
// sends, and the client then reported "stream truncated", "Broken pipe" or "Connection reset by
// peer" and reconnected naming that. Here the teardown closes the socket without waiting: the
// close handshake is over, and the server owes nothing more. Reads and writes are Beast's own.
#pragma once

#include <boost/asio/append.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <utility>

namespace massive::stream::detail {

/// Beast's ssl_stream under a name of this namespace, so that its teardown is the one below.
class tls_layer : public boost::beast::ssl_stream<boost::beast::tcp_stream> {
 public:
  using boost::beast::ssl_stream<boost::beast::tcp_stream>::ssl_stream;
};

/// The WebSocket teardown Beast calls after a close handshake (found by argument-dependent
/// lookup, before Beast's own for ssl_stream): the socket is closed at once, and the teardown
/// succeeds, so that what Beast reports is why the connection closed.
template <class Handler>
void async_teardown(boost::beast::role_type, tls_layer& layer, Handler&& handler) {
  using boost::system::error_code;
  error_code ignored;
  auto& socket = boost::beast::get_lowest_layer(layer).socket();
  socket.shutdown(boost::asio::socket_base::shutdown_both, ignored);
  socket.close(ignored);
  boost::asio::post(layer.get_executor(),
                    boost::asio::append(std::forward<Handler>(handler), error_code{}));
}

}  // namespace massive::stream::detail
