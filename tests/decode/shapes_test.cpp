// Where the rows are (payload shapes), what the envelope carries, and how fields read:
// envelope keys before or after the results, unknown keys of every size and type, null as
// absent, escapes, the wire's number forms.
#include "bodies.hpp"
#include "reference.hpp"

#include "massive/models/indicator_value.hpp"
#include "massive/underlying.hpp"

#include <simdjson.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace massive::test {
namespace {

const std::string row_a = R"({"v":1.0e+06,"vw":10.5,"o":10,"c":11,"h":12,"l":9,"t":1600000000000,"n":5})";
const std::string row_b = R"({"v":1748755.0,"o":1,"c":2,"h":3,"l":0.5,"t":1600000060000,"otc":true})";

template <class T>
page<T> decode(std::string_view body, payload_shape shape = payload_shape::results_array, std::size_t chunk = 3) {
  page_decoder<T> decoder(make_page_pool(), shape);
  feed_chunks(decoder, body, chunk);
  return decoder.take();
}

TEST_CASE("envelope fields are read in any order, before or after the results") {
  const std::string envelope =
      R"("status":"OK","request_id":"abc","next_url":"https://api.massive.com/v3/x?cursor=a\u0026b=\"c\"","ticker":"AAPL","count":2,"queryCount":1.0e+01,"resultsCount":2,"adjusted":false)";
  for (const std::string& body : {"{" + envelope + R"(,"results":[)" + row_a + "," + row_b + "]}",
                                 R"({"results":[)" + row_a + "," + row_b + "]," + envelope + "}"}) {
    CAPTURE(body);
    const page<agg> p = decode<agg>(body);
    CHECK(p.size() == 2);
    CHECK(p.envelope().status == "OK");
    CHECK(p.request_id() == "abc");
    CHECK(p.next_url() == R"(https://api.massive.com/v3/x?cursor=a&b="c")");
    CHECK(p.envelope().ticker == "AAPL");
    CHECK(p.envelope().count == 2);
    CHECK(p.envelope().query_count == 10);
    CHECK(p.envelope().results_count == 2);
    CHECK(p.envelope().adjusted == false);
    CHECK(dom_diff(body, p) == "");
  }
}

TEST_CASE("null envelope fields are absent; unknown keys of any size are skipped") {
  const std::string big(300'000, 'x');
  const std::string body = R"({"status":null,"count":null,"adjusted":null,"huge":")" + big +
                           R"(","nested":{"a":[{"b":"]}"},[[],{}]],"c":"\\\""},"results":[)" + row_a +
                           R"(],"after":[1,2,{"x":null}],"request_id":"r"})";
  const page<agg> p = decode<agg>(body, payload_shape::results_array, 4096);
  CHECK(p.size() == 1);
  CHECK(p.envelope().status.empty());
  CHECK_FALSE(p.envelope().count.has_value());
  CHECK_FALSE(p.envelope().adjusted.has_value());
  CHECK(p.request_id() == "r");
}

TEST_CASE("absent, null and empty results give an empty page with its envelope") {
  for (const char* body : {R"({"status":"OK","request_id":"e"})", R"({"results":null,"request_id":"e"})",
                           R"({"results":[],"request_id":"e"})", R"({"request_id":"e","results":[ ] })"}) {
    CAPTURE(body);
    const page<agg> p = decode<agg>(body);
    CHECK(p.empty());
    CHECK(p.begin() == p.end());
    CHECK(p.request_id() == "e");
  }
}

TEST_CASE("agg fields: number forms, absent optionals, null as absent, unknown keys") {
  const std::string body = std::string(R"({"results":[)") + row_a + "," + row_b +
                           R"(,{"v":135647456,"vw":null,"o":1,"c":1,"h":1,"l":1,"t":1,"n":null,"otc":null,"T":"X","z":{"o":7}})" +
                           R"(,{"\u006f":99,"o":2,"c":2,"h":2,"l":2,"t":2,"v":2.384421e+06,"n":1.0e+03}]})";
  const page<agg> p = decode<agg>(body);
  // An escaped key is not read as the key it spells (key_is() compares keys as sent), and it
  // may spell a declared one ("\u006f" is "o", given twice here): the fourth row is left out,
  // never shown with one of its two opens.
  // regression: unknown_key without has_escape -> fails with "REQUIRE( 4 == 3 )" (the row kept, open 2)
  REQUIRE(p.size() == 3);
  CHECK(p.leniency().dropped_rows == 1);
  CHECK(p.leniency().skipped == 1);
  CHECK(p.leniency().first == "results[3].\\u006f");
  CHECK(p[0].volume == 1'000'000.0);
  CHECK(p[0].vwap == 10.5);
  CHECK(p[0].transactions == 5);
  CHECK_FALSE(p[0].otc);
  CHECK(p[1].volume == 1'748'755.0);
  CHECK_FALSE(p[1].vwap.has_value());
  CHECK_FALSE(p[1].transactions.has_value());
  CHECK(p[1].otc);
  CHECK(p[1].timestamp.count() == 1600000060000);
  CHECK(p[2].volume == 135'647'456.0);
  CHECK_FALSE(p[2].vwap.has_value());
  CHECK_FALSE(p[2].transactions.has_value());
  CHECK(p[2].open == 1.0);  // the nested "o" belongs to an unknown key
}

TEST_CASE("a key written with escapes leaves its row out, whichever key it spells") {
  const std::string row = R"("o":2,"c":2,"h":2,"l":2,"t":2,"v":2.384421e+06,"n":1.0e+03)";
  // Alone ("\u0076w" is vw), after a plain twin, or a key the model lacks: what it spells is
  // not read, so the row is left out either way (errors_test.cpp: strict and the envelope).
  for (const std::string escaped : {R"("\u0076w":1)", R"("o":3,"\u006f":99)", R"("x\ty":1)"}) {
    CAPTURE(escaped);
    const page<agg> p = decode<agg>(R"({"results":[{)" + row + "},{" + escaped + "," + row.substr(6) + "}]}");
    REQUIRE(p.size() == 1);
    CHECK(p[0].open == 2.0);
    CHECK(p[0].transactions == 1000);  // an integral float form is still the integer
    CHECK(p.leniency().dropped_rows == 1);
    CHECK(p.leniency().lossy());
  }
}

// The server sends a row's keys in one fixed order, but the decoders must not depend on it
// (nor would a decoder that first expects that order: docs/maintainers/performance.md). Whatever the
// order, with optionals left out or unknown keys anywhere, the rows must be those of a DOM
// parse and equal to the row read in the server's order.
using key_values = std::vector<std::pair<std::string, std::string>>;

std::string object_of(const key_values& fields) {
  std::string out = "{";
  for (const auto& [key, value] : fields) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += key;
    out += "\":";
    out += value;
  }
  out += '}';
  return out;
}

