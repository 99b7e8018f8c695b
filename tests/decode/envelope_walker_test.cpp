// The envelope walker on its own, without the decoder core, the framer or a socket: bodies
// fed in pieces split at every byte position (each piece copied into a buffer of its own,
// freed before the next, so that under ASan a read past the bytes given or a pointer kept into
// them is reported), the rows skipped by a reference bracket matcher standing in for the
// framer. Each outcome is rendered as one line (stops, stored fields, leniency, error) that
// must be the same for every split. The pieces' bounds were seen enforced under ASan with
// walk() made to peek at bytes[to]: "heap-buffer-overflow ... READ of size 1 ... in
// envelope_walker::walk".
#include "decode/envelope_walker.hpp"
#include "decode/page_builder.hpp"

#include "massive/page.hpp"

#include <simdjson.h>

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace massive::detail {
namespace {

using event = envelope_walker::event;

// Where the rows that start at `open` (their '[' or '{') end: the bracket that closes it,
// strings and escapes taken into account; npos when the body ends first.
std::size_t closing_bracket(std::string_view body, std::size_t open) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

const char* event_name(event e) {
  switch (e) {
    case event::need_bytes: return "need_bytes";
    case event::document_end: return "document_end";
    case event::rows_array: return "rows_array";
    case event::row_value: return "row_value";
  }
  return "?";
}

struct outcome {
  std::string line;  // everything observed, rendered
  std::optional<decode_errc> code;
  std::string path;
};

void render_envelope(std::ostringstream& out, const page_envelope& e) {
  const auto text = [&](const char* name, std::string_view v) {
    if (!v.empty()) out << ' ' << name << '=' << v;
  };
  const auto number = [&](const char* name, const std::optional<std::int64_t>& v) {
    if (v) out << ' ' << name << '=' << *v;
  };
  text("status", e.status);
  text("request_id", e.request_id);
  text("next_url", e.next_url);
  text("ticker", e.ticker);
  number("count", e.count);
  number("queryCount", e.query_count);
  number("resultsCount", e.results_count);
  if (e.adjusted) out << " adjusted=" << (*e.adjusted ? "true" : "false");
  text("extra", e.results_extra_json);
  const page_leniency& l = e.leniency;
  if (l.coerced != 0) out << " coerced=" << l.coerced;
  if (l.skipped != 0) out << " skipped=" << l.skipped;
  if (l.unknown_keys != 0) out << " unknown_keys=" << l.unknown_keys;
  text("first", l.first);
  text("first_unknown_key", l.first_unknown_key);
}

// A walker and what it writes into, reused from body to body as the decoder core reuses them.
class walk_harness {
 public:
  explicit walk_harness(payload_shape shape, decode_limits limits = {}, decode_policy policy = decode_policy::lenient)
      : walker_(shape, limits, builder_, parser_) {
    builder_.set_policy(policy);
  }

  // Walks `body` in pieces ending at `cuts` (then the rest) as the core drives the walker:
  // walk() until the rows begin, skip them, rows_ended(), walk on; finish() at the end. The
  // line reads: each rows stop (event@at/depth), the document's state after the last byte,
  // then the envelope stored, or the error.
  outcome walk(std::string_view body, const std::vector<std::size_t>& cuts) {
    std::ostringstream out;
    outcome result;
    builder_.start(pool_, 8);
    try {
      std::size_t pos = 0;
      std::size_t rows_close = std::string_view::npos;
      bool in_rows = false;
      std::vector<std::size_t> ends = cuts;
      ends.push_back(body.size());
      for (const std::size_t to : ends) {
        if (to < pos) continue;
        const std::vector<char> piece(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(to));
        while (pos < to) {
          if (in_rows) {
            if (rows_close == std::string_view::npos || rows_close >= to) {
              pos = to;
              break;
            }
            pos = rows_close + 1;
            in_rows = false;
            walker_.rows_ended();
            continue;
          }
          const envelope_walker::stop s = walker_.walk(piece.data(), pos, to);
          if (s.what == event::rows_array || s.what == event::row_value) {
            out << event_name(s.what) << '@' << s.at << '/' << s.depth << ' ';
            rows_close = closing_bracket(body, s.what == event::rows_array ? s.at - 1 : s.at);
            in_rows = true;
            pos = s.at;
          } else {
            if (s.at != to) out << "stopped at " << s.at << " of " << to << ' ';
            pos = to;
          }
        }
      }
      if (in_rows) {
        out << "ended in the rows";
      } else {
        // An empty walk reports where the document stands.
        out << event_name(walker_.walk(body.data(), pos, pos).what) << ':';
        walker_.finish();
        const page_parts parts = builder_.finish();
        render_envelope(out, parts.envelope);
      }
    } catch (const decode_error& e) {
      out << e.what();
      result.code = e.code();
      result.path = e.field_path();
    }
    builder_.abandon();
    walker_.reset();
    result.line = out.str();
    return result;
  }

  outcome whole(std::string_view body) { return walk(body, {}); }

 private:
  std::shared_ptr<page_pool> pool_ = make_page_pool();
  simdjson::ondemand::parser parser_;
  page_builder builder_;
  envelope_walker walker_;
};

// The body walked whole, split in two at every byte, and one byte at a time: the same
// outcome each time. Returns it.
std::string walk_every_split(walk_harness& harness, std::string_view body) {
  const outcome whole = harness.whole(body);
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    const outcome split = harness.walk(body, {cut});
    if (split.line != whole.line) FAIL_CHECK("split at " << cut << ": " << split.line << "\n  whole: " << whole.line);
  }
  std::vector<std::size_t> every_byte;
  for (std::size_t cut = 1; cut < body.size(); ++cut) every_byte.push_back(cut);
  const outcome bytes = harness.walk(body, every_byte);
  CHECK_MESSAGE(bytes.line == whole.line, "byte by byte: " << bytes.line << "\n  whole: " << whole.line);
  return whole.line;
}

std::string walk_every_split(payload_shape shape, std::string_view body, decode_limits limits = {},
                             decode_policy policy = decode_policy::lenient) {
  walk_harness harness(shape, limits, policy);
  return walk_every_split(harness, body);
}

constexpr auto results_array = payload_shape::results_array;
constexpr auto results_values = payload_shape::results_values;
constexpr auto strict = decode_policy::strict;

// Seen failing with the escape state of envelope strings dropped (a backslash not escaping
// the next byte): the `"r\"1"` of request_id then ended at its escaped quote, "decode error:
// invalid JSON at request_id: A string is opened, but never closed."; with it also the
// results_values member `"k":"\"}"` of the next test case and the 9-byte `"1234567\""` of
// the limits.
TEST_CASE("each shape: the walker stops where the rows begin, at their depth, and stores the envelope") {
  // Keys before and after the rows, whitespace everywhere, escapes, a count in float form.
  const std::string list =
      " {\n \"status\" : \"OK\", \"queryCount\":3,\"request_id\":\"r\\\"1\",\"results\" : [{\"v\":1},{\"s\":\"]},{\"}],"
      "\"resultsCount\":2.0 ,\"count\":2,\"adjusted\":true,\"ticker\":\"A\\u0042C\","
      "\"next_url\":\"https://api.massive.com/v2/x?cursor=a%2Fb\"} \n";
  const std::string rows_at = std::to_string(list.find("[{") + 1);
  CHECK(walk_every_split(results_array, list) ==
        "rows_array@" + rows_at + "/1 document_end: status=OK request_id=r\"1 next_url=https://api.massive.com/v2/x?cursor=a%2Fb "
        "ticker=ABC count=2 queryCount=3 resultsCount=2 adjusted=true");

  CHECK(walk_every_split(payload_shape::results_object, R"({"request_id":"q","results":{"T":"AAPL","p":1.5},"status":"OK"})") ==
        "row_value@28/1 document_end: status=OK request_id=q");
  CHECK(walk_every_split(payload_shape::document, R"(  {"market":"open","x":{"y":"}"}}  )") ==
        "row_value@2/0 document_end:");
  CHECK(walk_every_split(payload_shape::top_level_array, "\t[{\"a\":1},{\"b\":[2]}] ") == "rows_array@2/0 document_end:");

  // results_values: the rows are results.values, two levels down; results' other members are
  // kept verbatim, however nested, whatever their strings hold.
  const std::string indicator =
      R"({"results":{"underlying":{"url":"https://x/y?a=\"]}[{\\"},"n":[1,{"a":[]}],)"
      R"("values":[{"value":1.5},{"value":2}],"z":true},"status":"OK","next_url":"n"})";
  CHECK(walk_every_split(results_values, indicator) ==
        "rows_array@" + std::to_string(indicator.find("[{\"value") + 1) + "/2" +
            R"( document_end: status=OK next_url=n extra={"underlying":{"url":"https://x/y?a=\"]}[{\\"},"n":[1,{"a":[]}],"z":true})");
}

// Seen failing with the escape state of a skipped value dropped (nested_byte treating every
// quote as the end of its string): the unknown value `{"a":"\"]}[{",...}` then closed on the
// ']' inside its string and the walk failed on what followed: got "decode error: invalid JSON
// at zz: mismatched bracket" instead of the line below.
TEST_CASE("unknown keys are skipped with their values, however nested, brackets and escaped quotes in strings") {
  const std::string body =
      R"({"zz":{"a":"\"]}[{","b":[1,{"c":"\\"},[]],"d":{}},"status":"OK","e":"[","f":-1.5e3,"g":null,)"
      R"("h":[[{"i":"\\\""}]],"results":[],"k":"}"})";
  CHECK(walk_every_split(results_array, body) ==
        "rows_array@" + std::to_string(body.find("\"results\":[") + 11) + "/1 document_end: status=OK unknown_keys=6 first_unknown_key=zz");
  CHECK(walk_every_split(results_array, body, {}, strict) ==
        "decode error: unknown key at zz: a key the page envelope does not declare");
  // Inside results (results_values) a member other than values is kept, not unknown.
  CHECK(walk_every_split(results_values, R"({"results":{"values":[],"k":"\"}"},"q":{}})") ==
        R"(rows_array@22/2 document_end: extra={"k":"\"}"} unknown_keys=1 first_unknown_key=q)");
}

