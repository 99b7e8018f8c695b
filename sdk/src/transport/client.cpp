// The call: rate limit, pool, connect, exchange, retry. One coroutine per call, on its own
// strand; the per-call deadline and the caller's terminal cancellation both go through
// call_control, which cancels whatever the coroutine is awaiting.
#include "massive/http_client.hpp"

#include "config.hpp"
#include "error_body.hpp"
#include "forwarding_body.hpp"
#include "pool.hpp"
#include "request_head.hpp"
#include "tls.hpp"
#include "tunnel_io.hpp"

#include "massive/error.hpp"
#include "massive/proxy_error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/url/parse.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <tuple>
#include <utility>

namespace massive::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;
using boost::system::error_code;
using transport::connection;
using transport::connection_pool;
using transport::call_executor;
using transport::call_awaitable;
using call_timer = asio::basic_waitable_timer<clock_type, asio::wait_traits<clock_type>, call_executor>;

// Why a call was aborted from outside the coroutine.
enum class abort_reason { none, deadline, connect_timeout, cancelled };

struct call_control;

// A counted reference to a call_control. When the last one goes, the control returns to its
// client's idle list (or is freed when the list is full).
class control_ref {
 public:
  explicit control_ref(call_control* c) noexcept;
  control_ref(const control_ref& other) noexcept : control_ref(other.c_) {}
  control_ref(control_ref&& other) noexcept : c_(std::exchange(other.c_, nullptr)) {}
  control_ref& operator=(const control_ref&) = delete;
  control_ref& operator=(control_ref&&) = delete;
  ~control_ref();

  call_control* operator->() const noexcept { return c_; }
  call_control& operator*() const noexcept { return *c_; }

 private:
  call_control* c_;
};

// The per-call state that outlives the call's coroutine while any handler may still touch it
// (each holds a control_ref). Everything but the request head runs on the call's strand.
// Recycled call after call with its strand, timer and strings' capacity: a fresh one cost an
// operator new for itself, one for the request head and one or two for the target.
struct call_control {
  call_control(client_state& owner, call_executor s)
      : owner(owner), strand(std::move(s)), timer(strand) {}

  void arm(clock_type::time_point at, abort_reason reason) {
    const unsigned generation = ++timer_generation;
    timer.expires_at(at);
    timer.async_wait([self = control_ref(this), generation, reason](error_code ec) {
      if (!ec && generation == self->timer_generation) self->abort(reason);
    });
  }

  void abort(abort_reason reason) {
    if (why != abort_reason::none || done) return;
    why = reason;
    // The resolver ignores per-operation cancellation, and closing the socket ends any
    // operation on it whatever layer started it; the signal reaches everything else.
    if (resolver != nullptr) resolver->cancel();
    if (socket != nullptr) {
      error_code ignored;
      socket->close(ignored);
    }
    signal.emit(asio::cancellation_type::terminal);
  }

  // After this, nothing is emitted: the coroutine's cancellation state is gone.
  void finish() {
    done = true;
    ++timer_generation;
    timer.cancel();
  }

  client_state& owner;
  std::shared_ptr<client_state> keep_owner;  // while in use: the last call may outlive the client
  std::atomic<std::size_t> refs{0};
  call_executor strand;
  call_timer timer;
  asio::cancellation_signal signal;
  abort_reason why = abort_reason::none;
  bool done = false;
  unsigned timer_generation = 0;
  tcp::resolver* resolver = nullptr;
  tcp::socket* socket = nullptr;
  std::string head;             // the request head, built before the call starts
  std::string call_headers;     // the call_options' header lines, when it has any
  std::string redacted_target;  // for traces; empty without a trace hook
  std::chrono::milliseconds timeout{};  // the call's deadline: call_options', else the client's
  retry_policy retry{};                 // the call's policy: call_options', else the client's
  std::exception_ptr rejected;  // the target was refused before anything was sent
};

struct client_state {
  client_state(asio::any_io_executor ex, options opts)
      : executor(std::move(ex)),
        cfg(transport::validate_options(std::move(opts))),
        pool(executor, cfg.opts.connections_per_origin),
        random(std::random_device{}()) {
    // A fixed ring of strands, shared round-robin by calls: making a strand per call would
    // allocate its implementation each time. Calls sharing a strand only interleave.
    const std::size_t count = std::clamp<std::size_t>(cfg.opts.connections_per_origin * 2, 2, 64);
    strands.reserve(count);
    for (std::size_t i = 0; i < count; ++i) strands.push_back(asio::make_strand(transport::call_base_executor(executor)));
    idle_controls.reserve(count);
    if (cfg.tls) tls.emplace(make_tls_context());
    if (cfg.opts.rate_limit) {
      limiter.emplace(cfg.opts.rate_limit->requests_per_second, cfg.opts.rate_limit->burst,
                      clock_type::now());
    }
  }

