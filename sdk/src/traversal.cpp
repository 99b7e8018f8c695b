#include "massive/traversal.hpp"

#include <utility>

namespace massive::detail {

traversal::traversal(std::string first_target, std::optional<std::size_t> max_pages)
    : target_(std::move(first_target)), max_pages_(max_pages) {}

traversal::step traversal::next() {
  if (!done_ && at_cap()) {
    done_ = true;
    capped_ = true;
  }
  if (done_) return step::finished;
  if (pages_ > 0 && target_ == previous_) return step::repeated;
  return step::fetch;
}

bool traversal::would_fetch() const noexcept {
  return !done_ && !at_cap() && !(pages_ > 0 && target_ == previous_);
}

void traversal::advance(std::string_view next_url) {
  previous_.swap(target_);
  target_.assign(next_url);
  ++pages_;
  done_ = target_.empty();
}

}  // namespace massive::detail