// Rows of `fields` in other orders: every rotation, the reverse, each field moved to the
// front, each optional one left out, an unknown key at every position, then `shuffles`
// random orders (fixed seed).
std::vector<key_values> reorderings(const key_values& fields, const std::vector<std::string>& optional, int shuffles) {
  std::vector<key_values> out{fields};
  for (std::size_t i = 1; i < fields.size(); ++i) {
    key_values rotated = fields;
    std::rotate(rotated.begin(), rotated.begin() + static_cast<std::ptrdiff_t>(i), rotated.end());
    out.push_back(rotated);
  }
  out.emplace_back(fields.rbegin(), fields.rend());
  for (std::size_t i = 1; i < fields.size(); ++i) {
    key_values moved = fields;
    std::rotate(moved.begin(), moved.begin() + static_cast<std::ptrdiff_t>(i), moved.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    out.push_back(moved);
  }
  for (const std::string& key : optional) {
    key_values without = fields;
    std::erase_if(without, [&](const auto& f) { return f.first == key; });
    out.push_back(without);
  }
  for (std::size_t i = 0; i <= fields.size(); ++i) {
    key_values with = fields;
    with.insert(with.begin() + static_cast<std::ptrdiff_t>(i), {"zz", R"({"o":[7],"price":"x"})"});
    out.push_back(with);
  }
  std::mt19937_64 rng(20260);
  for (int i = 0; i < shuffles; ++i) {
    key_values shuffled = fields;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    out.push_back(shuffled);
  }
  return out;
}

template <class T>
void check_reorderings(const key_values& fields, const std::vector<std::string>& optional) {
  const std::vector<key_values> rows = reorderings(fields, optional, 300);
  std::string body = R"({"results":[)";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i != 0) body += ',';
    body += object_of(rows[i]);
  }
  body += "]}";
  const page<T> p = decode<T>(body, payload_shape::results_array, 7);
  REQUIRE(p.size() == rows.size());
  CHECK(dom_diff(body, p) == "");
  // Every row holding the same fields decodes to the same row as the wire order.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].size() < fields.size()) continue;
    CAPTURE(object_of(rows[i]));
    CHECK(same_row(p[0], p[i]));
  }
}

