// Which topics the relay holds upstream, sans-I/O: the union of what consumers want (read from
// the demand bucket, one entry per consumer) and the relay's own topics, counted per topic; a
// topic nobody wants any more lingers before it is unsubscribed; X.* covers X.<ticker>.
// The driver reads the bucket, feeds each snapshot (and a tick when a linger ends) and sends
// the subscribe and unsubscribe the machine answers (docs/maintainers/relay.md, "Demand").
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace massive::relay::detail {

using demand_clock = std::chrono::steady_clock;

/// Every consumer's topics as the demand bucket holds them now (a consumer's entry that expired
/// is absent), read at `now`.
struct demand_snapshot {
  std::span<const std::vector<std::string>>
      consumers;  ///< each consumer's topics ("T.AAPL", "Q.*")
  demand_clock::time_point now;
};
/// The time the last action asked to be woken at has come.
struct demand_tick {
  demand_clock::time_point now;
};
using demand_event = std::variant<demand_snapshot, demand_tick>;

/// What to change upstream, and when to tick next.
struct demand_action {
  std::vector<std::string> subscribe;               ///< topics to subscribe, in order
  std::vector<std::string> unsubscribe;             ///< topics to unsubscribe, in order
  std::optional<demand_clock::time_point> wake_at;  ///< the end of the first linger, if any
};

class demand_fsm {
 public:
  /// `pinned`: topics held whatever consumers want (the relay's own); `linger`: how long a
  /// topic nobody wants stays subscribed.
  demand_fsm(std::vector<std::string> pinned, demand_clock::duration linger);

  /// The next changes after `event`.
  demand_action resume(const demand_event& event);

  /// Consumers (and the relay itself, once) wanting `topic` in the last snapshot.
  std::size_t wanted(const std::string& topic) const;
  /// The topics subscribed upstream after the last action, sorted.
  const std::set<std::string>& upstream() const noexcept { return upstream_; }

 private:
  demand_action reconcile(demand_clock::time_point now);

  std::vector<std::string> pinned_;
  demand_clock::duration linger_;
  std::map<std::string, std::size_t> wanted_;
  std::map<std::string, demand_clock::time_point> lingering_;  // topic -> when it goes
  std::set<std::string> upstream_;
};

}  // namespace massive::relay::detail
