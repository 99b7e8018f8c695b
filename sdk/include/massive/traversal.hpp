// The rules of a traversal, without I/O: which URL to ask for next, and when to stop. A
// cursor<T> owns one and does only the asking; the rules are compiled once, in massive::core,
// and tested without sockets (tests/client/traversal_rules_test.cpp), as retry.hpp's are.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace massive::detail {

/// One traversal's position. The first URL and every next_url are kept verbatim (a next_url of
/// another origin is the transport's to refuse, before anything is sent: errc::foreign_next_url).
class traversal {
 public:
  /// What to do when the caller asks for the next page.
  enum class step {
    fetch,     ///< request target()
    finished,  ///< the last page was delivered, or max_pages reached: no more pages
    repeated,  ///< the last page's next_url is its own URL: refuse (errc::repeated_cursor)
  };

  /// Starts before `first_target`; stops after `max_pages` pages when given.
  explicit traversal(std::string first_target, std::optional<std::size_t> max_pages = {});

  /// The step for the next page. Reaching max_pages while the server offered more ends the
  /// traversal here and sets reached_page_cap(). Asking again after `repeated` repeats it.
  step next();
  /// Whether next() would say `fetch`, without ending the traversal at the cap (a prefetch
  /// asks ahead with it).
  bool would_fetch() const noexcept;
  /// The URL of the page to request.
  const std::string& target() const noexcept { return target_; }
  /// The page from target() arrived and carried `next_url`: a blank one ends the traversal;
  /// any other is the next target, even after a page without rows.
  void advance(std::string_view next_url);

  /// Pages delivered so far.
  std::size_t pages() const noexcept { return pages_; }
  /// True once the last page was delivered or max_pages stopped the traversal.
  bool done() const noexcept { return done_; }
  /// True when max_pages stopped the traversal while the server still offered a next page.
  bool reached_page_cap() const noexcept { return capped_; }

 private:
  bool at_cap() const noexcept { return max_pages_ && pages_ >= *max_pages_; }

  std::string target_;    // the URL the next page comes from
  std::string previous_;  // the URL the last page came from
  std::optional<std::size_t> max_pages_;
  std::size_t pages_ = 0;
  bool done_ = false;
  bool capped_ = false;
};

}  // namespace massive::detail
