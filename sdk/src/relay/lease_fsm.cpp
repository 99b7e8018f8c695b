#include "relay/lease_fsm.hpp"

#include <algorithm>

namespace massive::relay::detail {

lease_fsm::lease_fsm(lease_clock::duration ttl) : ttl_(ttl) {}

lease_action lease_fsm::wait_until(lease_clock::time_point t) const {
  lease_action a;
  a.what = lease_action::step::wait;
  a.until = t;
  return a;
}

lease_action lease_fsm::lose(lease_clock::time_point now) {
  state_ = state::standby;
  next_ = now + ttl_ / 4;
  lease_action a = wait_until(next_);
  a.lost = true;
  return a;
}

lease_action lease_fsm::resume(const lease_event& event) {
  using step = lease_action::step;
  if (state_ == state::stopped) return {.what = step::idle};
  if (std::holds_alternative<lease_happened::stop>(event)) {
    const bool held = state_ == state::holding || state_ == state::updating;
    state_ = state::stopped;
    lease_action a{.what = held ? step::release : step::idle, .revision = revision_};
    a.lost = held;
    return a;
  }
  if (std::holds_alternative<lease_happened::start>(event)) {
    if (state_ != state::idle) return wait_until(next_);
    state_ = state::creating;
    return {.what = step::create};
  }
  if (const auto* e = std::get_if<lease_happened::written>(&event)) {
    if (state_ != state::creating && state_ != state::updating) return wait_until(next_);
    // A renewal answered after the deadline: the relay stopped publishing at the deadline, yet
    // the key is still its own (the compare-and-set found its revision), so it holds the lease
    // again, as a new acquisition with a new epoch.
    const bool acquired = state_ == state::creating || e->now >= deadline_;
    revision_ = e->revision;
    if (acquired) acquired_revision_ = e->revision;
    deadline_ = e->sent + ttl_ - ttl_ / 4;
    next_ = e->sent + ttl_ / 3;
    state_ = state::holding;
    lease_action a = wait_until(std::min(next_, deadline_));
    a.acquired = acquired;
    return a;
  }
  if (const auto* e = std::get_if<lease_happened::refused>(&event)) {
    if (state_ == state::updating) return lose(e->now);
    state_ = state::standby;
    next_ = e->now + ttl_ / 4;
    return wait_until(next_);
  }
  if (const auto* e = std::get_if<lease_happened::failed>(&event)) {
    if (state_ == state::updating) {
      if (e->now >= deadline_) return lose(e->now);
      // Retry at once: the deadline, not the schedule, bounds how long the holder tries.
      return {.what = step::update, .revision = revision_};
    }
    state_ = state::standby;
    next_ = e->now + ttl_ / 4;
    return wait_until(next_);
  }
  const lease_clock::time_point now = std::get<lease_happened::tick>(event).now;
  switch (state_) {
    case state::standby:
      if (now < next_) return wait_until(next_);
      state_ = state::creating;
      return {.what = step::create};
    case state::holding:
      if (now >= deadline_) return lose(now);
      if (now < next_) return wait_until(std::min(next_, deadline_));
      state_ = state::updating;
      return {.what = step::update, .revision = revision_};
    case state::updating:
      // A tick while the update is in flight: only the deadline matters.
      if (now >= deadline_) return lose(now);
      return wait_until(deadline_);
    default:
      return wait_until(next_);
  }
}

}  // namespace massive::relay::detail