TEST_CASE("null rows: no stop, an empty page") {
  CHECK(walk_every_split(results_array, R"({"results":null,"status":"OK"})") == "document_end: status=OK");
  CHECK(walk_every_split(results_values, R"({"results":{"values":null}})") == "document_end:");
  CHECK(walk_every_split(results_values, R"({"results":null})") == "document_end:");
}

// Seen failing with the check of targets_seen_ limited to results and values, as it was: the
// first next_url followed (a hostile body's "next_url":"https://elsewhere/","next_url":null),
// the last status taken.
TEST_CASE("a member the envelope reads, given twice, is refused whichever it is") {
  for (const std::string key : {"status", "request_id", "next_url", "ticker", "count", "queryCount", "resultsCount", "adjusted"}) {
    CAPTURE(key);
    const std::string value = key == "adjusted" ? "true" : key.find("ount") != std::string::npos ? "1" : "\"a\"";
    CHECK(walk_every_split(results_array, "{\"" + key + "\":" + value + ",\"results\":[],\"" + key + "\":" + value + "}") ==
          "rows_array@" + std::to_string(key.size() + value.size() + 16) + "/1 decode error: invalid JSON at " + key +
              ": duplicate key");
  }
  // Unknown keys are skipped, however often.
  CHECK(walk_every_split(results_array, R"({"zz":1,"zz":2,"results":[]})") ==
        "rows_array@26/1 document_end: unknown_keys=2 first_unknown_key=zz");
}