  asio::ssl::context make_tls_context() const {
    const auto& o = cfg.opts;
    return transport::make_tls_context({o.verify_peer, o.ca_file, o.ca_directory, o.ca_pem, "options"});
  }

  call_executor next_strand() noexcept {
    return strands[next_strand_index.fetch_add(1, std::memory_order_relaxed) % strands.size()];
  }

  control_ref take_control(const std::shared_ptr<client_state>& self) {
    std::unique_ptr<call_control> c;
    {
      std::lock_guard lock(controls_mutex);
      if (!idle_controls.empty()) {
        c = std::move(idle_controls.back());
        idle_controls.pop_back();
      }
    }
    if (!c) c = std::make_unique<call_control>(*this, next_strand());
    c->keep_owner = self;
    return control_ref(c.release());
  }

  void recycle(call_control* c) noexcept {
    // Destroyed last: the state may go with its last call, idle controls included.
    const std::shared_ptr<client_state> keep = std::move(c->keep_owner);
    std::unique_ptr<call_control> owned(c);
    owned->why = abort_reason::none;
    owned->done = false;
    owned->resolver = nullptr;
    owned->socket = nullptr;
    owned->rejected = nullptr;
    std::lock_guard lock(controls_mutex);
    if (idle_controls.size() < idle_controls.capacity()) idle_controls.push_back(std::move(owned));
  }

  double jitter() {
    std::lock_guard lock(random_mutex);
    return std::uniform_real_distribution<double>(0.0, 1.0)(random);
  }

  asio::any_io_executor executor;
  transport::config cfg;
  std::optional<asio::ssl::context> tls;
  connection_pool pool;
  std::vector<call_executor> strands;
  std::atomic<std::size_t> next_strand_index{0};
  std::mutex limiter_mutex;
  std::optional<token_bucket> limiter;
  std::mutex random_mutex;
  std::minstd_rand random;
  std::mutex controls_mutex;
  std::vector<std::unique_ptr<call_control>> idle_controls;  // reserved: recycling never allocates
};

control_ref::control_ref(call_control* c) noexcept : c_(c) {
  if (c_ != nullptr) c_->refs.fetch_add(1, std::memory_order_relaxed);
}

control_ref::~control_ref() {
  if (c_ != nullptr && c_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) c_->owner.recycle(c_);
}

