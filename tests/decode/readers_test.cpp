// The row_context readers that generated models are written with, on a hand-written model
// in the generated form: every field type with good input, null, absent and the wrong type
// (strict: errors naming the full path, nested objects and array indices included), page-full,
// and a round trip through json_writer.
#include "decode/row_decoding.hpp"

#include "massive/json_writer.hpp"

#include "../support/allocation_counter.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace massive::detail {
namespace {

using namespace std::chrono_literals;
using std::chrono::year_month_day;

struct level {
  double price = 0;                      // [p] required
  std::optional<std::int64_t> size;      // [s]
  std::optional<std::string_view> venue; // [x]
};

struct session {
  double close = 0;                      // [c] required
  std::optional<year_month_day> date;    // [d]
  std::span<const level> bids;           // [bids]
};

struct sample {
  std::optional<std::string_view> name;  // [name]
  std::optional<bool> active;            // [active]
  year_month_day listed{};               // [listed] required
  std::optional<year_month_day> delisted;
  decimal lot{};                         // [lot]
  std::span<const std::string_view> tags;
  std::span<const double> weights;
  std::span<const std::int64_t> ids;
  std::span<const bool> flags;
  session day;                           // [day]
  std::optional<session> prev;           // [prev]
  std::span<const level> asks;           // [asks]
  json_value extra;                      // [extra]
  std::optional<json_value> meta;        // [meta]
  std::span<const keyed<level>> venues;  // [venues]: keys are venue names
  std::span<const keyed<double>> ratios; // [ratios]
};
static_assert(std::is_trivially_copyable_v<sample>);

[[gnu::always_inline]] inline void decode_level(row_context& ctx, od::object& object, level& out) {
  constexpr std::string_view required_names[] = {"p"};
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    switch (key[0]) {
      case 'p':
        if (key_is(key, "p") && ctx.read_double(value, "p", out.price)) seen |= 1;
        break;
      case 's':
        if (key_is(key, "s")) {
          std::int64_t v = 0;
          if (ctx.read_int64(value, "s", v)) {
            out.size = v;
          } else {
            out.size.reset();
          }
        }
        break;
      case 'x':
        if (key_is(key, "x")) ctx.read_string(value, "x", out.venue);
        break;
      default: break;
    }
  }
  if (seen != 1) ctx.missing(seen, 1, required_names);
}

[[gnu::always_inline]] inline void decode_session(row_context& ctx, od::object& object, session& out) {
  constexpr std::string_view required_names[] = {"c"};
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    switch (key[0]) {
      case 'b':
        if (key_is(key, "bids")) ctx.read_object_array<level, decode_level>(value, "bids", out.bids);
        break;
      case 'c':
        if (key_is(key, "c") && ctx.read_double(value, "c", out.close)) seen |= 1;
        break;
      case 'd':
        if (key_is(key, "d")) ctx.read_date(value, "d", out.date);
        break;
      default: break;
    }
  }
  if (seen != 1) ctx.missing(seen, 1, required_names);
}

[[gnu::always_inline]] inline void decode_sample(row_context& ctx, od::object& object, sample& row) {
  constexpr std::string_view required_names[] = {"listed"};
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    switch (key[0]) {
      case 'a':
        if (key_is(key, "active")) {
          ctx.read_bool(value, "active", row.active);
        } else if (key_is(key, "asks")) {
          ctx.read_object_array<level, decode_level>(value, "asks", row.asks);
        }
        break;
      case 'd':
        if (key_is(key, "day")) {
          ctx.read_object<session, decode_session>(value, "day", row.day);
        } else if (key_is(key, "delisted")) {
          ctx.read_date(value, "delisted", row.delisted);
        }
        break;
      case 'e':
        if (key_is(key, "extra")) ctx.read_json(value, "extra", row.extra);
        break;
      case 'f':
        if (key_is(key, "flags")) ctx.read_bool_array(value, "flags", row.flags);
        break;
      case 'i':
        if (key_is(key, "ids")) ctx.read_int64_array(value, "ids", row.ids);
        break;
      case 'l':
        if (key_is(key, "listed")) {
          if (ctx.read_date(value, "listed", row.listed)) seen |= 1;
        } else if (key_is(key, "lot")) {
          ctx.read_decimal(value, "lot", row.lot);
        }
        break;
      case 'm':
        if (key_is(key, "meta")) ctx.read_json(value, "meta", row.meta);
        break;
      case 'n':
        if (key_is(key, "name")) ctx.read_string(value, "name", row.name);
        break;
      case 'p':
        if (key_is(key, "prev")) ctx.read_object<session, decode_session>(value, "prev", row.prev);
        break;
      case 'r':
        if (key_is(key, "ratios")) ctx.read_double_map(value, "ratios", row.ratios);
        break;
      case 't':
        if (key_is(key, "tags")) ctx.read_string_array(value, "tags", row.tags);
        break;
      case 'v':
        if (key_is(key, "venues")) ctx.read_string_map<level, decode_level>(value, "venues", row.venues);
        break;
      case 'w':
        if (key_is(key, "weights")) ctx.read_double_array(value, "weights", row.weights);
        break;
      default: break;
    }
  }
  if (seen != 1) ctx.missing(seen, 1, required_names);
}

