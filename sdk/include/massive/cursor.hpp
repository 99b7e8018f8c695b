// A traversal of a paginated endpoint: follows next_url verbatim, one page at a time, or with
// the next page already on its way (traversal_options::prefetch). cursor<T> is a typed facade:
// the traversal itself is detail::cursor_core's, compiled once in massive::core.
#pragma once

#include "massive/detail/async.hpp"
#include "massive/detail/cursor_core.hpp"
#include "massive/detail/decoder_cache.hpp"
#include "massive/detail/http_client.hpp"
#include "massive/page.hpp"

#include <boost/asio/append.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace massive {

/// The token an endpoint uses when none is given: `co_await client.stocks().aggregates(...)`
/// inside a boost::asio::awaitable coroutine. Any other Asio completion token may be passed
/// (a callback, use_future, deferred, ...). Boost 1.81 cannot co_await a `deferred`
/// operation whose signature starts with std::exception_ptr, so deferred is not the default.
using default_token = boost::asio::use_awaitable_t<>;

/// How a cursor traverses pages: a cap on their number and prefetching.
struct traversal_options {
  /// Stop after this many pages even when the server offers more; reached_page_cap() then
  /// says so. A guard against a server whose next_url never ends.
  std::optional<std::size_t> max_pages{};
  /// Refuse to go on (errc::empty_pages) after this many pages in a row whose bodies held no
  /// rows but offered a next_url: a server handing out fresh cursors over nothing. An empty
  /// page in the middle of a traversal is legitimate (its next_url is followed); ten in a row
  /// is taken for that server, a choice rather than a measured bound. Empty: no limit.
  std::optional<std::size_t> max_empty_pages = 10;
  /// Ask for page N+1 as soon as page N is handed over, so that its transfer and decoding
  /// overlap the caller's work on page N: a traversal then takes about the longer of the two
  /// per page instead of their sum. Memory: two pages live at a time (the one the caller
  /// holds and the one arriving) instead of one. Every rule below still holds, and nothing
  /// is asked for beyond max_pages, a refused next_url or the last page.
  bool prefetch = false;
};

/// One traversal. Lazy: nothing is sent before the first next(). Each page is independent of
/// the cursor: keep it as long as you like; a page you drop returns its memory to the client's
/// pool, so a loop that drops each page before asking for the next holds one page at a time
/// (two with prefetch).
///
/// Rules, checked before anything is sent: a next_url of another scheme, host or port than the
/// base URL fails with errc::foreign_next_url (the key never leaves for another host); one that
/// is not a URL, or holds a byte no URL holds, with errc::bad_response; a next_url written as a
/// path replaces the base URL's path (RFC 3986, 5.2), as an absolute one's does, the base's
/// path prefix going before the SDK's own paths only; a next_url equal to the URL of the page
/// that carried it, or to any page fetched before it (a cycle: found in constant memory, at the
/// latest when the cycle has been gone round twice), fails with errc::repeated_cursor;
/// max_empty_pages pages in a row without rows fail with errc::empty_pages. An empty page in
/// the middle does not end the traversal; a missing or empty next_url does.
///
/// Stopping: without prefetch, not calling next() again (or destroying the cursor) sends
/// nothing further. With prefetch, the one request already sent for the next page is
/// cancelled by cancel() or by the cursor's destruction (its connection is closed, its page
/// dropped) and nothing further is sent. A prefetched page's failure (api_error,
/// transport_error, decode_error, a refused next_url) is delivered by the next() that would
/// have returned the page.
///
/// One caller at a time: a cursor must not be moved or destroyed while a next() is pending;
/// it may be moved or destroyed while a prefetch is in flight.
template <class T>
class cursor {
 public:
  /// Made by client::traverse; the client must outlive its cursors.
  cursor(detail::http_client& http, detail::decoder_cache& decoders,
         const std::shared_ptr<page_pool>& pool, std::string first_target, payload_shape shape,
         traversal_options opts, std::shared_ptr<const call_options> call = {})
      : core_(http, decoders, shape, decoders.take_untyped<T>(pool, shape), std::move(first_target),
              opts.max_pages, opts.prefetch, std::move(call), opts.max_empty_pages) {}
  /// Takes over the traversal; `other` is left finished.
  cursor(cursor&& other) noexcept = default;
  cursor& operator=(cursor&&) = delete;

