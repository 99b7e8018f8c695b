#include "rogue_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <openssl/evp.h>
#include <sys/socket.h>

#include <array>
#include <thread>

namespace massive::test {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

namespace {

/// Sec-WebSocket-Accept for a client's Sec-WebSocket-Key (RFC 6455, section 4.2.2).
std::string accept_value(std::string_view key) {
  const std::string text = std::string(key) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha1(), nullptr);
  std::array<unsigned char, 64> encoded{};
  const int n = EVP_EncodeBlock(encoded.data(), digest.data(), static_cast<int>(size));
  return {reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(n)};
}

}  // namespace

struct rogue_server::drip {
  std::string bytes;
  std::chrono::milliseconds every;
  std::chrono::milliseconds during;
};

struct rogue_server::impl {
  impl(std::optional<std::string> answer, std::string bytes, rogue_ending ending,
       std::optional<rogue_server::drip> trickle = std::nullopt)
      : identity(mock::make_self_signed(mock::loopback_names())),
        acceptor(io, {asio::ip::make_address("127.0.0.1"), 0}),
        thread([this, answer = std::move(answer), bytes = std::move(bytes), ending,
                trickle = std::move(trickle)] { serve(answer, bytes, ending, trickle); }) {}

  // Errors end the connection: the client's side of the test says what it saw.
  void serve(const std::optional<std::string>& answer, const std::string& bytes,
             rogue_ending ending, const std::optional<rogue_server::drip>& trickle) {
    boost::system::error_code ec;
    asio::ssl::context tls(asio::ssl::context::tls_server);
    tls.use_certificate_chain(asio::buffer(identity.certificate));
    tls.use_private_key(asio::buffer(identity.private_key), asio::ssl::context::pem);
    asio::ssl::stream<tcp::socket> stream(io, tls);
    acceptor.accept(stream.next_layer(), ec);
    if (ec || stream.handshake(asio::ssl::stream_base::server, ec)) return;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> upgrade;
    http::read(stream, buffer, upgrade, ec);
    if (ec) return;
    const std::string accept = accept_value(upgrade[http::field::sec_websocket_key]);
    std::string head = answer.value_or(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Accept: {accept}\r\n\r\n");
    if (const auto at = head.find("{accept}"); at != std::string::npos) head.replace(at, 8, accept);
    asio::write(stream, asio::buffer(head + bytes), ec);
    if (trickle) {
      // Until the client leaves (the write fails) or `during` is over.
      const auto end = std::chrono::steady_clock::now() + trickle->during;
      while (!ec && std::chrono::steady_clock::now() < end) {
        std::this_thread::sleep_for(trickle->every);
        asio::write(stream, asio::buffer(trickle->bytes), ec);
      }
    }
    std::array<char, 4096> sink{};
    if (ending == rogue_ending::wait_for_close) {
      while (!ec) stream.read_some(asio::buffer(sink), ec);
    } else if (ending == rogue_ending::reset_after_answer) {
      stream.read_some(asio::buffer(sink), ec);
      stream.next_layer().set_option(asio::socket_base::linger(true, 0), ec);
    }
    stream.next_layer().close(ec);
  }

  asio::io_context io;
  mock::pem_pair identity;
  tcp::acceptor acceptor;
  std::thread thread;  // last: it uses the members above
};

rogue_server::rogue_server(std::string bytes, rogue_ending ending)
    : impl_(std::make_unique<impl>(std::nullopt, std::move(bytes), ending)) {}
rogue_server::rogue_server(std::string answer, std::string bytes, rogue_ending ending)
    : impl_(std::make_unique<impl>(std::move(answer), std::move(bytes), ending)) {}
rogue_server rogue_server::answering(std::string answer, rogue_ending ending) {
  return rogue_server(std::move(answer), "", ending);
}
rogue_server rogue_server::dripping(std::string bytes, std::string drip, std::chrono::milliseconds every,
                                    std::chrono::milliseconds during) {
  return rogue_server(std::make_unique<impl>(std::nullopt, std::move(bytes), rogue_ending::close_tcp,
                                             rogue_server::drip{std::move(drip), every, during}));
}
rogue_server::rogue_server(std::unique_ptr<impl> impl) : impl_(std::move(impl)) {}
// A client that never came leaves accept() blocked: shutting the listening socket down wakes it.
rogue_server::~rogue_server() {
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->thread.join();
}

std::string rogue_server::url() const {
  return "wss://127.0.0.1:" + std::to_string(impl_->acceptor.local_endpoint().port()) + "/stocks";
}
const std::string& rogue_server::certificate_pem() const noexcept {
  return impl_->identity.certificate;
}

}  // namespace massive::test
