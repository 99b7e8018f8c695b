#include "call_fsm.hpp"

#include <cassert>

namespace massive::transport {

namespace {

call_action next(call_step step) noexcept {
  call_action a;
  a.step = step;
  return a;
}

call_action finish(call_result result, attempt_trace trace) noexcept {
  call_action a;
  a.step = call_step::done;
  a.result = result;
  a.trace = trace;
  return a;
}

// The end of an attempt that is tried again after `delay`.
call_action retry(call_step step, attempt_trace trace, std::chrono::milliseconds delay) noexcept {
  call_action a;
  a.step = step;
  a.trace = trace;
  a.retry_in = delay;
  if (step == call_step::sleep_before_retry) a.delay = delay;
  return a;
}

}  // namespace

call_action call_fsm::resume(const call_event& event, clock_type::time_point now) noexcept {
  using kind = call_event::kind;
  if (event.what == kind::failed) {
    // A failed wait before a retry ends no attempt: that attempt was traced already.
    const attempt_trace trace =
        state_ == state::sleeping ? attempt_trace::none : attempt_trace::failure;
    state_ = state::finished;
    return finish(call_result::failed, trace);
  }
  switch (state_) {
    case state::idle:
      if (event.what != kind::start) break;
      state_ = state::rate_limit;
      return next(call_step::wait_rate_limit);
    case state::rate_limit:
      if (event.what != kind::rate_limit_granted) break;
      state_ = state::taking;
      return next(call_step::take_connection);
    case state::taking:
      if (event.what != kind::connection_taken) break;
      reused_ = event.reused;
      state_ = reused_ ? state::exchanging : state::connecting;
      return next(reused_ ? call_step::exchange : call_step::connect);
    case state::connecting:
      if (event.what != kind::connected) break;
      reused_ = false;
      state_ = state::exchanging;
      return next(call_step::exchange);
    case state::exchanging:
      if (event.what != kind::exchanged) break;
      return after_exchange(event, now);
    case state::sleeping:
      if (event.what != kind::slept) break;
      if (now >= deadline_) {
        state_ = state::finished;
        return finish(call_result::deadline_exceeded, attempt_trace::none);
      }
      state_ = state::rate_limit;
      return next(call_step::wait_rate_limit);
    case state::finished:
      break;
  }
  // Only a driver bug gets here: an event its last action cannot have produced.
  assert(false && "call_fsm: event out of order");
  state_ = state::finished;
  return finish(call_result::failed, attempt_trace::none);
}

call_action call_fsm::after_exchange(const call_event& event, clock_type::time_point now) noexcept {
  using response = call_event::response;
  switch (event.outcome) {
    case response::success:
      state_ = state::finished;
      return finish(call_result::ok, attempt_trace::success);
    case response::stale:
      if (retry_on_fresh_connection(reused_, false, stale_retried_)) {
        // Under the same pool permit: the retry does not queue behind other calls.
        stale_retried_ = true;
        state_ = state::connecting;
        return retry(call_step::connect, attempt_trace::stale, std::chrono::milliseconds(0));
      }
      {
        // Nothing of an answer arrived: the policy retries it as it would a 503.
        ++policy_attempts_;
        const auto decision = decide_reset_retry(policy_, policy_attempts_, event.jitter);
        if (decision.retry() && now + decision.delay < deadline_) {
          state_ = state::sleeping;
          return retry(call_step::sleep_before_retry, attempt_trace::stale, decision.delay);
        }
      }
      state_ = state::finished;
      return finish(call_result::stale_connection, attempt_trace::stale);
    case response::api_failure:
      break;
  }
  ++policy_attempts_;
  const auto decision =
      decide_retry(policy_, event.status, policy_attempts_, event.retry_after, event.jitter);
  if (decision.retry() && now + decision.delay < deadline_) {
    state_ = state::sleeping;
    return retry(call_step::sleep_before_retry, attempt_trace::api_failure, decision.delay);
  }
  state_ = state::finished;
  call_action a = finish(call_result::api_error, attempt_trace::api_failure);
  a.decision = decision.what;
  return a;
}

}  // namespace massive::transport
