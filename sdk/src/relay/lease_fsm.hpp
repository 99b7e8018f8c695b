// The relay's lease, sans-I/O (docs/maintainers/relay.md, "The lease"): one key of a JetStream
// key-value bucket whose entries live `ttl`. A standby tries to create the key; the holder
// renews it by compare-and-set on the revision of its last write; the holder may publish and
// keep the upstream only until its own deadline (last write sent + ttl - margin, on its steady
// clock), and stops at once when a renewal finds another's revision. The driver performs the
// step the machine answers, one request at a time, and reports what came of it.
#pragma once

#include <chrono>
#include <cstdint>
#include <variant>

namespace massive::relay::detail {

using lease_clock = std::chrono::steady_clock;

namespace lease_happened {
/// The relay starts competing for the lease.
struct start {
  lease_clock::time_point now;
};
/// The create or compare-and-set update sent at `sent` succeeded with `revision`.
struct written {
  std::uint64_t revision;
  lease_clock::time_point sent;
  lease_clock::time_point now;
};
/// The create found the key held, or the update found another revision: another relay holds it.
struct refused {
  lease_clock::time_point now;
};
/// The request failed without an answer (NATS down, timeout): the holder retries while its
/// deadline allows.
struct failed {
  lease_clock::time_point now;
};
/// The wait the last action asked for is over.
struct tick {
  lease_clock::time_point now;
};
/// The relay stops: a holder releases the key.
struct stop {};
}  // namespace lease_happened

using lease_event =
    std::variant<lease_happened::start, lease_happened::written, lease_happened::refused,
                 lease_happened::failed, lease_happened::tick, lease_happened::stop>;

/// What the driver does next.
struct lease_action {
  enum class step {
    wait,     ///< nothing in flight: tick at `until`
    create,   ///< create the key (fails when held); report written, refused or failed
    update,   ///< update the key if its revision is still `revision`; report written, refused or
              ///< failed
    release,  ///< delete the key (a holder stopping); then nothing more
    idle,     ///< stopped: nothing more
  };
  step what = step::wait;
  std::uint64_t revision = 0;       ///< update: the revision expected
  lease_clock::time_point until{};  ///< wait: when to tick
  bool acquired = false;  ///< the lease was just acquired: open the upstream, a new epoch begins
  bool lost = false;  ///< the lease was just lost or released: stop publishing, close the upstream
};

class lease_fsm {
 public:
  enum class state { idle, standby, creating, holding, updating, stopped };

  /// `ttl`: the bucket's entry lifetime; the holder renews every ttl / 3 and keeps a margin of
  /// ttl / 4 before the server's expiry; a standby retries every ttl / 4.
  explicit lease_fsm(lease_clock::duration ttl);

  /// The next action after `event`.
  lease_action resume(const lease_event& event);

  /// The lease is held and its deadline not passed: the relay may publish.
  bool may_publish(lease_clock::time_point now) const noexcept {
    return (state_ == state::holding || state_ == state::updating) && now < deadline_;
  }
  /// When the holder's right to publish ends (meaningful while holding).
  lease_clock::time_point deadline() const noexcept { return deadline_; }
  /// The revision of the holder's last write: the epoch's first half.
  std::uint64_t revision() const noexcept { return revision_; }
  /// The first revision of the current holding (changes only at an acquisition).
  std::uint64_t acquired_revision() const noexcept { return acquired_revision_; }
  state current() const noexcept { return state_; }

 private:
  lease_action lose(lease_clock::time_point now);
  lease_action wait_until(lease_clock::time_point t) const;

  lease_clock::duration ttl_;
  state state_ = state::idle;
  std::uint64_t revision_ = 0;
  std::uint64_t acquired_revision_ = 0;
  lease_clock::time_point deadline_{};
  lease_clock::time_point next_{};  // standby: next create; holding: next update
};

}  // namespace massive::relay::detail
