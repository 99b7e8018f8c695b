// The exchange: request out, response head in, the body streamed to the sink or an error body
// kept. A coroutine template over the connection's stream (TLS or plain).
#include "exchange.hpp"

#include "error_body.hpp"
#include "forwarding_body.hpp"
#include "request_head.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/rfc7230.hpp>

#include <algorithm>
#include <cctype>
#include <memory_resource>
#include <optional>
#include <string>
#include <span>
#include <tuple>

namespace massive::transport {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

bool peer_closed(const error_code& ec) {
  return ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
         ec == asio::ssl::error::stream_truncated || ec == http::error::end_of_stream;
}

// A failed read of the head or body; `ec` never operation_aborted-by-us (checked earlier).
[[noreturn]] void fail_read(const error_code& ec, bool in_body) {
  if (ec == http::error::body_limit) fail(errc::body_too_large, "response body exceeds client_config.max_body_size as received");
  if (ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
      ec == asio::error::broken_pipe) {
    fail(errc::connection_reset, std::string(in_body ? "reading the response body: " : "reading the response head: ") + ec.message());
  }
  if (peer_closed(ec) || ec == http::error::partial_message) {
    if (in_body) fail(errc::truncated_body, "connection closed before the body's end (" + ec.message() + ")");
    fail(errc::connection_reset, "connection closed before a complete response head (" + ec.message() + ")");
  }
  if (ec == http::error::buffer_overflow) {
    // The head has its own limit (header_limit): what overflows is a line of the chunked body.
    fail(errc::bad_response, "a chunk header or trailer longer than " +
                                 std::to_string(connection::input_limit >> 20) +
                                 " MiB (chunk extensions or trailer fields without end)");
  }
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() ||
      ec == http::error::header_limit) {
    fail(errc::bad_response, "malformed response: " + ec.message());
  }
  fail(errc::connection_reset, std::string(in_body ? "reading the response body: " : "reading the response head: ") + ec.message());
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Whether a Transfer-Encoding value names a coding other than chunked. The request sends no TE
// field, so chunked is the only transfer coding a server may apply (RFC 9112, 6.1); Beast
// removes that one and would hand any other (`gzip, chunked`) to the decoder as the body. The
// list is read as Beast's parser reads this field.
bool other_transfer_coding(std::string_view value) {
  for (const auto& coding : http::ext_list(value)) {
    if (!iequals(coding.first, "chunked")) return true;
  }
  return false;
}

// Body bytes a response may be read synchronously (read_arrived) before the next
// asynchronous read, which lets the executor's other work, timers and cancellation in: well
// under a millisecond of reading and decoding.
constexpr std::size_t synchronous_read_budget = 256 * 1024;

// Reads and parses what has already arrived, the parser handing the body to its consumer,
// without waiting: until the message is done, the socket has nothing more (would_block), an
// error, or `since_wait` (counted by the consumer) reaches the budget. Each TLS record read
// asynchronously costs a trip through the scheduler, which polls epoll between handlers:
// 10,274 epoll_wait calls for 6,531 reads on 20 pages of aggregates, and about 10 % of the
// client's CPU (docs/maintainers/performance-e2e.md, profile 5). OpenSSL, Asio's TLS stream and Beast's
// parser each keep their state when a read returns would_block.
template <class Stream, class Buffer, class Parser, class Room = bool (*)()>
error_code read_arrived(Stream& stream, Buffer& input, Parser& parser, const std::size_t& since_wait,
                        Room room = [] { return true; }) {
  error_code ec;
  while (!ec && !parser.is_done() && since_wait < synchronous_read_budget && room()) {
    http::read_some(stream, input, parser, ec);
  }
  return ec;
}

// The body loop of client_config::decode_beside_receive (body_handoff.hpp): the parser reads
// into the connection's hand-off slots and only records where the body's pieces are; a worker
// on another thread of the executor gives them to `take` (inflate, limits, the sink) slot by
// slot. A slot goes to the worker when full, or when the socket has nothing more for now.
// Returns once the worker has taken every slot; on any failure the worker is stopped before
// the failure leaves, so that nothing touches the sink afterwards.
template <class Stream, class Parser>
call_awaitable<void> receive_beside(Stream& stream, connection& conn, Parser& parser, body_consumer& take,
                                    const client_state& st, const call_control& ctl) {
  if (!conn.handoff) conn.handoff = std::make_shared<body_handoff>(conn.socket().get_executor());
  body_handoff& h = *conn.handoff;
  auto& body = parser.get().body();
  std::size_t since_wait = 0;  // body bytes found since the last asynchronous read
  consumer_of record([&](std::span<const char> piece) {
    since_wait += piece.size();
    h.record(piece);
  });
  body.consumer = &record;
  h.start(take, {static_cast<const char*>(conn.input.data().data()), conn.input.size()});
  conn.input.clear();
  const auto fail_if = [&](error_code ec) {
    if (body.failure) std::rethrow_exception(body.failure);
    if (ec) {
      if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
      fail_read(ec, true);
    }
  };
  try {
    while (!parser.is_done() && !h.failure()) {
      if (h.needs_submit()) {
        while (!h.next_free() && !h.failure()) co_await h.wake().async_receive(use_call_awaitable);
        h.submit();
        continue;
      }
      error_code ec = read_arrived(stream, h.input(), parser, since_wait, [&] { return !h.needs_submit(); });
      if (ec == asio::error::would_block) ec = {};
      fail_if(ec);
      if (parser.is_done() || h.needs_submit()) continue;
      // Nothing more has arrived, or the budget is spent: the worker takes what there is while
      // this waits for the socket.
      if (h.has_pieces() && h.next_free()) h.submit();
      since_wait = 0;
      std::tie(ec, std::ignore) = co_await http::async_read_some(stream, h.input(), parser, as_tuple(use_call_awaitable));
      fail_if(ec);
    }
    if (h.has_pieces()) {
      while (!h.next_free() && !h.failure()) co_await h.wake().async_receive(use_call_awaitable);
      if (!h.failure()) h.submit();
    }
    while (!h.drained() && !h.failure()) co_await h.wake().async_receive(use_call_awaitable);
  } catch (...) {
    h.stop();
    throw;
  }
  if (auto failure = h.failure()) {
    h.stop();
    std::rethrow_exception(failure);
  }
}

template <class Stream>
call_awaitable<exchange_result> exchange_over(Stream& stream, connection& conn, const client_state& st,
                                               const call_control& ctl, const std::string& head,
                                               detail::body_sink& sink, bool reused) {
  using asio::as_tuple;
  exchange_result r;
  const auto rethrow_if_aborted = [&] {
    if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  };
  const auto sent_at = clock_type::now();
  conn.input.clear();
  auto [wec, written] = co_await asio::async_write(stream, asio::buffer(head), as_tuple(use_call_awaitable));
  if (wec) {
    rethrow_if_aborted();
    // Closed before any byte of an answer, on a pooled or a fresh connection: call_fsm decides
    // whether it is retried (retry_on_fresh_connection, decide_reset_retry).
    if (peer_closed(wec)) {
      r.what = exchange_result::kind::stale;
      co_return r;
    }
    fail(errc::connection_reset, "sending the request: " + wec.message());
  }

  // Declared before the parser, which keeps its fields there until it is destroyed.
  std::pmr::monotonic_buffer_resource fields_memory(conn.fields_memory.data(), conn.fields_memory.size());
  using parser_type = http::response_parser<forwarding_body, std::pmr::polymorphic_allocator<char>>;
  std::optional<parser_type> parser_slot;
  const auto& max_body = st.cfg.opts.max_body_size;
  // Interim (1xx) responses come before the final one, each with a head of its own: a parser
  // reads one message, so each head gets a fresh parser.
  for (unsigned interim = 0;; ++interim) {
    if (interim > max_interim_responses) {
      fail(errc::bad_response, "more than " + std::to_string(max_interim_responses) +
                                   " interim (1xx) responses before the final one");
    }
    parser_type& head_parser = parser_slot.emplace(std::piecewise_construct, std::make_tuple(),
                                                   std::make_tuple(std::pmr::polymorphic_allocator<char>(&fields_memory)));
    head_parser.header_limit(64 * 1024);
    head_parser.body_limit(max_body ? boost::optional<std::uint64_t>(*max_body) : boost::none);
    auto [hec, hn] = co_await http::async_read_header(stream, conn.input, head_parser, as_tuple(use_call_awaitable));
    if (hec) {
      rethrow_if_aborted();
      if (interim == 0 && !head_parser.got_some() && conn.input.size() == 0 && peer_closed(hec)) {
        r.what = exchange_result::kind::stale;
        co_return r;
      }
      fail_read(hec, false);
    }
    const int status = static_cast<int>(head_parser.get().result_int());
    if (status == 101) fail(errc::bad_response, "101 Switching Protocols to a request that asked for no upgrade");
    if (!skip_interim_response(status)) break;
  }
  parser_type& parser = *parser_slot;
  r.time_to_headers = clock_type::now() - sent_at;
  const auto& head_fields = parser.get();
  r.status = static_cast<int>(head_fields.result_int());
  if (answer_means_stale_connection(r.status, reused)) {
    // Closed with the connection, unread: the request goes again on a fresh one.
    r.what = exchange_result::kind::stale;
    co_return r;
  }
  if (auto it = head_fields.find("X-Request-Id"); it != head_fields.end()) {
    // Server-supplied text that ends up in traces and errors: sanitised, key redacted.
    r.request_id = sanitize(redact(it->value(), st.cfg.opts.api_key), 128);
  }
  // Every Content-Encoding field, as the one comma-joined list they mean (RFC 9110, 5.3): a
  // second field is a second coding, refused as "gzip, br" in one field is, not left unread.
  for (auto [it, end] = head_fields.equal_range(http::field::content_encoding); it != end; ++it) {
    if (!r.content_encoding.empty()) r.content_encoding += ", ";
    r.content_encoding += it->value();
  }
  for (const auto& field : head_fields) {
    if (is_rate_limit_header(field.name_string())) {
      r.rate_limit.emplace_back(std::string(field.name_string()),
                                sanitize(redact(field.value(), st.cfg.opts.api_key), 200));
    }
  }
  bool gzip = false;
  if (iequals(r.content_encoding, "gzip") || iequals(r.content_encoding, "x-gzip")) {
    gzip = true;
    if (!conn.gzip) conn.gzip = std::make_unique<inflater>();
    conn.gzip->reset();
  } else if (!r.content_encoding.empty() && !iequals(r.content_encoding, "identity")) {
    fail(errc::bad_response, "unsupported Content-Encoding '" + sanitize(r.content_encoding, 40) + "'");
  }
  if (auto it = head_fields.find(http::field::transfer_encoding);
      it != head_fields.end() && other_transfer_coding(it->value())) {
    fail(errc::bad_response, "unsupported Transfer-Encoding '" + sanitize(it->value(), 40) +
                                 "': the request offered no transfer coding but chunked");
  }

  // A 206 carries the range asked for, or other bytes (a server's or a proxy's mistake, or
  // worse): refused before any of its body is taken for the asked range's.
  if (r.status == 206) {
    if (const auto first = requested_range_start(head)) {
      const auto it = head_fields.find(http::field::content_range);
      const std::string problem = content_range_problem(
          it == head_fields.end() ? std::string_view() : std::string_view(it->value()), *first);
      if (!problem.empty()) fail(errc::bad_response, problem);
    }
  }

  const bool success = r.status >= 200 && r.status < 300;
  auto& body = parser.get().body();
  if (success) {
    const auto& max_ratio = st.cfg.opts.max_inflate_ratio;
    const auto deliver = [&](std::span<const char> piece) {
      r.body_bytes += piece.size();
      if (max_body && r.body_bytes > *max_body) {
        fail(errc::body_too_large, "inflated response body exceeds client_config.max_body_size (" +
                                       std::to_string(*max_body) + " bytes)");
      }
      // The ratio is judged past a floor: a small body's header and tables are a large part of it.
      if (gzip && max_ratio && r.body_bytes > inflate_ratio_floor &&
          r.body_bytes / *max_ratio > r.wire_bytes) {
        fail(errc::body_too_large, "gzip body inflates more than client_config.max_inflate_ratio (" +
                                       std::to_string(*max_ratio) + ":1): " + std::to_string(r.body_bytes) +
                                       " bytes from " + std::to_string(r.wire_bytes));
      }
      sink.feed(piece);
    };
    consumer_of take([&](std::span<const char> piece) {
      r.wire_bytes += piece.size();
      if (!gzip) {
        deliver(piece);
      } else if (const auto status = conn.gzip->feed(piece, deliver); status != inflater::status::ok) {
        fail(errc::bad_response, status == inflater::status::trailing_garbage
                                     ? "gzip body has bytes after the end of the gzip stream"
                                     : "gzip body is corrupt");
      }
    });
    std::size_t leftover = 0;  // bytes after the body: the connection is not reused with them
    if (st.cfg.opts.decode_beside_receive) {
      co_await receive_beside(stream, conn, parser, take, st, ctl);
      leftover = conn.handoff->input().size();
    } else {
      std::size_t since_wait = 0;  // body bytes taken since the last asynchronous read
      consumer_of count_and_take([&](std::span<const char> piece) {
        since_wait += piece.size();
        take.consume(piece);
      });
      body.consumer = &count_and_take;
      while (!parser.is_done()) {
        error_code ec = read_arrived(stream, conn.input, parser, since_wait);
        if (ec == asio::error::would_block) ec = {};
        if (!ec && !parser.is_done()) {
          // Nothing more has arrived, or the budget is spent: wait for the socket.
          since_wait = 0;
          std::tie(ec, std::ignore) =
              co_await http::async_read_some(stream, conn.input, parser, as_tuple(use_call_awaitable));
        }
        if (body.failure) std::rethrow_exception(body.failure);
        if (ec) {
          rethrow_if_aborted();
          fail_read(ec, true);
        }
      }
      leftover = conn.input.size();
    }
    if (gzip && r.wire_bytes > 0 && !conn.gzip->complete()) {
      fail(errc::truncated_body, "gzip body ended before the end of its stream");
    }
    sink.finish();
    r.keep_alive = parser.keep_alive() && leftover == 0;
    r.what = exchange_result::kind::success;
    co_return r;
  }

  // A non-2xx answer: read a capped error body, never into the sink.
  std::string text;
  bool corrupt = false;
  const auto keep = [&](std::span<const char> piece) {
    const auto room = error_body_cap - text.size();
    text.append(piece.data(), std::min(room, piece.size()));
  };
  consumer_of keep_error_body([&](std::span<const char> piece) {
    r.wire_bytes += piece.size();
    if (!gzip) {
      keep(piece);
    } else if (!corrupt && conn.gzip->feed(piece, keep) != inflater::status::ok) {
      corrupt = true;
    }
  });
  body.consumer = &keep_error_body;
  bool complete = true;
  while (!parser.is_done()) {
    if (corrupt || r.wire_bytes >= error_body_cap || text.size() >= error_body_cap) {
      complete = false;
      break;
    }
    auto [ec, n] = co_await http::async_read_some(stream, conn.input, parser, as_tuple(use_call_awaitable));
    if (body.failure) std::rethrow_exception(body.failure);
    if (ec) {
      rethrow_if_aborted();
      complete = false;  // what arrived still says more than a transport error would
      break;
    }
  }
  r.body_bytes = text.size();
  r.keep_alive = complete && parser.is_done() && parser.keep_alive() && conn.input.size() == 0;
  if (auto it = head_fields.find(http::field::retry_after); it != head_fields.end()) {
    r.retry_after = parse_retry_after(it->value(), std::chrono::system_clock::now());
  }
  r.error.emplace(make_api_error(r.status, text, r.request_id, r.retry_after,
                                            st.cfg.opts.api_key));
  r.what = exchange_result::kind::api_failure;
  co_return r;
}

}  // namespace

call_awaitable<exchange_result> exchange(connection& conn, const client_state& st, const call_control& ctl,
                                          const std::string& head, detail::body_sink& sink, bool reused) {
  if (auto* tls = conn.tls()) return exchange_over(*tls, conn, st, ctl, head, sink, reused);
  return exchange_over(*conn.plain(), conn, st, ctl, head, sink, reused);
}

}  // namespace massive::transport
