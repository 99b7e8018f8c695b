// The traversal rules without a socket: what cursor<T> asks for next, and when it stops.
#include <massive/detail/traversal.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

using massive::detail::traversal;
using step = traversal::step;

namespace {

// "/<prefix><n>", built by appending: g++ 12 warns (-Wrestrict, a false positive) on
// "literal" + std::to_string(n) here.
std::string url(std::string_view prefix, std::size_t n) {
  std::string out = "/";
  out += prefix;
  out += std::to_string(n);
  return out;
}

}  // namespace

TEST_CASE("next_url is followed verbatim until a blank one ends the traversal") {
  traversal t("/v3/trades/AAPL?limit=2");
  CHECK(t.next() == step::fetch);
  CHECK(t.target() == "/v3/trades/AAPL?limit=2");
  const std::string next = "https://api.massive.com/v3/trades/AAPL?cursor=YWJj%3D%3D&limit=2";
  t.advance(next);
  CHECK(t.pages() == 1);
  CHECK_FALSE(t.done());
  CHECK(t.next() == step::fetch);
  CHECK(t.target() == next);  // not decoded, not re-encoded
  t.advance("");
  CHECK(t.done());
  CHECK(t.pages() == 2);
  CHECK(t.next() == step::finished);
  CHECK(t.next() == step::finished);
  CHECK_FALSE(t.reached_page_cap());
}

TEST_CASE("a page without rows continues: only the next_url decides") {
  // The rules never see rows: a page that carried none but a next_url moves on like any other.
  traversal t("/a");
  t.advance("/b");
  t.advance("/c");
  CHECK(t.next() == step::fetch);
  CHECK(t.target() == "/c");
}

TEST_CASE("a next_url equal to its own page's URL is refused, every time it is asked") {
  // Seen failing with the repeat guard removed from next(): step::fetch for "/same" again.
  traversal t("/same");
  CHECK(t.next() == step::fetch);
  t.advance("/same");
  CHECK(t.next() == step::repeated);
  CHECK(t.next() == step::repeated);
  CHECK_FALSE(t.done());
  CHECK_FALSE(t.would_fetch());
}

TEST_CASE("a next_url that returns to any page already fetched is a cycle, found in constant memory") {
  // Issue 30: A -> B -> A ran at thousands of requests a second. Seen failing with the loop
  // over recent_ removed from advance(): "CHECK( 0 == 3 )", step::fetch for "/a" again; with
  // the `target_ == saved_` test removed: "REQUIRE( 176 <= 175 )", the long cycle fetched on.
  traversal u("/a");
  u.advance("/b");
  CHECK(u.next() == step::fetch);
  u.advance("/a");
  CHECK(u.next() == step::cycle);
  CHECK(u.next() == step::cycle);
  CHECK_FALSE(u.would_fetch());
  CHECK_FALSE(u.done());
  // A cycle of 37 pages (longer than the 16 URLs kept) entered after 100 distinct ones is
  // refused within 100 + 2 * 37 pages, however long it would go on.
  traversal v("/0");
  std::size_t fetched = 1;
  for (std::size_t i = 1; v.next() == step::fetch; ++i) {
    REQUIRE(fetched <= 100 + 2 * 37 + 1);
    v.advance(url("", i < 100 ? i : 100 + (i - 100) % 37));
    ++fetched;
  }
  CHECK(v.next() == step::cycle);
  // A long traversal without a cycle is never refused: every URL distinct.
  traversal w("/start");
  for (int i = 0; i < 10'000; ++i) {
    REQUIRE(w.next() == step::fetch);
    w.advance(url("p", static_cast<std::size_t>(i)));
  }
  CHECK(w.next() == step::fetch);
}

TEST_CASE("max_empty_pages pages in a row without rows are refused; a page with rows resets the count") {
  // Issue 30: fresh cursors over empty pages ran until the server gave up. Seen failing with
  // the empty_pages test removed from refusal(): "CHECK( 0 == 4 )", step::fetch after the third.
  traversal t("/0", std::nullopt, 3);
  t.advance("/1", 0);
  t.advance("/2", 0);
  t.advance("/3", 5);  // rows: the count starts again
  t.advance("/4", 0);
  t.advance("/5", 0);
  CHECK(t.next() == step::fetch);
  t.advance("/6", 0);
  CHECK(t.empty_streak() == 3);
  CHECK(t.next() == step::empty_pages);
  CHECK_FALSE(t.would_fetch());
  // A blank next_url still ends the traversal, empty page or not.
  traversal u("/0", std::nullopt, 1);
  u.advance("", 0);
  CHECK(u.next() == step::finished);
  // No limit when none is given.
  traversal v("/0");
  for (std::size_t i = 1; i < 100; ++i) v.advance(url("", i), 0);
  CHECK(v.next() == step::fetch);
}

TEST_CASE("the pages' leniency counts are summed for the traversal") {
  // Not tried by itself: cursor_core's leniency argument left out (every total 0 in
  // client_test's "a cursor sums ...") exercised the same sum.
  traversal t("/0");
  massive::page_leniency lossy;
  lossy.dropped_rows = 2;
  lossy.missing = 3;
  lossy.coerced = 1;
  massive::page_leniency coerced_only;
  coerced_only.coerced = 4;
  t.advance("/1", 5, lossy);
  t.advance("/2", 5, coerced_only);
  t.advance("", 5, lossy);
  CHECK(t.leniency().dropped_rows == 4);
  CHECK(t.leniency().missing == 6);
  CHECK(t.leniency().coerced == 6);
  CHECK(t.leniency().lossy_pages == 2);
  CHECK(t.leniency().lossy());
}

TEST_CASE("max_pages stops after that many pages, and says so only when more was offered") {
  traversal t("/1", 2);
  CHECK(t.next() == step::fetch);
  t.advance("/2");
  CHECK(t.would_fetch());
  CHECK(t.next() == step::fetch);
  t.advance("/3");
  CHECK_FALSE(t.would_fetch());
  CHECK_FALSE(t.done());  // the cap is applied when the next page is asked for
  CHECK(t.next() == step::finished);
  CHECK(t.done());
  CHECK(t.reached_page_cap());

  traversal last("/1", 1);
  last.advance("");
  CHECK(last.next() == step::finished);
  CHECK_FALSE(last.reached_page_cap());  // the server offered nothing more

  traversal none("/1", 0);
  CHECK(none.next() == step::finished);
  CHECK(none.reached_page_cap());
  CHECK(none.pages() == 0);
}