namespace {

std::string millis(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

std::exception_ptr aborted_error(const client_state& st, const call_control& ctl) {
  switch (ctl.why) {
    case abort_reason::deadline:
      return std::make_exception_ptr(transport_error(
          errc::deadline_exceeded,
          "request did not complete within " + millis(ctl.timeout)));
    case abort_reason::connect_timeout:
      if (const auto& proxy = st.cfg.proxy) {
        return std::make_exception_ptr(proxy_error(
            proxy_errc::failed, 0, proxy->name,
            "no tunnel through proxy " + proxy->name + " to " + st.cfg.host_header + " within " +
                millis(st.cfg.opts.connect_timeout)));
      }
      return std::make_exception_ptr(transport_error(
          errc::connect_failed, "no connection to " + st.cfg.host_header + " within " +
                                    millis(st.cfg.opts.connect_timeout)));
    case abort_reason::cancelled:
      return std::make_exception_ptr(transport_error(errc::cancelled, "request cancelled"));
    case abort_reason::none: break;
  }
  return nullptr;
}

bool peer_closed(const error_code& ec) {
  return ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
         ec == asio::ssl::error::stream_truncated || ec == http::error::end_of_stream;
}

[[noreturn]] void fail(errc code, const std::string& what) { throw transport_error(code, what); }

// A failed read of the head or body; `ec` never operation_aborted-by-us (checked earlier).
[[noreturn]] void fail_read(const error_code& ec, bool in_body) {
  if (ec == http::error::body_limit) fail(errc::body_too_large, "response body exceeds options.max_body_size");
  if (ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
      ec == asio::error::broken_pipe) {
    fail(errc::connection_reset, std::string(in_body ? "reading the response body: " : "reading the response head: ") + ec.message());
  }
  if (peer_closed(ec) || ec == http::error::partial_message) {
    if (in_body) fail(errc::truncated_body, "connection closed before the body's end (" + ec.message() + ")");
    fail(errc::connection_reset, "connection closed before a complete response head (" + ec.message() + ")");
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

struct exchange_result {
  enum class kind { success, stale, api_failure } what = kind::success;
  bool keep_alive = false;
  int status = 0;
  std::optional<api_error> error;
  std::optional<std::chrono::seconds> retry_after;
  std::string request_id;
  std::string content_encoding;
  std::vector<header_field> rate_limit;
  std::uint64_t wire_bytes = 0;
  std::uint64_t body_bytes = 0;
  std::chrono::nanoseconds time_to_headers{};
};

// Body bytes a response may be read synchronously (read_arrived) before the next
// asynchronous read, which lets the executor's other work, timers and cancellation in: well
// under a millisecond of reading and decoding.
constexpr std::size_t synchronous_read_budget = 256 * 1024;

// Reads and parses what has already arrived, the parser handing the body to its consumer,
// without waiting: until the message is done, the socket has nothing more (would_block), an
// error, or `since_wait` (counted by the consumer) reaches the budget. Each TLS record read
// asynchronously costs a trip through the scheduler, which polls epoll between handlers:
// 10,274 epoll_wait calls for 6,531 reads on 20 pages of aggregates, and about 10 % of the
// client's CPU (docs/performance-e2e.md, profile 5). OpenSSL, Asio's TLS stream and Beast's
// parser each keep their state when a read returns would_block.
template <class Stream, class Parser>
error_code read_arrived(Stream& stream, beast::flat_buffer& input, Parser& parser, const std::size_t& since_wait) {
  error_code ec;
  while (!ec && !parser.is_done() && since_wait < synchronous_read_budget) http::read_some(stream, input, parser, ec);
  return ec;
}

template <class Stream>
call_awaitable<exchange_result> exchange(Stream& stream, connection& conn, const client_state& st,
                                          const call_control& ctl, const std::string& head,
                                          body_sink& sink, bool reused) {
  using asio::as_tuple;
  exchange_result r;
  const auto rethrow_if_aborted = [&] {
    if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  };
  const auto sent_at = clock_type::now();
  conn.input.clear();
  auto [wec, written] = co_await asio::async_write(stream, asio::buffer(head), as_tuple(transport::use_call_awaitable));
  if (wec) {
    rethrow_if_aborted();
    if (reused && peer_closed(wec)) {
      r.what = exchange_result::kind::stale;
      co_return r;
    }
    fail(errc::connection_reset, "sending the request: " + wec.message());
  }

  // Declared before the parser, which keeps its fields there until it is destroyed.
  std::pmr::monotonic_buffer_resource fields_memory(conn.fields_memory.data(), conn.fields_memory.size());
  http::response_parser<transport::forwarding_body, std::pmr::polymorphic_allocator<char>> parser(
      std::piecewise_construct, std::make_tuple(),
      std::make_tuple(std::pmr::polymorphic_allocator<char>(&fields_memory)));
  parser.header_limit(64 * 1024);
  const auto& max_body = st.cfg.opts.max_body_size;
  parser.body_limit(max_body ? boost::optional<std::uint64_t>(*max_body) : boost::none);
  auto [hec, hn] = co_await http::async_read_header(stream, conn.input, parser, as_tuple(transport::use_call_awaitable));
  if (hec) {
    rethrow_if_aborted();
    if (reused && !parser.got_some() && conn.input.size() == 0 && peer_closed(hec)) {
      r.what = exchange_result::kind::stale;
      co_return r;
    }
    fail_read(hec, false);
  }
  r.time_to_headers = clock_type::now() - sent_at;
  const auto& head_fields = parser.get();
  r.status = static_cast<int>(head_fields.result_int());
  if (auto it = head_fields.find("X-Request-Id"); it != head_fields.end()) {
    // Server-supplied text that ends up in traces and errors: sanitised, key redacted.
    r.request_id = transport::sanitize(transport::redact(it->value(), st.cfg.opts.api_key), 128);
  }
  if (auto it = head_fields.find(http::field::content_encoding); it != head_fields.end()) {
    r.content_encoding = std::string(it->value());
  }
  for (const auto& field : head_fields) {
    if (transport::is_rate_limit_header(field.name_string())) {
      r.rate_limit.emplace_back(std::string(field.name_string()),
                                transport::sanitize(transport::redact(field.value(), st.cfg.opts.api_key), 200));
    }
  }
  bool gzip = false;
  if (iequals(r.content_encoding, "gzip") || iequals(r.content_encoding, "x-gzip")) {
    gzip = true;
    if (!conn.gzip) conn.gzip = std::make_unique<transport::inflater>();
    conn.gzip->reset();
  } else if (!r.content_encoding.empty() && !iequals(r.content_encoding, "identity")) {
    fail(errc::bad_response, "unsupported Content-Encoding '" + transport::sanitize(r.content_encoding, 40) + "'");
  }

  const bool success = r.status >= 200 && r.status < 300;
  auto& body = parser.get().body();
  if (success) {
    const auto deliver = [&](std::span<const char> piece) {
      r.body_bytes += piece.size();
      if (max_body && r.body_bytes > *max_body) {
        fail(errc::body_too_large, "inflated response body exceeds options.max_body_size");
      }
      sink.feed(piece);
    };
    std::size_t since_wait = 0;  // body bytes taken since the last asynchronous read
    transport::consumer_of take([&](std::span<const char> piece) {
      r.wire_bytes += piece.size();
      since_wait += piece.size();
      if (!gzip) {
        deliver(piece);
      } else if (conn.gzip->feed(piece, deliver) != transport::inflater::status::ok) {
        fail(errc::bad_response, "gzip body is corrupt");
      }
    });
    body.consumer = &take;
    while (!parser.is_done()) {
      error_code ec = read_arrived(stream, conn.input, parser, since_wait);
      if (ec == asio::error::would_block) ec = {};
      if (!ec && !parser.is_done()) {
        // Nothing more has arrived, or the budget is spent: wait for the socket.
        since_wait = 0;
        std::tie(ec, std::ignore) =
            co_await http::async_read_some(stream, conn.input, parser, as_tuple(transport::use_call_awaitable));
      }
      if (body.failure) std::rethrow_exception(body.failure);
      if (ec) {
        rethrow_if_aborted();
        fail_read(ec, true);
      }
    }
    if (gzip && r.wire_bytes > 0 && !conn.gzip->complete()) {
      fail(errc::truncated_body, "gzip body ended before the end of its stream");
    }
    sink.finish();
    r.keep_alive = parser.keep_alive() && conn.input.size() == 0;
    r.what = exchange_result::kind::success;
    co_return r;
  }

  // A non-2xx answer: read a capped error body, never into the sink.
  std::string text;
  bool corrupt = false;
  const auto keep = [&](std::span<const char> piece) {
    const auto room = transport::error_body_cap - text.size();
    text.append(piece.data(), std::min(room, piece.size()));
  };
  transport::consumer_of keep_error_body([&](std::span<const char> piece) {
    r.wire_bytes += piece.size();
    if (!gzip) {
      keep(piece);
    } else if (!corrupt && conn.gzip->feed(piece, keep) != transport::inflater::status::ok) {
      corrupt = true;
    }
  });
  body.consumer = &keep_error_body;
  bool complete = true;
  while (!parser.is_done()) {
    if (corrupt || r.wire_bytes >= transport::error_body_cap || text.size() >= transport::error_body_cap) {
      complete = false;
      break;
    }
    auto [ec, n] = co_await http::async_read_some(stream, conn.input, parser, as_tuple(transport::use_call_awaitable));
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
  r.error.emplace(transport::make_api_error(r.status, text, r.request_id, r.retry_after,
                                            st.cfg.opts.api_key));
  r.what = exchange_result::kind::api_failure;
  co_return r;
}

std::string verification_reason(SSL* ssl, const error_code& ec) {
  const long result = SSL_get_verify_result(ssl);
  if (result != X509_V_OK) {
    return std::string("certificate verify failed: ") + X509_verify_cert_error_string(result);
  }
  return ec.message();
}

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
  auto [rec, endpoints] = co_await resolver.async_resolve(host, port, as_tuple(transport::use_call_awaitable));
  ctl.resolver = nullptr;
  if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  if (rec) fail(errc::resolve_failed, "resolving " + (proxy ? "proxy " + host : host) + ": " + rec.message());

  auto conn = std::make_unique<connection>(st.executor, st.tls ? &*st.tls : nullptr);
  ctl.socket = &conn->socket();
  auto [cec, endpoint] = co_await asio::async_connect(conn->socket(), endpoints, as_tuple(transport::use_call_awaitable));
  if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
  if (cec) fail(errc::connect_failed, "connecting to " + peer + ": " + cec.message());
  error_code ignored;
  conn->socket().set_option(tcp::no_delay(true), ignored);
  // The body loop reads what has already arrived with synchronous reads (read_arrived), which
  // must return would_block rather than wait on the executor's thread.
  conn->socket().non_blocking(true, ignored);
  if (proxy) {
    try {
      co_await transport::open_tunnel<call_executor>(conn->socket(), cfg.connect_request, *proxy,
                                                     cfg.base.host + ":" + cfg.port_text);
    } catch (const proxy_error&) {
      if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
      throw;
    }
  }

  if (auto* tls = conn->tls()) {
    SSL* ssl = tls->native_handle();
    if (!transport::expect_peer(ssl, cfg.connect_host, cfg.opts.verify_peer)) {
      fail(errc::tls_handshake_failed, "cannot set the expected host name");
    }
    auto [hec] = co_await tls->async_handshake(asio::ssl::stream_base::client, as_tuple(transport::use_call_awaitable));
    if (auto e = aborted_error(st, ctl)) std::rethrow_exception(e);
    if (hec) {
      fail(errc::tls_handshake_failed,
           "TLS handshake with " + cfg.host_header + ": " + verification_reason(ssl, hec));
    }
  }
  if (connect_deadline < deadline) ctl.arm(deadline, abort_reason::deadline);
  co_return conn;
}

struct attempt_record {
  clock_type::time_point start = clock_type::now();
  std::chrono::nanoseconds wait{};
  std::chrono::nanoseconds connect{};
  bool reused = false;
};

void emit_trace(const client_state& st, const std::string& redacted_target, unsigned attempt,
                const attempt_record& rec, const exchange_result* r, std::string_view error,
                std::optional<std::chrono::milliseconds> retry_in) {
  if (!st.cfg.opts.trace) return;
  trace_event e;
  e.method = "GET";
  e.target = redacted_target;
  e.host = st.cfg.host_header;
  e.attempt = attempt;
  e.reused_connection = rec.reused;
  if (r != nullptr) {
    e.status = r->status;
    e.request_id = r->request_id;
    e.body_bytes = r->body_bytes;
    e.time_to_headers = r->time_to_headers;
  }
  e.wait_time = rec.wait;
  e.connect_time = rec.connect;
  e.total_time = clock_type::now() - rec.start;
  e.error = error;
  e.retry_in = retry_in;
  try {
    st.cfg.opts.trace(e);
  } catch (...) {
    // A failing logger must not fail the request it logs.
  }
}

call_awaitable<void> sleep_until(clock_type::time_point at) {
  call_timer timer(co_await asio::this_coro::executor, at);
  co_await timer.async_wait(transport::use_call_awaitable);
}

call_awaitable<void> take_rate_token(client_state& st, clock_type::time_point deadline,
                                      attempt_record& rec) {
  if (!st.limiter) co_return;
  const auto& policy = *st.cfg.opts.rate_limit;
  const auto now = clock_type::now();
  clock_type::duration wait{};
  {
    std::lock_guard lock(st.limiter_mutex);
    if (policy.mode == rate_limit_mode::fail_fast) {
      if (!st.limiter->try_acquire(now)) {
        fail(errc::rate_limited, "client-side rate limit (" + std::to_string(policy.requests_per_second) +
                                     " requests/s) reached");
      }
      co_return;
    }
    wait = st.limiter->reserve(now);
    if (now + wait > deadline) {
      st.limiter->cancel_reservation(now);
      fail(errc::rate_limited, "the rate limiter's wait (" +
                                   millis(std::chrono::ceil<std::chrono::milliseconds>(wait)) +
                                   ") exceeds the call's deadline");
    }
  }
  if (wait <= clock_type::duration::zero()) co_return;
  bool slept = false;
  try {
    co_await sleep_until(now + wait);
    slept = true;
  } catch (...) {
  }
  if (!slept) {
    std::lock_guard lock(st.limiter_mutex);
    st.limiter->cancel_reservation(clock_type::now());
    throw boost::system::system_error(asio::error::operation_aborted);
  }
  rec.wait += clock_type::now() - now;
}

// An origin-form target as two pieces sent back to back; views into the base URL's
// configuration and the caller's target, so nothing is copied.
struct origin_form {
  std::string_view prefix;
  std::string_view rest;
};

origin_form resolve_target(const transport::config& cfg, std::string_view target) {
  if (!target.empty() && target.front() != '/') {
    // Any absolute URL (whatever its scheme) is a next_url: it must have the base's origin.
    const auto parsed = boost::urls::parse_absolute_uri(target);
    if (!parsed) throw std::invalid_argument("request target must start with '/' or be an absolute URL");
    if (!same_origin(target, cfg.base)) {
      fail(errc::foreign_next_url, "refusing a URL outside " + cfg.base.scheme + "://" + cfg.host_header);
    }
    const std::string_view path = parsed->encoded_path();
    std::string_view rest = path;
    if (parsed->has_query()) {
      // In a URI the query follows the path, after its '?'.
      const std::string_view query = parsed->encoded_query();
      rest = std::string_view(path.data(), static_cast<std::size_t>(query.data() + query.size() - path.data()));
    }
    return {path.empty() ? std::string_view("/") : std::string_view(), rest};
  }
  if (target.empty()) throw std::invalid_argument("request target is empty");
  for (unsigned char c : target) {
    if (c <= 0x20 || c >= 0x7f || c == '#') {
      throw std::invalid_argument("request target contains a space, a control, non-ASCII or '#' byte");
    }
  }
  return {cfg.path_prefix, target};
}

// Before the call starts: the head into the control's reused buffer, or why the target or
// the call's options are refused (delivered by the call, so that the handler never runs
// inside the initiation).
void prepare_request(const client_state& st, call_control& ctl, std::string_view raw_target,
                     const call_options* call) {
  const auto& opts = st.cfg.opts;
  try {
    ctl.timeout = opts.request_timeout;
    ctl.retry = opts.retry;
    ctl.call_headers.clear();
    if (call != nullptr) {
      transport::check_call_options(*call);
      if (call->request_timeout) ctl.timeout = *call->request_timeout;
      if (call->retry) ctl.retry = *call->retry;
      transport::render_call_headers(ctl.call_headers, *call);
    }
    const origin_form target = resolve_target(st.cfg, raw_target);
    transport::build_request_head(ctl.head, {.host = st.cfg.host_header, .target = target.rest,
                                             .target_prefix = target.prefix, .api_key = opts.api_key,
                                             .auth = opts.auth, .user_agent = opts.user_agent,
                                             .gzip = opts.gzip, .client_headers = st.cfg.header_lines,
                                             .call_headers = ctl.call_headers});
    // Only traces show the target; without a hook, no copy is made.
    ctl.redacted_target.clear();
    if (opts.trace) {
      ctl.redacted_target = transport::redact_target(std::string(target.prefix).append(target.rest));
    }
  } catch (...) {
    ctl.rejected = std::current_exception();
  }
}

call_awaitable<response_info> run_call(std::shared_ptr<client_state> state, control_ref control,
                                        body_sink& sink) {
  client_state& st = *state;
  call_control& ctl = *control;
  const auto start = clock_type::now();
  const auto deadline = start + ctl.timeout;
  ctl.arm(deadline, abort_reason::deadline);
  struct finish_on_exit {
    call_control& c;
    ~finish_on_exit() { c.finish(); }
  } finish{ctl};

  if (ctl.rejected) std::rethrow_exception(ctl.rejected);
  const std::string& head = ctl.head;
  const std::string& redacted = ctl.redacted_target;
  response_info info;
  unsigned policy_attempts = 0;
  bool stale_retried = false;
  std::optional<connection_pool::lease> held;  // kept across a stale-connection retry only
  for (;;) {
    attempt_record rec;
    exchange_result r;
    std::exception_ptr failure;
    try {
      if (!held) {
        co_await take_rate_token(st, deadline, rec);
        const auto queued = clock_type::now();
        held.emplace(co_await st.pool.acquire());
        rec.wait += clock_type::now() - queued;
        held->conn = st.pool.take_idle();
        rec.reused = held->conn != nullptr;
      }
      if (!held->conn) {
        const auto connecting = clock_type::now();
        held->conn = co_await open_connection(st, ctl, deadline);
        rec.connect = clock_type::now() - connecting;
      }
      connection& conn = *held->conn;
      ctl.socket = &conn.socket();
      ++info.attempts;
      if (auto* tls = conn.tls()) {
        r = co_await exchange(*tls, conn, st, ctl, head, sink, rec.reused);
      } else {
        r = co_await exchange(*conn.plain(), conn, st, ctl, head, sink, rec.reused);
      }
    } catch (const decode_error&) {
      failure = std::current_exception();
    } catch (...) {
      failure = aborted_error(st, ctl);
      if (!failure) failure = std::current_exception();
    }
    ctl.socket = nullptr;
    if (failure) {
      std::string what = "failed";
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      emit_trace(st, redacted, info.attempts, rec, nullptr, what, std::nullopt);
      held.reset();  // not reusable: the exchange stopped mid-way
      std::rethrow_exception(failure);
    }

    if (r.what == exchange_result::kind::stale) {
      held->conn.reset();
      const bool retry = retry_on_fresh_connection(rec.reused, false, stale_retried);
      emit_trace(st, redacted, info.attempts, rec, &r, "pooled connection was closed by the server",
                 retry ? std::optional<std::chrono::milliseconds>(0) : std::nullopt);
      if (!retry) {
        held.reset();
        fail(errc::connection_reset, "connection closed by the server before any response");
      }
      stale_retried = true;
      continue;
    }

    held->reusable = r.keep_alive;
    info.reused_connection = rec.reused;
    info.connect_time = rec.connect;
    info.wait_time += rec.wait;
    info.time_to_headers = r.time_to_headers;
    if (r.what == exchange_result::kind::success) {
      held.reset();
      emit_trace(st, redacted, info.attempts, rec, &r, {}, std::nullopt);
      info.status = r.status;
      info.request_id = std::move(r.request_id);
      info.content_encoding = std::move(r.content_encoding);
      info.rate_limit = std::move(r.rate_limit);
      info.wire_bytes = r.wire_bytes;
      info.body_bytes = r.body_bytes;
      info.total_time = clock_type::now() - start;
      co_return info;
    }

    held.reset();
    ++policy_attempts;
    const auto decision = decide_retry(ctl.retry, r.status, policy_attempts, r.retry_after, st.jitter());
    const bool retry = decision.retry() && clock_type::now() + decision.delay < deadline;
    emit_trace(st, redacted, info.attempts, rec, &r, r.error->what(),
               retry ? std::optional(decision.delay) : std::nullopt);
    if (!retry) throw *r.error;
    try {
      co_await sleep_until(clock_type::now() + decision.delay);
    } catch (...) {
      failure = aborted_error(st, ctl);
      if (!failure) failure = std::current_exception();
    }
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace

void start_get(const std::shared_ptr<client_state>& state, std::string_view target, body_sink& sink,
               const call_options* call, get_handler handler, asio::any_io_executor work) {
  control_ref control = state->take_control(state);
  prepare_request(*state, *control, target, call);
  const call_executor strand = control->strand;
  auto slot = asio::get_associated_cancellation_slot(handler);
  // co_spawn's own forwarding of the handler's slot dispatches a raw pointer to the signal
  // (asio 1.26), which dangles if the call completes first; this forwarder owns the state.
  if (slot.is_connected()) {
    slot.assign([control](asio::cancellation_type type) {
      if ((type & asio::cancellation_type::terminal) == asio::cancellation_type::none) return;
      asio::dispatch(control->strand, [control] { control->abort(abort_reason::cancelled); });
    });
  }
  auto cancel_slot = control->signal.slot();
  asio::co_spawn(
      strand, run_call(state, std::move(control), sink),
      asio::bind_cancellation_slot(
          cancel_slot,
          [handler = std::move(handler), work = std::move(work), slot, strand](
              std::exception_ptr e, response_info info) mutable {
            if (slot.is_connected()) slot.clear();
            auto complete = [handler = std::move(handler), e, info = std::move(info)]() mutable {
              std::move(handler)(e, std::move(info));
            };
            if (work) {
              asio::dispatch(work, std::move(complete));
            } else {
              asio::dispatch(strand, std::move(complete));
            }
          }));
}

}  // namespace massive::detail

namespace massive {

http_client::http_client(executor_type executor, options opts)
    : state_(std::make_shared<detail::client_state>(std::move(executor), std::move(opts))) {}

http_client::~http_client() { state_->pool.close_idle(); }

http_client::executor_type http_client::get_executor() const noexcept { return state_->executor; }

const massive::origin& http_client::base_origin() const noexcept { return state_->cfg.base; }

}  // namespace massive
