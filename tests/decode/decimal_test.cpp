// massive::decimal: exact parsing, text round trip, numeric equality, nearest double.
#include "massive/decimal.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cmath>

namespace massive {
namespace {

TEST_CASE("decimal parses decimal strings exactly") {
  for (const char* text : {"0.3333", "-0.05", "7", "1.5e3", "25e-4", "9223372036854775807", "-9223372036854775808",
                           "0.000000000000000001", "1.00000000000000000000", "1.50e2"}) {
    CAPTURE(text);
    REQUIRE(decimal::parse(text).has_value());
  }
  const auto d = decimal::parse("100.0");
  REQUIRE(d);
  CHECK(d->mantissa() == 1000);
  CHECK(d->scale() == 1);
  CHECK(d->to_string() == "100.0");
  CHECK(decimal::parse("0.3333")->to_string() == "0.3333");
  CHECK(decimal::parse("-0.05")->to_string() == "-0.05");
  CHECK(decimal::parse("7")->to_string() == "7");
  CHECK(decimal::parse("1.5e3")->to_string() == "1500");
  CHECK(decimal::parse("25e-4")->to_string() == "0.0025");
  CHECK(decimal::parse("9223372036854775807")->mantissa() == INT64_MAX);
  CHECK(decimal::parse("-9223372036854775808")->mantissa() == INT64_MIN);
  CHECK(decimal::parse("-9223372036854775808")->to_string() == "-9223372036854775808");
  CHECK(decimal::parse("0.000000000000000001")->scale() == 18);
  // Zeros beyond the representable scale carry nothing and are dropped.
  CHECK(decimal::parse("1.00000000000000000000")->to_string() == "1.000000000000000000");
  CHECK(decimal::parse("1.50e2")->to_string() == "150.0");
}

TEST_CASE("decimal refuses what it cannot hold exactly") {
  CHECK_FALSE(decimal::parse(""));
  CHECK_FALSE(decimal::parse("-"));
  CHECK_FALSE(decimal::parse("1."));
  CHECK_FALSE(decimal::parse(".5"));
  CHECK_FALSE(decimal::parse("1.2.3"));
  CHECK_FALSE(decimal::parse("abc"));
  CHECK_FALSE(decimal::parse("1e"));
  CHECK_FALSE(decimal::parse("12x"));
  CHECK_FALSE(decimal::parse("9223372036854775808"));
  CHECK_FALSE(decimal::parse("0.0000000000000000001"));
  CHECK_FALSE(decimal::parse("1e400"));
  CHECK_THROWS_AS(decimal(1, 19), std::out_of_range);
  CHECK_THROWS_AS(decimal(1, -1), std::out_of_range);
}

TEST_CASE("decimal equality is numeric") {
  CHECK(*decimal::parse("100.0") == *decimal::parse("100"));
  CHECK(*decimal::parse("0.50") == *decimal::parse("0.5"));
  CHECK_FALSE(*decimal::parse("0.51") == *decimal::parse("0.5"));
  // Rescaling the coarser side would overflow: they cannot be equal.
  CHECK_FALSE(decimal(INT64_MAX, 0) == decimal(1, 18));
}

TEST_CASE("decimal to_double is the nearest double") {
  for (const char* text : {"100.0", "0.1", "0.3333", "123456.789", "-2.5", "9007199254740993", "0.000000000000000001"}) {
    double expected = 0;
    std::from_chars(text, text + std::char_traits<char>::length(text), expected);
    CAPTURE(text);
    CHECK(decimal::parse(text)->to_double() == expected);
  }
}

TEST_CASE("decimal to_chars reports a short buffer") {
  char small[3];
  const auto r = decimal::parse("100.0")->to_chars(small, small + sizeof small);
  CHECK(r.ec == std::errc::value_too_large);
  char enough[decimal::max_chars];
  CHECK(decimal(INT64_MIN, 18).to_chars(enough, enough + sizeof enough).ec == std::errc{});
}

}  // namespace
}  // namespace massive
