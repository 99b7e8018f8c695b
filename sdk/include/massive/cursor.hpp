// A traversal of a paginated endpoint: follows next_url verbatim, one page at a time, or with
// the next page already on its way (traversal_options::prefetch).
#pragma once

#include "massive/async.hpp"
#include "massive/decoder.hpp"
#include "massive/decoder_cache.hpp"
#include "massive/error.hpp"
#include "massive/http_client.hpp"
#include "massive/page.hpp"
#include "massive/traversal.hpp"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/append.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/recycling_allocator.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace massive {

/// How a cursor traverses pages: a cap on their number and prefetching.
struct traversal_options {
  /// Stop after this many pages even when the server offers more; reached_page_cap() then
  /// says so. A guard against a server whose next_url never ends.
  std::optional<std::size_t> max_pages{};
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
/// base URL fails with errc::foreign_next_url (the key never leaves for another host); a
/// next_url equal to the URL of the page that carried it fails with errc::repeated_cursor.
/// An empty page in the middle does not end the traversal; a missing or empty next_url does.
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
  cursor(http_client& http, detail::decoder_cache& decoders,
         const std::shared_ptr<page_pool>& pool, std::string first_target, payload_shape shape,
         traversal_options opts, std::shared_ptr<const call_options> call = {})
      : http_(&http),
        decoders_(&decoders),
        call_(std::move(call)),
        shape_(shape),
        rules_(std::move(first_target), opts.max_pages) {
    if (opts.prefetch) {
      ahead_ = std::make_shared<prefetch_state>();
      ahead_->owner = this;
      ahead_->decoder = decoders.take<T>(pool, shape);
    } else {
      decoder_ = decoders.take<T>(pool, shape);
    }
  }
  /// Takes over the traversal; `other` is left finished.
  cursor(cursor&& other) noexcept
      : http_(other.http_),
        decoders_(other.decoders_),
        call_(std::move(other.call_)),
        shape_(other.shape_),
        decoder_(std::move(other.decoder_)),
        ahead_(std::move(other.ahead_)),
        rules_(std::move(other.rules_)) {
    if (ahead_) {
      std::lock_guard lock(ahead_->mutex);
      ahead_->owner = this;
    }
  }
  cursor& operator=(cursor&&) = delete;
  ~cursor() {
    if (!ahead_) {
      decoders_->give_back(std::move(decoder_), shape_);
      return;
    }
    std::unique_lock lock(ahead_->mutex);
    ahead_->owner = nullptr;
    if (ahead_->now != stage::in_flight) {
      auto decoder = std::move(ahead_->decoder);
      lock.unlock();
      decoders_->give_back(std::move(decoder), shape_);
      return;
    }
    // The request's completion frees the decoder (the client may be gone by then).
    lock.unlock();
    cancel_in_flight(ahead_);
  }

