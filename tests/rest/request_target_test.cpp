#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <massive/detail/request_target.hpp>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "wire_enums.hpp"

using namespace std::chrono;
using namespace std::string_view_literals;
using massive::detail::target_builder;
using massive_test::odd_label;
using massive_test::sort_order;
using massive_test::timespan;
using massive_test::unlabelled;

namespace {

template <class T>
std::string query_of(std::string_view name, const T& value) {
  std::string buffer;
  target_builder b{buffer};
  b.query(name, value);
  return buffer;
}

template <class T>
std::string segment_of(const T& value) {
  std::string buffer;
  target_builder b{buffer};
  b.path_segment(value);
  return buffer;
}

template <class T>
concept query_accepts = requires(target_builder& b, const T& v) {
  b.query("x", v);
};
template <class T>
concept segment_accepts = requires(target_builder& b, const T& v) {
  b.path_segment(v);
};

struct not_a_value {};

}  // namespace

static_assert(query_accepts<std::string>);
static_assert(query_accepts<const char*>);
static_assert(query_accepts<bool>);
static_assert(query_accepts<std::int64_t>);
static_assert(query_accepts<double>);
static_assert(query_accepts<year_month_day>);
static_assert(query_accepts<massive::timestamp_ns>);
static_assert(query_accepts<massive::date_or_ms>);
static_assert(query_accepts<sort_order>);
static_assert(query_accepts<std::optional<sort_order>>);
static_assert(query_accepts<std::vector<std::string>>);
static_assert(query_accepts<std::span<const std::int64_t>>);
static_assert(query_accepts<std::optional<std::vector<std::string>>>);
static_assert(query_accepts<massive::range_filter<double>>);
static_assert(query_accepts<std::optional<massive::array_filter<std::string>>>);
static_assert(!query_accepts<not_a_value>);
static_assert(!query_accepts<unlabelled>);  // an enum without to_wire
static_assert(!query_accepts<char>);
static_assert(!query_accepts<float>);
static_assert(!query_accepts<std::optional<not_a_value>>);
static_assert(!query_accepts<std::vector<std::vector<int>>>);
static_assert(segment_accepts<std::string_view>);
static_assert(segment_accepts<std::int64_t>);
static_assert(segment_accepts<timespan>);
static_assert(segment_accepts<massive::date_or_ms>);
static_assert(!segment_accepts<std::optional<std::string>>);
static_assert(!segment_accepts<std::vector<std::string>>);
static_assert(!segment_accepts<massive::range_filter<double>>);

TEST_CASE("the aggregates example target, exactly") {
  std::string buffer;
  target_builder b{buffer};
  b.path_literal("/v2/aggs/ticker/")
      .path_segment("AAPL")
      .path_literal("/range/")
      .path_segment(1)
      .path_literal("/")
      .path_segment(timespan::day)
      .path_literal("/")
      .path_segment(2024y / January / 2)
      .path_literal("/")
      .path_segment(2024y / January / 12);
  b.query("adjusted", true).query("sort", sort_order::asc).query("limit", 50000);
  CHECK(
      b.target() ==
      "/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-12?adjusted=true&sort=asc&limit=50000");
  CHECK(b.size() == b.target().size());
}

TEST_CASE("text is percent-encoded per RFC 3986") {
  CHECK(query_of("q", "a b") == "?q=a%20b");
  CHECK(query_of("q", "a&b=c") == "?q=a%26b%3Dc");
  CHECK(query_of("q", "1+1") == "?q=1%2B1");
  CHECK(query_of("q", "a/b") == "?q=a%2Fb");
  CHECK(query_of("q", "100%") == "?q=100%25");
  CHECK(query_of("q", "é") == "?q=%C3%A9");
  CHECK(query_of("q", "日本") == "?q=%E6%97%A5%E6%9C%AC");
  CHECK(query_of("q", "") == "?q=");
  CHECK(query_of("q", "AZaz09-._~") == "?q=AZaz09-._~");
  CHECK(query_of("q", ":/?#[]@!$&'()*+,;=") ==
        "?q=%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D");
  CHECK(query_of("q", std::string("a\0b", 3)) == "?q=a%00b");
  CHECK(query_of("q", std::string("\x7f\xff")) == "?q=%7F%FF");
  CHECK(query_of("name with space", 1) == "?name%20with%20space=1");
  CHECK_THROWS_WITH_AS(query_of("q", static_cast<const char*>(nullptr)),
                       "massive: query parameter q: null text", std::invalid_argument);
}

