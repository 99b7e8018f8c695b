// Any body split at any byte gives the same rows, and those rows are what a DOM parse of the
// same bytes says.
#include "bodies.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <random>

namespace massive::test {
namespace {

template <class T>
page<T> decode_whole(std::string_view body, payload_shape shape = payload_shape::results_array) {
  page_decoder<T> decoder(make_page_pool(), shape);
  feed_chunks(decoder, body, body.size() + 1);
  return decoder.take();
}

// Every two-piece split, every byte on its own, and every three-piece split around a
// moving window of offsets: the framer's carries (string, escape, depth) cross every
// boundary.
template <class T>
void check_every_split(std::string_view body, payload_shape shape = payload_shape::results_array) {
  const page<T> whole = decode_whole<T>(body, shape);
  CHECK_MESSAGE(dom_diff(body, whole, shape) == "", dom_diff(body, whole, shape));
  page_decoder<T> decoder(make_page_pool(), shape);
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    const std::size_t cuts[] = {cut};
    feed_split(decoder, body, cuts);
    const page<T> split = decoder.take();
    const std::string diff = page_diff(whole, split);
    if (!diff.empty()) FAIL_CHECK("split at " << cut << ": " << diff);
  }
  for (std::size_t cut = 1; cut + 1 < body.size(); cut += 3) {
    const std::size_t cuts[] = {cut, cut + 1 + (cut % 7)};
    if (cuts[1] > body.size()) break;
    feed_split(decoder, body, cuts);
    const page<T> split = decoder.take();
    const std::string diff = page_diff(whole, split);
    if (!diff.empty()) FAIL_CHECK("splits at " << cuts[0] << "," << cuts[1] << ": " << diff);
  }
  feed_chunks(decoder, body, 1);
  CHECK(page_diff(whole, decoder.take()) == "");
}

TEST_CASE("recorded aggregates decode identically at every split point") {
  for (const char* file : {"v2__aggs__ticker__AAPL__range__1__day__2005-04-01__2005-04-04.json",
                           "v2__aggs__ticker__AAPL__range__1__day__2005-04-02__2005-04-04.json",
                           "v2__aggs__ticker__AAPL__prev.json",
                           "v2__aggs__grouped__locale__us__market__stocks__2005-04-04_adjusted_true.json"}) {
    CAPTURE(file);
    const std::string body = wire_sample(file);
    check_every_split<agg>(body);
  }
}

TEST_CASE("recorded aggregates: values as the DOM reads them") {
  const std::string body = wire_sample("v2__aggs__ticker__AAPL__range__1__day__2005-04-01__2005-04-04.json");
  const page<agg> p = decode_whole<agg>(body);
  REQUIRE(p.size() == 2);
  CHECK(p[0].volume == 642646396.0);
  CHECK(p[0].vwap == 1.469);
  CHECK(p[1].timestamp.count() == 1112587200000);
  CHECK(p[1].transactions == 65543);
  CHECK_FALSE(p[1].otc);
  CHECK(p.request_id() == "12afda77aab3b1936c5fb6ef4241ae42");
  CHECK(p.envelope().ticker == "AAPL");
  CHECK(p.envelope().query_count == 2);
  CHECK(p.envelope().results_count == 2);
  CHECK(p.envelope().count == 2);
  CHECK(p.envelope().adjusted == true);
  CHECK(p.envelope().status == "OK");
  CHECK(p.next_url().empty());
}

TEST_CASE("recorded trades decode identically at every split point, timestamps exact") {
  const std::string body = wire_sample("v3__trades__AAPL_limit_2.json");
  check_every_split<trade>(body);
  const page<trade> p = decode_whole<trade>(body);
  REQUIRE(p.size() == 2);
  // 1651181822461636600 is beyond 2^53: only an integer path keeps every digit.
  CHECK(p[0].participant_timestamp.count() == 1651181822461636600);
  CHECK(p[0].sip_timestamp.count() == 1651181822461979400);
  CHECK(p[0].id == "183276");
  REQUIRE(p[0].conditions.size() == 2);
  CHECK(p[0].conditions[1] == 37);
  CHECK(p[1].exchange == 12);
  CHECK(p[1].price == 157.43);
  // A field of the newer descriptions: an older one's trade has no member for it.
  [](const auto& rows) {
    if constexpr (requires { rows[1].decimal_size; }) CHECK_FALSE(rows[1].decimal_size.has_value());
  }(p);
}

TEST_CASE("recorded quotes decode identically at every split point") {
  for (const char* file :
       {"v3__quotes__AAPL.json",
        "v3__quotes__AAPL_cursor_YXA9MTkyODgxNjYmYXM9JmxpbWl0PTEwJm9yZGVyPWRlc2Mmc29ydD10aW1lc3RhbXAmdGltZXN0YW1wLmx0ZT0yMDIyLTA1LTEwVDE0JTNBMTElM0ExMi42OTA2NjExODla.json"}) {
    CAPTURE(file);
    const std::string body = wire_sample(file);
    check_every_split<quote>(body);
  }
  const page<quote> p = decode_whole<quote>(wire_sample("v3__quotes__AAPL.json"));
  CHECK(p.size() == 10);
  CHECK(p.next_url().starts_with("https://api.massive.com/v3/quotes/AAPL?cursor="));
  CHECK(p[0].sip_timestamp.count() == 1652191872800638700);
}

TEST_CASE("synthetic small bodies decode identically at every split point") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    body_options o{.rows = 12, .seed = seed, .pretty = seed == 2, .envelope_first = seed != 3};
    CAPTURE(seed);
    check_every_split<agg>(aggs_body(o));
    check_every_split<trade>(trades_body(o));
    check_every_split<quote>(quotes_body(o));
  }
}

