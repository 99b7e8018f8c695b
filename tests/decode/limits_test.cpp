// decode_limits::max_string_bytes holds for every string and key, in rows, in keys, in the
// envelope and in nested values, with the same decode_error whatever the split. Issue 3,
// finding F1: the limit used to be checked only on strings that crossed a chunk or window
// boundary, so a 21-byte key passed max_string_bytes = 8 whole and failed split, and the
// error named the row, not the field.
#include "bodies.hpp"
#include "reference.hpp"

#include "massive/models/agg.hpp"
#include "massive/models/trade.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>

namespace massive::test {
namespace {

template <class T>
struct attempt {
  std::optional<page<T>> rows;
  std::optional<decode_error> error;
};

template <class T, class Feed>
attempt<T> try_decode(page_decoder<T>& decoder, Feed feed) {
  attempt<T> out;
  try {
    feed(decoder);
    out.rows = decoder.take();
  } catch (const decode_error& e) {
    out.error = e;
    decoder.reset();
  }
  return out;
}

template <class T>
std::string differs(const attempt<T>& a, const attempt<T>& b) {
  if (a.rows.has_value() != b.rows.has_value()) {
    return a.rows ? std::string("decoded, then failed: ") + b.error->what()
                  : std::string("failed, then decoded: ") + a.error->what();
  }
  if (a.rows) return page_diff(*a.rows, *b.rows);
  if (a.error->code() != b.error->code() || a.error->field_path() != b.error->field_path() ||
      a.error->row() != b.error->row() || std::string_view(a.error->what()) != b.error->what()) {
    return std::string("errors differ: '") + a.error->what() + "' at '" + a.error->field_path() + "' vs '" +
           b.error->what() + "' at '" + b.error->field_path() + "'";
  }
  return {};
}

// The body whole, cut once at every byte, cut twice around a moving offset, and in chunks of
// 1 to 64 bytes: every outcome must be the whole body's, error for error.
template <class T>
attempt<T> every_split(std::string_view body, payload_shape shape, decode_limits limits) {
  page_decoder<T> decoder(make_page_pool(), shape, limits);
  attempt<T> whole = try_decode(decoder, [&](page_decoder<T>& d) { feed_chunks(d, body, body.size() + 1); });
  const auto same = [&](const attempt<T>& split, const std::string& how) {
    const std::string diff = differs(whole, split);
    if (!diff.empty()) FAIL_CHECK(how << ": " << diff);
  };
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    const std::size_t cuts[] = {cut};
    same(try_decode(decoder, [&](page_decoder<T>& d) { feed_split(d, body, cuts); }), "cut at " + std::to_string(cut));
  }
  for (std::size_t cut = 1; cut + 8 < body.size(); cut += 2) {
    const std::size_t cuts[] = {cut, cut + 1 + (cut % 7)};
    same(try_decode(decoder, [&](page_decoder<T>& d) { feed_split(d, body, cuts); }),
         "cuts at " + std::to_string(cuts[0]) + "," + std::to_string(cuts[1]));
  }
  for (const std::size_t chunk : {1, 2, 3, 5, 16, 63, 64}) {
    same(try_decode(decoder, [&](page_decoder<T>& d) { feed_chunks(d, body, chunk); }),
         "chunks of " + std::to_string(chunk));
  }
  return whole;
}

struct expected_error {
  decode_errc code;
  std::string path;
  std::optional<std::size_t> row;
};

template <class T>
void fails_alike(int line, std::string_view body, payload_shape shape, decode_limits limits,
                 const expected_error& want) {
  INFO("expectation at line " << line << ", body " << body);
  const attempt<T> whole = every_split<T>(body, shape, limits);
  REQUIRE(whole.error.has_value());
  CHECK(whole.error->code() == want.code);
  CHECK(whole.error->field_path() == want.path);
  CHECK(whole.error->row() == want.row);
}

template <class T>
void decodes_alike(int line, std::string_view body, payload_shape shape, decode_limits limits, std::size_t rows) {
  INFO("expectation at line " << line << ", body " << body);
  const attempt<T> whole = every_split<T>(body, shape, limits);
  REQUIRE_MESSAGE(whole.rows.has_value(), std::string(whole.error ? whole.error->what() : ""));
  CHECK(whole.rows->size() == rows);
}

#define FAILS_ALIKE(T, ...) fails_alike<T>(__LINE__, __VA_ARGS__)
#define DECODES_ALIKE(T, ...) decodes_alike<T>(__LINE__, __VA_ARGS__)

constexpr decode_limits eight{.max_string_bytes = 8};
constexpr auto array = payload_shape::results_array;

std::string agg_row(const std::string& extra = {}) { return R"({"v":1,"o":1,"c":2,"h":3,"l":0.5,"t":7)" + extra + "}"; }

std::string aggs(const std::string& second_row_extra, const std::string& envelope = R"("status":"OK")") {
  return "{" + envelope + R"(,"results":[)" + agg_row() + "," + agg_row(second_row_extra) + "," + agg_row() + "]}";
}

const std::string trade_row =
    R"({"exchange":4,"id":"1","participant_timestamp":1,"price":1.5,"sequence_number":1,"sip_timestamp":2,"size":10})";

TEST_CASE("strings in rows: max_string_bytes + 1 fails at the field, max passes, for every split") {
  FAILS_ALIKE(agg, aggs(R"(,"T":"ABCDEFGHI")"), array, eight, {decode_errc::too_long, "results[1].T", 1});
  DECODES_ALIKE(agg, aggs(R"(,"T":"ABCDEFGH")"), array, eight, 3);
  // As sent: an escape counts its backslash.
  FAILS_ALIKE(agg, aggs(R"(,"T":"ABCDEF\"G")"), array, eight, {decode_errc::too_long, "results[1].T", 1});
  DECODES_ALIKE(agg, aggs(R"(,"T":"ABCDE\"F")"), array, eight, 3);
  DECODES_ALIKE(agg, aggs(R"(,"T":"\\\\\\\\")"), array, eight, 3);
  FAILS_ALIKE(agg, aggs(R"(,"T":"\\\\\\\\\\")"), array, eight, {decode_errc::too_long, "results[1].T", 1});
  // The empty string and many short strings in one 64-byte block.
  DECODES_ALIKE(agg, aggs(R"(,"a":"","b":"12345678","x":"1","d":"12345678","e":"")"), array, eight, 3);
  FAILS_ALIKE(agg, aggs(R"(,"a":"","b":"12345678","x":"1","d":"123456789","e":"")"), array, eight,
              {decode_errc::too_long, "results[1].d", 1});
}

TEST_CASE("keys in rows: the key is named by its first bytes") {
  // The fuzzer's F1 reproducer: the same trade body failed only when split.
  FAILS_ALIKE(trade, R"({"results":[)" + trade_row + "]}", array, eight,
              {decode_errc::too_long, "results[0].particip...", 0});
  FAILS_ALIKE(trade, trade_row, payload_shape::document, eight, {decode_errc::too_long, "particip...", 0});
  FAILS_ALIKE(agg, aggs(R"(,"abcdefghi":1)"), array, eight, {decode_errc::too_long, "results[1].abcdefgh...", 1});
  DECODES_ALIKE(agg, aggs(R"(,"abcdefgh":1)"), array, eight, 3);
}

TEST_CASE("strings and keys in nested values of rows name the nested field") {
  FAILS_ALIKE(agg, aggs(R"(,"zz":{"a":[1,{"b":"123456789"}]})"), array, eight,
              {decode_errc::too_long, "results[1].zz.a[1].b", 1});
  FAILS_ALIKE(agg, aggs(R"(,"zz":[["x"],["12345678","123456789"]])"), array, eight,
              {decode_errc::too_long, "results[1].zz[1][1]", 1});
  FAILS_ALIKE(agg, aggs(R"(,"zz":{"a":1,"abcdefghij":2})"), array, eight,
              {decode_errc::too_long, "results[1].zz.abcdefgh...", 1});
  DECODES_ALIKE(agg, aggs(R"(,"zz":{"a":[1,{"b":"12345678"}],"abcdefgh":["12345678"]})"), array, eight, 3);
}

TEST_CASE("strings and keys in the envelope, before and after the rows") {
  FAILS_ALIKE(agg, aggs("", R"("status":"123456789")"), array, eight, {decode_errc::too_long, "status", std::nullopt});
  DECODES_ALIKE(agg, aggs("", R"("status":"12345678")"), array, eight, 3);
  FAILS_ALIKE(agg, aggs("", R"("resultsCount":3)"), array, eight, {decode_errc::too_long, "resultsC...", std::nullopt});
  // Nested values of unknown keys are named by their key.
  FAILS_ALIKE(agg, aggs("", R"("zz":{"a":["123456789"]})"), array, eight, {decode_errc::too_long, "zz", std::nullopt});
  DECODES_ALIKE(agg, aggs("", R"("zz":{"a":["12345678"]})"), array, eight, 3);
  FAILS_ALIKE(agg, aggs("", R"("zz":{"abcdefghi":1})"), array, eight, {decode_errc::too_long, "zz", std::nullopt});
  // A number is not a string: a long one is within the limit.
  DECODES_ALIKE(agg, aggs("", R"("count":1234567890123)"), array, eight, 3);
  // After the rows: the string is the envelope's, never the last row's.
  FAILS_ALIKE(agg, R"({"results":[)" + agg_row() + R"(],"status":"123456789"})", array, eight,
              {decode_errc::too_long, "status", std::nullopt});
  decode_limits hundred;
  hundred.max_string_bytes = 100;
  FAILS_ALIKE(agg, R"({"results":[)" + agg_row() + R"(],"status":")" + std::string(101, 's') + "\"}", array,
              hundred, {decode_errc::too_long, "status", std::nullopt});
}

TEST_CASE("every payload shape names the string where it is") {
  const std::string row = agg_row(R"(,"T":"ABCDEFGHI")");
  FAILS_ALIKE(agg, R"({"status":"OK","results":)" + row + "}", payload_shape::results_object, eight,
              {decode_errc::too_long, "results.T", 0});
  FAILS_ALIKE(agg, row, payload_shape::document, eight, {decode_errc::too_long, "T", 0});
  FAILS_ALIKE(agg, "[" + agg_row() + "," + row + "]", payload_shape::top_level_array, eight,
              {decode_errc::too_long, "[1].T", 1});
  FAILS_ALIKE(agg, R"({"results":{"values":[)" + agg_row() + "," + row + "]}}", payload_shape::results_values, eight,
              {decode_errc::too_long, "results.values[1].T", 1});
  FAILS_ALIKE(agg, R"({"results":{"u":{"url":"123456789"},"values":[]}})", payload_shape::results_values, eight,
              {decode_errc::too_long, "results.u", std::nullopt});
  DECODES_ALIKE(agg, R"({"results":{"u":{"url":"12345678"},"values":[)" + agg_row() + "]}}",
                payload_shape::results_values, eight, 1);
}

TEST_CASE("limits above one 64-byte block: strings that cross blocks or not, at every split") {
  // 128 and up: the framer's steady state measures the strings (framer.cpp, flat_block).
  for (const std::size_t limit : {std::size_t{61}, std::size_t{62}, std::size_t{63}, std::size_t{100},
                                  std::size_t{127}, std::size_t{128}, std::size_t{129}, std::size_t{200}}) {
    CAPTURE(limit);
    decode_limits limits;
    limits.max_string_bytes = limit;
    // Wherever the string sits relative to the 64-byte blocks: a moving prefix shifts it.
    for (std::size_t shift = 0; shift < 61; shift += 5) {
      const std::string pad = R"(,"p":")" + std::string(shift, 'p') + "\"";
      FAILS_ALIKE(agg, aggs(pad + R"(,"T":")" + std::string(limit + 1, 'x') + "\""), array, limits,
                  {decode_errc::too_long, "results[1].T", 1});
      DECODES_ALIKE(agg, aggs(pad + R"(,"T":")" + std::string(limit, 'x') + "\""), array, limits, 3);
    }
    FAILS_ALIKE(agg, aggs(",\"" + std::string(limit + 1, 'k') + "\":1"), array, limits,
                {decode_errc::too_long, "results[1]." + std::string(std::min<std::size_t>(limit, 64), 'k') + "...", 1});
  }
}

