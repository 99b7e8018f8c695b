#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <massive/time.hpp>
#include <stdexcept>
#include <type_traits>

using namespace std::chrono;
using massive::date_or_ms;
using massive::date_or_ns;
using massive::date_or_us;
using massive::timestamp_ms;
using massive::timestamp_ns;
using massive::timestamp_us;

namespace {

// Whether a function taking To can be called with a From, the way a parameter is passed.
template <class To, class From>
concept passes_as = requires(void (*f)(To), From from) {
  f(from);
};

}  // namespace

// A timestamp of one unit never stands in for another: not implicitly, not explicitly.
static_assert(!std::is_convertible_v<timestamp_ms, timestamp_ns>);
static_assert(!std::is_convertible_v<timestamp_ns, timestamp_ms>);
static_assert(!std::is_constructible_v<timestamp_ns, timestamp_ms>);
static_assert(!std::is_constructible_v<timestamp_ms, timestamp_ns>);
static_assert(!std::is_constructible_v<timestamp_ns, sys_time<milliseconds>>);
static_assert(!passes_as<timestamp_ns, timestamp_ms>);
static_assert(!passes_as<timestamp_ms, timestamp_ns>);
static_assert(passes_as<timestamp_ms, timestamp_ms>);

// date_or_ms takes a date or a millisecond timestamp, and nothing else.
static_assert(passes_as<date_or_ms, year_month_day>);
static_assert(passes_as<date_or_ms, timestamp_ms>);
static_assert(!passes_as<date_or_ms, timestamp_ns>);
static_assert(!passes_as<date_or_ms, timestamp_us>);
static_assert(!std::is_constructible_v<date_or_ms, timestamp_ns>);
static_assert(passes_as<date_or_ns, year_month_day>);
static_assert(passes_as<date_or_ns, timestamp_ns>);
static_assert(!passes_as<date_or_ns, timestamp_ms>);
static_assert(!std::is_constructible_v<date_or_ns, timestamp_ms>);
static_assert(passes_as<date_or_us, timestamp_us>);
static_assert(!passes_as<date_or_us, timestamp_ns>);
// Raw counts and sys_time values say neither which unit nor which kind they are.
static_assert(!passes_as<date_or_ms, std::int64_t>);
static_assert(!std::is_constructible_v<date_or_ms, sys_days>);
static_assert(!std::is_constructible_v<date_or_ms, sys_time<milliseconds>>);
// A date_or_time has no default: a required parameter left out of a designated initializer
// does not compile.
static_assert(!std::is_default_constructible_v<date_or_ms>);

static_assert(date_or_ms{2024y / January / 2}.is_date());
static_assert(!date_or_ms{timestamp_ms::from_count(5)}.is_date());
static_assert(massive::is_wire_date(1970y / January / 1));

TEST_CASE("is_wire_date accepts calendar dates in years 1..9999, before 1970 too") {
  CHECK(massive::is_wire_date(1970y / January / 1));
  CHECK(massive::is_wire_date(1969y / December / 31));
  CHECK(massive::is_wire_date(1y / January / 1));
  CHECK(massive::is_wire_date(9999y / December / 31));
  CHECK(massive::is_wire_date(2024y / February / 29));

  CHECK_FALSE(massive::is_wire_date(0y / December / 31));
  CHECK_FALSE(massive::is_wire_date(10000y / January / 1));
  CHECK_FALSE(massive::is_wire_date(year{-5} / January / 1));
  CHECK_FALSE(massive::is_wire_date(2024y / February / 30));
  CHECK_FALSE(massive::is_wire_date(2023y / February / 29));
  CHECK_FALSE(massive::is_wire_date(year_month_day{2024y, month{13}, day{1}}));
  CHECK_FALSE(massive::is_wire_date(year_month_day{2024y, January, day{0}}));
}

