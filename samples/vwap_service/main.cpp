// An HTTP service on one io_context: GET /vwap?ticker=X&from=YYYY-MM-DD&to=YYYY-MM-DD answers
// the volume-weighted average price of X over those days (inclusive), from minute bars. Each
// request fans out one aggregates call per week of its range, concurrently, and combines them;
// the HTTP server (Boost.Beast), the SDK's calls and every other request share one thread and
// nothing blocks.
//
//   vwap_service [--port N]          serve on 127.0.0.1:N (default 8080) until SIGINT/SIGTERM
//   vwap_service --once [QUERY]      serve on an ephemeral port, ask itself GET /vwap?QUERY
//                                    (default ticker=AAPL&from=2024-01-02&to=2024-01-31),
//                                    print the status and body, check the answer against one
//                                    unsplit call over the whole range, and exit
//
// With MASSIVE_API_KEY set it calls the real API; without, the embedded mock server.
#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono;

namespace {

constexpr auto io_timeout = seconds{30};
// Ranges are split into calls of this many days: a week of minute bars (at most 10,080) fits
// one page of 50,000, and a year is 53 calls.
constexpr int days_per_call = 7;
constexpr int max_days = 366;

// ---- the computation ----------------------------------------------------------------------

struct totals {
  double notional = 0;  // sum of price * volume
  double volume = 0;
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  std::size_t bars = 0;
  std::size_t calls = 0;

  void add(const massive::page<massive::agg>& page) {
    for (const massive::agg& bar : page) {
      // A bar's own VWAP when the server sends one, else its typical price.
      notional += bar.vwap.value_or((bar.high + bar.low + bar.close) / 3) * bar.volume;
      volume += bar.volume;
      low = std::min(low, bar.low);
      high = std::max(high, bar.high);
    }
    bars += page.size();
  }
  void add(const totals& other) {
    notional += other.notional;
    volume += other.volume;
    low = std::min(low, other.low);
    high = std::max(high, other.high);
    bars += other.bars;
    calls += other.calls;
  }
  std::optional<double> vwap() const {
    return volume > 0 ? std::optional(notional / volume) : std::nullopt;
  }
};

// Minute bars of [from, to], days inclusive.
asio::awaitable<totals> range_totals(massive::client& client, std::string ticker, sys_days from,
                                     sys_days to) {
  totals sum;
  auto bars = co_await client.stocks().aggregates({.ticker = ticker,
                                                   .multiplier = 1,
                                                   .timespan = massive::timespan::minute,
                                                   .from = year_month_day{from},
                                                   .to = year_month_day{to},
                                                   .limit = 50'000});
  ++sum.calls;
  sum.add(bars);
  // Should a server still split the range, the rest follows next_url.
  if (!bars.next_url().empty()) {
    auto rest = client.traverse<massive::agg>(std::string(bars.next_url()),
                                              massive::payload_shape::results_array);
    while (auto page = co_await rest.next()) {
      ++sum.calls;
      sum.add(*page);
    }
  }
  co_return sum;
}

// One call per week of the range, all in flight at once; the client queues what exceeds its
// connections_per_origin. The first failure cancels the calls still running.
asio::awaitable<totals> fan_out(massive::client& client, const std::string& ticker,
                                sys_days from, sys_days to) {
  const auto executor = co_await asio::this_coro::executor;
  using operation = decltype(asio::co_spawn(executor, range_totals(client, ticker, from, to),
                                            asio::deferred));
  std::vector<operation> calls;
  for (sys_days start = from; start <= to; start += days{days_per_call}) {
    const sys_days end = std::min(to, start + days{days_per_call - 1});
    calls.push_back(
        asio::co_spawn(executor, range_totals(client, ticker, start, end), asio::deferred));
  }
  auto [order, failures, parts] =
      co_await asio::experimental::make_parallel_group(std::move(calls))
          .async_wait(asio::experimental::wait_for_one_error(), asio::use_awaitable);
  // The failure that came first is the cause; later ones are the cancellations it caused.
  for (const std::size_t i : order)
    if (failures[i]) std::rethrow_exception(failures[i]);
  totals sum;
  for (const totals& part : parts) sum.add(part);
  co_return sum;
}

// ---- the HTTP side ------------------------------------------------------------------------

struct vwap_query {
  std::string ticker;
  sys_days from, to;
};

struct bad_query {
  std::string message;
};

std::optional<sys_days> parse_date(std::string_view text) {
  int y = 0;
  unsigned m = 0, d = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  const auto field = [&](std::size_t at, std::size_t n, auto& out) {
    const char* end = text.data() + at + n;
    const auto [p, ec] = std::from_chars(text.data() + at, end, out);
    return ec == std::errc{} && p == end;
  };
  if (!field(0, 4, y) || !field(5, 2, m) || !field(8, 2, d)) return std::nullopt;
  const year_month_day date{year{y}, month{m}, day{d}};
  if (!date.ok()) return std::nullopt;
  return sys_days{date};
}

std::string format_date(sys_days date) {
  const year_month_day ymd{date};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", int{ymd.year()}, unsigned{ymd.month()},
                unsigned{ymd.day()});
  return text;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + '"';
}

// Either the query or why it is not one.
std::variant<vwap_query, bad_query> parse_query(boost::urls::params_view params) {
  vwap_query q;
  std::optional<sys_days> from, to;
  for (const auto& param : params) {
    if (param.key == "ticker") {
      q.ticker = param.value;
    } else if (param.key == "from") {
      if (!(from = parse_date(param.value))) return bad_query{"'from' must be a YYYY-MM-DD date"};
    } else if (param.key == "to") {
      if (!(to = parse_date(param.value))) return bad_query{"'to' must be a YYYY-MM-DD date"};
    } else {
      return bad_query{"unknown parameter '" + std::string(param.key) + "'"};
    }
  }
  const bool ticker_ok =
      !q.ticker.empty() && q.ticker.size() <= 12 &&
      std::all_of(q.ticker.begin(), q.ticker.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.';
      });
  if (!ticker_ok) return bad_query{"'ticker' must be 1 to 12 of A-Z, 0-9 and '.'"};
  if (!from || !to) return bad_query{"'from' and 'to' are required"};
  if (*from > *to) return bad_query{"'from' is after 'to'"};
  if (*to - *from >= days{max_days}) return bad_query{"the range is longer than 366 days"};
  q.from = *from;
  q.to = *to;
  return q;
}

using request = http::request<http::string_body>;
using response = http::response<http::string_body>;

response json_response(const request& req, http::status status, std::string body) {
  response res{status, req.version()};
  res.set(http::field::content_type, "application/json");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body) + "\n";
  res.prepare_payload();
  return res;
}

