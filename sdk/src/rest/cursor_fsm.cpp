#include "massive/detail/cursor_fsm.hpp"

#include "massive/error.hpp"

#include <cassert>
#include <utility>

namespace massive::detail {

namespace {

cursor_action answer_with(cursor_answer answer, traversal::step refusal = traversal::step::finished) noexcept {
  return cursor_action{cursor_step::deliver, answer, refusal};
}

}  // namespace

std::exception_ptr refusal_error(const traversal& rules, traversal::step refusal) {
  switch (refusal) {
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

cursor_fsm::cursor_fsm(std::string first_target, std::optional<std::size_t> max_pages,
                       std::optional<std::size_t> max_empty_pages, bool prefetch)
    : rules_(std::move(first_target), max_pages, max_empty_pages), prefetch_(prefetch) {}

cursor_action cursor_fsm::resume(const cursor_event& event) {
  using kind = cursor_event::kind;
  switch (state_) {
    case state::idle:
      switch (event.what) {
        case kind::next: {
          const traversal::step step = rules_.next();
          if (step == traversal::step::finished) return answer_with(cursor_answer::end);
          if (step != traversal::step::fetch) return answer_with(cursor_answer::refused, step);
          // Without prefetch the next()'s completion rides with the request: nothing to park.
          state_ = prefetch_ ? state::sending_to_park : state::sending;
          return cursor_action{cursor_step::send};
        }
        case kind::cancel:
        case kind::abandon: return cursor_action{cursor_step::wait};
        case kind::drop: state_ = state::gone; return cursor_action{cursor_step::release_decoder};
        default: break;
      }
      break;
    case state::sending:
    case state::sending_to_park:
    case state::sending_ahead: {
      if (event.what != kind::done) break;
      const state sent = std::exchange(state_, state::in_flight);
      if (sent == state::sending_to_park) {
        parked_ = true;
        return cursor_action{cursor_step::park};
      }
      if (sent == state::sending_ahead) return answer_with(cursor_answer::page);
      return cursor_action{cursor_step::wait};
    }
    case state::in_flight:
      switch (event.what) {
        case kind::fetched:
          if (std::exchange(discard_, false)) {
            state_ = state::discarding;
            return cursor_action{cursor_step::discard_body};
          }
          if (event.failed) {
            state_ = state::discarding_failed;
            return cursor_action{cursor_step::discard_body};
          }
          if (parked_ || !prefetch_) {
            state_ = state::taking;
            return cursor_action{cursor_step::take_page};
          }
          // Taken only when a next() asks: the page ahead stays in the decoder, so that the
          // traversal holds two pages at most, never sending for a third.
          state_ = state::ready;
          failed_ = false;
          return cursor_action{cursor_step::wait};
        case kind::next:
          if (!prefetch_ || parked_) break;
          parked_ = true;
          return cursor_action{cursor_step::park};
        case kind::cancel:
          if (!prefetch_) return cursor_action{cursor_step::wait};
          discard_ = true;
          return cursor_action{cursor_step::cancel_request};
        case kind::abandon:
          if (!parked_) return cursor_action{cursor_step::wait};
          // After a cancel(), the request was to be sent again for this next(): its own
          // cancellation must end it instead, with whatever the request brings.
          discard_ = false;
          return cursor_action{cursor_step::cancel_request};
        case kind::drop:
          if (!prefetch_) {
            state_ = state::gone;
            return cursor_action{cursor_step::release_decoder};
          }
          // The client, and the decoder cache with it, may be gone by the time the request
          // completes: the decoder is freed then, not given back.
          state_ = state::gone_in_flight;
          return cursor_action{cursor_step::cancel_request};
        default: break;
      }
      break;
    case state::taking:
      if (event.what != kind::page_taken) break;
      rules_.advance(event.next_url, event.rows, event.leniency);
      parked_ = false;
      if (prefetch_ && rules_.would_fetch()) {
        state_ = state::sending_ahead;
        return cursor_action{cursor_step::send};
      }
      state_ = state::idle;
      return answer_with(cursor_answer::page);
    case state::discarding:
      if (event.what != kind::done) break;
      if (parked_) {
        // A next() came after cancel(): the same page again, for it. Its target was checked
        // when the request now dropped was sent.
        state_ = state::sending;
        return cursor_action{cursor_step::send};
      }
      state_ = state::idle;
      return cursor_action{cursor_step::wait};
    case state::discarding_failed:
      if (event.what != kind::done) break;
      if (parked_ || !prefetch_) {
        // The traversal does not move: asking again asks for the same page.
        parked_ = false;
        state_ = state::idle;
        return answer_with(cursor_answer::failure);
      }
      state_ = state::ready;
      failed_ = true;
      return cursor_action{cursor_step::wait};
    case state::ready:
      switch (event.what) {
        case kind::next:
          if (failed_) {
            state_ = state::idle;
            return answer_with(cursor_answer::failure);
          }
          state_ = state::taking;
          return cursor_action{cursor_step::take_page};
        case kind::cancel:
          state_ = state::discarding;
          return cursor_action{cursor_step::discard_body};
        case kind::abandon: return cursor_action{cursor_step::wait};
        case kind::drop: state_ = state::gone; return cursor_action{cursor_step::release_decoder};
        default: break;
      }
      break;
    case state::gone_in_flight:
      if (event.what == kind::abandon) return cursor_action{cursor_step::wait};
      if (event.what != kind::fetched) break;
      state_ = state::gone;
      return cursor_action{cursor_step::free_decoder};
    case state::gone: break;
  }
  return out_of_order();
}

// Only a driver bug gets here: an event its last action cannot have produced, or a call the
// cursor's rules forbid (a second next() while one is pending).
cursor_action cursor_fsm::out_of_order() {
  assert(false && "cursor_fsm: event out of order");
  return cursor_action{cursor_step::wait};
}

}  // namespace massive::detail