TEST_CASE("every byte is kept exactly when unreserved, else %XX in upper-case hex") {
  for (int byte = 0; byte < 256; ++byte) {
    const char c = static_cast<char>(byte);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    const char* hex = "0123456789ABCDEF";
    const std::string escaped{'%', hex[byte / 16], hex[byte % 16]};
    const std::string expected = "?q=" + (unreserved ? std::string(1, c) : escaped);
    CAPTURE(byte);
    CHECK(query_of("q", std::string(1, c)) == expected);
  }
}

TEST_CASE("path segments") {
  CHECK(segment_of("AAPL") == "AAPL");
  CHECK(segment_of("BRK.A") == "BRK.A");
  CHECK(segment_of("a/b") == "a%2Fb");
  CHECK(segment_of("X:BTCUSD") == "X%3ABTCUSD");
  CHECK(segment_of("a b?c#d") == "a%20b%3Fc%23d");
  CHECK(segment_of("...") == "...");
  CHECK(segment_of(std::string("O:SPY251219C00650000")) == "O%3ASPY251219C00650000");
  CHECK(segment_of(odd_label::spaced) == "a%20b%2Fc");
  CHECK(segment_of(std::int64_t{-3}) == "-3");
  CHECK(segment_of(massive::date_or_ms{massive::timestamp_ms::from_count(1704153600000)}) ==
        "1704153600000");
  CHECK_THROWS_WITH_AS(segment_of(""), "massive: path segment: empty", std::invalid_argument);
  CHECK_THROWS_WITH_AS(segment_of(static_cast<const char*>(nullptr)),
                       "massive: path segment: null text", std::invalid_argument);
  CHECK_THROWS_WITH_AS(segment_of("."), R"(massive: path segment: "." and ".." are not allowed)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(segment_of(".."), R"(massive: path segment: "." and ".." are not allowed)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(segment_of(2024y / February / 30),
                       "massive: path segment: invalid date 2024-02-30: not a calendar date",
                       std::invalid_argument);
}

TEST_CASE("a path piece after a query parameter is refused") {
  std::string buffer;
  target_builder b{buffer};
  b.path_literal("/v1/x").query("a", 1);
  CHECK_THROWS_AS(b.path_literal("/y"), std::logic_error);
  CHECK_THROWS_AS(b.path_segment("y"), std::logic_error);
}

TEST_CASE("booleans and integers") {
  CHECK(query_of("a", true) == "?a=true");
  CHECK(query_of("a", false) == "?a=false");
  CHECK(query_of("n", 0) == "?n=0");
  CHECK(query_of("n", -1) == "?n=-1");
  CHECK(query_of("n", std::numeric_limits<std::int64_t>::max()) == "?n=9223372036854775807");
  CHECK(query_of("n", std::numeric_limits<std::int64_t>::min()) == "?n=-9223372036854775808");
  CHECK(query_of("n", std::numeric_limits<std::uint64_t>::max()) == "?n=18446744073709551615");
}

TEST_CASE("doubles: shortest round trip, fixed in the ECMAScript range") {
  CHECK(query_of("x", 0.1) == "?x=0.1");
  CHECK(query_of("x", -2.5) == "?x=-2.5");
  CHECK(query_of("x", 10.0) == "?x=10");
  CHECK(query_of("x", 100000.0) == "?x=100000");
  CHECK(query_of("x", 0.0) == "?x=0");
  CHECK(query_of("x", -0.0) == "?x=0");
  CHECK(query_of("x", 1e20) == "?x=100000000000000000000");
  CHECK(query_of("x", 1e21) == "?x=1e21");
  CHECK(query_of("x", -1.5e300) == "?x=-1.5e300");
  CHECK(query_of("x", 1e-6) == "?x=0.000001");
  CHECK(query_of("x", 1e-7) == "?x=1e-7");
  CHECK(query_of("x", 1.5e-7) == "?x=1.5e-7");
  CHECK(query_of("x", 123456789.125) == "?x=123456789.125");
  CHECK(query_of("x", std::numeric_limits<double>::max()) == "?x=1.7976931348623157e308");
  CHECK(query_of("x", std::numeric_limits<double>::denorm_min()) == "?x=5e-324");
  CHECK(query_of("x", 9007199254740993.0) == "?x=9007199254740992");
}

TEST_CASE("doubles read back as the same value") {
  std::mt19937_64 random{20240102};
  std::uniform_int_distribution<std::uint64_t> bits;
  int checked = 0;
  while (checked < 20000) {
    const double value = std::bit_cast<double>(bits(random));
    if (!std::isfinite(value)) continue;
    const std::string rendered = query_of("x", value);
    const std::string_view text = std::string_view(rendered).substr(3);
    REQUIRE(text.find_first_not_of("0123456789-.e") == std::string_view::npos);
    double parsed = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), parsed);
    REQUIRE(result.ec == std::errc{});
    REQUIRE(result.ptr == text.data() + text.size());
    CAPTURE(text);
    REQUIRE(parsed == value);
    ++checked;
  }
  CHECK(checked == 20000);
}