  /// The next page, or std::nullopt when the traversal is over.
  /// Completion: void(std::exception_ptr, std::optional<page<T>>). After a failure the cursor
  /// stays on the same URL: calling next() again retries that page (a refused next_url fails
  /// again). Cancellation: as http_client::async_get (terminal); the cursor then stays on the
  /// same URL too. With prefetch, cancelling a next() that waits for the prefetched page
  /// cancels that request.
  template <class Token = default_token>
  auto next(Token&& token = {}) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, std::optional<page<T>>)>(
        [this](auto handler) {
          if (ahead_) {
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
  void cancel() {
    if (!ahead_) return;
    std::unique_lock lock(ahead_->mutex);
    if (ahead_->now == stage::ready) {
      ahead_->now = stage::idle;
      ahead_->failure = nullptr;
      ahead_->decoder->reset();
      return;
    }
    if (ahead_->now != stage::in_flight) return;
    ahead_->discard = true;
    lock.unlock();
    cancel_in_flight(ahead_);
  }

  /// True once the last page was delivered (or the page cap was reached).
  bool done() const noexcept { return rules_.done(); }
  /// Pages delivered so far.
  std::size_t pages() const noexcept { return rules_.pages(); }
  /// True when max_pages stopped the traversal while the server still offered a next page.
  bool reached_page_cap() const noexcept { return rules_.reached_page_cap(); }
  /// With prefetch: true when the next page's request has completed (page or failure) and
  /// next() will answer at once.
  bool prefetched() const {
    if (!ahead_) return false;
    std::lock_guard lock(ahead_->mutex);
    return ahead_->now == stage::ready;
  }

 private:
  using page_result = std::optional<page<T>>;
  using waiting_handler = boost::asio::any_completion_handler<void(std::exception_ptr, page_result)>;

  enum class stage { idle, in_flight, ready };

  // A handler stripped of its associations, to be parked type-erased: it runs on the
  // executor kept beside it, and its slot is served by the cursor.
  template <class Handler>
  struct parked {
    Handler handler;
    void operator()(std::exception_ptr failure, page_result result) {
      std::move(handler)(failure, std::move(result));
    }
  };

  // What a prefetch shares with its request, which may outlive the cursor by the time its
  // cancellation takes to land. Guarded by `mutex`: the request completes on the executor of
  // the next() that started it, which may be another thread than the caller's.
  struct prefetch_state {
    std::mutex mutex;
    stage now = stage::idle;
    bool discard = false;  // cancel() was called while in flight: drop what comes
    cursor* owner = nullptr;  // null once the cursor is gone
    std::unique_ptr<page_decoder<T>> decoder;
    std::exception_ptr failure;  // of the request that is ready
    response_info response;      // of the request that is ready, when it succeeded
    boost::asio::cancellation_signal cancel;
    boost::asio::any_io_executor executor;  // the request's completion runs there
    // A next() waiting for the request in flight, and where it runs (kept busy meanwhile).
    // An optional: Asio 1.26's move assignment of any_completion_handler wraps the source in
    // a new handler instead of moving it, and recurses without end when it is called.
    std::optional<waiting_handler> waiting;
    boost::asio::any_io_executor waiting_executor;
    boost::asio::cancellation_slot waiting_slot;
  };

  template <class Handler>
  void start_next(Handler handler) {
    switch (rules_.next()) {
      case detail::traversal::step::finished: return complete_later(std::move(handler), nullptr);
      case detail::traversal::step::repeated: return complete_later(std::move(handler), repeated_cursor());
      case detail::traversal::step::fetch: break;
    }
    const auto associations = detail::associations_of(handler, http_->get_executor());
    http_->initiate_get(rules_.target(), *decoder_, call_.get(),
                     detail::continuation(associations, [this, handler = std::move(handler)](
                                                            std::exception_ptr failure,
                                                            response_info response) mutable {
                       finish_next(std::move(handler), failure, std::move(response));
                     }));
  }

  template <class Handler>
  void finish_next(Handler handler, std::exception_ptr failure, response_info response) {
    if (failure) {
      decoder_->reset();
      std::move(handler)(failure, page_result{});
      return;
    }
    page<T> next_page = take_page(*decoder_, std::move(response));
    std::move(handler)(nullptr, page_result(std::move(next_page)));
  }

  // The page the decoder holds, the cursor moved past it.
  page<T> take_page(page_decoder<T>& decoder, response_info response) {
    page<T> next_page = decoder.take();
    next_page.response_ = std::move(response);
    rules_.advance(next_page.next_url());
    return next_page;
  }

  template <class Handler>
  void start_next_prefetching(Handler handler) {
    const auto handler_executor = boost::asio::get_associated_executor(handler, http_->get_executor());
    std::unique_lock lock(ahead_->mutex);
    if (ahead_->now == stage::ready) {
      const std::exception_ptr failure = std::exchange(ahead_->failure, nullptr);
      response_info response = std::exchange(ahead_->response, {});
      ahead_->now = stage::idle;
      lock.unlock();
      page_result result = hand_over(failure, std::move(response), handler_executor);
      return complete_later(std::move(handler), failure, std::move(result));
    }
    if (ahead_->now == stage::idle) {
      // Nothing ahead: the first page, or the one after a failure or a cancel().
      lock.unlock();
      switch (rules_.next()) {
        case detail::traversal::step::finished: return complete_later(std::move(handler), nullptr);
        case detail::traversal::step::repeated: return complete_later(std::move(handler), repeated_cursor());
        case detail::traversal::step::fetch: break;
      }
      launch(handler_executor);
      lock.lock();
      // The request completes through a dispatch to its executor, never inside launch(), and
      // on_fetched takes the mutex: it cannot miss the handler parked below.
    }
    auto slot = boost::asio::get_associated_cancellation_slot(handler);
    ahead_->waiting_slot = slot;
    if (slot.is_connected()) {
      slot.assign([state = ahead_](boost::asio::cancellation_type type) {
        if ((type & boost::asio::cancellation_type::terminal) != boost::asio::cancellation_type::none) {
          state->cancel.emit(boost::asio::cancellation_type::terminal);
        }
      });
    }
    // Its executor is kept here, so the parked handler carries no associations of its own.
    ahead_->waiting_executor = boost::asio::prefer(boost::asio::any_io_executor(handler_executor),
                                                   boost::asio::execution::outstanding_work.tracked);
    // Asio's per-thread recycling allocator: parking a handler page after page makes no
    // operator new call once warm. The handler is parked without its slot, which would
    // otherwise be taken over by the type-erased handler's own forwarding, dropping ours.
    ahead_->waiting.emplace(boost::asio::bind_allocator(boost::asio::recycling_allocator<void>(),
                                                        parked<Handler>{std::move(handler)}));
  }

  // Sends the request for rules_.target() into the prefetch decoder; it completes on `executor`.
  void launch(const boost::asio::any_io_executor& executor) {
    {
      std::lock_guard lock(ahead_->mutex);
      ahead_->now = stage::in_flight;
      // Untracked: a cursor kept idle must not keep its executor's run() going.
      ahead_->executor = boost::asio::prefer(executor, boost::asio::execution::outstanding_work.untracked);
    }
    std::pair associations(ahead_->cancel.slot(), ahead_->executor);
    http_->initiate_get(rules_.target(), *ahead_->decoder, call_.get(),
                        detail::continuation(associations, [state = ahead_](std::exception_ptr failure,
                                                                            response_info response) {
                          on_fetched(state, failure, std::move(response));
                        }));
  }

  // The request ahead has completed, on its executor.
  static void on_fetched(const std::shared_ptr<prefetch_state>& state, std::exception_ptr failure,
                         response_info response) {
    std::unique_lock lock(state->mutex);
    if (state->owner == nullptr) {
      // The cursor is gone, and perhaps its client with its decoder cache: free the decoder.
      state->decoder.reset();
      state->now = stage::idle;
      return;
    }
    if (state->discard) {
      state->discard = false;
      state->decoder->reset();
      state->now = stage::idle;
      if (!state->waiting) return;
      // A next() came after cancel(): ask again for the same page, for it.
      cursor& self = *state->owner;
      const boost::asio::any_io_executor executor = state->waiting_executor;
      lock.unlock();
      self.launch(executor);
      return;
    }
    state->now = stage::ready;
    state->failure = failure;
    if (!state->waiting) {
      state->response = std::move(response);
      return;
    }
    // A next() is pending: the cursor cannot move or go until its handler has run.
    cursor& self = *state->owner;
    state->now = stage::idle;
    state->failure = nullptr;
    waiting_handler handler = std::move(*state->waiting);
    state->waiting.reset();
    boost::asio::any_io_executor executor = std::move(state->waiting_executor);
    if (state->waiting_slot.is_connected()) state->waiting_slot.clear();
    state->waiting_slot = {};
    lock.unlock();
    page_result result = self.hand_over(failure, std::move(response), executor);
    boost::asio::dispatch(executor, [handler = std::move(handler), failure,
                                     result = std::move(result)]() mutable {
      std::move(handler)(failure, std::move(result));
    });
  }

  // The page a finished request left in the prefetch decoder, the cursor moved past it and
  // the request for the page after it sent (completing on `executor`) when the rules allow.
  template <class Executor>
  page_result hand_over(std::exception_ptr failure, response_info response, const Executor& executor) {
    if (failure) {
      ahead_->decoder->reset();
      return std::nullopt;
    }
    page<T> next_page = take_page(*ahead_->decoder, std::move(response));
    if (rules_.would_fetch()) launch(boost::asio::any_io_executor(executor));
    return page_result(std::move(next_page));
  }

  // Cancels the request in flight from its completion executor, as Asio requires of signals.
  static void cancel_in_flight(const std::shared_ptr<prefetch_state>& state) {
    boost::asio::any_io_executor executor;
    {
      std::lock_guard lock(state->mutex);
      executor = state->executor;
    }
    boost::asio::dispatch(executor, [state] {
      std::unique_lock lock(state->mutex);
      if (state->now != stage::in_flight) return;
      lock.unlock();
      state->cancel.emit(boost::asio::cancellation_type::terminal);
    });
  }

  static std::exception_ptr repeated_cursor() {
    return std::make_exception_ptr(
        transport_error(errc::repeated_cursor, "next_url repeats the page it came with"));
  }

  // Asio forbids completing from inside the initiating function, so immediate answers post.
  template <class Handler>
  void complete_later(Handler handler, std::exception_ptr failure, page_result result = {}) {
    auto executor = boost::asio::get_associated_executor(handler, http_->get_executor());
    boost::asio::post(executor,
                      boost::asio::append(std::move(handler), failure, std::move(result)));
  }

  http_client* http_;
  detail::decoder_cache* decoders_;
  std::shared_ptr<const call_options> call_;  // every page's; null: the client's options
  payload_shape shape_;
  // Reused page after page, and by later calls once the cursor is gone. Without prefetch
  // only; with it, the decoder lives in ahead_.
  std::unique_ptr<page_decoder<T>> decoder_;
  std::shared_ptr<prefetch_state> ahead_;
  detail::traversal rules_;  // which URL next, and when to stop
};

}  // namespace massive