TEST_CASE("keys in any order, left out or unknown, decode as in the server's order") {
  check_reorderings<agg>({{"v", "1748755.0"}, {"vw", "10.5"}, {"o", "10"}, {"c", "11"}, {"h", "12"}, {"l", "9"},
                          {"t", "1600000000000"}, {"n", "5"}, {"otc", "true"}},
                         {"vw", "n", "otc"});
  check_reorderings<trade>({{"conditions", "[12,37]"}, {"correction", "1"}, {"decimal_size", "\"0.5\""}, {"exchange", "4"},
                            {"id", "\"a1\""}, {"participant_timestamp", "1651181822461636581"}, {"price", "156.43"},
                            {"sequence_number", "7179341"}, {"sip_timestamp", "1651181822461979401"}, {"size", "0.5"},
                            {"tape", "3"}, {"trf_id", "2"}, {"trf_timestamp", "1651181557090806501"}},
                           {"conditions", "correction", "decimal_size", "tape", "trf_id", "trf_timestamp"});
  check_reorderings<quote>({{"ask_exchange", "15"}, {"ask_price", "155.87"}, {"ask_size", "3"}, {"bid_exchange", "19"},
                            {"bid_price", "155.85"}, {"bid_size", "4"}, {"conditions", "[1]"}, {"indicators", "[604]"},
                            {"participant_timestamp", "1652191872800402200"}, {"sequence_number", "19288684"},
                            {"sip_timestamp", "1652191872800638700"}, {"tape", "3"}, {"trf_timestamp", "1652191872800000000"}},
                           {"ask_exchange", "ask_price", "ask_size", "bid_exchange", "bid_price", "bid_size", "conditions",
                            "indicators", "tape", "trf_timestamp"});
}

// A key given twice keeps neither value (docs/guide/decoding.md): an optional field is absent,
// a required one leaves its row out. Seen failing with the generator's keys_met check left out
// (the last value kept, as before): "CHECK( 2 == 0 )" for the rows left out.
TEST_CASE("a repeated key: neither value kept, in the server's order or out of it") {
  const page<agg> p = decode<agg>(
      R"({"results":[{"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8,"vw":null},)"
      R"({"v":1,"v":10,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8},)"
      R"({"n":8,"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":null},)"
      R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"t":70}]})");
  REQUIRE(p.size() == 2);
  CHECK_FALSE(p[0].vwap.has_value());
  CHECK(p[0].open == 3.0);
  CHECK_FALSE(p[1].transactions.has_value());  // null or not, the second value counts as a repetition
  CHECK(p[1].volume == 1.0);
  CHECK(p.leniency().dropped_rows == 2);
  CHECK(p.leniency().skipped == 4);
}

// Aggregate rows exactly in the server's order are read by decode_agg_wire (find_field in
// that order); any other row, and the rest of its batch, by the field loop. Each deviation,
// placed among rows in the server's order at the start, middle and end of a body of several
// batches, must decode as the DOM reads it, the rows around it too.
std::string wire_agg(int i) {
  return R"({"v":)" + std::to_string(1000 + i) + R"(,"vw":10.5,"o":10,"c":11,"h":12,"l":9,"t":)" +
         std::to_string(1600000000000 + i) + R"(,"n":5})";
}