TEST_CASE("NaN and infinities are refused, naming the parameter") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(query_of("price", nan),
                       "massive: query parameter price: NaN is not a number the API accepts",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(query_of("price", -inf),
                       "massive: query parameter price: infinity is not a number the API accepts",
                       std::invalid_argument);
  const massive::range_filter<double> bounded = massive::gte(1.0) && massive::lt(inf);
  CHECK_THROWS_WITH_AS(
      query_of("price", bounded),
      "massive: query parameter price.lt: infinity is not a number the API accepts",
      std::invalid_argument);
}

TEST_CASE("dates at the edges") {
  CHECK(query_of("d", 1970y / January / 1) == "?d=1970-01-01");
  CHECK(query_of("d", 1969y / December / 31) == "?d=1969-12-31");
  CHECK(query_of("d", 9999y / December / 31) == "?d=9999-12-31");
  CHECK(query_of("d", 1y / January / 1) == "?d=0001-01-01");
  CHECK(query_of("d", 2024y / February / 29) == "?d=2024-02-29");
  CHECK_THROWS_WITH_AS(
      query_of("date", 2024y / February / 30),
      "massive: query parameter date: invalid date 2024-02-30: not a calendar date",
      std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      query_of("date", 10000y / January / 1),
      "massive: query parameter date: invalid date 10000-01-01: year outside 1..9999",
      std::invalid_argument);
  const massive::filter<year_month_day> bad = massive::gt(0y / January / 1);
  CHECK_THROWS_WITH_AS(
      query_of("date", bad),
      "massive: query parameter date.gt: invalid date 0000-01-01: year outside 1..9999",
      std::invalid_argument);
}

TEST_CASE("timestamps render as integers in their unit, negative before 1970") {
  CHECK(query_of("t", massive::timestamp_ms::from_count(0)) == "?t=0");
  CHECK(query_of("t", massive::timestamp_ms::from_count(-1)) == "?t=-1");
  CHECK(query_of("t", massive::timestamp_ms::from_count(1704153600000)) == "?t=1704153600000");
  CHECK(query_of("t", massive::timestamp_ns::from_count(1704153600123456789)) ==
        "?t=1704153600123456789");
  CHECK(query_of("t", massive::timestamp_ns{sys_time<nanoseconds>{
                          sys_days{1969y / December / 31}}}) == "?t=-86400000000000");
  CHECK(query_of("t", massive::timestamp_us::from_count(-5)) == "?t=-5");
}

