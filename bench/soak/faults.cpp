#include "faults.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace massive::soak {

std::string_view name(fault f) noexcept {
  switch (f) {
    case fault::none: return "none";
    case fault::reset: return "reset";
    case fault::truncation: return "truncation";
    case fault::stall: return "stall";
    case fault::rate_limited: return "429 Retry-After";
    case fault::server_error: return "5xx";
    case fault::slow_body: return "slow body";
    case fault::count_: break;
  }
  return "?";
}

fault_plan::fault_plan(double rate, std::uint64_t seed) : rate_(rate), random_(seed) {}

fault fault_plan::draw() {
  if (std::uniform_real_distribution<double>(0.0, 1.0)(random_) >= rate_) return fault::none;
  // Weights in fifths: stall 1, every other kind 5.
  constexpr std::array<std::pair<fault, int>, 6> weights{{{fault::reset, 5},
                                                          {fault::truncation, 5},
                                                          {fault::stall, 1},
                                                          {fault::rate_limited, 5},
                                                          {fault::server_error, 5},
                                                          {fault::slow_body, 5}}};
  int pick = std::uniform_int_distribution<int>(0, 25)(random_);
  for (const auto& [kind, weight] : weights) {
    if (pick < weight) return kind;
    pick -= weight;
  }
  return fault::slow_body;
}

mock::reply fault_plan::apply(mock::reply r) {
  std::lock_guard lock(mutex_);
  const fault f = draw();
  ++counts_[static_cast<std::size_t>(f)];
  // Somewhere inside the body, never at its very end (that would be no fault at all).
  const auto inside = [&] {
    return std::uniform_int_distribution<std::size_t>(0, std::max<std::size_t>(r.body.size(), 2) - 2)(random_);
  };
  switch (f) {
    case fault::none:
    case fault::count_: break;
    case fault::reset: r.reset_after = inside(); break;
    case fault::truncation: r.truncate_after = inside(); break;
    case fault::stall: r.stall_after = inside(); break;
    case fault::rate_limited:
      r.status = 429;
      r.headers.emplace_back("Retry-After", std::to_string(std::uniform_int_distribution<int>(0, 1)(random_)));
      r.body = R"({"status":"ERROR","request_id":"soak","error":"You've exceeded the maximum requests per minute."})";
      break;
    case fault::server_error:
      r.status = std::array{500, 502, 503, 504}[std::uniform_int_distribution<std::size_t>(0, 3)(random_)];
      r.body = R"({"status":"ERROR","request_id":"soak","error":"internal error"})";
      break;
    case fault::slow_body:
      r.write_size = 512;
      r.write_delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(1, 3)(random_));
      break;
  }
  return r;
}

std::array<std::size_t, fault_kinds> fault_plan::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

}  // namespace massive::soak
