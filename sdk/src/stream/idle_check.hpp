// The idle rule of a stream connection, sans-I/O: the client's watch() (client.cpp) waits, pings
// and closes; this says when. Progress is a whole message or a pong. Bytes alone are not: a
// frame trickled a byte a second, or a message of empty continuation frames without end, would
// otherwise hold the connection for ever. Without progress for half of idle_timeout the
// connection is pinged; for the whole of it, it is stalled. watch() asks on a coarse tick
// (tick(): idle_timeout / 16) rather than re-arming a timer on every read (issue 35), so a
// stall is seen at most two ticks late: within 1.125 x idle_timeout of the last progress.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

namespace massive::stream::detail {

class idle_check {
 public:
  using clock = std::chrono::steady_clock;
  /// What watch() does at a tick.
  enum class verdict { wait, ping, stalled };

  /// A connection opened at `now`, with `progress` messages and pongs counted so far.
  idle_check(std::chrono::milliseconds idle_timeout, clock::time_point now, std::uint64_t progress)
      : idle_(idle_timeout), since_(now), progress_(progress) {}

  /// How long watch() waits between two ticks.
  clock::duration tick() const { return std::max<clock::duration>(idle_ / 16, std::chrono::milliseconds(1)); }

  /// At a tick at `now`, with `progress` messages and pongs counted so far: a ping once, half
  /// idle_timeout after the last progress seen, and stalled the whole of it after.
  verdict at(clock::time_point now, std::uint64_t progress) {
    if (progress != progress_) {
      progress_ = progress;
      since_ = now;
      pinged_ = false;
      return verdict::wait;
    }
    if (now - since_ >= idle_) return verdict::stalled;
    if (!pinged_ && now - since_ >= idle_ / 2) {
      pinged_ = true;
      return verdict::ping;
    }
    return verdict::wait;
  }

  /// Why a stalled connection is lost: a message begun that never completed (`mid_message`),
  /// or no message at all.
  std::string stalled(bool mid_message) const {
    const std::string within = std::to_string(idle_.count()) + " ms (idle_timeout)";
    return mid_message ? "stalled: no complete message in " + within + ", one begun still incomplete"
                       : "stalled: no message or pong in " + within;
  }

 private:
  std::chrono::milliseconds idle_;
  clock::time_point since_;  // the tick that saw the last progress
  std::uint64_t progress_;
  bool pinged_ = false;
};

}  // namespace massive::stream::detail