TEST_CASE("date_or_time renders whichever it holds") {
  CHECK(query_of("from", massive::date_or_ms{2024y / January / 2}) == "?from=2024-01-02");
  CHECK(query_of("from", massive::date_or_ms{1969y / December / 31}) == "?from=1969-12-31");
  CHECK(query_of("from", massive::date_or_ms{massive::timestamp_ms::from_count(1704153600000)}) ==
        "?from=1704153600000");
  CHECK(query_of("from", massive::date_or_ns{massive::timestamp_ns::from_count(-1)}) == "?from=-1");
}

TEST_CASE("enums render their wire text, encoded") {
  CHECK(query_of("sort", sort_order::desc) == "?sort=desc");
  CHECK(query_of("label", odd_label::spaced) == "?label=a%20b%2Fc");
}

TEST_CASE("optionals: absent is omitted, and does not take the '?'") {
  std::string buffer;
  target_builder b{buffer};
  b.path_literal("/v3/trades/X");
  b.query("a", std::optional<bool>{})
      .query("b", std::optional<std::int64_t>{7})
      .query("c", std::optional<std::string>{})
      .query("d", std::optional<sort_order>{sort_order::asc})
      .query("e", std::optional<massive::range_filter<double>>{})
      .query("f", std::optional<massive::range_filter<double>>{massive::gt(1.5)});
  CHECK(b.target() == "/v3/trades/X?b=7&d=asc&f.gt=1.5");
}

TEST_CASE("arrays: comma-joined, elements encoded, empty omitted") {
  CHECK(query_of("t", std::vector<std::string>{}) == "");
  CHECK(query_of("t", std::vector<std::string>{"AAPL"}) == "?t=AAPL");
  CHECK(query_of("t", std::vector<std::string>{"a,b", "c d", "é"}) == "?t=a%2Cb,c%20d,%C3%A9");
  CHECK(query_of("t", std::vector<std::string>{"", "x"}) == "?t=,x");
  const std::array<std::int64_t, 3> numbers{1, -2, 3};
  CHECK(query_of("n", std::span<const std::int64_t>(numbers)) == "?n=1,-2,3");
  CHECK(query_of("d", std::vector<year_month_day>{2024y / January / 2, 1969y / July / 20}) ==
        "?d=2024-01-02,1969-07-20");
  CHECK(query_of("s", std::vector<sort_order>{sort_order::asc, sort_order::desc}) == "?s=asc,desc");
  CHECK(query_of("b", std::vector<bool>{true, false}) == "?b=true,false");
  CHECK(query_of("t", std::optional{std::vector<std::string>{"x", "y"}}) == "?t=x,y");

  std::string buffer;
  target_builder b{buffer};
  b.query("empty", std::vector<std::int64_t>{}).query("after", 1);
  CHECK(b.target() == "?after=1");
}