// Bodies far larger than the decoder's window, cut at random: the batches end at different
// elements every time, and the tail moves to the window's front at random offsets. 10,000 rows
// are more than 30 windows of 32 KiB, each a batch boundary (checked below); with 50,000, five
// times as many boundaries took 39 s under ASan+UBSan against 8.7 s.
TEST_CASE("random splits of 10,000-row bodies give the rows the DOM reads") {
  constexpr std::size_t rows = 10'000;
  std::mt19937_64 rng(20240611);
  const std::string aggs = aggs_body({.rows = rows, .seed = 7, .envelope_first = false});
  const std::string trades = trades_body({.rows = rows, .seed = 8, .pretty = true});
  const std::string quotes = quotes_body({.rows = rows, .seed = 9});
  REQUIRE(aggs.size() > 30 * 32 * 1024);
  auto pool = make_page_pool();
  page_decoder<agg> agg_decoder(pool);
  page_decoder<trade> trade_decoder(pool);
  page_decoder<quote> quote_decoder(pool);
  for (const std::size_t max_chunk : {std::size_t{7}, std::size_t{1500}, std::size_t{70'000}}) {
    CAPTURE(max_chunk);
    feed_random(agg_decoder, aggs, rng, max_chunk);
    const page<agg> a = agg_decoder.take();
    CHECK(a.size() == rows);
    CHECK_MESSAGE(dom_diff(aggs, a) == "", dom_diff(aggs, a));
    feed_random(trade_decoder, trades, rng, max_chunk);
    const page<trade> t = trade_decoder.take();
    CHECK(t.size() == rows);
    CHECK_MESSAGE(dom_diff(trades, t) == "", dom_diff(trades, t));
    feed_random(quote_decoder, quotes, rng, max_chunk);
    const page<quote> q = quote_decoder.take();
    CHECK(q.size() == rows);
    CHECK_MESSAGE(dom_diff(quotes, q) == "", dom_diff(quotes, q));
  }
}

}  // namespace
}  // namespace massive::test
