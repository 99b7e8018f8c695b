// json_writer: what it writes parses back (simdjson's DOM) to the values written, exactly;
// commas and nesting; misuse is an exception, not broken JSON.
#include "massive/json_writer.hpp"

#include <doctest/doctest.h>
#include <simdjson.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace massive {
namespace {

using namespace std::chrono_literals;

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element root;
  const auto error = parser.parse(text).get(root);
  INFO(text);
  REQUIRE(error == simdjson::SUCCESS);
  return root;
}

double read_double(simdjson::dom::element e) {
  double d = 0;
  REQUIRE(e.get_double().get(d) == simdjson::SUCCESS);
  return d;
}

TEST_CASE("doubles read back bit for bit") {
  std::vector<double> values = {0.0,
                                -0.0,
                                0.1,
                                -2.5,
                                1.0 / 3,
                                100.0,
                                1e15,
                                1e16,
                                9007199254740993.0,
                                18446744073709551616.0,  // 2^64: all digits in its shortest fixed form
                                123456789012345680000.0,
                                1e300,
                                -1e-300,
                                DBL_MAX,
                                -DBL_MAX,
                                DBL_MIN,
                                std::numeric_limits<double>::denorm_min()};
  std::mt19937_64 random(20261202);
  while (values.size() < 20'000) {
    const double d = std::bit_cast<double>(random());
    if (std::isfinite(d)) values.push_back(d);
  }
  simdjson::dom::parser parser;
  for (const double d : values) {
    const std::string text = to_json(d);
    CAPTURE(text);
    const double back = read_double(parse(parser, text));
    CHECK(std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(d));
  }
  CHECK(to_json(0.1) == "0.1");
  CHECK(to_json(100.0) == "100");
}

TEST_CASE("non-finite doubles are written as null") {
  for (const double d : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()}) {
    CHECK(to_json(d) == "null");
  }
  std::string out;
  json_writer w(out);
  w.begin_array();
  w.value(1.5);
  w.value(std::numeric_limits<double>::infinity());
  w.value(2.0);
  w.end_array();
  CHECK(out == "[1.5,null,2]");
}

TEST_CASE("integers read back exactly") {
  simdjson::dom::parser parser;
  for (const std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 53, (std::int64_t{1} << 53) + 1,
                               std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    std::int64_t back = 0;
    REQUIRE(parse(parser, to_json(v)).get_int64().get(back) == simdjson::SUCCESS);
    CHECK(back == v);
  }
  for (const std::int32_t v : {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}) {
    std::int64_t back = 0;
    REQUIRE(parse(parser, to_json(v)).get_int64().get(back) == simdjson::SUCCESS);
    CHECK(back == v);
  }
  CHECK(to_json(timestamp_ns::from_count(1'717'171'717'123'456'789)) == "1717171717123456789");
  CHECK(to_json(timestamp_us::from_count(-5)) == "-5");
  CHECK(to_json(timestamp_ms::from_count(1'700'000'000'000)) == "1700000000000");
}

TEST_CASE("strings read back unchanged, escaped per RFC 8259") {
  std::string every_control;
  for (int c = 0; c < 0x20; ++c) every_control += static_cast<char>(c);
  const std::string values[] = {"",
                                "plain",
                                "quote \" backslash \\ slash /",
                                every_control,
                                std::string("nul \0 inside", 12),
                                "\x7f del",
                                "caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x93\x88",
                                "\"\\\"\\"};
  simdjson::dom::parser parser;
  for (const std::string& s : values) {
    const std::string text = to_json(std::string_view(s));
    CAPTURE(text);
    std::string_view back;
    REQUIRE(parse(parser, text).get_string().get(back) == simdjson::SUCCESS);
    CHECK(back == s);
    for (const char c : text) CHECK(static_cast<unsigned char>(c) >= 0x20);  // no raw control characters
  }
  CHECK(to_json(std::string_view("a\"b\\c\n\x01")) == R"("a\"b\\c\n\u0001")");
  CHECK(to_json("text") == R"("text")");
  CHECK(to_json(static_cast<const char*>(nullptr)) == "null");
}

TEST_CASE("dates, decimals and raw JSON") {
  CHECK(to_json(std::chrono::year_month_day{2024y / 2 / 29}) == R"("2024-02-29")");
  CHECK(to_json(std::chrono::year_month_day{1y / 1 / 1}) == R"("0001-01-01")");
  CHECK(to_json(std::chrono::year_month_day{9999y / 12 / 31}) == R"("9999-12-31")");

  simdjson::dom::parser parser;
  for (const std::string_view text : {"100.0", "-0.25", "7", "0.000000000000000001", "922337203685477580.7",
                                      "-9223372036854775808", "0.10"}) {
    const decimal d = *decimal::parse(text);
    std::string_view back;
    REQUIRE(parse(parser, to_json(d)).get_string().get(back) == simdjson::SUCCESS);
    CHECK(back == text);  // the scale is kept: "100.0" stays "100.0"
    CHECK(decimal::parse(back) == d);
  }

  const json_value raw(R"({"a":[1,2,{"b":null}],"c":"\"x\""})");
  CHECK(to_json(raw) == raw.text());
  CHECK(to_json(json_value{}) == "null");
}

struct point {
  double x = 0;
  std::optional<std::int64_t> label;
};
void write_json(json_writer& w, const point& p) {
  w.begin_object();
  w.field("x", p.x);
  w.field("label", p.label);
  w.end_object();
}