/// Decodes bodies (JSON arrays of rows) into one page under construction, batch by batch as
/// the decoder does, under decode_policy::strict: every surprise is an error to check here
/// (the lenient policy is leniency_test.cpp's).
class harness {
 public:
  explicit harness(page_pool::options options = {}, decode_policy policy = decode_policy::strict)
      : pool_(std::make_shared<page_pool>(options)) {
    builder_.set_policy(policy);
    builder_.start(pool_, sizeof(sample));
  }

  /// A padded copy of body, kept as long as the harness.
  std::string& keep(std::string_view body) {
    std::string& text = bodies_.emplace_back(body);
    text.resize(body.size() + simdjson::SIMDJSON_PADDING, ' ');
    return text;
  }
  std::span<const sample> decode(std::string_view body, row_path path = {"results", true}) {
    return decode_kept(keep(body), body.size(), path);
  }
  std::span<const sample> decode_kept(std::string& text, std::size_t length, row_path path = {"results", true}) {
    const std::size_t first_row = builder_.row_count();
    batch b{parser_, text.data(), length, text.size(), builder_, path, first_row};
    decode_rows<sample, decode_sample>(b);
    const auto* rows = reinterpret_cast<const sample*>(builder_.row_end()) - (builder_.row_count() - first_row);
    return {rows, builder_.row_count() - first_row};
  }
  sample one(std::string_view row) {
    std::string body = "[";
    body += row;
    body += ']';
    const auto rows = decode(body);
    REQUIRE(rows.size() == 1);
    return rows[0];
  }

  const page_leniency& leniency() { return builder_.leniency(); }

 private:
  std::shared_ptr<page_pool> pool_;
  page_builder builder_;
  od::parser parser_;
  std::vector<std::string> bodies_;
};

struct failure {
  decode_errc code{};
  std::string path;
  std::optional<std::size_t> row;
  std::string what;
};

failure failure_of(std::string_view row, row_path path = {"results", true}) {
  harness h;
  try {
    h.decode("[{\"listed\":\"2024-01-02\"}," + std::string(row) + "]", path);
  } catch (const decode_error& e) {
    return {e.code(), e.field_path(), e.row(), e.what()};
  }
  FAIL("no decode_error for " << row);
  return {};
}

constexpr const char* full_row = R"({
  "name": "Acme \"A\" \u00e9", "active": true, "listed": "1999-12-31", "delisted": "2024-02-29",
  "lot": "100.50", "tags": ["a", "b\\c", "", "\n"], "weights": [1, 2.5, -1e300, 0],
  "ids": [9223372036854775807, -9223372036854775808, 1.0e3], "flags": [true, false, true],
  "day": {"c": 10.25, "d": "2024-06-03", "bids": [{"p": 1.5, "s": 10}, {"p": 2, "x": "NYSE"}]},
  "prev": {"bids": [], "c": 9.75},
  "asks": [{"p": 3, "s": null}, {"x": "\u0041RCA", "p": 4}],
  "extra": {"k": [1, {"z": null}], "s": "\"}"} ,
  "meta": [ 1, "two" ]  ,
  "venues": {"XNAS": {"p": 5}, "a\"b": {"p": 6, "s": 7}},
  "ratios": {"pe": 21.5, "pb": 3},
  "unknown": {"nested": [1, 2, 3]}
})";

