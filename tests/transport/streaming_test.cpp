// Streaming bodies: chunked framing cut anywhere, gzip, limits, and bodies that break.
#include "fixture.hpp"

#include "massive/mock/gzip.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <span>
#include <thread>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

TEST_CASE("chunked bodies cut at many sizes reach the sink byte for byte") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string body = make_body(20'000, 3);
  for (std::size_t chunk : {1, 2, 3, 7, 16, 64, 100, 1000, 4095, 8192, 19'999, 20'000, 50'000}) {
    for (std::size_t write : {0, 1, 13, 1500}) {
      if (chunk < 16 && write == 1) continue;  // 20,000 one-byte writes of one-byte chunks: slow, adds nothing
      CAPTURE(chunk);
      CAPTURE(write);
      s.server.enqueue(reply{.body = body, .chunks = {chunk}, .write_size = write});
      collecting_sink sink;
      const auto o = get(client, io, "/chunked", sink);
      REQUIRE(o.ok());
      CHECK(sink.data == body);
      CHECK(sink.finished);
      CHECK(o.info.body_bytes == body.size());
    }
  }
  // Mixed chunk sizes in one body.
  s.server.enqueue(reply{.body = body, .chunks = {1, 5000, 2, 3, 70, 9000}});
  collecting_sink sink;
  REQUIRE(get(client, io, "/mixed", sink).ok());
  CHECK(sink.data == body);
  CHECK(s.server.tls_handshakes() == 1);
}

TEST_CASE("gzip bodies are inflated incrementally before the sink") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  std::string body;
  for (int i = 0; i < 30'000; ++i) body += "{\"t\":" + std::to_string(1'700'000'000'000LL + i) + ",\"v\":12.5},";
  for (std::vector<std::size_t> chunks : {std::vector<std::size_t>{}, {1}, {7}, {100}, {3000}}) {
    CAPTURE(chunks.empty() ? 0 : chunks[0]);
    s.server.enqueue(reply{.body = body, .gzip = true, .chunks = chunks, .write_size = 999});
    collecting_sink sink;
    const auto o = get(client, io, "/gz", sink);
    REQUIRE(o.ok());
    CHECK(sink.data == body);
    CHECK(o.info.content_encoding == "gzip");
    CHECK(o.info.body_bytes == body.size());
    CHECK(o.info.wire_bytes < body.size() / 4);
    CHECK(sink.feeds > 1);
  }
  const auto requests = s.server.requests();
  REQUIRE_FALSE(requests.empty());
  CHECK(requests.back().header("Accept-Encoding") == "gzip");
}

TEST_CASE("gzip off: no Accept-Encoding is sent") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.gzip = false;
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  REQUIRE(get(client, io, "/x", sink).ok());
  CHECK_FALSE(s.server.requests().at(0).has_header("Accept-Encoding"));
}

TEST_CASE("a body over max_body_size fails with body_too_large") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.max_body_size = 1000;
  massive::detail::http_client client(io.get_executor(), opts);
  const std::string body = make_body(5000);
  SUBCASE("declared length") { s.server.enqueue(reply{.body = body}); }
  SUBCASE("chunked") { s.server.enqueue(reply{.body = body, .chunks = {300}}); }
  SUBCASE("small on the wire, large once inflated") {
    s.server.enqueue(reply{.body = std::string(5000, 'a'), .gzip = true});
  }
  collecting_sink sink;
  CHECK(transport_code(get(client, io, "/big", sink)) == massive::errc::body_too_large);
  CHECK_FALSE(sink.finished);
  CHECK(sink.data.size() <= 1000);
  collecting_sink small;
  s.server.enqueue(reply{.body = make_body(1000)});
  CHECK(get(client, io, "/exactly-the-limit", small).ok());
}

