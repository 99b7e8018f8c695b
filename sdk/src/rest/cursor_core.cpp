#include "massive/detail/cursor_core.hpp"

#include "massive/detail/async.hpp"
#include "massive/error.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>

#include <mutex>
#include <string>

namespace massive::detail {

namespace {

enum class stage { idle, in_flight, ready };

std::exception_ptr refusal(const traversal& rules, traversal::step step) {
  switch (step) {
    case traversal::step::repeated:
      return std::make_exception_ptr(transport_error(errc::repeated_cursor, "next_url repeats the page it came with"));
    case traversal::step::cycle:
      return std::make_exception_ptr(transport_error(
          errc::repeated_cursor, "next_url returns to a page this traversal already fetched (a cycle, after " +
                                     std::to_string(rules.pages()) + " pages)"));
    case traversal::step::empty_pages:
      return std::make_exception_ptr(transport_error(
          errc::empty_pages, std::to_string(rules.empty_streak()) +
                                 " pages in a row without rows, each with a next_url (traversal_options::max_empty_pages)"));
    case traversal::step::fetch:
    case traversal::step::finished: break;
  }
  return nullptr;
}

// Asio forbids completing from inside the initiating function, so immediate answers post.
void complete_later(page_handler handler, const boost::asio::any_io_executor& executor, std::exception_ptr failure,
                    std::optional<untyped_page> result = {}) {
  boost::asio::post(executor, [handler = std::move(handler), failure, result = std::move(result)]() mutable {
    std::move(handler)(failure, std::move(result));
  });
}

}  // namespace

// What a prefetch shares with its request, which may outlive the cursor by the time its
// cancellation takes to land. Guarded by `mutex`: the request completes on the executor of
// the next() that started it, which may be another thread than the caller's.
struct cursor_core::prefetch_state {
  std::mutex mutex;
  stage now = stage::idle;
  bool discard = false;          // cancel() was called while in flight: drop what comes
  cursor_core* owner = nullptr;  // null once the cursor is gone
  untyped_decoder decoder;
  std::exception_ptr failure;  // of the request that is ready
  response_info response;      // of the request that is ready, when it succeeded
  boost::asio::cancellation_signal cancel;
  boost::asio::any_io_executor executor;  // the request's completion runs there
  // A next() waiting for the request in flight, and where it runs (kept busy meanwhile).
  // An optional: Asio 1.26's move assignment of any_completion_handler wraps the source in
  // a new handler instead of moving it, and recurses without end when it is called.
  std::optional<page_handler> waiting;
  boost::asio::any_io_executor waiting_executor;
  boost::asio::cancellation_slot waiting_slot;
};

cursor_core::cursor_core(http_client& http, decoder_cache& decoders, payload_shape shape, untyped_decoder decoder,
                         std::string first_target, std::optional<std::size_t> max_pages, bool prefetch,
                         std::shared_ptr<const call_options> call, std::optional<std::size_t> max_empty_pages)
    : http_(&http),
      decoders_(&decoders),
      call_(std::move(call)),
      shape_(shape),
      rules_(std::move(first_target), max_pages, max_empty_pages) {
  if (prefetch) {
    ahead_ = std::make_shared<prefetch_state>();
    ahead_->owner = this;
    ahead_->decoder = std::move(decoder);
  } else {
    decoder_ = std::move(decoder);
  }
}

cursor_core::cursor_core(cursor_core&& other) noexcept
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

cursor_core::~cursor_core() {
  if (!ahead_) {
    decoders_->give_back(std::move(decoder_), shape_);
    return;
  }
  std::unique_lock lock(ahead_->mutex);
  ahead_->owner = nullptr;
  if (ahead_->now != stage::in_flight) {
    untyped_decoder decoder = std::move(ahead_->decoder);
    lock.unlock();
    decoders_->give_back(std::move(decoder), shape_);
    return;
  }
  // The request's completion frees the decoder (the client may be gone by then).
  lock.unlock();
  cancel_in_flight(ahead_);
}

std::optional<std::exception_ptr> cursor_core::answer_without_fetch() {
  const traversal::step step = rules_.next();
  if (step == traversal::step::fetch) return std::nullopt;
  return refusal(rules_, step);
}

std::optional<untyped_page> cursor_core::take_fetched(std::exception_ptr failure, response_info response) {
  if (failure) {
    decoder_.engine->reset();
    return std::nullopt;
  }
  return take_page(*decoder_.engine, std::move(response));
}

// The page the decoder holds, the traversal moved past it.
untyped_page cursor_core::take_page(decoder_core& decoder, response_info response) {
  untyped_page next_page{decoder.take(), std::move(response)};
  const page_envelope& envelope = next_page.parts.envelope;
  rules_.advance(envelope.next_url, next_page.parts.size + envelope.leniency.dropped_rows, envelope.leniency);
  return next_page;
}

void cursor_core::next_prefetching(page_handler handler, const boost::asio::any_io_executor& executor,
                                   boost::asio::cancellation_slot slot) {
  std::unique_lock lock(ahead_->mutex);
  if (ahead_->now == stage::ready) {
    const std::exception_ptr failure = std::exchange(ahead_->failure, nullptr);
    response_info response = std::exchange(ahead_->response, {});
    ahead_->now = stage::idle;
    lock.unlock();
    std::optional<untyped_page> result = hand_over(failure, std::move(response), executor);
    return complete_later(std::move(handler), executor, failure, std::move(result));
  }
  if (ahead_->now == stage::idle) {
    // Nothing ahead: the first page, or the one after a failure or a cancel().
    lock.unlock();
    if (std::optional<std::exception_ptr> answer = answer_without_fetch()) {
      return complete_later(std::move(handler), executor, *answer);
    }
    launch(executor);
    lock.lock();
    // The request completes through a dispatch to its executor, never inside launch(), and
    // on_fetched takes the mutex: it cannot miss the handler parked below.
  }
  ahead_->waiting_slot = slot;
  if (slot.is_connected()) {
    slot.assign([state = ahead_](boost::asio::cancellation_type type) {
      if ((type & boost::asio::cancellation_type::terminal) != boost::asio::cancellation_type::none) {
        state->cancel.emit(boost::asio::cancellation_type::terminal);
      }
    });
  }
  ahead_->waiting_executor = boost::asio::prefer(executor, boost::asio::execution::outstanding_work.tracked);
  ahead_->waiting.emplace(std::move(handler));
}

// Sends the request for rules_.target() into the prefetch decoder; it completes on `executor`.
void cursor_core::launch(const boost::asio::any_io_executor& executor) {
  {
    std::lock_guard lock(ahead_->mutex);
    ahead_->now = stage::in_flight;
    // Untracked: a cursor kept idle must not keep its executor's run() going.
    ahead_->executor = boost::asio::prefer(executor, boost::asio::execution::outstanding_work.untracked);
  }
  std::pair associations(ahead_->cancel.slot(), ahead_->executor);
  http_->initiate_get(rules_.target(), *ahead_->decoder.owner, call_.get(),
                      continuation(associations, [state = ahead_](std::exception_ptr failure, response_info response) {
                        on_fetched(state, failure, std::move(response));
                      }));
}

// The request ahead has completed, on its executor.
void cursor_core::on_fetched(const std::shared_ptr<prefetch_state>& state, std::exception_ptr failure,
                             response_info response) {
  std::unique_lock lock(state->mutex);
  if (state->owner == nullptr) {
    // The cursor is gone, and perhaps its client with its decoder cache: free the decoder.
    state->decoder.owner.reset();
    state->now = stage::idle;
    return;
  }
  if (state->discard) {
    state->discard = false;
    state->decoder.engine->reset();
    state->now = stage::idle;
    if (!state->waiting) return;
    // A next() came after cancel(): ask again for the same page, for it.
    cursor_core& self = *state->owner;
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
  cursor_core& self = *state->owner;
  state->now = stage::idle;
  state->failure = nullptr;
  page_handler handler = std::move(*state->waiting);
  state->waiting.reset();
  boost::asio::any_io_executor executor = std::move(state->waiting_executor);
  if (state->waiting_slot.is_connected()) state->waiting_slot.clear();
  state->waiting_slot = {};
  lock.unlock();
  std::optional<untyped_page> result = self.hand_over(failure, std::move(response), executor);
  boost::asio::dispatch(executor, [handler = std::move(handler), failure, result = std::move(result)]() mutable {
    std::move(handler)(failure, std::move(result));
  });
}

// The page a finished request left in the prefetch decoder, the traversal moved past it and
// the request for the page after it sent (completing on `executor`) when the rules allow.
std::optional<untyped_page> cursor_core::hand_over(std::exception_ptr failure, response_info response,
                                                   const boost::asio::any_io_executor& executor) {
  if (failure) {
    ahead_->decoder.engine->reset();
    return std::nullopt;
  }
  untyped_page next_page = take_page(*ahead_->decoder.engine, std::move(response));
  if (rules_.would_fetch()) launch(executor);
  return next_page;
}

void cursor_core::cancel() {
  if (!ahead_) return;
  std::unique_lock lock(ahead_->mutex);
  if (ahead_->now == stage::ready) {
    ahead_->now = stage::idle;
    ahead_->failure = nullptr;
    ahead_->decoder.engine->reset();
    return;
  }
  if (ahead_->now != stage::in_flight) return;
  ahead_->discard = true;
  lock.unlock();
  cancel_in_flight(ahead_);
}

bool cursor_core::prefetched() const {
  if (!ahead_) return false;
  std::lock_guard lock(ahead_->mutex);
  return ahead_->now == stage::ready;
}

// Cancels the request in flight from its completion executor, as Asio requires of signals.
void cursor_core::cancel_in_flight(const std::shared_ptr<prefetch_state>& state) {
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

}  // namespace massive::detail
