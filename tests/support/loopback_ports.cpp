#include "loopback_ports.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace massive::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

std::uint16_t free_port() {
  asio::io_context io;
  tcp::acceptor probe(io, {asio::ip::address_v4::loopback(), 0});
  return probe.local_endpoint().port();
}

bool accepts_connections(std::uint16_t port) {
  asio::io_context io;
  tcp::socket s(io);
  boost::system::error_code ec;
  s.connect({asio::ip::address_v4::loopback(), port}, ec);
  return !ec;
}

}  // namespace massive::test
