// The user-facing client: one per API key and base URL, on the user's executor. Endpoints are
// reached through groups (client.stocks(), ...), each declared in its own header so that a
// translation unit compiles only the groups it uses.
#pragma once

#include "massive/async.hpp"
#include "massive/cursor.hpp"
#include "massive/decoder.hpp"
#include "massive/decoder_cache.hpp"
#include "massive/groups.hpp"
#include "massive/http_client.hpp"
#include "massive/client_options.hpp"
#include "massive/page.hpp"

#include <boost/asio/async_result.hpp>

#include <exception>
#include <memory>
#include <string>
#include <utility>

namespace massive {

/// Thread-safety: as http_client. A client may be shared by any number of calls and threads;
/// each cursor is used by one caller at a time. Lifetime: the client must outlive its calls
/// and its cursors (they give their decoders back to it).
class client : public detail::client_groups {
 public:
  /// The executor the client's calls run on.
  using executor_type = boost::asio::any_io_executor;

  /// Throws transport_error(errc::invalid_option) naming an invalid option.
  client(executor_type executor, massive::options opts = {});

  /// The executor given at construction.
  executor_type get_executor() const noexcept { return http_.get_executor(); }

  // The groups (client.stocks(), client.options(), ...) come from detail::client_groups.

  /// The transport, for requests the generated endpoints do not cover.
  http_client& transport() noexcept { return http_; }
  /// Where every page's memory comes from; shared by all calls of this client.
  const std::shared_ptr<page_pool>& pool() const noexcept { return pool_; }

  /// GETs `target` (origin-form, or an absolute URL of the base's origin) and decodes its body
  /// into one page. Completion: void(std::exception_ptr, page<T>); failures are api_error,
  /// transport_error or decode_error. Cancellation: as http_client::async_get (terminal; the
  /// connection is closed and no page is produced).
  template <class T, class Token = default_token>
  auto fetch(std::string target, payload_shape shape, Token&& token = {}) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, page<T>)>(
        [this](auto handler, std::string target, payload_shape shape) {
          auto decoder = decoders_.take<T>(pool_, shape);
          body_sink& sink = *decoder;
          const auto associations = detail::associations_of(handler, get_executor());
          http_.initiate_get(target, sink,
                          detail::continuation(
                              associations,
                              [this, shape, decoder = std::move(decoder),
                               handler = std::move(handler)](std::exception_ptr failure,
                                                             response_info) mutable {
                                page<T> result = failure ? page<T>{} : decoder->take();
                                decoders_.give_back(std::move(decoder), shape);
                                std::move(handler)(failure, std::move(result));
                              }));
        },
        token, std::move(target), shape);
  }

  /// A lazy traversal starting at `first_target`: nothing is sent before the first next().
  template <class T>
  cursor<T> traverse(std::string first_target, payload_shape shape, traversal_options opts = {}) {
    return cursor<T>(http_, decoders_, pool_, std::move(first_target), shape, opts);
  }

 private:
  std::shared_ptr<page_pool> pool_;
  detail::decoder_cache decoders_;
  http_client http_;
};

inline client& detail::client_groups::self() noexcept { return static_cast<client&>(*this); }

}  // namespace massive