// Issue 30: 22 MB of gzip took a client to 4.4 GiB. Seen failing with the ratio test removed
// from exchange.cpp's deliver: the bomb inflated to its end, no error; with max_body_size
// unlimited by default (config.cpp resetting it): the 129 MiB body passed (135,266,304 bytes).
TEST_CASE("a gzip bomb ends at the inflate ratio, a huge body at the default max_body_size") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  SUBCASE("64 MiB of one byte, about 64 KiB compressed") {
    s.server.enqueue(reply{.body = std::string(std::size_t{64} << 20, ' '), .gzip = true});
    hashing_sink sink;
    const auto o = get(client, io, "/bomb", sink);
    CHECK(transport_code(o) == massive::errc::body_too_large);
    CHECK(error_as<massive::transport_error>(o).what() == doctest::Contains("client_config.max_inflate_ratio (200:1)"));
    // At most 200 times the compressed bytes read (Beast reads up to the 64 KiB buffer at once).
    CHECK(sink.size <= 200 * 64 * 1024);
    CHECK_FALSE(sink.finished);
  }
  SUBCASE("129 MiB, not compressed") {
    s.server.enqueue(reply{.body = std::string(std::size_t{129} << 20, 'a')});
    hashing_sink sink;
    // 128 MiB through TLS under ThreadSanitizer on a loaded 2-core machine once took longer
    // than the fixture's 10 s deadline (deadline_exceeded in CI); the limit is what is tested.
    const massive::call_options unhurried{.request_timeout = std::chrono::minutes(2)};
    const auto o = get(client, io, "/huge", sink, &unhurried);
    CHECK(transport_code(o) == massive::errc::body_too_large);
    CHECK(sink.size <= std::size_t{128} << 20);
  }
  SUBCASE("no ratio, no limit: the caller's choice") {
    auto opts = client_options(s);
    opts.max_inflate_ratio.reset();
    massive::detail::http_client unlimited(io.get_executor(), opts);
    s.server.enqueue(reply{.body = std::string(std::size_t{16} << 20, ' '), .gzip = true});
    hashing_sink sink;
    CHECK(get(unlimited, io, "/bomb", sink).ok());
    CHECK(sink.size == std::size_t{16} << 20);
  }
}

TEST_CASE("bodies larger than Beast's 8 MB default pass under the default limits") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string body = make_body(9 * 1024 * 1024 + 17, 9);
  SUBCASE("declared length") { s.server.enqueue(reply{.body = body}); }
  SUBCASE("chunked") { s.server.enqueue(reply{.body = body, .chunks = {1 << 20}}); }
  SUBCASE("gzip") { s.server.enqueue(reply{.body = body, .gzip = true}); }
  hashing_sink sink;
  const auto o = get(client, io, "/huge", sink);
  REQUIRE(o.ok());
  CHECK(sink.size == body.size());
  CHECK(sink.hash == fnv1a(body));
  CHECK(sink.finished);
}

// A sink that takes its time, as a decoder does: while it works, the server fills the socket
// buffers, so that the client's every read finds bytes waiting.
class slow_sink : public massive::detail::body_sink {
 public:
  void feed(std::span<const char> chunk) override {
    size += chunk.size();
    std::this_thread::sleep_for(100us);
  }
  void finish() override { finished = true; }
  std::size_t size = 0;
  bool finished = false;
};

TEST_CASE("a body arriving faster than it is consumed leaves the executor to other work") {
  // The body loop reads bytes already waiting synchronously, and after 256 KiB of them waits
  // on the socket asynchronously, which lets the ticker below run. The budget is checked
  // between reads and counts the asynchronous read's bytes too, so one run of the loop feeds
  // the sink less than the budget plus one read (at most 64 KiB, the connection's input
  // buffer). Between two of the ticker's turns this test once measured 416 KiB, under
  // ThreadSanitizer on a loaded machine: more than one run of the loop, in an order of the
  // scheduler's queue not pinned down. The bound is two runs, which the regression below
  // still exceeds ten times over.
  // Deliberate regression, seen failing: read_arrived without synchronous_read_budget (reading
  // for as long as bytes wait) fed the sink 6.7 to 8.4 MB between two turns in three runs.
  bool tls = true;
  SUBCASE("TLS") {}
  SUBCASE("plain HTTP") { tls = false; }
  trusted_server s(server_options{.tls = tls});
  const std::string body = make_body(8 * 1024 * 1024, 5);
  s.server.enqueue(reply{.body = body});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  slow_sink sink;
  bool done = false;
  std::exception_ptr failure;
  client.async_get("/fast", sink, [&](std::exception_ptr e, massive::response_info) {
    failure = e;
    done = true;
  });
  std::size_t fed_at_last_turn = 0, most_fed_between_turns = 0;
  const auto turn = [&] {
    most_fed_between_turns = std::max(most_fed_between_turns, sink.size - fed_at_last_turn);
    fed_at_last_turn = sink.size;
  };
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        while (!done) {
          turn();
          co_await asio::post(io, asio::use_awaitable);
        }
      },
      asio::detached);
  io.run();
  turn();  // the bytes fed after the ticker's last turn
  REQUIRE(done);
  CHECK_FALSE(failure);
  CHECK(sink.size == body.size());
  CHECK(sink.finished);
  INFO("most fed between two turns: " << most_fed_between_turns);
  CHECK(most_fed_between_turns < 2 * (256 + 64) * 1024);
}

