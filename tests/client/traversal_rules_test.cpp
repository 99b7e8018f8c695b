// The traversal rules without a socket: what cursor<T> asks for next, and when it stops.
#include <massive/traversal.hpp>

#include <doctest/doctest.h>

#include <string>

using massive::detail::traversal;
using step = traversal::step;

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
  // The same URL again later, after another page, is no repeat: only the page's own is.
  traversal u("/a");
  u.advance("/b");
  u.advance("/a");
  CHECK(u.next() == step::fetch);
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