TEST_CASE("duplicate results, duplicate values") {
  CHECK(walk_every_split(results_array, R"({"results":[],"results":[]})") ==
        "rows_array@12/1 decode error: invalid JSON at results: duplicate key");
  CHECK(walk_every_split(results_array, R"({"results":null,"results":[]})") ==
        "decode error: invalid JSON at results: duplicate key");
  CHECK(walk_every_split(results_values, R"({"results":{"values":[],"values":null}})") ==
        "rows_array@22/2 decode error: invalid JSON at results.values: duplicate key");
  CHECK(walk_every_split(results_values, R"({"results":{"values":null},"results":{}})") ==
        "decode error: invalid JSON at results: duplicate key");
}

TEST_CASE("wrong types: the rows refused, envelope values coerced or skipped (lenient) or refused (strict)") {
  CHECK(walk_every_split(results_array, R"({"results":{}})") == "decode error: wrong type at results: expected an array");
  CHECK(walk_every_split(results_array, R"({"results":"[]"})") == "decode error: wrong type at results: expected an array");
  CHECK(walk_every_split(results_array, R"({"results":nul})") ==
        "decode error: wrong type at results: expected an array or null");
  CHECK(walk_every_split(payload_shape::results_object, R"({"results":[]})") ==
        "decode error: wrong type at results: expected an object");
  CHECK(walk_every_split(results_values, R"({"results":{"values":{}}})") ==
        "decode error: wrong type at results.values: expected an array");

  const std::string surprises =
      R"({"status":{"a":"}"},"request_id":1,"count":2.5,"queryCount":1e30,"adjusted":"yes","ticker":true})";
  CHECK(walk_every_split(results_array, surprises) ==
        "document_end: request_id=1 ticker=true coerced=2 skipped=4 first=status");
  CHECK(walk_every_split(results_array, surprises, {}, strict) ==
        "decode error: wrong type at status: expected a scalar");
  CHECK(walk_every_split(results_array, R"({"adjusted":"yes"})", {}, strict) ==
        "decode error: wrong type at adjusted: expected true or false");
  CHECK(walk_every_split(results_array, R"({"count":2.5})", {}, strict) ==
        "decode error: wrong type at count: expected an integer");
  // A count in float form too large to be exact is out of range, as it is in a row (one rule:
  // exact_integer).
  // regression: envelope_integer reporting beyond_2_53 as wrong_type, as it did before the rule
  // was shared -> fails with "decode error: wrong type at queryCount: expected an integer"
  CHECK(walk_every_split(results_array, R"({"queryCount":1e30})", {}, strict) ==
        "decode error: out of range at queryCount: integer beyond int64, or a float form beyond 2^53");
  // regression: exact_integer's `> exact_limit` made `>=` -> fails with "document_end: skipped=1 first=count"
  CHECK(walk_every_split(results_array, R"({"count":9007199254740992.0})") == "document_end: count=9007199254740992");
  // A next_url of another type is an error under either policy: coerced or left out, it ended
  // a traversal as if the page were the last (a hostile server's number or object).
  // regression: next_url read by envelope_string, as it was -> fails with "document_end:
  // next_url=12345 coerced=1 first=next_url" (an object: "document_end: skipped=1 first=next_url")
  for (const std::string next : {"12345", "true", R"({"a":"b"})", "[]"}) {
    CAPTURE(next);
    CHECK(walk_every_split(results_array, std::string(R"({"next_url":)") + next + "}") ==
          "decode error: wrong type at next_url: expected a string: which page comes next cannot be told");
  }
  CHECK(walk_every_split(results_array, R"({"next_url":null})") == "document_end:");
  CHECK(walk_every_split(results_array, R"({"status":[]})", {}, strict) ==
        "decode error: wrong type at status: expected a scalar");
  CHECK(walk_every_split(results_array, R"({"request_id":7})", {}, strict) ==
        "decode error: wrong type at request_id: expected a string");
  // A null envelope value is absent, under either policy.
  CHECK(walk_every_split(results_array, R"({"status":null,"count":null})", {}, strict) == "document_end:");
}