TEST_CASE("every reader reads a good row") {
  harness h;
  const sample r = h.one(full_row);
  CHECK(r.name == "Acme \"A\" \xc3\xa9");
  CHECK(r.active == true);
  CHECK(r.listed == year_month_day{1999y / 12 / 31});
  CHECK(r.delisted == year_month_day{2024y / 2 / 29});
  CHECK(r.lot == decimal(10050, 2));
  CHECK(r.lot.to_string() == "100.50");
  REQUIRE(r.tags.size() == 4);
  CHECK(r.tags[0] == "a");
  CHECK(r.tags[1] == "b\\c");
  CHECK(r.tags[2].empty());
  CHECK(r.tags[3] == "\n");
  CHECK(std::vector<double>(r.weights.begin(), r.weights.end()) == std::vector<double>{1, 2.5, -1e300, 0});
  CHECK(std::vector<std::int64_t>(r.ids.begin(), r.ids.end()) ==
        std::vector<std::int64_t>{INT64_MAX, INT64_MIN, 1000});
  CHECK(std::vector<bool>(r.flags.begin(), r.flags.end()) == std::vector<bool>{true, false, true});
  CHECK(r.day.close == 10.25);
  CHECK(r.day.date == year_month_day{2024y / 6 / 3});
  REQUIRE(r.day.bids.size() == 2);
  CHECK(r.day.bids[0].price == 1.5);
  CHECK(r.day.bids[0].size == 10);
  CHECK(!r.day.bids[0].venue);
  CHECK(r.day.bids[1].price == 2);
  CHECK(!r.day.bids[1].size);
  CHECK(r.day.bids[1].venue == "NYSE");
  REQUIRE(r.prev);
  CHECK(r.prev->close == 9.75);
  CHECK(r.prev->bids.empty());
  CHECK(!r.prev->date);
  REQUIRE(r.asks.size() == 2);
  CHECK(r.asks[0].price == 3);
  CHECK(!r.asks[0].size);
  CHECK(r.asks[1].venue == "ARCA");
  CHECK(r.asks[1].price == 4);
  CHECK(r.extra.text() == R"({"k": [1, {"z": null}], "s": "\"}"})");
  REQUIRE(r.meta);
  CHECK(r.meta->text() == R"([ 1, "two" ])");
  REQUIRE(r.venues.size() == 2);
  CHECK(r.venues[0].key == "XNAS");
  CHECK(r.venues[0].value.price == 5);
  CHECK(r.venues[1].key == "a\"b");
  CHECK(r.venues[1].value.price == 6);
  CHECK(r.venues[1].value.size == 7);
  REQUIRE(r.ratios.size() == 2);
  CHECK(r.ratios[0].key == "pe");
  CHECK(r.ratios[0].value == 21.5);
  CHECK(r.ratios[1].key == "pb");
  CHECK(r.ratios[1].value == 3);
}

TEST_CASE("strings, keys and JSON texts live in the arena, not in the input or the parser") {
  harness h;
  const sample r = h.one(full_row);
  // A second batch reuses the parser's string buffer and the first body is gone from view;
  // the first row must not change.
  h.decode(R"([{"listed":"2000-01-01","tags":["XXXXXXXX","YYYYYYYY","ZZZZ","WWWW"],
                "ratios":{"QQ":1,"RR":2},"extra":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}])");
  CHECK(r.tags[0] == "a");
  CHECK(r.tags[1] == "b\\c");
  CHECK(r.ratios[0].key == "pe");
  CHECK(r.ratios[1].key == "pb");
  CHECK(r.venues[1].key == "a\"b");
  CHECK(r.extra.text() == R"({"k": [1, {"z": null}], "s": "\"}"})");
}

