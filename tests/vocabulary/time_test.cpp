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
