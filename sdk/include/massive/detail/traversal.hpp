// The rules of a traversal, without I/O: which URL to ask for next, and when to stop. A
// cursor<T> owns one and does only the asking; the rules are compiled once, in massive::core,
// and tested without sockets (tests/rest/traversal_rules_test.cpp), as retry.hpp's are.
#pragma once

#include "massive/page.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
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
    fetch,        ///< request target()
    finished,     ///< the last page was delivered, or max_pages reached: no more pages
    repeated,     ///< the last page's next_url is its own URL: refuse (errc::repeated_cursor)
    cycle,        ///< the next_url returns to a page already fetched: refuse (errc::repeated_cursor)
    empty_pages,  ///< max_empty_pages pages in a row had no rows: refuse (errc::empty_pages)
  };

  /// Starts before `first_target`; stops after `max_pages` pages when given; refuses to go on
  /// after `max_empty_pages` consecutive pages without rows when given.
  explicit traversal(std::string first_target, std::optional<std::size_t> max_pages = {},
                     std::optional<std::size_t> max_empty_pages = {});

  /// The step for the next page. Reaching max_pages while the server offered more ends the
  /// traversal here and sets reached_page_cap(). Asking again after a refusal repeats it.
  step next();
  /// Whether next() would say `fetch`, without ending the traversal at the cap (a prefetch
  /// asks ahead with it).
  bool would_fetch() const noexcept;
  /// The URL of the page to request.
  const std::string& target() const noexcept { return target_; }
  /// The page from target() arrived with `rows` rows in its body (those left out included)
  /// and carried `next_url`: a blank one ends the traversal; any other is the next target.
  /// `leniency` is the page's, added to leniency().
  void advance(std::string_view next_url, std::size_t rows = 0, const page_leniency& leniency = {});

  /// Pages delivered so far.
  std::size_t pages() const noexcept { return pages_; }
  /// True once the last page was delivered or max_pages stopped the traversal.
  bool done() const noexcept { return done_; }
  /// True when max_pages stopped the traversal while the server still offered a next page.
  bool reached_page_cap() const noexcept { return capped_; }
  /// Consecutive pages without rows, up to the last one delivered.
  std::size_t empty_streak() const noexcept { return empty_streak_; }
  /// The sums of the delivered pages' leniency counts.
  const leniency_totals& leniency() const noexcept { return totals_; }

 private:
  bool at_cap() const noexcept { return max_pages_ && pages_ >= *max_pages_; }
  step refusal() const noexcept;

  std::string target_;    // the URL the next page comes from
  std::string previous_;  // the URL the last page came from
  // Cycles, in constant memory. The last `recent_count` URLs fetched are kept as 64-bit
  // hashes (strings would allocate page after page: the warm-traversal gate): a next_url
  // hashing like one of them is refused before it is fetched again (A -> B -> A is refused at
  // the second A; a false match needs a 64-bit collision among 16 URLs). Longer cycles by
  // Brent's method, exactly: one more URL is kept and compared with every later one, and
  // replaced after 1, 2, 4, 8... pages, so that a cycle of any length L entered after M pages
  // is refused within M + 2L pages.
  static constexpr std::size_t recent_count = 16;
  std::array<std::uint64_t, recent_count> recent_{};
  std::size_t recent_kept_ = 0;
  std::size_t recent_next_ = 0;
  std::string saved_;
  std::size_t power_ = 1;
  std::size_t since_saved_ = 0;
  bool cycled_ = false;
  std::optional<std::size_t> max_pages_;
  std::optional<std::size_t> max_empty_pages_;
  std::size_t pages_ = 0;
  std::size_t empty_streak_ = 0;
  bool done_ = false;
  bool capped_ = false;
  leniency_totals totals_;
};

}  // namespace massive::detail
