#include "massive/detail/traversal.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <utility>

namespace massive::detail {

traversal::traversal(std::string first_target, std::optional<std::size_t> max_pages,
                     std::optional<std::size_t> max_empty_pages)
    : target_(std::move(first_target)), saved_(target_), max_pages_(max_pages), max_empty_pages_(max_empty_pages) {}

traversal::step traversal::refusal() const noexcept {
  if (pages_ > 0 && target_ == previous_) return step::repeated;
  if (cycled_) return step::cycle;
  if (max_empty_pages_ && empty_streak_ >= *max_empty_pages_) return step::empty_pages;
  return step::fetch;
}

traversal::step traversal::next() {
  if (!done_ && at_cap()) {
    done_ = true;
    capped_ = true;
  }
  if (done_) return step::finished;
  return refusal();
}

bool traversal::would_fetch() const noexcept { return !done_ && !at_cap() && refusal() == step::fetch; }

void traversal::advance(std::string_view next_url, std::size_t rows, const page_leniency& leniency) {
  previous_.swap(target_);
  target_.assign(next_url);
  ++pages_;
  totals_.add(leniency);
  empty_streak_ = rows == 0 ? empty_streak_ + 1 : 0;
  done_ = target_.empty();
  recent_[recent_next_] = std::hash<std::string_view>{}(previous_);
  recent_next_ = (recent_next_ + 1) % recent_count;
  recent_kept_ = std::min(recent_kept_ + 1, recent_count);
  if (done_) return;
  const std::uint64_t next = std::hash<std::string_view>{}(target_);
  for (std::size_t i = 0; i < recent_kept_; ++i) cycled_ = cycled_ || recent_[i] == next;
  if (target_ == saved_) {
    cycled_ = true;
  } else if (++since_saved_ == power_) {
    saved_ = target_;
    power_ *= 2;
    since_saved_ = 0;
  }
}

}  // namespace massive::detail