TEST_CASE("a reset mid-body fails with connection_reset") {
  trusted_server s;
  s.server.enqueue(reply{.body = make_body(50'000), .reset_after = 10'000});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  CHECK(transport_code(get(client, io, "/reset", sink)) == massive::errc::connection_reset);
  CHECK_FALSE(sink.finished);
}

TEST_CASE("a TLS stream truncated without close_notify fails with truncated_body") {
  for (bool chunked : {false, true}) {
    CAPTURE(chunked);
    trusted_server s;
    s.server.enqueue(reply{.body = make_body(50'000), .chunks = chunked ? std::vector<std::size_t>{4000} : std::vector<std::size_t>{},
                           .truncate_after = 10'000});
    asio::io_context io;
    massive::detail::http_client client(io.get_executor(), client_options(s));
    collecting_sink sink;
    CHECK(transport_code(get(client, io, "/truncated", sink)) == massive::errc::truncated_body);
    CHECK_FALSE(sink.finished);
  }
}

TEST_CASE("a close-delimited body: complete with close_notify, truncated without") {
  trusted_server s;
  const std::string body = make_body(30'000);
  s.server.enqueue(reply{.body = body, .close_delimited = true});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  REQUIRE(get(client, io, "/eof", sink).ok());
  CHECK(sink.data == body);
  s.server.enqueue(reply{.body = body, .close_delimited = true, .truncate_after = body.size()});
  collecting_sink cut;
  CHECK(transport_code(get(client, io, "/eof-cut", cut)) == massive::errc::truncated_body);
}

TEST_CASE("plain HTTP: a body cut short fails with truncated_body") {
  trusted_server s(server_options{.tls = false});
  s.server.enqueue(reply{.body = make_body(50'000), .truncate_after = 10'000});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  CHECK(transport_code(get(client, io, "/cut", sink)) == massive::errc::truncated_body);
}

TEST_CASE("a stalled response fails with deadline_exceeded") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.request_timeout = 300ms;
  massive::detail::http_client client(io.get_executor(), opts);
  SUBCASE("mid-body") { s.server.enqueue(reply{.body = make_body(1000), .stall_after = 100}); }
  SUBCASE("before the head") { s.server.enqueue(reply{.head_delay = 3s}); }
  collecting_sink sink;
  const auto o = get(client, io, "/stall", sink);
  CHECK(transport_code(o) == massive::errc::deadline_exceeded);
  CHECK(std::string(error_as<massive::transport_error>(o).what()).find("300 ms") != std::string::npos);
}

namespace {

class failing_sink : public collecting_sink {
 public:
  void feed(std::span<const char> chunk) override {
    collecting_sink::feed(chunk);
    throw massive::decode_error(massive::decode_errc::invalid_json, "results[0].t", 0, "test");
  }
};

}  // namespace

TEST_CASE("a decode_error from the sink propagates unchanged; the connection is not reused") {
  trusted_server s;
  s.server.enqueue(reply{.body = make_body(100'000), .write_size = 10'000});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  failing_sink sink;
  const auto o = get(client, io, "/bad", sink);
  const auto e = error_as<massive::decode_error>(o);
  CHECK(e.code() == massive::decode_errc::invalid_json);
  CHECK(e.field_path() == "results[0].t");
  collecting_sink next;
  const auto second = get(client, io, "/next", next);
  REQUIRE(second.ok());
  CHECK_FALSE(second.info.reused_connection);
}

TEST_CASE("malformed responses fail with bad_response") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  SUBCASE("status line") { s.server.enqueue(reply{.raw = std::string("HTTP/1.1 abc OK\r\n\r\n")}); }
  SUBCASE("chunk framing") {
    s.server.enqueue(reply{.raw = std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")});
  }
  SUBCASE("corrupt gzip") {
    s.server.enqueue(reply{.headers = {{"Content-Encoding", "gzip"}}, .body = "definitely not gzip"});
  }
  SUBCASE("unknown content encoding") {
    s.server.enqueue(reply{.headers = {{"Content-Encoding", "br"}}, .body = "x"});
  }
  // A transfer coding the request did not offer (it sends no TE): the bytes under it are not
  // the body. Seen failing without the check: the plain body below was decoded as the rows.
  SUBCASE("a transfer coding other than chunked") {
    s.server.enqueue(reply{.raw = std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                                              "2\r\n{}\r\n0\r\n\r\n")});
  }
  collecting_sink sink;
  CHECK(transport_code(get(client, io, "/x", sink)) == massive::errc::bad_response);
}

// Content-Encoding fields are one list, as if comma-joined in one field (RFC 9110, 5.3): a
// second field is a second coding, refused as "gzip, gzip" in one field is. Seen failing with
// the first field alone read: "CHECK( transport_code(o) == massive::errc::bad_response ) is NOT
// correct! values: CHECK( system:0 == 8 )" for "gzip" and for "br", the body inflated once and
// taken ("CHECK( sink.data.empty() ) is NOT correct!").
TEST_CASE("Content-Encoding in two fields is read as one list") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string body = massive::mock::gzip_compress(R"({"results":[]})");
  for (const std::string second : {"gzip", "br"}) {
    CAPTURE(second);
    s.server.enqueue(reply{.headers = {{"Content-Encoding", "gzip"}, {"Content-Encoding", second}}, .body = body});
    collecting_sink sink;
    const auto o = get(client, io, "/x", sink);
    CHECK(transport_code(o) == massive::errc::bad_response);
    CHECK(std::string(error_as<massive::transport_error>(o).what()).find("unsupported Content-Encoding 'gzip, " +
                                                                        second + "'") != std::string::npos);
    CHECK(sink.data.empty());
  }
}

// The inflater tells bytes after the gzip stream from a corrupt stream; so does the error.
// Seen failing with both reported alike, as "gzip body is corrupt": "CHECK( what.find("bytes
// after the end of the gzip stream") != std::string::npos ) is NOT correct!".
TEST_CASE("bytes after a gzip body's stream are named as such") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  s.server.enqueue(reply{.headers = {{"Content-Encoding", "gzip"}},
                         .body = massive::mock::gzip_compress(R"({"results":[]})") + "<html>trailing</html>"});
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  CHECK(transport_code(o) == massive::errc::bad_response);
  const std::string what = error_as<massive::transport_error>(o).what();
  CHECK(what.find("bytes after the end of the gzip stream") != std::string::npos);
}

// What Beast must see whole besides the head, a chunk's header with its extensions and the
// trailer, is bounded by the connection's input limit (1 MiB). Seen failing without the limit
// (pool.cpp's input.max_size): both calls succeeded, the 2 MiB read whole; a CLI fed a 200 MB
// extension grew to 272 MB.
TEST_CASE("a chunk extension or a trailer without end fails with bad_response naming it") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  SUBCASE("a chunk's extensions") {
    s.server.enqueue(reply{.raw = head + "2;e=" + std::string(std::size_t{2} << 20, 'a') + "\r\n{}\r\n0\r\n\r\n"});
  }
  SUBCASE("trailer fields") {
    std::string trailer;
    while (trailer.size() < (std::size_t{2} << 20)) trailer += "X-T: " + std::string(1000, 'v') + "\r\n";
    s.server.enqueue(reply{.raw = head + "2\r\n{}\r\n0\r\n" + trailer + "\r\n"});
  }
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  CHECK(transport_code(o) == massive::errc::bad_response);
  CHECK(std::string(error_as<massive::transport_error>(o).what()).find("a chunk header or trailer longer than 1 MiB") !=
        std::string::npos);
}

TEST_CASE("chunked alone, in any case and with spaces, is the one transfer coding accepted") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  s.server.enqueue(reply{.raw = std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding:  Chunked \r\n\r\n"
                                            "2\r\n{}\r\n0\r\n\r\n")});
  collecting_sink sink;
  const auto result = get(client, io, "/x", sink);
  REQUIRE(result.ok());
  CHECK(sink.data == "{}");
}