TEST_CASE("the first problem in the body is the one reported, whatever the split") {
  // A broken value in an earlier row comes before a long string in a later one (a wrong type
  // is no error under the default, lenient policy: docs/guide/decoding.md).
  FAILS_ALIKE(agg, R"({"results":[{"v":tru},)" + agg_row(R"(,"T":"ABCDEFGHI")") + "]}", array, eight,
              {decode_errc::invalid_json, "results[0].v", 0});
  // In one element: a mismatched bracket before the string, or the string before it.
  FAILS_ALIKE(agg, aggs(R"(,"zz":[1},"T":"ABCDEFGHI")"), array, eight, {decode_errc::invalid_json, "results[1]", 1});
  FAILS_ALIKE(agg, aggs(R"(,"T":"ABCDEFGHI","zz":[1})"), array, eight, {decode_errc::too_long, "results[1].T", 1});
  decode_limits shallow = eight;
  shallow.max_depth = 3;
  FAILS_ALIKE(agg, aggs(R"(,"zz":[[1]],"T":"ABCDEFGHI")"), array, shallow, {decode_errc::too_deep, "results[1]", 1});
  FAILS_ALIKE(agg, aggs(R"(,"T":"ABCDEFGHI","zz":[[1]])"), array, shallow, {decode_errc::too_long, "results[1].T", 1});
}

TEST_CASE("a long string deep in a body larger than the window, at any chunk size") {
  std::string body = R"({"status":"OK","results":[)";
  for (int i = 0; i < 3000; ++i) {
    if (i != 0) body += ',';
    body += agg_row(i == 2500 ? R"(,"T":"ABCDEFGHI")" : "");
  }
  body += "]}";
  for (const std::size_t chunk : {std::size_t{1000}, std::size_t{4093}, std::size_t{16384}, std::size_t{77777}, body.size()}) {
    CAPTURE(chunk);
    page_decoder<agg> decoder(make_page_pool(), array, eight);
    const attempt<agg> a = try_decode(decoder, [&](page_decoder<agg>& d) { feed_chunks(d, body, chunk); });
    REQUIRE(a.error.has_value());
    CHECK(a.error->code() == decode_errc::too_long);
    CHECK(a.error->field_path() == "results[2500].T");
    CHECK(a.error->row() == 2500);
  }
}

}  // namespace
}  // namespace massive::test
