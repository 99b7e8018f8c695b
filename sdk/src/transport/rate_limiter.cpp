#include "massive/rate_limiter.hpp"

#include <algorithm>

namespace massive {

token_bucket::token_bucket(double tokens_per_second, double capacity,
                           clock::time_point now) noexcept
    : rate_(tokens_per_second), capacity_(capacity), tokens_(capacity), last_(now) {}

void token_bucket::refill(clock::time_point now) noexcept {
  if (now <= last_) return;
  const std::chrono::duration<double> elapsed = now - last_;
  tokens_ = std::min(capacity_, tokens_ + elapsed.count() * rate_);
  last_ = now;
}

bool token_bucket::try_acquire(clock::time_point now) noexcept {
  refill(now);
  if (tokens_ < 1.0) return false;
  tokens_ -= 1.0;
  return true;
}

token_bucket::clock::duration token_bucket::reserve(clock::time_point now) noexcept {
  refill(now);
  tokens_ -= 1.0;
  if (tokens_ >= 0.0) return clock::duration::zero();
  const std::chrono::duration<double> wait{-tokens_ / rate_};
  return std::chrono::ceil<clock::duration>(wait);
}

void token_bucket::cancel_reservation(clock::time_point now) noexcept {
  refill(now);
  tokens_ = std::min(capacity_, tokens_ + 1.0);
}

double token_bucket::available(clock::time_point now) noexcept {
  refill(now);
  return tokens_;
}

}  // namespace massive