TEST_CASE("null and absent read as absent; empty arrays and objects as empty") {
  harness h;
  const std::string nulls = R"({"listed":"2024-01-02","name":null,"active":null,"delisted":null,"lot":null,
      "tags":null,"weights":null,"ids":null,"flags":null,"day":null,"prev":null,"asks":null,"extra":null,
      "meta":null,"venues":null,"ratios":null})";
  const std::string empties = R"({"listed":"2024-01-02","tags":[],"weights":[],"ids":[],"flags":[],
      "asks":[],"venues":{},"ratios":{},"extra":{},"meta":[],"day":{"c":1,"bids":[]}})";
  for (const std::string& body : {nulls, std::string(R"({"listed":"2024-01-02"})"), empties}) {
    CAPTURE(body);
    const sample r = h.one(body);
    CHECK(!r.name);
    CHECK(!r.active);
    CHECK(!r.delisted);
    CHECK(r.lot == decimal{});
    CHECK(r.tags.empty());
    CHECK(r.weights.empty());
    CHECK(r.ids.empty());
    CHECK(r.flags.empty());
    CHECK(r.day.bids.empty());
    CHECK(!r.prev);
    CHECK(r.asks.empty());
    CHECK(r.venues.empty());
    CHECK(r.ratios.empty());
    if (body == empties) {
      CHECK(r.extra.text() == "{}");
      CHECK(r.meta == json_value("[]"));
    } else {
      CHECK(r.extra.empty());
      CHECK(!r.meta);
    }
  }
  // A null after a value resets it: the last occurrence of a key wins.
  const sample r = h.one(R"({"listed":"2024-01-02","name":"x","name":null,"meta":1,"meta":null,"prev":{"c":1},"prev":null})");
  CHECK(!r.name);
  CHECK(!r.meta);
  CHECK(!r.prev);
}

TEST_CASE("lenient: an object without a true value for a required field is left out, never shown with a default") {
  // Issue 30: a required field that is absent, null or a value its type cannot hold used to
  // leave its object in the page with the field's default (0, 1970-01-01). Seen failing with
  // builder_.mark_incomplete() removed from row_context::missing: "REQUIRE( 4 == 2 )", every
  // row kept.
  harness h({}, decode_policy::lenient);
  const auto rows = h.decode(R"([{"listed":"2024-01-02","prev":{"c":"n/a"},"asks":[{"p":1},{"p":[2]},{"s":3},{"p":4}],
      "venues":{"A":{"p":5},"B":{"p":null},"C":{"p":6}}},
    {"listed":"2024-01-02","day":{"c":{"x":1}}},
    {"listed":99999999999999999999999999999},
    {"listed":"2024-01-03","day":{"c":7,"bids":[{"p":"x"}]}}])");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].listed == year_month_day{2024y / 1 / 2});
  CHECK_FALSE(rows[0].prev.has_value());
  REQUIRE(rows[0].asks.size() == 2);
  CHECK(rows[0].asks[0].price == 1);
  CHECK(rows[0].asks[1].price == 4);
  REQUIRE(rows[0].venues.size() == 2);
  CHECK(rows[0].venues[0].key == "A");
  CHECK(rows[0].venues[1].key == "C");
  // A required nested object (`day`) lacking its required field takes its row with it; an
  // element of its array lacking one is only left out itself.
  CHECK(rows[1].listed == year_month_day{2024y / 1 / 3});
  CHECK(rows[1].day.close == 7);
  CHECK(rows[1].day.bids.empty());
  const page_leniency& l = h.leniency();
  CHECK(l.dropped_rows == 2);
  // prev.c, asks[1].p, asks[2].p, venues.B.p, day.c, listed, day.bids[0].p.
  CHECK(l.missing == 7);
  // "n/a", [2], {"x":1}, the 30-digit date, "x".
  CHECK(l.skipped == 5);
  CHECK(l.lossy());
}

TEST_CASE("lenient: an array element of another type is coerced as a field of its type is, else left out") {
  // One reader over every element type (read_array), so one rule: a string holding a number
  // in a double array is coerced as it is in an integer array or a double field, a number in
  // a string array becomes its text as a string field's does; a null element is left out.
  // regression: element_fallback<double> made `read = false` (a double element of another
  // type dropped unread) -> fails with weights != {1, 2.5}, coerced 3 != 4, skipped 8 != 10
  // regression: the null element's surprise() dropped -> fails with skipped 6 != 10
  harness h({}, decode_policy::lenient);
  const sample r = h.one(R"({"listed":"2024-01-02","tags":["a",1,true,null,{"b":2}],
      "weights":[1,"2.5",null,"x",[3]],"ids":[1,"7",1.0e3,1.5,null],"flags":[true,1,null,"false"]})");
  CHECK(std::vector<std::string_view>(r.tags.begin(), r.tags.end()) == std::vector<std::string_view>{"a", "1", "true"});
  CHECK(std::vector<double>(r.weights.begin(), r.weights.end()) == std::vector<double>{1, 2.5});
  CHECK(std::vector<std::int64_t>(r.ids.begin(), r.ids.end()) == std::vector<std::int64_t>{1, 7, 1000});
  CHECK(std::vector<bool>(r.flags.begin(), r.flags.end()) == std::vector<bool>{true});
  const page_leniency& l = h.leniency();
  CHECK(l.coerced == 4);   // tags 1 and true, weights "2.5", ids "7"; 1.0e3 is an exact integer
  CHECK(l.skipped == 10);  // tags null, {}; weights null, "x", [3]; ids 1.5, null; flags 1, null, "false"
}