std::string body_with(int rows, int odd_row, const std::string& odd) {
  std::string body = R"({"results":[)";
  for (int i = 0; i < rows; ++i) {
    if (i != 0) body += ',';
    body += i == odd_row ? odd : wire_agg(i);
  }
  return body + R"(],"status":"OK"})";
}

TEST_CASE("aggregates in the server's order and every deviation from it decode as the DOM reads them") {
  const std::vector<std::string> odd = {
      wire_agg(7),                                                                              // none
      R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8,"otc":true})",                         // one more, last
      R"({"otc":true,"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8})",                         // one more, first
      R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8,"zz":{"a":[1,2]}})",                   // unknown, last
      R"({"v":1,"vw":2,"o":3,"zz":"a,b","c":4,"h":5,"l":6,"t":7,"n":8})",                         // unknown, inside
      R"({"zz":1,"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8})",                             // unknown, first
      R"({"v":1,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8})",                                           // vw left out
      R"({"v":1,"vw":null,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8})",                                 // vw null
      R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":1.0e+03})",                              // integer as float
      R"({ "v": 1 ,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8 })",                                // whitespace
      R"({"v":1,"vw":2,"c":4,"o":3,"h":5,"l":6,"t":7,"n":8})",                                    // two swapped
      R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7})",                                          // n left out
      R"({"v":1.2345678901234567890123,"vw":2.3456789012345678901234,"o":3.4567890123456789012,)"
      R"("c":4.5678901234567890123,"h":5.6789012345678901234,"l":6.7890123456789012345,"t":7,"n":8})",  // over 128 bytes
  };
  for (const std::string& row : odd) {
    for (const int at : {0, 1, 700, 1499}) {
      CAPTURE(row);
      CAPTURE(at);
      const std::string body = body_with(1500, at, row);  // about 110 KB: four 32 KiB batches
      for (const std::size_t chunk : {std::size_t{7}, std::size_t{16384}}) {
        const page<agg> p = decode<agg>(body, payload_shape::results_array, chunk);
        REQUIRE(p.size() == 1500);
        CHECK(dom_diff(body, p) == "");
      }
    }
  }
}

TEST_CASE("a key repeated in a row otherwise in the server's order: the row left out, its neighbours read") {
  // The wire path reads the first; the row's count of commas sends it to the field loop, which
  // leaves the row out (v is required) and reads the rest of the batch as the wire path would.
  const page<agg> at_end =
      decode<agg>(body_with(1500, 700, R"({"v":1,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8,"v":99})"));
  const page<agg> next =
      decode<agg>(body_with(1500, 700, R"({"v":1,"v":99,"vw":2,"o":3,"c":4,"h":5,"l":6,"t":7,"n":8})"));
  const page<agg> plain = decode<agg>(body_with(1500, -1, ""));
  for (const page<agg>* p : {&at_end, &next}) {
    REQUIRE(p->size() == 1499);
    CHECK(p->leniency().dropped_rows == 1);
    CHECK(p->leniency().first == "results[700].v");
    CHECK(same_row((*p)[699], plain[699]));
    CHECK(same_row((*p)[700], plain[701]));
    CHECK(same_row((*p)[1498], plain[1499]));
  }
}

