// The HTTPS transport: a pool of keep-alive connections to the base URL's origin, on the
// user's executor, streaming each 2xx body into a body_sink. Beast and OpenSSL stay in the
// sources; this header only needs Asio's completion-token machinery.
#pragma once

#include "massive/detail/body_sink.hpp"
#include "massive/client_config.hpp"
#include "massive/response_info.hpp"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/system_executor.hpp>
#include <boost/asio/async_result.hpp>

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace massive::transport {
/// The transport's state behind an http_client: its configuration, pool and limiter
/// (sdk/src/transport/call_state.hpp).
struct client_state;
}  // namespace massive::transport

namespace massive::detail {

using transport::client_state;
using get_handler = boost::asio::any_completion_handler<void(std::exception_ptr, response_info)>;

/// Who wrote a request target, which says what a path starting with '/' is relative to.
enum class target_kind {
  /// The SDK's or its caller's: a path ("/v3/trades/AAPL?limit=10") is appended to the base
  /// URL's path prefix; an absolute URL must have the base's origin. A target that is neither
  /// is the caller's mistake: std::invalid_argument.
  api_path,
  /// A next_url as the server sent it, a reference resolved against the base URL as RFC 3986
  /// (5.2) resolves one: a path starting with '/' replaces the base URL's path. One that is
  /// not a URL, or holds bytes a URL cannot, is refused with transport_error(errc::bad_response).
  next_url,
};

/// `target` and `call` (null: none) are read before this returns. The handler runs on `work`
/// (the handler's own executor, kept busy meanwhile), or on the call's strand when `work` is
/// empty.
void start_get(const std::shared_ptr<client_state>& state, std::string_view target, target_kind kind,
               body_sink& sink, const call_options* call, get_handler handler,
               boost::asio::any_io_executor work);

template <class Handler>
void launch_get(const std::shared_ptr<client_state>& state, std::string_view target,
                body_sink& sink, const call_options* call, Handler&& handler,
                target_kind kind = target_kind::api_path) {
  // The handler's executor, kept busy, taken while the handler's type is known: through the
  // type-erased handler, Asio wrapped it in an any_completion_executor too big for its
  // small-object buffer, two operator new calls per call. Empty when the handler has no
  // executor of its own: it then runs on the call's strand.
  using none = boost::asio::system_executor;
  boost::asio::any_io_executor work;
  if constexpr (!std::is_same_v<boost::asio::associated_executor_t<std::decay_t<Handler>, none>, none>) {
    work = boost::asio::prefer(boost::asio::any_io_executor(boost::asio::get_associated_executor(handler)),
                               boost::asio::execution::outstanding_work.tracked);
  }
  start_get(state, target, kind, sink, call, get_handler(std::forward<Handler>(handler)), std::move(work));
}

/// Thread-safety: an http_client may be used from any number of threads at once (its pool
/// and limiter are internally locked), on an io_context or a multi-threaded thread_pool.
/// Each call runs on a strand of the executor (from a small fixed set the client shares out),
/// so its sink and the trace hook are never entered concurrently for the same call; the trace
/// hook may be entered concurrently by different calls. The completion handler runs on its
/// associated executor (by default that strand). Destroying the client closes idle connections; calls in flight keep
/// what they need alive and complete normally.
class http_client {
 public:
  /// The executor the calls and connections run on.
  using executor_type = boost::asio::any_io_executor;

  /// Validates `opts` (throws transport_error(errc::invalid_option) naming the option),
  /// reads MASSIVE_API_KEY when opts.api_key is empty and loads the trust store.
  http_client(executor_type executor, client_config opts);
  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// The executor given at construction.
  executor_type get_executor() const noexcept;

  /// GET `target`, an origin-form target ("/v3/trades/AAPL?limit=10", appended to the base
  /// URL's path) or an absolute URL with the base URL's origin (a next_url, followed
  /// verbatim): target_kind::api_path. A 2xx body is fed to `sink` chunk by chunk, inflated when gzip, then
  /// sink.finish() is called; `sink` must stay alive until completion.
  ///
  /// Completion: void(std::exception_ptr, response_info). Failures: api_error for a non-2xx
  /// answer (after the retry policy; a 3xx included: redirects are never followed, so the key
  /// goes to no Location, whatever its origin), transport_error (massive::errc) for everything below
  /// HTTP, decode_error from the sink unchanged. An absolute URL of another origin fails
  /// with errc::foreign_next_url before anything is sent.
  ///
  /// Cancellation: terminal cancellation through the completion handler's cancellation
  /// slot is honoured at any point (queued, connecting, mid-body, backing off); the call
  /// then completes with transport_error(errc::cancelled), the connection it used is closed
  /// and the sink is left unfinished. Partial and total cancellation are not supported
  /// (a signal carrying only those is ignored). client_config::request_timeout bounds the whole
  /// call the same way and completes with errc::deadline_exceeded. Emit the cancellation
  /// signal from the handler's executor, as Asio requires.
  template <boost::asio::completion_token_for<void(std::exception_ptr, response_info)> Token>
  auto async_get(std::string_view target, body_sink& sink, Token&& token) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, response_info)>(
        [](auto handler, std::shared_ptr<client_state> state, std::string target,
           body_sink* sink) { launch_get(state, target, *sink, nullptr, std::move(handler)); },
        token, state_, std::string(target), &sink);
  }

  /// As above, with `call`'s deadline, retry policy and headers (copied, so that a deferred
  /// token may start the call later). Invalid headers fail the call with
  /// transport_error(errc::invalid_option) naming the header; nothing is sent.
  template <boost::asio::completion_token_for<void(std::exception_ptr, response_info)> Token>
  auto async_get(std::string_view target, body_sink& sink, call_options call, Token&& token) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, response_info)>(
        [](auto handler, std::shared_ptr<client_state> state, std::string target,
           body_sink* sink, call_options call) {
          launch_get(state, target, *sink, &call, std::move(handler));
        },
        token, state_, std::string(target), &sink, std::move(call));
  }

  /// As async_get with a completion handler rather than a token: the call starts at once and
  /// `target` is read before this returns, so it is not copied. For composed operations.
  template <class Handler>
  void initiate_get(std::string_view target, body_sink& sink, Handler&& handler) {
    launch_get(state_, target, sink, nullptr, std::forward<Handler>(handler));
  }

  /// As initiate_get above, with `call` (null: none), read before this returns.
  template <class Handler>
  void initiate_get(std::string_view target, body_sink& sink, const call_options* call, Handler&& handler) {
    launch_get(state_, target, sink, call, std::forward<Handler>(handler));
  }

  /// As initiate_get above, for a target written by `kind` (a cursor's next_url).
  template <class Handler>
  void initiate_get(target_kind kind, std::string_view target, body_sink& sink, const call_options* call,
                    Handler&& handler) {
    launch_get(state_, target, sink, call, std::forward<Handler>(handler), kind);
  }

 private:
  std::shared_ptr<client_state> state_;
};

}  // namespace massive::detail