TEST_CASE("free-form values of every JSON type keep their text") {
  harness h;
  for (const std::string_view text : {R"("a \"b\" \\ \u00e9")", "-1.5e-3", "0", "true", "false", "[]", "{}",
                                       R"([[[]],{"a":{"b":[null]}}])", R"({"":""})"}) {
    CAPTURE(text);
    const sample r = h.one(R"({"listed":"2024-01-02","extra":)" + std::string(text) + " \n\t,\"name\":\"after\"}");
    CHECK(r.extra.text() == text);
    CHECK(r.name == "after");  // the field after the free-form value is still read
    const sample last = h.one(R"({"listed":"2024-01-02","extra":)" + std::string(text) + "}");
    CHECK(last.extra.text() == text);
  }
}

TEST_CASE("errors name the full path, through nested objects, arrays and maps") {
  struct expectation {
    std::string_view row;
    std::string_view path;
    decode_errc code;
  };
  const expectation cases[] = {
      {R"({"listed":"2024-01-02","name":5})", "results[1].name", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","active":"yes"})", "results[1].active", decode_errc::wrong_type},
      {R"({"listed":20240102})", "results[1].listed", decode_errc::wrong_type},
      {R"({"listed":"2024-1-02"})", "results[1].listed", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02T00:00:00Z"})", "results[1].listed", decode_errc::wrong_type},
      {R"({"listed":"2024-0a-02"})", "results[1].listed", decode_errc::wrong_type},
      {R"({"listed":"2023-02-29"})", "results[1].listed", decode_errc::out_of_range},
      {R"({"listed":"2024-13-01"})", "results[1].listed", decode_errc::out_of_range},
      {R"({"listed":"0000-01-01"})", "results[1].listed", decode_errc::out_of_range},
      {R"({"listed":null})", "results[1].listed", decode_errc::missing_field},
      {R"({"listed":"2024-01-02","delisted":"2024-04-31"})", "results[1].delisted", decode_errc::out_of_range},
      {R"({"listed":"2024-01-02","lot":"abc"})", "results[1].lot", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","lot":true})", "results[1].lot", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","tags":"a"})", "results[1].tags", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","tags":["a",1]})", "results[1].tags[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","tags":["a",null]})", "results[1].tags[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","weights":{}})", "results[1].weights", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","weights":[1,2,"3"]})", "results[1].weights[2]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ids":[1,1.5]})", "results[1].ids[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ids":[null]})", "results[1].ids[0]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ids":[0,"7"]})", "results[1].ids[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ids":[1e300]})", "results[1].ids[0]", decode_errc::out_of_range},
      {R"({"listed":"2024-01-02","flags":[true,1]})", "results[1].flags[1]", decode_errc::wrong_type},
      // Broken JSON inside an array names the element, whatever the element type.
      // regression: element_fallback's context made child(key) (no index) -> fails with path
      // "results[1].weights" != "results[1].weights[1]" here, and likewise for every array case
      {R"({"listed":"2024-01-02","weights":[1,-]})", "results[1].weights[1]", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","ids":[1,2-]})", "results[1].ids[1]", decode_errc::invalid_json},
      // regression: element_fallback<bool> counting any failure as a skipped wrong type (as
      // skip_element did) -> fails with code 3 (wrong_type) != 1 (invalid_json) for `tru`
      {R"({"listed":"2024-01-02","flags":[true,tru]})", "results[1].flags[1]", decode_errc::invalid_json},
      // regression: element_fallback's check of simdjson's error removed -> fails with code
      // 3 (wrong_type) != 1 (invalid_json): a bad escape taken for a value of another type
      {R"({"listed":"2024-01-02","tags":["a","\x"]})", "results[1].tags[1]", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","day":5})", "results[1].day", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","day":{"c":"x"}})", "results[1].day.c", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","day":{}})", "results[1].day.c", decode_errc::missing_field},
      {R"({"listed":"2024-01-02","day":{"c":1,"d":"2024-02-30"}})", "results[1].day.d", decode_errc::out_of_range},
      {R"({"listed":"2024-01-02","day":{"c":1,"bids":[{"p":1},{"p":2},{"p":"x"}]}})", "results[1].day.bids[2].p",
       decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","day":{"c":1,"bids":[{"p":1},{"s":2}]}})", "results[1].day.bids[1].p",
       decode_errc::missing_field},
      {R"({"listed":"2024-01-02","prev":{"c":1,"bids":[{"p":1,"s":1.5}]}})", "results[1].prev.bids[0].s",
       decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","prev":[]})", "results[1].prev", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","asks":[{"p":1},7]})", "results[1].asks[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","asks":[{"p":1},null]})", "results[1].asks[1]", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","asks":[{"p":1,"x":[]}]})", "results[1].asks[0].x", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","asks":{"p":1}})", "results[1].asks", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","venues":{"XNAS":{"p":"5"}}})", "results[1].venues.XNAS.p", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","venues":{"XNAS":{"p":5},"ARCA":3}})", "results[1].venues.ARCA",
       decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","venues":{"XNAS":{}}})", "results[1].venues.XNAS.p", decode_errc::missing_field},
      {R"({"listed":"2024-01-02","venues":[]})", "results[1].venues", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ratios":{"pe":"x"}})", "results[1].ratios.pe", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ratios":{"pe":null}})", "results[1].ratios.pe", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","ratios":1})", "results[1].ratios", decode_errc::wrong_type},
      {R"({"listed":"2024-01-02","extra":{"a":tru}})", "results[1].extra", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","extra":[1,,2]})", "results[1].extra", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","extra":{"a":01}})", "results[1].extra", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","extra":{"a":"\x"}})", "results[1].extra", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","meta":nul})", "results[1].meta", decode_errc::invalid_json},
      {R"({"listed":"2024-01-02","meta":-})", "results[1].meta", decode_errc::invalid_json},
  };
  for (const expectation& c : cases) {
    CAPTURE(c.row);
    const failure f = failure_of(c.row);
    CHECK(f.path == c.path);
    CHECK(f.code == c.code);
    CHECK(f.row == 1u);
  }
}