TEST_CASE("broken JSON names the key the walk was in, or none between keys") {
  CHECK(walk_every_split(results_array, "") == "need_bytes:decode error: empty body: no JSON in the body");
  CHECK(walk_every_split(results_array, " \r\n\t") == "need_bytes:decode error: empty body: no JSON in the body");
  CHECK(walk_every_split(results_array, "<html>") ==
        "decode error: not JSON: the body is markup (an HTML error page?), not JSON");
  CHECK(walk_every_split(results_array, "OK") == "decode error: not JSON: the body does not start like JSON");
  CHECK(walk_every_split(results_array, R"("x")") ==
        "decode error: wrong type: expected an object or array, got a scalar");
  CHECK(walk_every_split(results_array, "[]") == "decode error: wrong type: expected an object, got an array");
  CHECK(walk_every_split(payload_shape::top_level_array, "{}") ==
        "decode error: wrong type: expected an array, got an object");
  CHECK(walk_every_split(results_array, R"({1:2})") == "decode error: invalid JSON: expected a key");
  CHECK(walk_every_split(results_array, R"({"a":1,})") == "decode error: invalid JSON: expected a key");
  CHECK(walk_every_split(results_array, R"({"status" "OK"})") == "decode error: invalid JSON at status: expected ':'");
  CHECK(walk_every_split(results_array, R"({"status":"OK" "x":1})") ==
        "decode error: invalid JSON: expected ',' or '}'");
  CHECK(walk_every_split(results_array, "{\"status\":\"a\nb\"}") ==
        "decode error: invalid JSON at status: control character in a string");
  CHECK(walk_every_split(results_array, "{\"sta\ttus\":1}") ==
        "decode error: invalid JSON: control character in a key");
  CHECK(walk_every_split(results_array, R"({"count":1#})") == "decode error: invalid JSON at count: unexpected character");
  CHECK(walk_every_split(results_array, R"({"zz":[1}})") == "decode error: invalid JSON at zz: mismatched bracket");
  // simdjson's own message for what it could not parse.
  CHECK(walk_every_split(results_array, R"({"count":12a})") ==
        "decode error: invalid JSON at count: Problem while parsing a number");
  CHECK(walk_every_split(results_array, R"({"results":[]} x)") ==
        "rows_array@12/1 decode error: invalid JSON: content after the end of the document");
}