TEST_CASE("trade fields: escaped ids, conditions in the arena, exact decimals and timestamps") {
  const std::string body =
      R"({"results":[{"conditions":[12,37,-1],"decimal_size":"0.3333","exchange":4,"id":"a\"b\\c\u00e9","participant_timestamp":1651181822461636581,"price":156.43,"sequence_number":9007199254740993,"sip_timestamp":1651181822461979401,"size":0.3333,"tape":3,"trf_id":0,"trf_timestamp":1651181557090806501},)"
      R"({"decimal_size":100.10,"exchange":1,"id":"","participant_timestamp":1,"price":1,"sequence_number":1,"sip_timestamp":2,"size":1,"conditions":[],"correction":null}]})";
  const page<trade> p = decode<trade>(body);
  REQUIRE(p.size() == 2);
  CHECK(p[0].id == "a\"b\\c\xC3\xA9");
  REQUIRE(p[0].conditions.size() == 3);
  CHECK(p[0].conditions[0] == 12);
  CHECK(p[0].conditions[2] == -1);
  CHECK(p[0].participant_timestamp.count() == 1651181822461636581);
  CHECK(p[0].sip_timestamp.count() == 1651181822461979401);
  CHECK(p[0].trf_timestamp->count() == 1651181557090806501);
  CHECK(p[0].sequence_number == 9007199254740993);
  CHECK(p[0].tape == 3);
  CHECK(p[0].trf_id == 0);
  CHECK_FALSE(p[0].correction.has_value());
  // A field of the newer descriptions (an older one's trade has no member for it). A decimal sent
  // as a JSON number is read from its text, trailing zero included.
  [](const auto& rows) {
    if constexpr (requires { rows[0].decimal_size; }) {
      CHECK(rows[0].decimal_size->to_string() == "0.3333");
      CHECK(rows[1].decimal_size->to_string() == "100.10");
    }
  }(p);
  CHECK(p[1].id.empty());
  CHECK(p[1].conditions.empty());
  CHECK_FALSE(p[1].tape.has_value());
  CHECK(dom_diff(body, p) == "");
}

TEST_CASE("results as one object") {
  const std::string body = R"({"status":"OK","results":)" + row_a + R"(,"request_id":"one"})";
  const page<agg> p = decode<agg>(body, payload_shape::results_object);
  REQUIRE(p.size() == 1);
  CHECK(p[0].open == 10.0);
  CHECK(p.request_id() == "one");
  CHECK(dom_diff(body, p, payload_shape::results_object) == "");
  CHECK(decode<agg>(R"({"results":null})", payload_shape::results_object).empty());
}

TEST_CASE("the whole document as the row") {
  const page<agg> p = decode<agg>("  " + row_b + "\n", payload_shape::document);
  REQUIRE(p.size() == 1);
  CHECK(p[0].otc);
  CHECK(p.envelope().status.empty());
}

TEST_CASE("a top-level array") {
  const std::string body = "[" + row_a + ",\n" + row_b + "]";
  const page<agg> p = decode<agg>(body, payload_shape::top_level_array);
  CHECK(p.size() == 2);
  CHECK(dom_diff(body, p, payload_shape::top_level_array) == "");
}

TEST_CASE("results.values with a sibling object kept as raw JSON") {
  const std::string underlying = R"({"aggregates":[{"c":75.0875,"t":1577941200000}],"url":"https://x/y?a=\"b\""})";
  for (const bool values_first : {true, false}) {
    const std::string values = R"("values":[)" + row_a + "," + row_b + "]";
    const std::string results = values_first ? "{" + values + R"(,"underlying":)" + underlying + R"(,"n":null})"
                                             : R"({"underlying":)" + underlying + R"(,"n":null,)" + values + "}";
    const std::string body = R"({"results":)" + results + R"(,"status":"OK","request_id":"ind"})";
    CAPTURE(body);
    const page<agg> p = decode<agg>(body, payload_shape::results_values);
    CHECK(p.size() == 2);
    CHECK(p.request_id() == "ind");
    CHECK(dom_diff(body, p, payload_shape::results_values) == "");
    const std::string_view extra = p.envelope().results_extra_json;
    CHECK(extra == R"({"underlying":)" + underlying + R"(,"n":null})");
    // It is one JSON object that any parser reads.
    simdjson::dom::parser parser;
    simdjson::dom::element e;
    REQUIRE(parser.parse(simdjson::padded_string(extra)).get(e) == simdjson::SUCCESS);
    CHECK(std::string_view(e["underlying"]["url"]) == "https://x/y?a=\"b\"");
  }
}