TEST_CASE("filters: one parameter per comparator, in a fixed order") {
  SUBCASE("equality") {
    CHECK(query_of("ticker", massive::set_filter<std::string>{"BRK A"}) == "?ticker=BRK%20A");
    CHECK(query_of("price", massive::range_filter<double>{10.5}) == "?price=10.5");
  }
  SUBCASE("range comparators come out gt, gte, lt, lte whatever the order given") {
    const massive::range_filter<std::int64_t> lower_strict = massive::lte(9) && massive::gt(1);
    CHECK(query_of("n", lower_strict) == "?n.gt=1&n.lte=9");
    const massive::filter<std::int64_t> lower_inclusive = massive::lt(9) && massive::gte(1);
    CHECK(query_of("n", lower_inclusive) == "?n.gte=1&n.lt=9");
    CHECK(query_of("n", massive::range_filter<std::int64_t>{massive::lte(3)}) == "?n.lte=3");
  }
  SUBCASE("timestamps and dates in a window") {
    const massive::range_filter<massive::date_or_ns> window =
        massive::gte(2024y / January / 2) && massive::lt(2024y / January / 3);
    CHECK(query_of("timestamp", window) == "?timestamp.gte=2024-01-02&timestamp.lt=2024-01-03");
    const massive::range_filter<massive::timestamp_ns> stamps =
        massive::between(massive::timestamp_ns::from_count(-10),
                         massive::timestamp_ns::from_count(1704153600000000000));
    CHECK(query_of("timestamp", stamps) == "?timestamp.gte=-10&timestamp.lte=1704153600000000000");
  }
  SUBCASE("sets") {
    const massive::set_filter<std::string_view> tickers = massive::any_of("AAPL", "A&B", "é");
    CHECK(query_of("ticker", tickers) == "?ticker.any_of=AAPL,A%26B,%C3%A9");
    const massive::filter<double> prices = massive::any_of(1, 2.5);
    CHECK(query_of("p", prices) == "?p.any_of=1,2.5");
    const massive::array_filter<std::string> all = massive::all_of("earnings", "ipos");
    CHECK(query_of("channels", all) == "?channels.all_of=earnings,ipos");
    const massive::array_filter<std::string> any = massive::any_of({"x y"});
    CHECK(query_of("channels", any) == "?channels.any_of=x%20y");
    const massive::array_filter<std::string> has = "earnings";
    CHECK(query_of("channels", has) == "?channels=earnings");
    const massive::set_filter<bool> flags = massive::any_of(true, false);
    CHECK(query_of("f", flags) == "?f.any_of=true,false");
  }
  SUBCASE("an empty filter is omitted") {
    std::string buffer;
    target_builder b{buffer};
    b.query("a", massive::filter<std::int64_t>{})
        .query("b", massive::array_filter<std::string>{})
        .query("c", massive::set_filter<sort_order>{sort_order::asc});
    CHECK(b.target() == "?c=asc");
  }
  SUBCASE("several filters share one query string") {
    std::string buffer;
    target_builder b{buffer};
    b.path_literal("/v3/reference/dividends");
    b.query("ticker", massive::filter<std::string>{massive::any_of("AAPL", "MSFT")})
        .query("ex_dividend_date",
               massive::range_filter<year_month_day>{massive::gte(2024y / January / 1)})
        .query("cash_amount", massive::range_filter<double>{massive::between(0.25, 1)})
        .query("order", sort_order::desc)
        .query("limit", 10);
    CHECK(b.target() ==
          "/v3/reference/dividends?ticker.any_of=AAPL,MSFT&ex_dividend_date.gte=2024-01-01"
          "&cash_amount.gte=0.25&cash_amount.lte=1&order=desc&limit=10");
  }
}

TEST_CASE("the builder clears its buffer, and build_target gives the same text") {
  const auto render = [](target_builder& b) {
    b.path_literal("/v3/trades/").path_segment("O:SPY 1");
    b.query("timestamp",
            massive::range_filter<massive::date_or_ns>{
                massive::gte(massive::timestamp_ns::from_count(1)) &&
                massive::lt(massive::timestamp_ns::from_count(2))})
        .query("ticker", massive::set_filter<std::string>{massive::any_of("a b", "c")})
        .query("price", 1e21)
        .query("none", std::optional<int>{});
  };
  std::string buffer = "left over from an earlier request";
  target_builder b{buffer};
  render(b);
  const std::string_view expected =
      "/v3/trades/O%3ASPY%201?timestamp.gte=1&timestamp.lt=2&ticker.any_of=a%20b,c&price=1e21";
  CHECK(b.target() == expected);
  const std::string built = massive::detail::build_target(render);
  CHECK(built == expected);
  CHECK(built.capacity() == built.size());
  CHECK(massive::detail::build_target([](target_builder&) {}).empty());
}
