#include "relay/publish_plan.hpp"

#include "massive/json_writer.hpp"

namespace massive::relay::detail {

void plan_runs(std::span<const event_ref> events, std::vector<message_run>& out) {
  out.clear();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (!out.empty()) {
      const event_ref& head = events[out.back().first];
      if (head.ev == events[i].ev && head.ticker == events[i].ticker) {
        ++out.back().count;
        continue;
      }
    }
    out.push_back({i, 1});
  }
}

void write_payload(std::string& out, std::span<const event_ref> run) {
  out.clear();
  out += '[';
  for (std::size_t i = 0; i < run.size(); ++i) {
    if (i != 0) out += ',';
    out += run[i].text;
  }
  out += ']';
}

std::string control_payload(std::string_view relay_id, std::string_view epoch,
                            std::string_view detail) {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("relay");
  w.value(relay_id);
  w.key("epoch");
  w.value(epoch);
  w.key("detail");
  w.value(detail);
  w.end_object();
  return out;
}

void publish_fsm::set_epoch() {
  epoch_ = std::to_string(revision_) + "." + std::to_string(connection_);
}

publish_action publish_fsm::resume(const publish_event& event) {
  publish_action a;
  if (const auto* e = std::get_if<publish_happened::acquired>(&event)) {
    active_ = true;
    revision_ = e->revision;
    connection_ = 0;
    set_epoch();
    a.open_upstream = true;
    a.control =
        control_message{"takeover", "a relay acquired the lease: events before may be missing"};
    return a;
  }
  if (std::holds_alternative<publish_happened::lost>(event)) {
    a.close_upstream = active_;
    active_ = false;
    return a;
  }
  if (const auto* e = std::get_if<publish_happened::batch>(&event)) {
    if (!active_) return a;  // a batch read before the close took effect: dropped
    if (!e->may_publish) {
      // The lease's deadline passed before a renewal came back: nothing more is published and
      // the upstream closes before another relay can acquire the lease.
      active_ = false;
      a.close_upstream = true;
      return a;
    }
    if (e->gap) {
      ++connection_;
      set_epoch();
      a.control = control_message{"gap", "the upstream reconnected: events before may be missing"};
    }
    a.publish = true;
    return a;
  }
  if (std::holds_alternative<publish_happened::publish_failed>(event)) {
    // Consumers cannot see the missing messages, only the epoch that follows them.
    if (!active_) return a;
    ++connection_;
    set_epoch();
    a.control = control_message{
        "gap", "JetStream did not take every message: events before may be missing"};
    return a;
  }
  const auto& failed = std::get<publish_happened::upstream_failed>(event);
  if (!active_) return a;
  active_ = false;
  a.control = control_message{"error", std::string(failed.detail)};
  a.close_upstream = true;
  a.release = true;
  return a;
}

}  // namespace massive::relay::detail