TEST_CASE("every truncation is an error naming where the walk was, never a short envelope") {
  const std::string body = R"({"status":"OK","results":[{"v":1}],"zz":{"a":["]"]},"count":3})";
  walk_harness harness(results_array);
  for (std::size_t n = 0; n < body.size(); ++n) {
    CAPTURE(n);
    const outcome o = harness.whole(body.substr(0, n));
    if (o.line.ends_with("ended in the rows")) {
      CHECK(n > body.find('['));
      CHECK(n <= body.find(']'));
      continue;
    }
    REQUIRE(o.code);
    CHECK(*o.code == (n == 0 ? decode_errc::empty_body : decode_errc::truncated));
  }
  CHECK(harness.whole(body.substr(0, body.find("OK"))).path == "status");
  CHECK(harness.whole(body.substr(0, body.find(":{"))).path == "zz");  // between the key and its colon
  CHECK(harness.whole(body.substr(0, body.find("]\"]"))).path == "zz");
  CHECK(harness.whole(body.substr(0, body.find(",\"count"))).path == "");
  CHECK(harness.whole(body.substr(0, body.size() - 2)).path == "count");
  CHECK(harness.whole(body).line == "rows_array@26/1 document_end: status=OK count=3 unknown_keys=1 first_unknown_key=zz");
}

TEST_CASE("limits: keys and strings measured as sent, values nested no deeper than the limit") {
  const decode_limits eight{.max_depth = 3, .max_string_bytes = 8, .max_element_bytes = 16};
  // A key is named by its first bytes.
  CHECK(walk_every_split(results_array, R"({"status":"OK","participant_timestamp":1})", eight) ==
        "decode error: too long at particip...: a key longer than 8 bytes (decode_limits::max_string_bytes)");
  CHECK(walk_every_split(results_values, R"({"results":{"underlying_aggs":{}}})", eight) ==
        "decode error: too long at results.underlyi...: a key longer than 8 bytes (decode_limits::max_string_bytes)");
  CHECK(walk_every_split(results_array, R"({"abcdefgh":1})", eight) ==
        "document_end: unknown_keys=1 first_unknown_key=abcdefgh");
  // An escape counts its backslash, in keys and strings.
  CHECK(walk_every_split(results_array, R"({"abcdefg\"":1})", eight) ==
        R"(decode error: too long at abcdefg\...: a key longer than 8 bytes (decode_limits::max_string_bytes))");
  CHECK(walk_every_split(results_array, R"({"status":"12345678"})", eight) == "document_end: status=12345678");
  CHECK(walk_every_split(results_array, R"({"status":"123456789"})", eight) ==
        "decode error: too long at status: a string longer than 8 bytes (decode_limits::max_string_bytes)");
  CHECK(walk_every_split(results_array, R"({"status":"1234567\""})", eight) ==
        "decode error: too long at status: a string longer than 8 bytes (decode_limits::max_string_bytes)");
  CHECK(walk_every_split(results_array, R"({"zz":{"a":"123456789"}})", eight) ==
        "decode error: too long at zz: a string longer than 8 bytes (decode_limits::max_string_bytes)");
  // A number is bounded by the element limit, results' other members together too.
  CHECK(walk_every_split(results_array, R"({"count":12345678901234567})", eight) ==
        "decode error: too long at count: a value longer than 16 bytes");
  CHECK(walk_every_split(results_values, R"({"results":{"a":[1,2,3,4,5,6,7,8]}})", eight) ==
        "decode error: too long at results.a: results members longer than 16");
  // Depth counts the envelope's object: 1 + two levels of the value is the limit of 3.
  CHECK(walk_every_split(results_array, R"({"zz":[[1]],"status":"OK"})", eight) ==
        "document_end: status=OK unknown_keys=1 first_unknown_key=zz");
  CHECK(walk_every_split(results_array, R"({"zz":[[[1]]]})", eight) ==
        "decode error: too deep at zz: nesting deeper than 3 (decode_limits::max_depth)");
}