TEST_CASE("a single top-level row names its nested fields without a prefix") {
  const failure f = failure_of(R"({"listed":"2024-01-02","day":{"c":1,"bids":[{"p":true}]}})", {"", false});
  CHECK(f.path == "day.bids[0].p");
  CHECK(f.code == decode_errc::wrong_type);
}

TEST_CASE("what does not fit the arena is a page-full error, not an overrun") {
  // Two OS pages: the arena holds about 8 KB.
  page_pool::options small;
  small.region_bytes = 8192;
  const auto repeat = [](std::string_view item, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += ',';
      out += item;
    }
    return out;
  };
  const std::string rows[] = {
      R"({"listed":"2024-01-02","weights":[)" + repeat("1.5", 1100) + "]}",
      R"({"listed":"2024-01-02","ids":[)" + repeat("7", 1100) + "]}",
      R"({"listed":"2024-01-02","flags":[)" + repeat("true", 8200) + "]}",
      R"({"listed":"2024-01-02","tags":[)" + repeat(R"("ab")", 600) + "]}",
      R"({"listed":"2024-01-02","tags":[)" + repeat(R"("abcdefghijklmnopqrstuvwxyz")", 300) + "]}",
      R"({"listed":"2024-01-02","asks":[)" + repeat(R"({"p":1})", 300) + "]}",
      R"({"listed":"2024-01-02","asks":[)" + repeat(R"({"p":1,"x":")" + std::string(100, 'v') + R"("})", 70) + "]}",
      R"({"listed":"2024-01-02","ratios":{)" + repeat(R"("k":1)", 400) + "}}",
      R"({"listed":"2024-01-02","venues":{)" + repeat(R"("k":{"p":1})", 200) + "}}",
      R"({"listed":"2024-01-02","extra":[)" + repeat("1", 4500) + "]}",
  };
  for (const std::string& row : rows) {
    CAPTURE(row.substr(0, 60));
    harness h(small);
    try {
      h.decode("[" + row + "]");
      FAIL("no decode_error");
    } catch (const decode_error& e) {
      CHECK(e.code() == decode_errc::too_long);
      CHECK(std::string_view(e.what()).find("region_bytes") != std::string_view::npos);
    }
  }
  // The same kinds of values well within the arena decode (the limit is not too eager).
  harness h(small);
  const sample r = h.one(R"({"listed":"2024-01-02","weights":[)" + repeat("1.5", 200) + R"(],"tags":[)" +
                         repeat(R"("ab")", 100) + R"(],"asks":[)" + repeat(R"({"p":1})", 50) + "]}");
  CHECK(r.weights.size() == 200);
  CHECK(r.tags.size() == 100);
  CHECK(r.asks.size() == 50);
}

