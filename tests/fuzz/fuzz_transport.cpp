// libFuzzer target over the response path the SDK owns: the fuzzer's bytes are what a server
// answers, byte for byte (status line, headers, Content-Length or chunked framing, gzip,
// error bodies). They reach the client's own reading code unchanged, with no seam: a loopback
// server on this thread writes them to the socket and closes it, and one massive::detail::http_client call
// reads them as it reads any answer (Beast's parser handing the body over in place through
// forwarding_body, the gzip inflater, the capped error body and make_api_error, Retry-After)
// into a page_decoder<agg>.
//
// Each input must end in exactly one of: a page of aggregates, or a massive::error (api_error,
// transport_error, decode_error). Anything else, another exception type, a call that never
// completes or a sanitizer report, is a finding. The client makes no retries (the default
// policy) and its call deadline is 5 s, so a stalled parse ends too.
//
//   scripts/fuzz.sh <seconds>   (runs it beside the decoding targets)
#include "massive/decoder.hpp"
#include "massive/error.hpp"
#include "massive/detail/http_client.hpp"
#include "massive/models/agg.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// The loopback server: answers each connection's first request with the current response,
// then closes the connection, so that every answer ends where the fuzzer's bytes end.
class one_shot_server {
 public:
  explicit one_shot_server(asio::io_context& io) : acceptor_(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {
    accept();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::string response;

 private:
  struct exchange {
    explicit exchange(tcp::socket s) : socket(std::move(s)) {}
    tcp::socket socket;
    asio::streambuf request;
  };

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (!ec) answer(std::make_shared<exchange>(std::move(socket)));
      accept();
    });
  }

  void answer(std::shared_ptr<exchange> x) {
    asio::async_read_until(x->socket, x->request, "\r\n\r\n", [this, x](boost::system::error_code ec, std::size_t) {
      if (ec) return;
      asio::async_write(x->socket, asio::buffer(response), [x](boost::system::error_code, std::size_t) {
        boost::system::error_code ignored;
        x->socket.shutdown(tcp::socket::shutdown_send, ignored);
        x->socket.close(ignored);
      });
    });
  }

  tcp::acceptor acceptor_;
};

struct harness {
  asio::io_context io;
  one_shot_server server{io};
  massive::detail::http_client client{io.get_executor(), [&] {
                                massive::client_config o;
                                o.api_key = "fuzz-key";
                                o.base_url = "http://127.0.0.1:" + std::to_string(server.port());
                                o.request_timeout = std::chrono::seconds(5);
                                o.max_body_size = 1 << 20;
                                return o;
                              }()};
  massive::page_decoder<massive::agg> decoder{massive::make_page_pool()};
};

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_transport: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static harness h;
  h.server.response.assign(reinterpret_cast<const char*>(data), size);
  h.decoder.reset();
  std::optional<std::exception_ptr> outcome;
  h.client.async_get("/v2/aggs/ticker/AAPL/range/1/minute/2024-01-02/2024-01-03", h.decoder,
                     [&](std::exception_ptr failure, massive::response_info) { outcome = failure; });
  h.io.restart();
  while (!outcome && h.io.run_one() != 0) {
  }
  if (!outcome) finding("the call never completed");
  if (*outcome == nullptr) {
    // Every row read, so that the sanitizers see the page's memory.
    const massive::page<massive::agg> page = h.decoder.take();
    volatile double sum = 0;
    for (const massive::agg& row : page) sum = sum + row.close;
    return 0;
  }
  try {
    std::rethrow_exception(*outcome);
  } catch (const massive::error&) {
    return 0;  // typed: api_error, transport_error or decode_error
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_transport: untyped failure: %s\n", e.what());
    std::abort();
  } catch (...) {
    finding("a failure that is not even a std::exception");
  }
}
