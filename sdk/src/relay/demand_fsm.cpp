#include "relay/demand_fsm.hpp"

#include <algorithm>

namespace massive::relay::detail {

namespace {

/// "T" for "T.AAPL"; the whole text when it has no dot.
std::string prefix_of(const std::string& topic) { return topic.substr(0, topic.find('.')); }
bool is_star(const std::string& topic) { return topic.size() > 2 && topic.ends_with(".*"); }

}  // namespace

demand_fsm::demand_fsm(std::vector<std::string> pinned, demand_clock::duration linger)
    : pinned_(std::move(pinned)), linger_(linger) {}

std::size_t demand_fsm::wanted(const std::string& topic) const {
  const auto at = wanted_.find(topic);
  return at == wanted_.end() ? 0 : at->second;
}

demand_action demand_fsm::resume(const demand_event& event) {
  if (const auto* s = std::get_if<demand_snapshot>(&event)) {
    std::map<std::string, std::size_t> now_wanted;
    const auto count = [&](const std::vector<std::string>& topics) {
      // A consumer naming a topic twice counts once.
      std::set<std::string> distinct(topics.begin(), topics.end());
      for (const std::string& t : distinct) {
        if (!t.empty()) ++now_wanted[t];
      }
    };
    count(pinned_);
    for (const std::vector<std::string>& topics : s->consumers) count(topics);
    for (const auto& [topic, n] : wanted_) {
      if (!now_wanted.contains(topic)) lingering_.emplace(topic, s->now + linger_);
    }
    for (const auto& [topic, n] : now_wanted) lingering_.erase(topic);
    wanted_ = std::move(now_wanted);
    return reconcile(s->now);
  }
  return reconcile(std::get<demand_tick>(event).now);
}

demand_action demand_fsm::reconcile(demand_clock::time_point now) {
  std::erase_if(lingering_, [&](const auto& entry) { return entry.second <= now; });
  std::set<std::string> held;
  for (const auto& [topic, n] : wanted_) held.insert(topic);
  for (const auto& [topic, until] : lingering_) held.insert(topic);
  // X.* covers X.<ticker>: holding both would have the server send those events twice.
  std::set<std::string> desired;
  for (const std::string& topic : held) {
    if (is_star(topic) || !held.contains(prefix_of(topic) + ".*")) desired.insert(topic);
  }
  demand_action a;
  std::set_difference(desired.begin(), desired.end(), upstream_.begin(), upstream_.end(),
                      std::back_inserter(a.subscribe));
  std::set_difference(upstream_.begin(), upstream_.end(), desired.begin(), desired.end(),
                      std::back_inserter(a.unsubscribe));
  upstream_ = std::move(desired);
  for (const auto& [topic, until] : lingering_) {
    if (!a.wake_at || until < *a.wake_at) a.wake_at = until;
  }
  return a;
}

}  // namespace massive::relay::detail