response error_response(const request& req, http::status status, std::string_view message) {
  return json_response(req, status, "{\"error\":" + json_string(message) + "}");
}

class service {
 public:
  service(massive::client& client, std::string source)
      : client_(client), source_(std::move(source)) {}

  massive::client& client() noexcept { return client_; }

  asio::awaitable<response> answer(const request& req) {
    if (req.method() != http::verb::get)
      co_return error_response(req, http::status::method_not_allowed, "only GET is served");
    const auto target = boost::urls::parse_origin_form(req.target());
    if (!target || target->path() != "/vwap")
      co_return error_response(req, http::status::not_found, "the only route is GET /vwap");
    const auto parsed = parse_query(target->params());
    if (const auto* bad = std::get_if<bad_query>(&parsed))
      co_return error_response(req, http::status::bad_request, bad->message);
    const vwap_query& q = std::get<vwap_query>(parsed);

    std::string failure;
    http::status status = http::status::bad_gateway;
    try {
      const totals sum = co_await fan_out(client_, q.ticker, q.from, q.to);
      co_return json_response(req, http::status::ok, to_json(q, sum));
    } catch (const massive::api_error& e) {
      // The API's own 4xx (an unknown ticker, say) is the caller's problem; the rest is ours.
      if (e.status() >= 400 && e.status() < 500 && e.status() != 429)
        status = http::status::bad_request;
      failure = "the market-data API answered " + std::to_string(e.status()) + ": " +
                e.server_message();
    } catch (const massive::error& e) {
      failure = e.what();
    }
    co_return error_response(req, status, failure);
  }

 private:
  std::string to_json(const vwap_query& q, const totals& sum) const {
    const auto number = [](double value, int decimals = 6) {
      char text[48];
      std::snprintf(text, sizeof text, "%.*f", decimals, value);
      return std::string(text);
    };
    const auto vwap = sum.vwap();
    return "{\"ticker\":" + json_string(q.ticker) + ",\"from\":\"" + format_date(q.from) +
           "\",\"to\":\"" + format_date(q.to) + "\",\"vwap\":" + (vwap ? number(*vwap) : "null") +
           ",\"volume\":" + number(sum.volume, 0) + ",\"low\":" + (vwap ? number(sum.low) : "null") +
           ",\"high\":" + (vwap ? number(sum.high) : "null") +
           ",\"bars\":" + std::to_string(sum.bars) + ",\"calls\":" + std::to_string(sum.calls) +
           ",\"source\":" + json_string(source_) + "}";
  }

  massive::client& client_;
  std::string source_;
};

