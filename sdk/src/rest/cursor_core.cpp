#include "massive/detail/cursor_core.hpp"

#include "massive/detail/async.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>

#include <cassert>
#include <mutex>
#include <string>
#include <utility>

namespace massive::detail {

namespace {

cursor_event happened(cursor_event::kind what) {
  cursor_event e;
  e.what = what;
  return e;
}

cursor_event fetched(bool failed) {
  cursor_event e = happened(cursor_event::kind::fetched);
  e.failed = failed;
  return e;
}

// What the machine is told of a page taken; it views `page`, which must outlive the resume.
cursor_event taken(const untyped_page& page) {
  const page_envelope& envelope = page.parts.envelope;
  cursor_event e = happened(cursor_event::kind::page_taken);
  e.next_url = envelope.next_url;
  e.rows = page.parts.size + envelope.leniency.dropped_rows;
  e.leniency = envelope.leniency;
  return e;
}

// What a next() answered without a page completes with: the end (null) or a refusal.
std::exception_ptr answer_error(const cursor_action& delivered, const traversal& rules) {
  if (delivered.answer == cursor_answer::refused) return refusal_error(rules, delivered.refusal);
  return nullptr;
}

}  // namespace

// What a prefetch shares with its request, which may outlive the cursor by the time its
// cancellation takes to land: the machine decides what the request's completion does then.
struct cursor_core::prefetch_state {
  prefetch_state(cursor_fsm machine, untyped_decoder into, http_client& client, std::shared_ptr<const call_options> opts)
      : fsm(std::move(machine)), http(&client), call(std::move(opts)), decoder(std::move(into)) {}