struct shape {
  std::string_view name;
  std::span<const point> points;
  std::optional<point> centre;
  std::span<const keyed<point>> named;
  std::span<const keyed<double>> weights;
  std::span<const std::string_view> tags;
  std::span<const bool> flags;
  std::span<const std::int64_t> ids;
  std::span<const std::int32_t> codes;
  std::span<const std::chrono::year_month_day> dates;
  std::span<const decimal> sizes;
  std::span<const json_value> extras;
  std::optional<bool> active;
};
void write_json(json_writer& w, const shape& s) {
  w.begin_object();
  w.field("name", s.name);
  w.field("points", s.points);
  w.field("centre", s.centre);
  w.field("named", s.named);
  w.field("weights", s.weights);
  w.field("tags", s.tags);
  w.field("flags", s.flags);
  w.field("ids", s.ids);
  w.field("codes", s.codes);
  w.field("dates", s.dates);
  w.field("sizes", s.sizes);
  w.field("extras", s.extras);
  w.field("active", s.active);
  w.end_object();
}

TEST_CASE("nested models, spans and keyed spans, with commas and absent fields") {
  const point points[] = {{1.5, 7}, {-2, std::nullopt}};
  const keyed<point> named[] = {{"a", {0.25, 1}}, {"b\"", {3, std::nullopt}}};
  const keyed<double> weights[] = {{"pe", 21.5}, {"pb", 3}};
  const std::string_view tags[] = {"x", ""};
  const bool flags[] = {true, false};
  const std::int64_t ids[] = {INT64_MIN, 0};
  const std::int32_t codes[] = {12, -1};
  const std::chrono::year_month_day dates[] = {2024y / 6 / 3};
  const decimal sizes[] = {*decimal::parse("0.5")};
  const json_value extras[] = {json_value("{}"), json_value{}};
  shape s;
  s.name = "tri";
  s.points = points;
  s.centre = point{0, 1};
  s.named = named;
  s.weights = weights;
  s.tags = tags;
  s.flags = flags;
  s.ids = ids;
  s.codes = codes;
  s.dates = dates;
  s.sizes = sizes;
  s.extras = extras;
  CHECK(to_json(s) ==
        R"({"name":"tri","points":[{"x":1.5,"label":7},{"x":-2}],"centre":{"x":0,"label":1},)"
        R"("named":{"a":{"x":0.25,"label":1},"b\"":{"x":3}},"weights":{"pe":21.5,"pb":3},"tags":["x",""],)"
        R"("flags":[true,false],"ids":[-9223372036854775808,0],"codes":[12,-1],"dates":["2024-06-03"],)"
        R"("sizes":["0.5"],"extras":[{},null]})");

  const shape empty{};
  CHECK(to_json(empty) ==
        R"({"name":"","points":[],"named":{},"weights":{},"tags":[],"flags":[],"ids":[],"codes":[],)"
        R"("dates":[],"sizes":[],"extras":[]})");

  simdjson::dom::parser parser;
  simdjson::dom::element root = parse(parser, to_json(s));
  CHECK(read_double(root["named"]["b\""]["x"]) == 3);
  CHECK(read_double(root["points"].at(0)["x"]) == 1.5);

  std::optional<point> none;
  CHECK(to_json(none) == "null");
  std::string out;
  json_writer w(out);
  w.begin_array();
  w.value(none);
  w.value(std::optional<point>(point{1, std::nullopt}));
  w.begin_array();
  w.end_array();
  w.begin_object();
  w.end_object();
  w.end_array();
  CHECK(out == R"([null,{"x":1},[],{}])");
  CHECK(w.complete());
}

TEST_CASE("misuse throws instead of writing broken JSON") {
  std::string out;
  SUBCASE("a key outside an object") {
    json_writer w(out);
    CHECK_THROWS_AS(w.key("k"), std::logic_error);
    w.begin_array();
    CHECK_THROWS_AS(w.key("k"), std::logic_error);
  }
  SUBCASE("a value in an object without its key") {
    json_writer w(out);
    w.begin_object();
    CHECK_THROWS_AS(w.value(1.0), std::logic_error);
    w.key("a");
    CHECK_THROWS_AS(w.key("b"), std::logic_error);
  }
  SUBCASE("an end without its begin, or of the other kind") {
    json_writer w(out);
    CHECK_THROWS_AS(w.end_object(), std::logic_error);
    w.begin_object();
    CHECK_THROWS_AS(w.end_array(), std::logic_error);
    w.key("a");
    CHECK_THROWS_AS(w.end_object(), std::logic_error);  // the key has no value
    CHECK(!w.complete());
  }
  SUBCASE("two top-level values") {
    json_writer w(out);
    w.value(true);
    CHECK(w.complete());
    CHECK_THROWS_AS(w.value(false), std::logic_error);
  }
  SUBCASE("nesting beyond max_depth") {
    json_writer w(out);
    for (int i = 0; i < json_writer::max_depth; ++i) w.begin_array();
    CHECK_THROWS_AS(w.begin_array(), std::length_error);
    for (int i = 0; i < json_writer::max_depth; ++i) w.end_array();
    CHECK(w.complete());
    CHECK(out == std::string(json_writer::max_depth, '[') + std::string(json_writer::max_depth, ']'));
  }
}

TEST_CASE("a caller's string is appended to") {
  std::string out = "prefix:";
  json_writer w(out);
  w.value(std::int64_t{42});
  CHECK(out == "prefix:42");
  CHECK(&w.text() == &out);
}

}  // namespace
}  // namespace massive
