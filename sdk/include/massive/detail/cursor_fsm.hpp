// The decisions of one traversal, sans-I/O: whether a next() is answered at once, waits for the
// request in flight or sends one; when the request for the page after is sent ahead; what a
// cancel(), a cancelled next() or the cursor's destruction does to a request in flight. The
// driver (cursor_core.cpp) carries out each action and resumes the machine with what came of
// it, as call_driver.cpp does with call_fsm. The machine holds no lock: with prefetch, its
// driver serialises the events that the caller's thread and the request's executor bring.
// Not public, yet on the include path: cursor_core, which cursor<T> holds by value, holds the
// machine by value too, as it does the traversal rules.
#pragma once

#include "massive/page.hpp"
#include "massive/detail/traversal.hpp"

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace massive::detail {

/// What the driver does next.
enum class cursor_step {
  wait,             ///< nothing until the next event
  send,             ///< send the request for rules().target() into the decoder; resume with `done`
  park,             ///< keep the next() just asked until the request in flight completes
  take_page,        ///< take the page out of the decoder; resume with `page_taken`
  discard_body,     ///< reset the decoder, whose body is unwanted or failed; resume with `done`
  deliver,          ///< complete the next() (the parked one when there is one) with `answer`
  cancel_request,   ///< cancel the request in flight: its completion still comes, as `fetched`
  release_decoder,  ///< the cursor is gone, nothing in flight: give the decoder back to its cache
  free_decoder,     ///< the cursor is gone and its request has completed: free the decoder
};

/// What a delivered next() gets.
enum class cursor_answer {
  page,     ///< the page taken
  end,      ///< none: the traversal is over
  failure,  ///< the failure the request completed with
  refused,  ///< the refusal of `refusal`, without a request (refusal_error())
};

struct cursor_action {
  cursor_step step = cursor_step::wait;
  cursor_answer answer = cursor_answer::end;                  ///< with deliver
  traversal::step refusal = traversal::step::finished;        ///< with deliver and answer refused
};

/// What happened: the caller's call, or what came of the last action.
struct cursor_event {
  enum class kind {
    next,        ///< a next() is asked
    done,        ///< send or discard_body is carried out
    fetched,     ///< the request sent has completed: `failed`, or its body is in the decoder
    page_taken,  ///< take_page: the page carried `next_url`, `rows` (those dropped included), `leniency`
    cancel,      ///< cursor::cancel()
    abandon,     ///< the parked next() was cancelled through its cancellation slot
    drop,        ///< the cursor is destroyed
  };

  kind what = kind::next;
  bool failed = false;         ///< fetched
  std::string_view next_url;   ///< page_taken
  std::size_t rows = 0;        ///< page_taken
  page_leniency leniency;      ///< page_taken
};

/// The error a refused next() completes with (answer `refused`).
std::exception_ptr refusal_error(const traversal& rules, traversal::step refusal);

class cursor_fsm {
 public:
  /// A traversal from `first_target` by `rules`' limits; with `prefetch`, each page's
  /// hand-over sends the request for the page after it.
  cursor_fsm(std::string first_target, std::optional<std::size_t> max_pages,
             std::optional<std::size_t> max_empty_pages, bool prefetch);

  /// The next action after `event`.
  cursor_action resume(const cursor_event& event);

  /// The traversal's position: which URL next, pages delivered, done.
  const traversal& rules() const noexcept { return rules_; }
  /// The request sent ahead has completed (page or failure) and no next() has taken it.
  bool prefetched() const noexcept { return state_ == state::ready; }
  /// A request is in flight (cancelling it is still worth something).
  bool in_flight() const noexcept { return state_ == state::in_flight || state_ == state::gone_in_flight; }

 private:
  enum class state {
    idle,             // nothing in flight, nothing ready
    sending,          // send: nothing owed once it is out
    sending_to_park,  // send: the next() that asked for it is parked next
    sending_ahead,    // send: the page just taken is delivered next
    in_flight,
    taking,             // take_page
    discarding,         // discard_body of an unwanted body
    discarding_failed,  // discard_body of a failed request's partial body
    ready,              // prefetch: a completed request waits for a next()
    gone_in_flight,     // the cursor is gone; its request's completion frees the decoder
    gone,
  };

  cursor_action out_of_order();

  traversal rules_;
  state state_ = state::idle;
  bool prefetch_;
  bool parked_ = false;   // a next() waits for the request in flight
  bool discard_ = false;  // cancel() while in flight: what the request brings is dropped
  bool failed_ = false;   // ready: the request failed (the decoder was reset)
};

}  // namespace massive::detail
