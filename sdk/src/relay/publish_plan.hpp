// What the relay publishes, sans-I/O (docs/maintainers/relay.md, "Encoding", "Subjects"):
// - runs: an upstream frame's events cut into runs of consecutive events with one subject
//   (market, ev, ticker), one JetStream message each, whose payload is the JSON array of the
//   events' bytes as the upstream sent them;
// - publish_fsm: whether a batch is published, under which epoch, with which control message
//   before it, and when the upstream is opened or closed, from the lease's changes and the
//   upstream's batches and failures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace massive::relay::detail {

/// One upstream event as the relay forwards it.
struct event_ref {
  std::string_view ev;      ///< its `ev` ("T")
  std::string_view ticker;  ///< its ticker or pair ("AAPL", "EUR/USD")
  std::string_view text;    ///< its JSON, as the upstream sent it
};

/// Events [first, first + count) of a batch share one subject.
struct message_run {
  std::size_t first = 0;
  std::size_t count = 0;
};

/// Cuts `events` into runs (appended to `out`, which is cleared first).
void plan_runs(std::span<const event_ref> events, std::vector<message_run>& out);
/// Writes the payload of a run into `out` (replacing its content): "[" text "," text ... "]".
void write_payload(std::string& out, std::span<const event_ref> run);
/// A control message's payload: {"relay":..,"epoch":..,"detail":..}, JSON-escaped.
std::string control_payload(std::string_view relay_id, std::string_view epoch,
                            std::string_view detail);

namespace publish_happened {
/// The lease was acquired, its first revision `revision`.
struct acquired {
  std::uint64_t revision;
};
/// The lease was lost (or released).
struct lost {};
/// The upstream delivered a batch; `gap`: events may be missing before it (a reconnect);
/// `may_publish`: the lease's deadline has not passed.
struct batch {
  bool gap;
  bool may_publish;
};
/// JetStream refused or did not acknowledge a message: events are missing from the stream.
struct publish_failed {};
/// The upstream ended for good (auth refused, max_connections): `detail` holds no secret.
struct upstream_failed {
  std::string_view detail;
};
}  // namespace publish_happened

using publish_event =
    std::variant<publish_happened::acquired, publish_happened::lost, publish_happened::batch,
                 publish_happened::publish_failed, publish_happened::upstream_failed>;

/// A control message to publish before anything else the action says.
struct control_message {
  std::string kind;    ///< takeover, gap, error
  std::string detail;  ///< for people; no secret
};

struct publish_action {
  bool open_upstream = false;              ///< connect the upstream and subscribe the held topics
  bool close_upstream = false;             ///< close the upstream now
  bool publish = false;                    ///< publish the batch under epoch()
  bool release = false;                    ///< give the lease up (the upstream failed for good)
  std::optional<control_message> control;  ///< published first, under epoch()
};

class publish_fsm {
 public:
  publish_fsm() = default;

  /// The next action after `event`.
  publish_action resume(const publish_event& event);

  /// "<lease revision>.<upstream connection>": changes at every takeover and every upstream
  /// reconnect; consumers mark a gap where it changes.
  const std::string& epoch() const noexcept { return epoch_; }
  /// Upstream open under the lease.
  bool active() const noexcept { return active_; }

 private:
  void set_epoch();

  bool active_ = false;
  std::uint64_t revision_ = 0;
  std::uint64_t connection_ = 0;
  std::string epoch_;
};

}  // namespace massive::relay::detail
