// The policy for what the model did not foresee (docs/guide/decoding.md): by default a surprising
// value is coerced (when it converts without loss) or skipped, counted in the page's
// page_leniency with the first path, and the page keeps every good row; decode_policy::strict
// turns the same surprise into a decode_error naming the field.
#include "bodies.hpp"

#include "massive/models/agg.hpp"
#include "massive/models/crypto_open_close.hpp"
#include "massive/models/ticker.hpp"
#include "massive/models/trade.hpp"

#include <doctest/doctest.h>

#include <string>

namespace massive::test {
namespace {

using std::chrono::day;
using std::chrono::month;
using std::chrono::year;
using std::chrono::year_month_day;

std::string agg_row(int i) {
  return R"({"v":)" + std::to_string(100 + i) + R"(,"vw":1.5,"o":1,"c":2,"h":3,"l":0.5,"t":)" +
         std::to_string(1600000000000 + i) + R"(,"n":)" + std::to_string(i) + "}";
}

// `rows` aggregate rows, row `odd` replaced by `surprise`.
std::string aggs_with(int rows, int odd, const std::string& surprise, const std::string& envelope = {}) {
  std::string body = R"({"status":"OK",)" + envelope + R"("results":[)";
  for (int i = 0; i < rows; ++i) {
    if (i != 0) body += ',';
    body += i == odd ? surprise : agg_row(i);
  }
  return body + R"(],"request_id":"x"})";
}

const std::string trade_fields =
    R"("exchange":1,"id":"1","participant_timestamp":1,"price":1,"sequence_number":1,"sip_timestamp":1,"size":1)";

template <class T>
page<T> lenient(std::string_view body, payload_shape shape = payload_shape::results_array) {
  page_decoder<T> decoder(make_page_pool(), shape);
  feed_chunks(decoder, body, 7);
  return decoder.take();
}

struct refusal {
  decode_errc code{};
  std::string path;
};

template <class T>
refusal strict(std::string_view body, payload_shape shape = payload_shape::results_array) {
  page_decoder<T> decoder(make_page_pool(), shape, decode_limits{}, decode_policy::strict);
  try {
    feed_chunks(decoder, body, 7);
  } catch (const decode_error& e) {
    return {e.code(), e.field_path()};
  }
  FAIL("strict decoding accepted the surprise");
  return {};
}

// Every row but `odd` decoded exactly as agg_row wrote it.
void check_good_rows(const page<agg>& p, int rows, int odd) {
  REQUIRE(p.size() == static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    if (i == odd) continue;
    CHECK(p[static_cast<std::size_t>(i)].volume == 100 + i);
    CHECK(p[static_cast<std::size_t>(i)].transactions == i);
  }
}

// Every row but `odd`, which was left out, decoded exactly as agg_row wrote it, in order.
void check_rows_without(const page<agg>& p, int rows, int odd) {
  REQUIRE(p.size() == static_cast<std::size_t>(rows - 1));
  std::size_t at = 0;
  for (int i = 0; i < rows; ++i) {
    if (i == odd) continue;
    CHECK(p[at].volume == 100 + i);
    CHECK(p[at].transactions == i);
    ++at;
  }
  CHECK(p.leniency().dropped_rows == 1);
}

TEST_CASE("a fraction where an integer is declared: skipped and counted, or refused") {
  // Seen failing with integer_fallback's fraction case calling fail() again (the old policy):
  // the whole page was lost to decode_error wrong_type at results[3].n.
  const std::string body = aggs_with(8, 3, R"({"v":1,"vw":1.5,"o":1,"c":2,"h":3,"l":0.5,"t":1,"n":2.5})");
  const page<agg> p = lenient<agg>(body);
  check_good_rows(p, 8, 3);
  CHECK_FALSE(p[3].transactions.has_value());
  CHECK(p.leniency().skipped == 1);
  CHECK(p.leniency().coerced == 0);
  CHECK(p.leniency().first == "results[3].n");
  const refusal r = strict<agg>(body);
  CHECK(r.code == decode_errc::wrong_type);
  CHECK(r.path == "results[3].n");
}

// 1e400 is JSON no double holds. Seen failing with beyond_double's test removed: the whole page
// refused as broken JSON ("invalid JSON at results[1].vw").
TEST_CASE("a number beyond a double's range: skipped and counted, or refused") {
  const std::string body =
      aggs_with(4, 1, R"({"v":101,"vw":1e400,"o":1,"c":2,"h":3,"l":0.5,"t":1,"n":1})");
  const page<agg> p = lenient<agg>(body);
  check_good_rows(p, 4, 1);
  CHECK_FALSE(p[1].vwap.has_value());
  CHECK(p.leniency().skipped == 1);
  CHECK(p.leniency().first == "results[1].vw");
  const refusal r = strict<agg>(body);
  CHECK(r.code == decode_errc::out_of_range);
  CHECK(r.path == "results[1].vw");
  // Required, negative: the row left out, not shown with either infinity.
  const page<agg> q = lenient<agg>(aggs_with(4, 2, R"({"v":1,"o":1,"c":-1e400,"h":3,"l":0.5,"t":1})"));
  check_rows_without(q, 4, 2);
  CHECK(q.leniency().first == "results[2].c");
  // A malformed number is still broken JSON.
  CHECK_THROWS_AS(lenient<agg>(aggs_with(2, 1, R"({"v":1,"o":1,"c":1e,"h":3,"l":0.5,"t":1})")), decode_error);
}

TEST_CASE("an integer overflowing its type: skipped and counted, or refused") {
  const std::string beyond_int64 = aggs_with(4, 1, R"({"v":1,"o":1,"c":2,"h":3,"l":0.5,"t":1,"n":99999999999999999999})");
  const page<agg> p = lenient<agg>(beyond_int64);
  check_good_rows(p, 4, 1);
  CHECK_FALSE(p[1].transactions.has_value());
  CHECK(p.leniency().skipped == 1);
  CHECK(strict<agg>(beyond_int64).code == decode_errc::out_of_range);

  // int32: a field and an array element.
  const std::string body = R"({"results":[{)" + trade_fields + R"(,"tape":2147483648,"conditions":[1,3000000000,2]}]})";
  const page<trade> t = lenient<trade>(body);
  REQUIRE(t.size() == 1);
  CHECK_FALSE(t[0].tape.has_value());
  REQUIRE(t[0].conditions.size() == 2);
  CHECK(t[0].conditions[1] == 2);
  CHECK(t.leniency().skipped == 2);
  CHECK(t.leniency().first == "results[0].tape");
  const refusal r = strict<trade>(body);
  CHECK(r.code == decode_errc::out_of_range);
  CHECK(r.path == "results[0].tape");
}

TEST_CASE("a string where a number is declared, and a number where a string is") {
  // Seen failing with number_fallback returning absent_or_fail at once (no coercion): close
  // was 0 and the row counted as skipped and missing instead of coerced.
  const std::string numeric = aggs_with(5, 2, R"({"v":1,"o":1,"c":"2.25","h":3,"l":0.5,"t":1,"n":"7"})");
  const page<agg> p = lenient<agg>(numeric);
  check_good_rows(p, 5, 2);
  CHECK(p[2].close == 2.25);
  CHECK(p[2].transactions == 7);
  CHECK(p.leniency().coerced == 2);
  CHECK(p.leniency().skipped == 0);
  CHECK(p.leniency().first == "results[2].c");
  CHECK(strict<agg>(numeric).path == "results[2].c");

  // Not a number at all: the required close is skipped, so also missing, and its row, which
  // could only show it as 0, is left out.
  const page<agg> q = lenient<agg>(aggs_with(5, 2, R"({"v":1,"o":1,"c":"n/a","h":3,"l":0.5,"t":1})"));
  check_rows_without(q, 5, 2);
  CHECK(q.leniency().skipped == 1);
  CHECK(q.leniency().missing == 1);

  // A number, true or false where a string is declared keeps its JSON text.
  const std::string body = R"({"results":[{"exchange":1,"id":1234567890123,"participant_timestamp":1,"price":1,)"
                           R"("sequence_number":1,"sip_timestamp":1,"size":1}]})";
  const page<trade> t = lenient<trade>(body);
  REQUIRE(t.size() == 1);
  CHECK(t[0].id == "1234567890123");
  CHECK(t.leniency().coerced == 1);
  CHECK(strict<trade>(body).path == "results[0].id");
}

TEST_CASE("null anywhere") {
  // An optional field: absent, not a surprise.
  const page<agg> optional_null = lenient<agg>(aggs_with(3, 1, R"({"v":1,"vw":null,"o":1,"c":2,"h":3,"l":0.5,"t":1,"n":null})"));
  CHECK_FALSE(optional_null[1].vwap.has_value());
  CHECK_FALSE(optional_null[1].transactions.has_value());
  CHECK(optional_null.leniency().exact());

  // A required field: the field counted missing, the row left out (it would show open 0).
  const page<agg> required_null = lenient<agg>(aggs_with(3, 1, R"({"v":1,"o":null,"c":2,"h":3,"l":0.5,"t":1})"));
  check_rows_without(required_null, 3, 1);
  CHECK(required_null.leniency().missing == 1);
  CHECK(required_null.leniency().first == "results[1].o");

  // A row: left out, counted; the rows around it are whole.
  const page<agg> row_null = lenient<agg>(aggs_with(6, 4, "null"));
  REQUIRE(row_null.size() == 5);
  CHECK(row_null[4].volume == 105);
  CHECK(row_null.leniency().skipped == 1);
  CHECK(row_null.leniency().first == "results[4]");
  CHECK(lenient<agg>(R"({"results":[null]})").leniency().skipped == 1);
  // A whole batch of them (the window fills with nulls). Seen failing with the skipped rows
  // not counted in batch::skipped_rows: THREW "invalid JSON at results[1] (row 1): empty
  // array element (stray comma)".
  std::string nulls = R"({"results":[)" + agg_row(0);
  for (int i = 0; i < 30'000; ++i) nulls += ",null";
  const page<agg> many_null = lenient<agg>(nulls + "," + agg_row(1) + "]}");
  REQUIRE(many_null.size() == 2);
  CHECK(many_null[1].volume == 101);
  CHECK(many_null.leniency().skipped == 30'000);
  CHECK(strict<agg>(aggs_with(6, 4, "null")).code == decode_errc::wrong_type);

  // An array element.
  const page<trade> element_null = lenient<trade>(R"({"results":[{)" + trade_fields + R"(,"conditions":[null,12]}]})");
  REQUIRE(element_null[0].conditions.size() == 1);
  CHECK(element_null[0].conditions[0] == 12);
  CHECK(element_null.leniency().first == "results[0].conditions[0]");

  // `null` where an array is declared (`lastTrade.c: null` in snapshots): an empty span.
  const page<trade> array_null = lenient<trade>(R"({"results":[{)" + trade_fields + R"(,"conditions":null}]})");
  CHECK(array_null[0].conditions.empty());
  CHECK(array_null.leniency().exact());

  // The envelope.
  const page<agg> envelope_null = lenient<agg>(R"({"status":null,"request_id":null,"count":null,"results":null})");
  CHECK(envelope_null.empty());
  CHECK(envelope_null.request_id().empty());
  CHECK(envelope_null.leniency().exact());
}

TEST_CASE("unknown keys are skipped and counted; strict refuses them") {
  // Seen failing with the generated `else { ctx.unknown_key(key); }` left out of the case
  // for 'c': unknown_keys was 2, not 3 (the key "cik" shares its first byte with "c").
  const std::string body = aggs_with(
      4, 2, R"({"zz":{"a":[1,{"b":null}]},"v":1,"o":1,"cik":"x","c":2,"h":3,"l":0.5,"t":1,"n":1,"yy":[]})");
  const page<agg> p = lenient<agg>(body);
  check_good_rows(p, 4, 2);
  CHECK(p.leniency().unknown_keys == 3);
  CHECK(p.leniency().first_unknown_key == "results[2].zz");
  CHECK(p.leniency().exact());
  const refusal r = strict<agg>(body);
  CHECK(r.code == decode_errc::unknown_key);
  CHECK(r.path == "results[2].zz");
  const page<agg> envelope = lenient<agg>(aggs_with(2, 9, "", R"("extra":{"x":1},)"));
  CHECK(envelope.leniency().unknown_keys == 1);
  CHECK(envelope.leniency().first_unknown_key == "extra");
}

// Seen failing with the generator's keys_met check left out (every key read, the last value
// kept): row 2 printed with close 99 and vwap 7.5, nothing counted.
TEST_CASE("a key given twice in a row: neither value kept, the row left out if it was required") {
  // Required: the row is left out, not shown with either value.
  const std::string required_twice = aggs_with(5, 2, R"({"v":1,"vw":1.5,"o":1,"c":2,"h":3,"l":0.5,"t":1,"c":99})");
  const page<agg> p = lenient<agg>(required_twice);
  check_rows_without(p, 5, 2);
  CHECK(p.leniency().skipped == 1);
  CHECK(p.leniency().missing == 1);
  CHECK(p.leniency().first == "results[2].c");
  const refusal r = strict<agg>(required_twice);
  CHECK(r.code == decode_errc::invalid_json);
  CHECK(r.path == "results[2].c");

  // Optional, three times: the field absent, each repetition counted; the row kept.
  const std::string optional_thrice =
      aggs_with(4, 1, R"({"vw":1.5,"v":101,"o":1,"c":2,"vw":7.5,"h":3,"l":0.5,"t":1,"n":1,"vw":2})");
  const page<agg> q = lenient<agg>(optional_thrice);
  check_good_rows(q, 4, 1);
  CHECK_FALSE(q[1].vwap.has_value());
  CHECK(q[0].vwap == 1.5);
  CHECK(q.leniency().skipped == 2);
  CHECK(q.leniency().first == "results[1].vw");

  // An array, an integer and a required string: the same rule.
  const page<trade> t = lenient<trade>(R"({"results":[{)" + trade_fields +
                                       R"(,"conditions":[1],"conditions":[2,3],"trf_id":4,"trf_id":5}]})");
  REQUIRE(t.size() == 1);
  CHECK(t[0].conditions.empty());
  CHECK_FALSE(t[0].trf_id.has_value());
  CHECK(t.leniency().skipped == 2);
  CHECK(t.leniency().first == "results[0].conditions");
  const page<trade> id_twice = lenient<trade>(R"({"results":[{)" + trade_fields + R"(,"id":"2"}]})");
  CHECK(id_twice.size() == 0);
  CHECK(id_twice.leniency().dropped_rows == 1);
}

// The server leaves agg's otc off when false (codegen/map.txt: absent=false), so the field is a
// plain bool, and a value it cannot hold could not show as absent: it would read false. Seen
// failing with the generator's absent_is_false bits left out: the row kept, otc false.
TEST_CASE("a bool whose absence means false: a value of another type leaves the row out") {
  const std::string row = R"({"v":101,"vw":1.5,"o":1,"c":2,"h":3,"l":0.5,"t":1,"n":1,)";
  for (const std::string odd : {R"("otc":"yes"})", R"("otc":1})", R"("otc":true,"otc":false})"}) {
    CAPTURE(odd);
    const page<agg> p = lenient<agg>(aggs_with(4, 1, row + odd));
    check_rows_without(p, 4, 1);
    CHECK(p.leniency().skipped == 1);
    CHECK(p.leniency().missing == 1);
    CHECK(p.leniency().first == "results[1].otc");
    CHECK(strict<agg>(aggs_with(4, 1, row + odd)).path == "results[1].otc");
  }
  // true, null and absence are read: null and absence as false.
  struct read_as {
    std::string odd;
    bool otc;
  };
  for (const read_as& c : {read_as{R"("otc":true})", true}, read_as{R"("otc":null})", false},
                           read_as{R"("x":0})", false}}) {
    CAPTURE(c.odd);
    const page<agg> p = lenient<agg>(aggs_with(3, 1, row + c.odd));
    check_good_rows(p, 3, 1);
    CHECK(p[1].otc == c.otc);
    CHECK(p.leniency().skipped + p.leniency().missing + p.leniency().dropped_rows == 0);
  }
}

TEST_CASE("an enumeration's value the description does not list is kept verbatim") {
  // Enumerated response fields are strings in the models: a new value is data, not a surprise.
  const page<ticker> p = lenient<ticker>(R"({"results":[{"ticker":"X","market":"spaceships"}]})");
  REQUIRE(p.size() == 1);
  CHECK(p[0].market == "spaceships");
  CHECK(p.leniency().exact());
}

TEST_CASE("a missing required field leaves the row out, counted; strict refuses it") {
  const std::string body = aggs_with(8, 5, R"({"v":1,"c":2,"h":3,"t":1})");
  const page<agg> p = lenient<agg>(body);
  check_rows_without(p, 8, 5);
  CHECK(p.leniency().missing == 2);
  CHECK(p.leniency().first == "results[5].o");
  const refusal r = strict<agg>(body);
  CHECK(r.code == decode_errc::missing_field);
  CHECK(r.path == "results[5].o");
}

TEST_CASE("dates: a date-time is coerced to its date, an impossible date skipped") {
  const page<crypto_open_close> p =
      lenient<crypto_open_close>(R"({"day":"2024-01-02T00:00:00Z","symbol":"X"})", payload_shape::document);
  CHECK(p[0].day == year_month_day{year{2024}, month{1}, day{2}});
  CHECK(p.leniency().coerced == 1);
  const page<crypto_open_close> q =
      lenient<crypto_open_close>(R"({"day":"2024-02-30","symbol":"X"})", payload_shape::document);
  CHECK_FALSE(q[0].day.has_value());
  CHECK(q[0].symbol == "X");
  CHECK(q.leniency().skipped == 1);
  CHECK(strict<crypto_open_close>(R"({"day":"2024-02-30"})", payload_shape::document).code == decode_errc::out_of_range);
}

TEST_CASE("the envelope: a numeric request_id is coerced, a count of another type skipped") {
  const page<agg> p = lenient<agg>(R"({"request_id":17,"count":"many","status":{"a":1},"results":[]})");
  CHECK(p.request_id() == "17");
  CHECK_FALSE(p.envelope().count.has_value());
  CHECK(p.leniency().coerced == 1);
  CHECK(p.leniency().skipped == 2);
  CHECK(p.leniency().first == "request_id");
  CHECK(strict<agg>(R"({"request_id":17,"results":[]})").path == "request_id");
}

TEST_CASE("rows in the server's order around a surprise: the fast path, then the field loop") {
  // Rows 0 to 199 are read by the wire-order path; row 200 falls back to the field loop,
  // which counts its surprise and reads the rest.
  const page<agg> p = lenient<agg>(aggs_with(300, 200, R"({"v":1,"vw":2,"o":"x","c":4,"h":5,"l":6,"t":1,"n":8})"));
  check_rows_without(p, 300, 200);
  CHECK(p.leniency().skipped == 1);
  CHECK(p.leniency().missing == 1);
  CHECK(p.leniency().first == "results[200].o");
}

TEST_CASE("a required value the model cannot hold is never shown as another value") {
  // Issue 30: a 30-digit sip_timestamp and a fraction became 0 (shown as 1970) in a page that
  // looked whole. Seen failing with builder_.mark_incomplete() removed from
  // row_context::missing: "REQUIRE( 4 == 2 )", two rows with sip_timestamp 0.
  const std::string ok = R"({)" + trade_fields + "}";
  const std::string body = R"({"results":[)" + ok + R"(,{"exchange":1,"id":"2","participant_timestamp":1,"price":1,"sequence_number":1,"sip_timestamp":123456789012345678901234567890,"size":1},)" +
                           R"({"exchange":1,"id":"3","participant_timestamp":1,"price":1,"sequence_number":1,"sip_timestamp":1.5,"size":1},)" +
                           ok + "]}";
  const page<trade> t = lenient<trade>(body);
  REQUIRE(t.size() == 2);
  for (const trade& row : t) CHECK(row.sip_timestamp.count() == 1);
  CHECK(t.leniency().dropped_rows == 2);
  CHECK(t.leniency().skipped == 2);
  CHECK(t.leniency().missing == 2);
  CHECK(t.leniency().first == "results[1].sip_timestamp");
  CHECK(t.leniency().lossy());
  // Rows keep their index in the body's array in paths, past the rows left out before them.
  const page<trade> later = lenient<trade>(R"({"results":[null,)" + ok + R"(,{"id":"x"}]})");
  CHECK(later.size() == 1);
  CHECK(later.leniency().dropped_rows == 2);
  CHECK(later.leniency().first == "results[0]");
  const refusal r = strict<trade>(body);
  CHECK(r.code == decode_errc::out_of_range);
  CHECK(r.path == "results[1].sip_timestamp");
}

TEST_CASE("counts belong to one page: a reused decoder starts from zero") {
  page_decoder<agg> decoder(make_page_pool());
  feed_chunks(decoder, aggs_with(3, 1, R"({"v":"1","o":1,"c":2,"h":3,"l":0.5,"t":1})"), 5);
  CHECK(decoder.take().leniency().coerced == 1);
  feed_chunks(decoder, aggs_with(3, 9, ""), 5);
  const page<agg> clean = decoder.take();
  CHECK(clean.leniency().exact());
  CHECK(clean.leniency().unknown_keys == 0);
  CHECK(clean.leniency().first.empty());
}

}  // namespace
}  // namespace massive::test