asio::awaitable<void> session(tcp::socket socket, service& svc) {
  beast::tcp_stream stream{std::move(socket)};
  beast::flat_buffer buffer;
  for (;;) {
    request req;
    stream.expires_after(io_timeout);
    auto [read_error, read_bytes] =
        co_await http::async_read(stream, buffer, req, asio::as_tuple(asio::use_awaitable));
    if (read_error) break;  // the peer closed, timed out or sent something that is not HTTP
    response res = co_await svc.answer(req);
    stream.expires_after(io_timeout);
    auto [write_error, written] =
        co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
    if (write_error || !res.keep_alive()) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> listen(tcp::acceptor& acceptor, service& svc) {
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (error == asio::error::operation_aborted) co_return;  // the acceptor was closed
    if (error) continue;
    asio::co_spawn(acceptor.get_executor(), session(std::move(socket), svc), asio::detached);
  }
}

// ---- --once: the service asks itself ------------------------------------------------------

std::optional<double> json_number(std::string_view body, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\":";
  const auto at = body.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string rest(body.substr(at + quoted.size()));
  char* end = nullptr;
  const double value = std::strtod(rest.c_str(), &end);
  if (end == rest.c_str()) return std::nullopt;
  return value;
}

// Sends GET /vwap?<query> to the service, prints the answer and, for a 200, compares its VWAP
// with one unsplit call over the whole range. Closes the acceptor when done.
asio::awaitable<bool> ask_once(tcp::acceptor& acceptor, service& svc, std::string query) {
  const tcp::endpoint endpoint = acceptor.local_endpoint();
  beast::tcp_stream stream{co_await asio::this_coro::executor};
  stream.expires_after(io_timeout);
  co_await stream.async_connect(endpoint, asio::use_awaitable);
  http::request<http::empty_body> req{http::verb::get, "/vwap?" + query, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(endpoint.port()));
  req.keep_alive(false);
  co_await http::async_write(stream, req, asio::use_awaitable);
  beast::flat_buffer buffer;
  response res;
  stream.expires_after(minutes{5});  // the real API on the free tier is slow to fan out to
  co_await http::async_read(stream, buffer, res, asio::use_awaitable);
  acceptor.close();
  std::printf("GET %s -> %u %s", std::string(req.target()).c_str(), res.result_int(),
              res.body().c_str());
  if (res.result() != http::status::ok) co_return false;

  // The reference: the same range in one call (a month of minute bars fits one page).
  const auto url = boost::urls::parse_origin_form(req.target());
  const vwap_query q = std::get<vwap_query>(parse_query(url->params()));
  const totals whole = co_await range_totals(svc.client(), q.ticker, q.from, q.to);
  const auto served = json_number(res.body(), "vwap");
  const auto expected = whole.vwap();
  if (!served || !expected) {
    std::printf("no VWAP to compare (no bars in the range)\n");
    co_return false;
  }
  const bool same = std::abs(*served - *expected) <= 1e-6 * std::abs(*expected) + 1e-6;
  std::printf("%s one unsplit call: %.6f over %zu bars\n",
              same ? "matches" : "DIFFERS FROM", *expected, whole.bars);
  co_return same;
}

}  // namespace

int main(int argc, char** argv) try {
  bool once = false;
  std::string query = "ticker=AAPL&from=2024-01-02&to=2024-01-31";
  unsigned short port = 8080;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--once") {
      once = true;
      port = 0;
      if (i + 1 < argc && argv[i + 1][0] != '-') query = argv[++i];
    } else if (arg == "--port" && i + 1 < argc) {
      port = static_cast<unsigned short>(std::stoul(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: vwap_service [--port N] | --once [QUERY]\n");
      return 2;
    }
  }

  asio::io_context io;
  massive::client_config options;  // the key comes from MASSIVE_API_KEY when it is set
  // A fan-out is a burst: answers 429 and 5xx are retried with jittered exponential backoff
  // (a Retry-After wins), and calls beyond the token bucket wait their turn in the client.
  options.retry = {.max_attempts = 4, .initial_backoff = milliseconds{200}};
  options.rate_limit = massive::rate_limit_policy{.requests_per_second = 50, .burst = 20};
  std::optional<massive::mock::market_server> local;
  const char* key = std::getenv("MASSIVE_API_KEY");
  if (key == nullptr || *key == '\0') {
    local.emplace();
    options.api_key = "vwap-service-demo-key";
    options.base_url = local->base_url();
    options.tls.ca_pem = local->certificate_pem();
  }
  massive::client client{io.get_executor(), options};
  service svc{client, local ? "massive::mock" : "api.massive.com"};

  tcp::acceptor acceptor{io, {asio::ip::make_address("127.0.0.1"), port}};
  asio::co_spawn(io, listen(acceptor, svc), asio::detached);

  std::optional<asio::signal_set> signals;
  bool ok = true;
  if (once) {
    asio::co_spawn(io, ask_once(acceptor, svc, query), [&](std::exception_ptr e, bool same) {
      ok = !e && same;
      if (!e) return;
      acceptor.close();
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& failure) {
        std::fprintf(stderr, "vwap_service --once failed: %s\n", failure.what());
      }
    });
  } else {
    signals.emplace(io, SIGINT, SIGTERM);
    signals->async_wait([&](const beast::error_code&, int) { io.stop(); });
    std::printf("serving GET http://127.0.0.1:%u/vwap?ticker=X&from=YYYY-MM-DD&to=YYYY-MM-DD "
                "from %s\n",
                acceptor.local_endpoint().port(), local ? "the embedded mock server"
                                                        : "the Massive API");
    std::fflush(stdout);
  }
  io.run();
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "vwap_service failed: %s\n", e.what());
  return 1;
}