// The one YYYY-MM-DD parser: the decoder's date fields, the mock's path and query dates.
TEST_CASE("parse_date reads exactly YYYY-MM-DD naming a real day of years 1..9999") {
  using massive::parse_date;
  static_assert(parse_date("2024-01-02") == 2024y / January / 2);  // usable in constant expressions
  CHECK(parse_date("2024-01-02") == 2024y / January / 2);
  CHECK(parse_date("1969-12-31") == 1969y / December / 31);
  CHECK(parse_date("0001-01-01") == 1y / January / 1);
  CHECK(parse_date("9999-12-31") == 9999y / December / 31);

  // Leap days: every 4th year, not every 100th, every 400th.
  // regression: is_wire_date(date) replaced by range tests (year >= 1, month ok, day 1..31) ->
  // fails with 2023-02-29, 1900-02-29, 2024-02-30 and 2024-04-31 read
  CHECK(parse_date("2024-02-29") == 2024y / February / 29);
  CHECK(parse_date("2000-02-29") == 2000y / February / 29);
  CHECK_FALSE(parse_date("2023-02-29"));
  CHECK_FALSE(parse_date("1900-02-29"));
  CHECK_FALSE(parse_date("2024-02-30"));
  CHECK_FALSE(parse_date("2024-04-31"));

  // regression: the is_wire_date(date) test dropped -> fails with these four (and the four
  // days above) read
  CHECK_FALSE(parse_date("2024-13-01"));
  CHECK_FALSE(parse_date("2024-00-10"));
  CHECK_FALSE(parse_date("2024-01-00"));
  CHECK_FALSE(parse_date("0000-01-01"));

  // Short forms, signs and stray characters in a digit's place. ':' follows '9': taken for a
  // digit it would be worth 10 and make a real day of each of the next three.
  // regression: the digit test `> 9` dropped -> fails with the three ':' lines read as 2104-01-01,
  // 2024-10-01 and 2024-01-20
  CHECK_FALSE(parse_date("20:4-01-01"));
  CHECK_FALSE(parse_date("2024-0:-01"));
  CHECK_FALSE(parse_date("2024-01-1:"));
  // regression: parse_date rewritten to split on '-' and read each part with from_chars (the
  // usual lenient parser) -> fails with these three read
  CHECK_FALSE(parse_date("2024-1-5"));
  CHECK_FALSE(parse_date("2024-01-5"));
  CHECK_FALSE(parse_date("24-01-05"));
  // regression: the digit test and the is_wire_date(date) test both dropped -> fails with these
  // four read (bytes below '0' wrap to huge digits)
  CHECK_FALSE(parse_date("2024-0a-01"));
  CHECK_FALSE(parse_date("+024-01-01"));
  CHECK_FALSE(parse_date("-001-01-01"));
  CHECK_FALSE(parse_date("2024-01- 5"));
  // regression: the separator tests `text[4] != '-' || text[7] != '-'` dropped -> fails with it read
  CHECK_FALSE(parse_date("2024/01/05"));

  // Trailing or leading text: a date-time is not a date here (the decoder coerces it itself).
  // regression: `text.size() != 10` made `text.size() < 10` -> fails with the first three read
  CHECK_FALSE(parse_date("2024-01-05T10:00:00Z"));
  CHECK_FALSE(parse_date("2024-01-05 "));
  CHECK_FALSE(parse_date("2024-01-050"));
  CHECK_FALSE(parse_date(" 2024-01-05"));
}

TEST_CASE("require_wire_date names the date and the problem") {
  CHECK_NOTHROW(massive::require_wire_date(1969y / December / 31));
  CHECK_THROWS_WITH_AS(massive::require_wire_date(2024y / February / 30),
                       "massive: invalid date 2024-02-30: not a calendar date",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::require_wire_date(10000y / January / 1),
                       "massive: invalid date 10000-01-01: year outside 1..9999",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::require_wire_date(0y / March / 4),
                       "massive: invalid date 0000-03-04: year outside 1..9999",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::require_wire_date(year{-12} / March / 4),
                       "massive: invalid date -0012-03-04: year outside 1..9999",
                       std::invalid_argument);
}

TEST_CASE("date_or_time holds a date or a timestamp") {
  SUBCASE("a date") {
    const date_or_ms value = 1969y / December / 31;
    CHECK(value.is_date());
    REQUIRE(value.date().has_value());
    CHECK(*value.date() == 1969y / December / 31);
    CHECK_FALSE(value.timestamp().has_value());
  }
  SUBCASE("a timestamp, negative before 1970") {
    const date_or_ns value = timestamp_ns::from_count(-1);
    CHECK_FALSE(value.is_date());
    CHECK_FALSE(value.date().has_value());
    REQUIRE(value.timestamp().has_value());
    CHECK(value.timestamp()->count() == -1);
  }
  SUBCASE("equality compares kind and value") {
    CHECK(date_or_ms{2024y / January / 2} == date_or_ms{2024y / January / 2});
    CHECK(date_or_ms{2024y / January / 2} != date_or_ms{2024y / January / 3});
    CHECK(date_or_ms{timestamp_ms::from_count(0)} != date_or_ms{1970y / January / 1});
  }
}

TEST_CASE("date_or_time rejects an invalid date where it is constructed") {
  CHECK_THROWS_WITH_AS(date_or_ms{2024y / February / 30},
                       "massive: invalid date 2024-02-30: not a calendar date",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(date_or_ns{10000y / January / 1},
                       "massive: invalid date 10000-01-01: year outside 1..9999",
                       std::invalid_argument);
  CHECK_NOTHROW(date_or_ms{9999y / December / 31});
  CHECK_NOTHROW(date_or_ms{1y / January / 1});
}