  /// The next page, or std::nullopt when the traversal is over.
  /// Completion: void(std::exception_ptr, std::optional<page<T>>). After a failure the cursor
  /// stays on the same URL: calling next() again retries that page (a refused next_url fails
  /// again). Cancellation: as detail::http_client::async_get (terminal); the cursor then stays on the
  /// same URL too. With prefetch, cancelling a next() that waits for the prefetched page
  /// cancels that request.
  template <class Token = default_token>
  auto next(Token&& token = {}) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, std::optional<page<T>>)>(
        [this](auto handler) {
          if (core_.prefetching()) {
            this->start_next_prefetching(std::move(handler));
          } else {
            this->start_next(std::move(handler));
          }
        },
        token);
  }

  /// With prefetch: drops the page fetched ahead and cancels its request if it is still in
  /// flight (its connection is closed); the cursor stays on that page's URL, so the next
  /// next() asks for it again. Without prefetch: nothing. Not while a next() is pending:
  /// cancel that through its completion token's cancellation slot.
  void cancel() { core_.cancel(); }

  /// True once the last page was delivered (or the page cap was reached).
  bool done() const noexcept { return core_.rules().done(); }
  /// Pages delivered so far.
  std::size_t pages() const noexcept { return core_.rules().pages(); }
  /// True when max_pages stopped the traversal while the server still offered a next page.
  bool reached_page_cap() const noexcept { return core_.rules().reached_page_cap(); }
  /// The sums of the leniency counts of the pages delivered so far: what was coerced, left
  /// out or dropped (page<T>::leniency() has each page's, with where the first one was).
  const leniency_totals& leniency() const noexcept { return core_.rules().leniency(); }
  /// With prefetch: true when the next page's request has completed (page or failure) and
  /// next() will answer at once.
  bool prefetched() const { return core_.prefetched(); }

 private:
  using page_result = std::optional<page<T>>;

  // The core's page, typed.
  static page_result typed(std::optional<detail::untyped_page> untyped) {
    if (!untyped) return std::nullopt;
    page_result result(page<T>(std::move(untyped->parts)));
    result->response_ = std::move(untyped->response);
    return result;
  }

  // A handler stripped of its associations, to be handed to the core type-erased: it runs on
  // the executor given beside it, and its slot is served by the core.
  template <class Handler>
  struct parked {
    Handler handler;
    void operator()(std::exception_ptr failure, std::optional<detail::untyped_page> untyped) {
      std::move(handler)(failure, typed(std::move(untyped)));
    }
  };

  // Without prefetch the handler stays typed: the transport's own type erasure of the
  // request's completion is the only one per page.
  template <class Handler>
  void start_next(Handler handler) {
    if (std::optional<std::exception_ptr> answer = core_.answer_without_fetch()) {
      return complete_later(std::move(handler), *answer);
    }
    const auto associations = detail::associations_of(handler, core_.executor());
    core_.fetch(detail::continuation(associations, [this, handler = std::move(handler)](
                                                       std::exception_ptr failure, response_info response) mutable {
      std::move(handler)(failure, typed(core_.take_fetched(failure, std::move(response))));
    }));
  }

  template <class Handler>
  void start_next_prefetching(Handler handler) {
    const boost::asio::any_io_executor executor = boost::asio::get_associated_executor(handler, core_.executor());
    auto slot = boost::asio::get_associated_cancellation_slot(handler);
    // Asio's per-thread recycling allocator: handing a handler over page after page makes no
    // operator new call once warm. The handler goes without its slot, which would otherwise
    // be taken over by the type-erased handler's own forwarding, dropping the core's.
    core_.next_prefetching(detail::page_handler(boost::asio::bind_allocator(boost::asio::recycling_allocator<void>(),
                                                                            parked<Handler>{std::move(handler)})),
                           executor, slot);
  }

  // Asio forbids completing from inside the initiating function, so immediate answers post.
  template <class Handler>
  void complete_later(Handler handler, std::exception_ptr failure) {
    auto executor = boost::asio::get_associated_executor(handler, core_.executor());
    boost::asio::post(executor, boost::asio::append(std::move(handler), failure, page_result{}));
  }

  detail::cursor_core core_;
};

}  // namespace massive
