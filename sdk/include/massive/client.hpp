// The user-facing client: one per API key and base URL, on the user's executor. Endpoints are
// reached through groups (client.stocks(), ...), each declared in its own header so that a
// translation unit compiles only the groups it uses.
#pragma once

#include "massive/detail/async.hpp"
#include "massive/cursor.hpp"
#include "massive/decoder.hpp"
#include "massive/detail/decoder_cache.hpp"
#include "massive/groups.hpp"
#include "massive/detail/http_client.hpp"
#include "massive/client_config.hpp"
#include "massive/page.hpp"

#include <boost/asio/async_result.hpp>

#include <exception>
#include <memory>
#include <string>
#include <utility>

namespace massive {

namespace reflection::detail {
/// The operation runner's access to a client's decoders and call options.
struct client_access;
}  // namespace reflection::detail

/// Thread-safety: as the transport's (detail::http_client). A client may be shared by any
/// number of calls and threads; each cursor is used by one caller at a time. Lifetime: the
/// client must outlive its calls and its cursors (they give their decoders back to it).
class client : public detail::client_groups {
 public:
  /// The executor the client's calls run on.
  using executor_type = boost::asio::any_io_executor;

  /// Throws transport_error(errc::invalid_option) naming an invalid option, and
  /// unsupported_cpu when this CPU lacks what the decoding code was built for
  /// (MASSIVE_SIMD_ARCH).
  client(executor_type executor, massive::client_config opts = {});
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// A view of this client whose calls and traversals carry `call` (deadline, retry policy,
  /// headers, the Launchpad edge fields):
  ///   co_await client.with({.edge_id = user}).stocks().aggregates({...});
  ///   auto trades = client.with({.headers = {{"X-Trace", id}}}).stocks().trades({...});
  /// It shares this client's connections, decoders and pages, and may be a temporary: the
  /// calls and cursors made through it keep `call`. Making one costs one allocation; a
  /// client used without with() pays nothing for it. Invalid headers fail each call with
  /// transport_error(errc::invalid_option) naming the header.
  client with(call_options call) const {
    return client(*this, std::make_shared<const call_options>(std::move(call)));
  }

  /// The executor given at construction.
  executor_type get_executor() const noexcept { return http_->get_executor(); }

  // The groups (client.stocks(), client.options(), ...) come from detail::client_groups.

  /// The transport, for requests the generated endpoints do not cover.
  detail::http_client& transport() noexcept { return *http_; }
  /// Where every page's memory comes from; shared by all calls of this client.
  const std::shared_ptr<page_pool>& pool() const noexcept { return pool_; }

  /// GETs `target` (origin-form, or an absolute URL of the base's origin) and decodes its body
  /// into one page. Completion: void(std::exception_ptr, page<T>); failures are api_error,
  /// transport_error or decode_error. Cancellation: as detail::http_client::async_get (terminal; the
  /// connection is closed and no page is produced).
  template <class T, class Token = default_token>
  auto fetch(std::string target, payload_shape shape, Token&& token = {}) {
    // Captures what the call needs rather than `this`: a view from with() may be gone by the
    // time a deferred token starts the call.
    return boost::asio::async_initiate<Token, void(std::exception_ptr, page<T>)>(
        [http = http_.get(), decoders = decoders_.get(), pool = pool_, call = call_](
            auto handler, std::string target, payload_shape shape) {
          auto decoder = decoders->take<T>(pool, shape);
          detail::body_sink& sink = *decoder;
          const auto associations = detail::associations_of(handler, http->get_executor());
          http->initiate_get(target, sink, call.get(),
                          detail::continuation(
                              associations,
                              [decoders, shape, decoder = std::move(decoder),
                               handler = std::move(handler)](std::exception_ptr failure,
                                                             response_info response) mutable {
                                page<T> result = failure ? page<T>{} : decoder->take();
                                result.response_ = std::move(response);
                                decoders->give_back(std::move(decoder), shape);
                                std::move(handler)(failure, std::move(result));
                              }));
        },
        token, std::move(target), shape);
  }

  /// A lazy traversal starting at `first_target`: nothing is sent before the first next().
  template <class T>
  cursor<T> traverse(std::string first_target, payload_shape shape, traversal_options opts = {}) {
    return cursor<T>(*http_, *decoders_, pool_, std::move(first_target), shape, opts, call_);
  }

 private:
  // The operation table's runner (operation_runner.cpp), which calls and traverses without
  // a row type, reaches the decoders and the call options through it.
  friend struct reflection::detail::client_access;

  client(const client& parent, std::shared_ptr<const call_options> call)
      : pool_(parent.pool_), decoders_(parent.decoders_), http_(parent.http_), call_(std::move(call)) {}

  // Shared with the views made by with(), which may outlive this client's own handle.
  std::shared_ptr<page_pool> pool_;
  std::shared_ptr<detail::decoder_cache> decoders_;
  std::shared_ptr<detail::http_client> http_;
  std::shared_ptr<const call_options> call_;  // null: the client's options alone
};

inline client& detail::client_groups::self() noexcept { return static_cast<client&>(*this); }

}  // namespace massive