TEST_CASE("underlying(page): the indicators' aggregates as typed rows, and its errors named") {
  const std::string values = R"("values":[{"timestamp":1517562000016,"value":140.1}])";
  const auto body_with = [&](const std::string& underlying) {
    return R"({"results":{)" + values + (underlying.empty() ? "" : R"(,"underlying":)" + underlying) +
           R"(},"status":"OK"})";
  };
  SUBCASE("aggregates and url") {
    const auto p = decode<indicator_value>(
        body_with(R"({"url":"https://api.massive.com/v2/aggs/x","aggregates":[{"c":75.0875,"t":1577941200000,)"
                  R"("v":135647456,"vw":74.6099,"n":1},{"c":76.5,"t":1578027600000,"otc":true}]})"),
        payload_shape::results_values);
    const auto u = underlying(p);
    REQUIRE(u.has_value());
    CHECK(u->url == "https://api.massive.com/v2/aggs/x");
    REQUIRE(u->aggregates.size() == 2);
    CHECK(u->aggregates[0].close == 75.0875);
    CHECK(u->aggregates[0].timestamp == timestamp_ms::from_count(1577941200000));
    CHECK(u->aggregates[0].volume == 135647456.0);
    CHECK(u->aggregates[0].vwap == 74.6099);
    CHECK(u->aggregates[0].transactions == 1);
    CHECK(u->aggregates[1].otc == true);
    CHECK_FALSE(u->aggregates[1].volume.has_value());
  }
  SUBCASE("none sent: nullopt; url alone: no rows") {
    CHECK_FALSE(underlying(decode<indicator_value>(body_with(""), payload_shape::results_values)).has_value());
    const auto u = underlying(decode<indicator_value>(body_with(R"({"url":"u"})"), payload_shape::results_values));
    REQUIRE(u.has_value());
    CHECK(u->url == "u");
    CHECK(u->aggregates.size() == 0);
  }
  SUBCASE("a wrong type names its member") {
    const auto fails_at = [&](const std::string& underlying, std::string_view path) {
      const auto p = decode<indicator_value>(body_with(underlying), payload_shape::results_values);
      try {
        (void)massive::underlying(p, decode_policy::strict);
        FAIL("no decode_error for " << underlying);
      } catch (const decode_error& e) {
        CHECK(e.field_path() == path);
        CHECK(std::string_view(e.what()).find(path) != std::string_view::npos);
      }
    };
    fails_at(R"({"url":5})", "results.underlying.url");
    fails_at(R"({"aggregates":{}})", "results.underlying.aggregates");
    fails_at("[]", "results.underlying");
    fails_at(R"({"aggregates":[{"c":1},{"c":"x"}]})", "results.underlying.aggregates[1].c");
  }
}

TEST_CASE("pages: move-only, independent of the decoder and of each other") {
  auto pool = make_page_pool();
  page_decoder<agg> decoder(pool);
  feed_chunks(decoder, R"({"results":[)" + row_a + R"(],"request_id":"first"})", 5);
  page<agg> first = decoder.take();
  feed_chunks(decoder, R"({"results":[)" + row_b + "," + row_b + R"(],"request_id":"second"})", 7);
  page<agg> second = decoder.take();
  CHECK(first.size() == 1);
  CHECK(first.request_id() == "first");
  CHECK(second.size() == 2);
  CHECK(second.request_id() == "second");
  page<agg> moved = std::move(first);
  CHECK(moved.size() == 1);
  CHECK(moved[0].vwap == 10.5);
  CHECK(moved.request_id() == "first");
  CHECK(first.empty());  // NOLINT(bugprone-use-after-move): a moved-from page is empty
  first = std::move(second);
  CHECK(first.size() == 2);
  CHECK(first.request_id() == "second");
  const page<agg> none;
  CHECK(none.empty());
  CHECK(none.rows().empty());
}

TEST_CASE("reset abandons a body; the decoder then decodes the next one") {
  auto pool = make_page_pool();
  page_decoder<agg> decoder(pool);
  const std::string body = R"({"results":[)" + row_a + "," + row_b + "]}";
  decoder.feed(std::span<const char>(body.data(), 20));
  decoder.reset();
  CHECK(pool->stats().regions_free == 2);
  decoder.feed(std::span<const char>());
  feed_chunks(decoder, body, 11);
  CHECK(decoder.take().size() == 2);
}

}  // namespace
}  // namespace massive::test