  // Serialises the machine's events: the request completes on the executor of the next() that
  // sent it, which may be another thread than the caller's.
  std::mutex mutex;
  cursor_fsm fsm;
  http_client* http;  // sent through only before the machine has seen the cursor go
  std::shared_ptr<const call_options> call;
  untyped_decoder decoder;
  std::exception_ptr failure;  // of the request that completed, until delivered
  response_info response;      // of the request that completed with a page, until taken
  boost::asio::cancellation_signal cancel;
  boost::asio::any_io_executor executor;  // the request's completion runs there
  // A next() waiting for the request in flight, and where it runs (kept busy meanwhile).
  // An optional: Asio 1.26's move assignment of any_completion_handler wraps the source in
  // a new handler instead of moving it, and recurses without end when it is called.
  std::optional<page_handler> waiting;
  boost::asio::any_io_executor waiting_executor;
  boost::asio::cancellation_slot waiting_slot;
};

// The next() being asked, until the machine parks or answers it.
struct cursor_core::asked_next {
  page_handler handler;
  boost::asio::any_io_executor executor;
  boost::asio::cancellation_slot slot;
};

// What a run of the machine leaves for after the lock: sending, cancelling and completing run
// code (the transport's, the caller's) that may come back to the state and take its lock.
struct cursor_core::deferred {
  bool send = false;
  bool cancel = false;
  std::optional<page_handler> handler;  // the next() to complete
  boost::asio::any_io_executor executor;
  bool parked = false;  // it waited: dispatched where it runs; a next() just asked is posted
  std::exception_ptr failure;
  std::optional<untyped_page> page;
  untyped_decoder released;  // for the cache
};

cursor_core::cursor_core(http_client& http, decoder_cache& decoders, payload_shape shape, untyped_decoder decoder,
                         std::string first_target, std::optional<std::size_t> max_pages, bool prefetch,
                         std::shared_ptr<const call_options> call, std::optional<std::size_t> max_empty_pages)
    : http_(&http), decoders_(&decoders), call_(std::move(call)), shape_(shape) {
  cursor_fsm machine(std::move(first_target), max_pages, max_empty_pages, prefetch);
  if (prefetch) {
    ahead_ = std::make_shared<prefetch_state>(std::move(machine), std::move(decoder), http, call_);
  } else {
    fsm_.emplace(std::move(machine));
    decoder_ = std::move(decoder);
  }
}

cursor_core::cursor_core(cursor_core&& other) noexcept
    : http_(other.http_),
      decoders_(other.decoders_),
      call_(std::move(other.call_)),
      shape_(other.shape_),
      decoder_(std::move(other.decoder_)),
      fsm_(std::move(other.fsm_)),
      ahead_(std::move(other.ahead_)) {
  // Capped at no page: a next() on `other` says the end, and asks nothing of a decoder it no
  // longer has.
  other.fsm_.emplace(std::string(), std::size_t{0}, std::nullopt, false);
}

cursor_core::~cursor_core() {
  const cursor_event drop = happened(cursor_event::kind::drop);
  if (ahead_) {
    std::optional<asked_next> none;
    deferred after;
    {
      std::lock_guard lock(ahead_->mutex);
      drive_ahead(ahead_, drop, none, after);
    }
    carry_out(ahead_, after);
    decoders_->give_back(std::move(after.released), shape_);
  } else {
    std::optional<untyped_page> none;
    drive(drop, nullptr, none);
  }
}

const traversal& cursor_core::rules() const noexcept { return ahead_ ? ahead_->fsm.rules() : fsm_->rules(); }

// Without prefetch: runs the machine from `event` until it waits or answers, doing what it asks
// but the sending, which is the caller's (cursor<T> sends with its handler typed). `response`
// comes with a request's completion; `page` gets the page taken.
cursor_action cursor_core::drive(cursor_event event, response_info* response, std::optional<untyped_page>& page) {
  for (;;) {
    const cursor_action action = fsm_->resume(event);
    switch (action.step) {
      case cursor_step::send: event = happened(cursor_event::kind::done); break;
      case cursor_step::take_page:
        page.emplace(untyped_page{decoder_.engine->take(), std::move(*response)});
        event = taken(*page);
        break;
      case cursor_step::discard_body:
        decoder_.engine->reset();
        event = happened(cursor_event::kind::done);
        break;
      case cursor_step::release_decoder:
        decoders_->give_back(std::move(decoder_), shape_);
        return action;
      default: return action;
    }
  }
}

std::optional<std::exception_ptr> cursor_core::answer_without_fetch() {
  std::optional<untyped_page> none;
  const cursor_action action = drive(happened(cursor_event::kind::next), nullptr, none);
  if (action.step != cursor_step::deliver) return std::nullopt;  // sent: fetch() is next
  return answer_error(action, fsm_->rules());
}

std::optional<untyped_page> cursor_core::take_fetched(std::exception_ptr failure, response_info response) {
  std::optional<untyped_page> page;
  drive(fetched(failure != nullptr), &response, page);
  return page;
}

void cursor_core::next_prefetching(page_handler handler, const boost::asio::any_io_executor& executor,
                                   boost::asio::cancellation_slot slot) {
  std::optional<asked_next> asked(asked_next{std::move(handler), executor, slot});
  deferred after;
  {
    std::lock_guard lock(ahead_->mutex);
    drive_ahead(ahead_, happened(cursor_event::kind::next), asked, after);
  }
  carry_out(ahead_, after);
}

void cursor_core::cancel() {
  if (!ahead_) return;  // nothing is ever in flight between two next()s
  std::optional<asked_next> none;
  deferred after;
  {
    std::lock_guard lock(ahead_->mutex);
    drive_ahead(ahead_, happened(cursor_event::kind::cancel), none, after);
  }
  carry_out(ahead_, after);
}

bool cursor_core::prefetched() const {
  if (!ahead_) return false;
  std::lock_guard lock(ahead_->mutex);
  return ahead_->fsm.prefetched();
}

// With prefetch, under the state's lock: runs the machine from `event` until it waits, doing
// under the lock what touches only the state and leaving the rest to `after`. `asked` is the
// next() that brought `event`, if one did.
void cursor_core::drive_ahead(const std::shared_ptr<prefetch_state>& state, cursor_event event,
                              std::optional<asked_next>& asked, deferred& after) {
  prefetch_state& s = *state;
  for (;;) {
    const cursor_action action = s.fsm.resume(event);
    switch (action.step) {
      case cursor_step::wait: return;
      case cursor_step::send:
        // For the next() asked, or the one parked: the request completes where it runs.
        // Untracked: a cursor kept idle must not keep its executor's run() going.
        assert(asked || s.waiting);
        s.executor = boost::asio::prefer(asked ? asked->executor : s.waiting_executor,
                                         boost::asio::execution::outstanding_work.untracked);
        after.send = true;
        event = happened(cursor_event::kind::done);
        break;
      case cursor_step::park:
        s.waiting_slot = asked->slot;
        if (s.waiting_slot.is_connected()) {
          s.waiting_slot.assign([state](boost::asio::cancellation_type type) {
            if ((type & boost::asio::cancellation_type::terminal) == boost::asio::cancellation_type::none) return;
            std::optional<asked_next> none;
            deferred then;
            {
              std::lock_guard lock(state->mutex);
              drive_ahead(state, happened(cursor_event::kind::abandon), none, then);
            }
            carry_out(state, then);
          });
        }
        s.waiting_executor = boost::asio::prefer(asked->executor, boost::asio::execution::outstanding_work.tracked);
        s.waiting.emplace(std::move(asked->handler));
        asked.reset();
        return;
      case cursor_step::take_page:
        after.page.emplace(untyped_page{s.decoder.engine->take(), std::exchange(s.response, {})});
        event = taken(*after.page);
        break;
      case cursor_step::discard_body:
        s.decoder.engine->reset();
        event = happened(cursor_event::kind::done);
        break;
      case cursor_step::deliver:
        if (action.answer == cursor_answer::failure) after.failure = std::exchange(s.failure, nullptr);
        else after.failure = answer_error(action, s.fsm.rules());
        if (asked) {
          after.handler.emplace(std::move(asked->handler));
          after.executor = asked->executor;
          asked.reset();
        } else {
          // The parked next(): the cursor cannot move or go until its handler has run.
          after.handler.emplace(std::move(*s.waiting));
          s.waiting.reset();
          after.executor = std::move(s.waiting_executor);
          after.parked = true;
          if (s.waiting_slot.is_connected()) s.waiting_slot.clear();
          s.waiting_slot = {};
        }
        return;
      case cursor_step::cancel_request: after.cancel = true; return;
      case cursor_step::release_decoder: after.released = std::move(s.decoder); return;
      case cursor_step::free_decoder:
        // The cursor is gone, and perhaps its client with its decoder cache.
        s.decoder.owner.reset();
        return;
    }
  }
}

// What drive_ahead() left, the lock released: the request sent before the page it follows is
// handed over, as before prefetching.
void cursor_core::carry_out(const std::shared_ptr<prefetch_state>& state, deferred& after) {
  if (after.send) {
    std::pair associations(state->cancel.slot(), state->executor);
    state->http->initiate_get(kind_of_target(state->fsm.rules()), state->fsm.rules().target(),
                              *state->decoder.owner, state->call.get(),
                              continuation(associations, [state](std::exception_ptr failure, response_info response) {
                                on_fetched(state, failure, std::move(response));
                              }));
  }
  if (after.cancel) cancel_in_flight(state);
  if (!after.handler) return;
  auto complete = [handler = std::move(*after.handler), failure = after.failure,
                   page = std::move(after.page)]() mutable { std::move(handler)(failure, std::move(page)); };
  // Asio forbids completing from inside the initiating function, so a next() just asked posts.
  if (after.parked) {
    boost::asio::dispatch(after.executor, std::move(complete));
  } else {
    boost::asio::post(after.executor, std::move(complete));
  }
}

// The request ahead has completed, on its executor.
void cursor_core::on_fetched(const std::shared_ptr<prefetch_state>& state, std::exception_ptr failure,
                             response_info response) {
  std::optional<asked_next> none;
  deferred after;
  {
    std::lock_guard lock(state->mutex);
    state->failure = failure;
    if (!failure) state->response = std::move(response);
    drive_ahead(state, fetched(failure != nullptr), none, after);
  }
  carry_out(state, after);
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
    if (!state->fsm.in_flight()) return;
    lock.unlock();
    state->cancel.emit(boost::asio::cancellation_type::terminal);
  });
}

}  // namespace massive::detail