TEST_CASE("nested objects and arrays allocate nothing once the parser is warm") {
  if (!test::counting_enabled) return;
  harness h;
  std::string body = "[";
  for (int i = 0; i < 200; ++i) {
    if (i > 0) body += ',';
    body += full_row;
  }
  body += "]";
  h.decode(body);  // the parser sizes its buffers once
  std::string& again = h.keep(body);
  // Seen failing when read_object() spelled its child's path on the success path
  // (std::string p = nested.path_of({})): 200 calls > 0.
  test::allocation_scope scope;
  const auto rows = h.decode_kept(again, body.size());
  const std::uint64_t calls = scope.calls();
  CHECK(calls == 0);
  CHECK(rows.size() == 200);
}

// The writer of the sample model, in the form the generator emits: optional fields only
// when present.
void write_json(json_writer& w, const level& v) {
  w.begin_object();
  w.field("p", v.price);
  w.field("s", v.size);
  w.field("x", v.venue);
  w.end_object();
}
void write_json(json_writer& w, const session& v) {
  w.begin_object();
  w.field("c", v.close);
  w.field("d", v.date);
  w.field("bids", v.bids);
  w.end_object();
}
void write_json(json_writer& w, const sample& v) {
  w.begin_object();
  w.field("name", v.name);
  w.field("active", v.active);
  w.field("listed", v.listed);
  w.field("delisted", v.delisted);
  w.field("lot", v.lot);
  w.field("tags", v.tags);
  w.field("weights", v.weights);
  w.field("ids", v.ids);
  w.field("flags", v.flags);
  w.field("day", v.day);
  w.field("prev", v.prev);
  w.field("asks", v.asks);
  w.field("extra", v.extra);
  w.field("meta", v.meta);
  w.field("venues", v.venues);
  w.field("ratios", v.ratios);
  w.end_object();
}

bool same(const level& a, const level& b) { return a.price == b.price && a.size == b.size && a.venue == b.venue; }
bool same(std::span<const level> a, std::span<const level> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const level& x, const level& y) { return same(x, y); });
}
bool same(const session& a, const session& b) { return a.close == b.close && a.date == b.date && same(a.bids, b.bids); }

TEST_CASE("a decoded row written with json_writer decodes to the same row") {
  harness h;
  const sample a = h.one(full_row);
  const std::string text = to_json(a);
  CAPTURE(text);
  const sample b = h.one(text);
  CHECK(a.name == b.name);
  CHECK(a.active == b.active);
  CHECK(a.listed == b.listed);
  CHECK(a.delisted == b.delisted);
  CHECK(a.lot.to_string() == b.lot.to_string());
  CHECK(std::ranges::equal(a.tags, b.tags));
  CHECK(std::ranges::equal(a.weights, b.weights));
  CHECK(std::ranges::equal(a.ids, b.ids));
  CHECK(std::ranges::equal(a.flags, b.flags));
  CHECK(same(a.day, b.day));
  REQUIRE(b.prev);
  CHECK(same(*a.prev, *b.prev));
  CHECK(same(a.asks, b.asks));
  CHECK(a.extra == b.extra);  // raw text written and read back byte for byte
  CHECK(a.meta == b.meta);
  REQUIRE(a.venues.size() == b.venues.size());
  for (std::size_t i = 0; i < a.venues.size(); ++i) {
    CHECK(a.venues[i].key == b.venues[i].key);
    CHECK(same(a.venues[i].value, b.venues[i].value));
  }
  REQUIRE(a.ratios.size() == b.ratios.size());
  for (std::size_t i = 0; i < a.ratios.size(); ++i) {
    CHECK(a.ratios[i].key == b.ratios[i].key);
    CHECK(a.ratios[i].value == b.ratios[i].value);
  }
}

}  // namespace
}  // namespace massive::detail