// Truth from the wire: the recorded responses' envelopes, walked at every split, hold what a
// DOM parse of the same bytes finds.
TEST_CASE("recorded responses: the envelope as the DOM reads it, the rows where the DOM has them") {
  for (const char* file : {"v2__aggs__ticker__AAPL__prev.json", "v3__trades__AAPL_limit_2.json",
                           "v2__last__trade__AAPL.json", "v3__reference__tickers__AAPL.json",
                           "v1__marketstatus__upcoming.json", "v3__reference__dividends.json"}) {
    CAPTURE(file);
    std::ifstream in(std::string(MASSIVE_WIRE_SAMPLES) + "/" + file, std::ios::binary);
    REQUIRE(in);
    const std::string body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

    simdjson::dom::parser dom;
    const simdjson::dom::element doc = dom.parse(body);
    std::ostringstream expected;
    payload_shape shape = payload_shape::top_level_array;
    if (doc.is_array()) {
      expected << "rows_array@" << body.find('[') + 1 << "/0 document_end:";
    } else {
      const simdjson::dom::element results = doc["results"];
      shape = results.is_array() ? results_array : payload_shape::results_object;
      page_envelope env;
      std::uint32_t unknown = 0;
      std::string first_unknown;
      for (const auto field : simdjson::dom::object(doc)) {
        const std::string_view key = field.key;
        const simdjson::dom::element v = field.value;
        if (key == "status") env.status = v.get_string().value();
        else if (key == "request_id") env.request_id = v.get_string().value();
        else if (key == "next_url") env.next_url = v.get_string().value();
        else if (key == "ticker") env.ticker = v.get_string().value();
        else if (key == "count") env.count = v.get_int64().value();
        else if (key == "queryCount") env.query_count = v.get_int64().value();
        else if (key == "resultsCount") env.results_count = v.get_int64().value();
        else if (key == "adjusted") env.adjusted = v.get_bool().value();
        else if (key != "results" && unknown++ == 0) first_unknown = key;
      }
      env.leniency.unknown_keys = unknown;
      env.leniency.first_unknown_key = first_unknown;
      // The rows start after the '[' (or at the '{') that follows the top-level "results" key.
      const std::size_t key_at = body.find("\"results\"");
      const std::size_t open = body.find_first_of(shape == results_array ? "[" : "{", key_at);
      expected << (shape == results_array ? "rows_array@" : "row_value@") << (shape == results_array ? open + 1 : open)
               << "/1 document_end:";
      std::ostringstream fields;
      render_envelope(fields, env);
      expected << fields.str();
    }
    walk_harness harness(shape);
    const outcome whole = harness.whole(body);
    CHECK(whole.line == expected.str());
    // Every split of the long bodies costs a walk each: every 7th byte, and byte by byte.
    std::vector<std::size_t> every_byte;
    for (std::size_t cut = 0; cut <= body.size(); ++cut) {
      if (cut % 7 == 0) CHECK(harness.walk(body, {cut}).line == whole.line);
      if (cut != 0 && cut != body.size()) every_byte.push_back(cut);
    }
    CHECK(harness.walk(body, every_byte).line == whole.line);
  }
}

}  // namespace
}  // namespace massive::detail
