// The flat-file CSV decoder: the formats of API-NOTES ("Flat files": the headers of each dataset,
// quoted condition lists, empty fields for absent values, nanosecond times), at every split of
// the bytes, with columns reordered or added, filters applied while parsing, and bad input as
// typed errors.
#include <doctest/doctest.h>

#include <charconv>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "allocation_counter.hpp"
#include "expect_error.hpp"
#include "massive/files/decoder.hpp"
#include "row_text.hpp"

namespace massive::files {
namespace {

constexpr std::string_view trades_csv =
    "ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_"
    "timestamp,size,tape,"
    "trf_id,trf_timestamp\n"
    "A,\"12,37\",,4,71675,1712300400013154000,110.51,1250,1712300400013177600,1,1,,\n"
    "A,,,11,2,1712325600000062000,110.76,1600,1712325600000345000,120,1,,\n"
    "AAPL,\"14,41\",0,12,72815,1712325600010012000,169.5,4009408,1712325600010038000,100,3,201,"
    "1712325600010020000\n"
    "AAPL,37,,4,799,1712325600020000000,169.51,4009434,1712325600020017000,5.5,3,,\n";

using test::expect_error;
using test::text_of;

/// Rows of every page, rendered, and the pages' summed stats.
struct decoded {
  std::vector<std::string> rows;
  std::size_t pages = 0;
  std::uint64_t filtered = 0;
  std::uint64_t dropped = 0;
};

template <class Row>
void drain(row_decoder<Row>& decoder, decoded& out) {
  while (decoder.page_ready()) {
    const row_page<Row> page = decoder.take();
    ++out.pages;
    out.filtered += page.stats().filtered_rows;
    out.dropped += page.stats().dropped_rows;
    for (const Row& r : page) out.rows.push_back(text_of(r));
  }
}

/// Feeds `text` cut at `cuts` (ascending offsets), taking pages as they fill.
template <class Row>
decoded decode(std::string_view text, std::span<const std::size_t> cuts,
               decode_options options = {}) {
  row_decoder<Row> decoder(make_page_pool(), std::move(options));
  decoded out;
  std::size_t from = 0;
  auto feed = [&](std::string_view piece) {
    while (!piece.empty()) {
      const std::size_t used = decoder.feed(piece);
      piece.remove_prefix(used);
      drain(decoder, out);
    }
  };
  for (const std::size_t cut : cuts) {
    feed(text.substr(from, cut - from));
    from = cut;
  }
  feed(text.substr(from));
  decoder.finish();
  drain(decoder, out);
  return out;
}

template <class Row>
decoded decode_whole(std::string_view text, decode_options options = {}) {
  return decode<Row>(text, {}, std::move(options));
}

TEST_CASE("csv: stock trades as API-NOTES shows them, values exact") {
  row_decoder<stock_trade> decoder(make_page_pool());
  CHECK(decoder.feed(trades_csv) == trades_csv.size());
  decoder.finish();
  const row_page<stock_trade> page = decoder.take();
  REQUIRE(page.size() == 4);
  const stock_trade& a = page[0];
  CHECK(a.ticker == "A");
  // Seen failing with quoted fields read as unquoted: "12 and 37" became two fields, the row's
  // later columns shifted and two of four rows were dropped (REQUIRE 2 == 4 above).
  REQUIRE(a.conditions.size() == 2);
  CHECK(a.conditions[0] == 12);
  CHECK(a.conditions[1] == 37);
  CHECK_FALSE(a.correction.has_value());  // an empty field is absent, not 0
  CHECK(a.exchange == 4);
  CHECK(a.id == "71675");
  CHECK(a.participant_timestamp.count() == 1712300400013154000);  // beyond 2^53: exact
  CHECK(a.price == 110.51);
  CHECK(a.sequence_number == 1250);
  CHECK(a.sip_timestamp == timestamp_ns::from_count(1712300400013177600));
  CHECK(a.size == 1);
  CHECK(a.tape == 1);
  CHECK_FALSE(a.trf_id.has_value());
  CHECK_FALSE(a.trf_timestamp.has_value());
  CHECK(page[1].conditions.empty());
  CHECK(page[2].correction == 0);
  CHECK(page[2].trf_id == 201);
  CHECK(page[2].trf_timestamp == timestamp_ns::from_count(1712325600010020000));
  REQUIRE(page[3].conditions.size() == 1);  // one condition, unquoted
  CHECK(page[3].conditions[0] == 37);
  CHECK(page[3].size == 5.5);
  // One copy of each ticker in the arena: consecutive rows share it.
  CHECK(page[2].ticker.data() == page[3].ticker.data());
  // A file row is a REST row: code written for massive::trade takes it as it is.
  const massive::trade& rest = page[2];
  CHECK(rest.price == 169.5);
  CHECK(page.stats().first_line == 2);
  CHECK(page.stats().lines == 5);
  CHECK(decoder.finished());
}

TEST_CASE("csv: condition lists read where they lie and the general way give one verdict") {
  // The list's field as a file may write it, and the conditions it holds; nullopt: the row is
  // dropped. Plain ones are read in the field scan; the others (spaces, a sign, doubled quotes,
  // beyond int32) by the general reader.
  const std::vector<std::pair<std::string, std::optional<std::vector<std::int32_t>>>> cases = {
      {"12", std::vector<std::int32_t>{12}},
      {"\"12,37\"", std::vector<std::int32_t>{12, 37}},
      {"\"12,37,41\"", std::vector<std::int32_t>{12, 37, 41}},
      {"", std::vector<std::int32_t>{}},
      {"\"\"", std::vector<std::int32_t>{}},
      {"2147483647", std::vector<std::int32_t>{2147483647}},
      {"\"12, 37\"", std::vector<std::int32_t>{12, 37}},
      {"-1", std::vector<std::int32_t>{-1}},
      {"0012", std::vector<std::int32_t>{12}},
      {"2147483648", std::nullopt},
      {"\"12,\"", std::nullopt},
      {"\",12\"", std::nullopt},
      {"12x", std::nullopt},
      {"\"1\"\"2\"", std::nullopt},
      {"\"12\"x", std::nullopt},
  };
  for (const auto& one : cases) {
    const std::string& field = one.first;
    const auto& expected = one.second;
    CAPTURE(field);
    const std::string file =
        "ticker,conditions,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,"
        "size,tape\nA," + field + ",4,1,1712300400013154000,1.5,7,1712300400013177600,100,1\n";
    row_decoder<stock_trade> decoder(make_page_pool());
    decoder.feed(file);
    decoder.finish();
    const row_page<stock_trade> page = decoder.take();
    // Seen failing with the in-place reader's check for a digit left out: "12," read as
    // {12, 0}, and "" as {0}.
    if (!expected) {
      CHECK(page.size() == 0);
      CHECK(page.stats().dropped_rows == 1);
      continue;
    }
    REQUIRE(page.size() == 1);
    const std::span<const std::int32_t> got = page[0].conditions;
    CHECK(std::vector<std::int32_t>(got.begin(), got.end()) == *expected);
  }
}

TEST_CASE("csv: every split of the bytes, and pages of every size, give the same rows") {
  const decoded whole = decode_whole<stock_trade>(trades_csv);
  REQUIRE(whole.rows.size() == 4);
  for (const std::size_t per_page : {1, 3, 4, 100}) {
    CAPTURE(per_page);
    decode_options options;
    options.rows_per_page = per_page;
    for (std::size_t cut = 0; cut <= trades_csv.size(); ++cut) {
      const std::size_t cuts[] = {cut};
      const decoded split = decode<stock_trade>(trades_csv, cuts, options);
      if (split.rows != whole.rows) FAIL_CHECK("split at " << cut);
    }
    for (std::size_t cut = 0; cut + 2 <= trades_csv.size(); cut += 5) {
      const std::size_t cuts[] = {cut, cut + 1, cut + 2};
      if (decode<stock_trade>(trades_csv, cuts, options).rows != whole.rows)
        FAIL_CHECK("splits around " << cut);
    }
  }
  // Byte by byte.
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < trades_csv.size(); ++i) every.push_back(i);
  CHECK(decode<stock_trade>(trades_csv, every).rows == whole.rows);
}

TEST_CASE("csv: CRLF line ends, a last line without one, and blank lines") {
  std::string crlf;
  for (const char c : trades_csv) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const decoded whole = decode_whole<stock_trade>(trades_csv);
  // Seen failing with the '\r' strip removed: the rows differed here and at every split (the
  // header's last column became "trf_timestamp\r", an unknown column).
  CHECK(decode_whole<stock_trade>(crlf).rows == whole.rows);
  for (std::size_t cut = 0; cut <= crlf.size(); ++cut) {
    const std::size_t cuts[] = {cut};
    if (decode<stock_trade>(crlf, cuts).rows != whole.rows) FAIL_CHECK("CRLF split at " << cut);
  }
  std::string unterminated(trades_csv.substr(0, trades_csv.size() - 1));
  CHECK(decode_whole<stock_trade>(unterminated).rows == whole.rows);
  CHECK(decode_whole<stock_trade>(std::string(trades_csv) + "\n\r\n").rows == whole.rows);
}

TEST_CASE("csv: columns are mapped by the header's names, reordered or added") {
  const std::string reordered =
      "size,price,extra_column,sip_timestamp,ticker,id,exchange,sequence_number,participant_"
      "timestamp,conditions,"
      "tape,future\n"
      "100,169.5,\"x,y\",1712325600010038000,AAPL,72815,12,4009408,1712325600010012000,\"14,41\",3,"
      "\n";
  const decoded d = decode_whole<stock_trade>(reordered);
  REQUIRE(d.rows.size() == 1);
  CHECK(d.rows[0] ==
        "AAPL|14;41;|-|12|72815|1712325600010012000|169.5|4009408|1712325600010038000|100|3|-|-|");
}

TEST_CASE("csv: a missing needed column is an error naming it") {
  // Seen failing with the needed_in_header check removed: "no error" (the file decoded, its rows
  // dropped for the fields they lack).
  expect_error([] { decode_whole<stock_trade>("ticker,size,sip_timestamp\nA,1,2\n"); },
               files_errc::missing_column, "'exchange'");
  expect_error([] { decode_whole<aggregate>("ticker,volume,open,close,high,low\nA,1,2,3,4,5\n"); },
               files_errc::missing_column, "needs the column 'window_start'");
  expect_error([] { decode_whole<aggregate>(""); }, files_errc::malformed_header, "no header");
  expect_error([] { decode_whole<aggregate>("\n"); }, files_errc::malformed_header,
               "first line is empty");
}

TEST_CASE("csv: each row type is decoded with its own schema, its dataset's prices needed") {
  // Seen failing with schema_at() reading the next entry (stock_quote == stock_trade, 192 == 176)
  // and with also_needed() giving quotes the trades' prices (no 'ask_price' in the error).
  [&]<class... Rows>(row_type_list<Rows...>) {
    const auto check = [&]<class Row>(std::type_identity<Row>) {
      const detail::row_schema& s = detail::schema_at(detail::decodable_rows::index_of<Row>());
      CHECK(s.name == row_traits<Row>::name);
      CHECK(s.row_size == sizeof(Row));
      REQUIRE_FALSE(s.time_columns.empty());
      CHECK(s.time_columns[0] == (std::is_same_v<Row, aggregate> ? "window_start" : "sip_timestamp"));
    };
    (check(std::type_identity<Rows>{}), ...);
  }(detail::decodable_rows{});
  CHECK(detail::decodable_rows::size == tick_row_types::size + 1);
  expect_error([] { decode_whole<stock_quote>("ticker,sip_timestamp,bid_price\nA,1,2\n"); },
               files_errc::missing_column, "'ask_price'");
}

TEST_CASE("csv: a column no kind reads (a regeneration retyped its member) is refused by name") {
  // A row of a ticker and a member of a type no column kind holds (schemas.cpp makes such a
  // column for a non-optional member: codegen_unusual_constructs retypes a trade's fields so).
  struct odd_row {
    std::string_view ticker;
    bool flag = false;
  };
  using detail::column_kind;
  const detail::column columns[] = {{"ticker", column_kind::ticker, 0, true},
                                    {"flag", column_kind::unreadable, offsetof(odd_row, flag),
                                     true}};
  const odd_row blank{};
  const detail::row_schema schema{"odd_row", columns, {}, sizeof(odd_row), &blank};
  const auto decode = [&](std::string_view text) {
    detail::csv_core core(make_page_pool(), schema, {});
    core.feed(text);
    core.finish();
  };
  // Seen failing with the header's check of column_kind::unreadable removed: "no error" (the
  // rows were made with the flag's default, false, shown as if read).
  expect_error([&] { decode("ticker,flag\nA,true\n"); }, files_errc::missing_column,
               "column 'flag' cannot be read");
  expect_error([&] { decode("ticker\nA\n"); }, files_errc::missing_column,
               "needs the column 'flag'");
}

constexpr std::string_view minute_aggs_csv =
    "ticker,volume,open,close,high,low,window_start,transactions\n"
    "A,4538,110.51,110.7,110.7,110.51,1712304000000000000,31\n"
    "AAPL,2.5e3,169.5,169.52,169.6,169.45,1712325600000000000,\n"
    "AAPL,1000,169.52,169.4,169.55,169.4,1712325660000000000,12\n"
    "MSFT,800,420.1,420.2,420.3,420.0,1712325600000000000,9\n";

TEST_CASE("csv: minute aggregates, window_start in nanoseconds") {
  const decoded d = decode_whole<aggregate>(minute_aggs_csv);
  REQUIRE(d.rows.size() == 4);
  CHECK(d.rows[0] ==
        "A|4538|110.51000000000001|110.7|110.7|110.51000000000001|1712304000000000000|31|");
  CHECK(d.rows[1] ==
        "AAPL|2500|169.5|169.52000000000001|169.59999999999999|169.44999999999999|"
        "1712325600000000000|-|");
}

TEST_CASE("csv: prices are the doubles std::from_chars reads, bit for bit") {
  // The decoder reads plain decimals by Clinger's fast path (an integer below 2^53 over an exact
  // power of ten) and the rest with from_chars; both must give from_chars' double. Seen failing
  // with the fast path multiplying by 10^-k instead of dividing by 10^k: "50.48 read as 50.48,
  // from_chars 50.48" (one ulp apart), 3,315 of the 20,010 values.
  std::string text = "ticker,volume,open,close,high,low,window_start\n";
  std::vector<std::string> prices;
  std::uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const int digits = 1 + static_cast<int>((state >> 33) % 17);
    std::string p = std::to_string((state >> 11) % 100000000000000000ULL)
                        .substr(0, static_cast<std::size_t>(digits));
    const std::size_t dot = (state >> 50) % (p.size() + 1);
    if (dot < p.size()) p.insert(dot, ".");
    if ((state >> 60) % 7 == 0) p.append("e-3");
    prices.push_back(p);
    text.append("T,1,").append(p).append(",1,1,1,0\n");
  }
  for (const char* odd : {"0.1", "0.3", "1e-5", "0.00001", "123456789012345.6", "9007199254740993",
                          "1.", ".5", "1e308"}) {
    prices.emplace_back(odd);
    text.append("T,1,").append(odd).append(",1,1,1,0\n");
  }
  decode_options one_page;
  one_page.rows_per_page = 100000;
  row_decoder<aggregate> decoder(make_page_pool(), one_page);
  decoder.feed(text);
  decoder.finish();
  const row_page<aggregate> page = decoder.take();
  REQUIRE(page.size() == prices.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < prices.size(); ++i) {
    double expected = 0;
    std::from_chars(prices[i].data(), prices[i].data() + prices[i].size(), expected);
    if (std::memcmp(&expected, &page[i].open, sizeof(double)) != 0) {
      if (differ++ < 5)
        FAIL_CHECK(prices[i] << " read as " << page[i].open << ", from_chars " << expected);
    }
  }
  CHECK(differ == 0);
}

/// A random integer field: up to 22 digits (leading zeros, int64's bounds and beyond), a sign
/// at times, and at times a byte that is no digit: the ASCII neighbours of '0' and '9' that a
/// nibble test could let through (/ : ?), a dot, a space, a '+', a letter.
std::string random_integer_text(std::uint64_t& state) {
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 20;
  };
  std::string t;
  switch (next() % 6) {
    case 0:
      t = next() % 2 ? "9223372036854775807" : "9223372036854775808";
      break;
    case 1:
      t = std::string(next() % 4, '0') + std::to_string(next() % 10000000000ULL);
      break;
    default:
      for (std::uint64_t n = 1 + next() % 22; n > 0; --n) t += static_cast<char>('0' + next() % 10);
  }
  if (next() % 4 == 0) t.insert(0, "-");
  if (next() % 3 == 0) {
    constexpr std::string_view strays = "/:?. +x";
    t[next() % t.size()] = strays[next() % strays.size()];
  }
  return t;
}

TEST_CASE("csv: integers and nanosecond times are what std::from_chars reads, or the row drops") {
  // Numbers are read where they lie, nineteen-digit times eight digits at a time; std::from_chars
  // is the independent reader: a row is kept exactly when it reads the whole field, with its
  // value. The field is checked in the middle of a line (before a comma) and at its end, the
  // bytes fed whole and cut every 7 bytes (lines copied aside across the cuts).
  // Seen failing with eight_digits' second test (the +6) removed, ':' and '?' read as digits:
  // "rows differ: 2392 kept, from_chars keeps 2265".
  // Seen failing with read_i64's int64 limit removed (9223372036854775808 and beyond kept,
  // wrapped): "rows differ: 2448 kept, from_chars keeps 2265".
  std::uint64_t state = 777;
  std::vector<std::string> values;
  for (int i = 0; i < 4000; ++i) values.push_back(random_integer_text(state));
  for (const char* edge :
       {"0", "-0", "-", "", "12345678", "123456789012345678", "-9223372036854775808",
        "-9223372036854775809", "00000000000000000000001", "1712304881744899972",
        "17123048817448a9972", "1712304881744899972x"}) {
    values.emplace_back(edge);
  }
  std::vector<std::int64_t> expected;
  for (const std::string& v : values) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (!v.empty() && ec == std::errc{} && end == v.data() + v.size()) expected.push_back(n);
  }
  for (const bool at_line_end : {false, true}) {
    CAPTURE(at_line_end);
    std::string text = at_line_end
                           ? "ticker,volume,open,close,high,low,transactions,window_start\n"
                           : "ticker,volume,open,close,high,low,window_start,transactions\n";
    for (const std::string& v : values)
      text += at_line_end ? "T,1,1,1,1,1,7," + v + "\n" : "T,1,1,1,1,1," + v + ",7\n";
    std::vector<std::size_t> cuts;
    for (std::size_t c = 7; c < text.size(); c += 7) cuts.push_back(c);
    for (const bool cut : {false, true}) {
      CAPTURE(cut);
      decode_options one_page;
      one_page.rows_per_page = 100000;
      row_decoder<aggregate> decoder(make_page_pool(), one_page);
      std::vector<std::int64_t> kept;
      std::size_t from = 0;
      for (const std::size_t c :
           cut ? std::span<const std::size_t>(cuts) : std::span<const std::size_t>()) {
        CHECK(decoder.feed(std::string_view(text).substr(from, c - from)) == c - from);
        from = c;
      }
      decoder.feed(std::string_view(text).substr(from));
      decoder.finish();
      const row_page<aggregate> page = decoder.take();
      for (const aggregate& r : page) {
        kept.push_back(r.window_start.count());
        CHECK(r.transactions == 7);
      }
      if (kept != expected)
        FAIL_CHECK("rows differ: " << kept.size() << " kept, from_chars keeps " << expected.size());
      CHECK(page.stats().dropped_rows == values.size() - expected.size());
    }
  }
}

TEST_CASE("csv: quoted numbers read as unquoted ones; malformed ones give the same typed error") {
  const decoded quoted = decode_whole<aggregate>(
      "ticker,volume,open,close,high,low,window_start,transactions\n"
      "A,\"4538\",\"110.51\",110.7,110.7,110.51,\"1712304000000000000\",\"31\"\n");
  const decoded plain = decode_whole<aggregate>(
      "ticker,volume,open,close,high,low,window_start,transactions\n"
      "A,4538,110.51,110.7,110.7,110.51,1712304000000000000,31\n");
  REQUIRE(plain.rows.size() == 1);
  CHECK(quoted.rows == plain.rows);
  decode_options strict;
  strict.policy = decode_policy::strict;
  // Each bad field, in the middle of the line and at its end, is the general reader's error.
  // Seen failing with read_f64 taking a second dot as a digit: "FATAL ERROR: no error", logged
  // "bad := 1.2.3".
  auto expect_bad_open = [&](const std::string& header, const std::string& line) {
    expect_error([&] { decode_whole<aggregate>(header + "\n" + line + "\n", strict); },
                 files_errc::malformed_row, "line 2, column open");
  };
  for (const std::string bad : {"1.2.3", "\"1,2\"", ".", "-", "1e", "12a", "0x10", " 1"}) {
    CAPTURE(bad);
    expect_bad_open("ticker,volume,open,close,high,low,window_start",
                    "A,1," + bad + ",1,1,1,1712304000000000000");
    expect_bad_open("ticker,volume,close,high,low,window_start,open",
                    "A,1,1,1,1,1712304000000000000," + bad);
  }
}

TEST_CASE("csv: the ticker filter and the time window skip rows while parsing") {
  decode_options options;
  options.filter.tickers = {"AAPL", "ZZZ"};
  const decoded only_aapl = decode_whole<aggregate>(minute_aggs_csv, options);
  // Seen failing with the filter's binary_search removed: REQUIRE( 4 == 2 ).
  REQUIRE(only_aapl.rows.size() == 2);
  CHECK(only_aapl.rows[0].starts_with("AAPL|"));
  CHECK(only_aapl.filtered == 2);

  options.filter.from = timestamp_ns::from_count(1712325600000000000);
  options.filter.to = timestamp_ns::from_count(1712325660000000000);
  const decoded window = decode_whole<aggregate>(minute_aggs_csv, options);
  REQUIRE(window.rows.size() == 1);  // `to` is excluded
  CHECK(window.rows[0].starts_with("AAPL|2500|"));
  CHECK(window.filtered == 3);

  // A filtered row leaves no trace in the arena: the next kept row's ticker is its own copy.
  decode_options msft;
  msft.filter.tickers = {"MSFT"};
  row_decoder<aggregate> decoder(make_page_pool(), msft);
  decoder.feed(minute_aggs_csv);
  decoder.finish();
  const row_page<aggregate> page = decoder.take();
  REQUIRE(page.size() == 1);
  CHECK(page[0].ticker == "MSFT");

#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
  decode_options no_time;
  no_time.filter.from = timestamp_ns::from_count(0);
  expect_error(
      [&] {
        row_decoder<option_trade> d(make_page_pool(), no_time);
        d.feed(std::string_view("ticker,price,size\nO:X,1,1\n"));
      },
      files_errc::missing_column, "time window needs a time column (sip_timestamp)");
#endif
}

TEST_CASE(
    "csv: a bad row is dropped and counted, or under strict an error naming line and column") {
  const std::string bad = std::string(minute_aggs_csv) +
                          "BAD,1,2,3,4,5,notatime,1\n"
                          "BAD,1,,3,4,5,1712325600000000000,1\n"
                          "BAD,1,2,3,4,5,1712325600000000000,1.5\n"
                          "BAD,1,2,3,4,5\n"
                          "BAD,1,2,3,4,5,1712325600000000000,\"1\n"
                          "OK,1,2,3,4,5,1712325600000000000,99999999999\n";
  const decoded d = decode_whole<aggregate>(bad);
  CHECK(d.rows.size() == 5);
  CHECK(d.dropped == 5);
  CHECK(d.rows.back().starts_with("OK|"));
  row_decoder<aggregate> lenient(make_page_pool());
  lenient.feed(bad);
  lenient.finish();
  CHECK(lenient.take().stats().first_dropped_line == 6);

  decode_options strict;
  strict.policy = decode_policy::strict;
  expect_error([&] { decode_whole<aggregate>(bad, strict); }, files_errc::malformed_row,
               "line 6, column window_start");
  try {
    decode_whole<aggregate>(bad, strict);
  } catch (const files_error& e) {
    CHECK(e.line() == 6);
  }
}

TEST_CASE("csv: a line longer than max_line_bytes is refused at every split") {
  decode_options options;
  options.max_line_bytes = 64;
  const std::string text = std::string(minute_aggs_csv.substr(0, minute_aggs_csv.find('\n') + 1)) +
                           "A," + std::string(100, '1') + "\nB\n";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    CAPTURE(cut);
    const std::size_t cuts[] = {cut};
    expect_error([&] { decode<aggregate>(text, cuts, options); }, files_errc::line_too_long,
                 "line 2 is longer");
  }
}

TEST_CASE("csv: a decoder that failed says so until reset(), then reads the next file") {
  row_decoder<aggregate> decoder(make_page_pool());
  CHECK_THROWS_AS(decoder.feed(std::string_view("ticker\nA\n")), files_error);
  CHECK_THROWS_AS(decoder.feed(std::string_view("more")), files_error);
  decoder.reset();
  decoder.feed(minute_aggs_csv);
  decoder.finish();
  CHECK(decoder.take().size() == 4);
  CHECK_THROWS_AS(decoder.take(), std::logic_error);
}

#ifdef MASSIVE_FILES_HAS_CRYPTO_TRADE
TEST_CASE("csv: quoted text with doubled quotes") {
  const std::string text =
      "ticker,conditions,exchange,id,participant_timestamp,price,size\n"
      "X:BTCUSD,\"1\",1,\"a\"\"b,c\",1712325600000000000,65000.5,0.01\n"
      "X:BTCUSD,,,,,65001,0.5\n";
  row_decoder<crypto_trade> decoder(make_page_pool());
  decoder.feed(text);
  decoder.finish();
  const row_page<crypto_trade> page = decoder.take();
  REQUIRE(page.size() == 2);
  CHECK(page[0].id == "a\"b,c");
  CHECK(page[0].price == 65000.5);
  CHECK(page[0].participant_timestamp == timestamp_ns::from_count(1712325600000000000));
  CHECK_FALSE(page[1].id.has_value());
  CHECK_FALSE(page[1].exchange.has_value());
  CHECK(page[1].size == 0.5);
}
#endif

TEST_CASE("csv: every market's rows read their files' headers") {
#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
  SUBCASE("options trades") {
    row_decoder<option_trade> d(make_page_pool());
    d.feed(std::string_view(
        "ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size\n"
        "O:SPY241220P00720000,209,,312,1712325600000000000,1.25,1712325600000100000,3\n"));
    d.finish();
    const auto p = d.take();
    REQUIRE(p.size() == 1);
    CHECK(p[0].ticker == "O:SPY241220P00720000");
    CHECK(p[0].price == 1.25);
    CHECK(p[0].exchange == 312);
    CHECK(p[0].sip_timestamp == timestamp_ns::from_count(1712325600000100000));
  }
#endif
#ifdef MASSIVE_FILES_HAS_OPTION_QUOTE
  SUBCASE("options quotes") {
    row_decoder<option_quote> d(make_page_pool());
    d.feed(std::string_view(
        "ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,sequence_number,"
        "sip_timestamp\n"
        "O:SPY241220P00720000,300,1.3,10,301,1.2,,77,1712325600000100000\n"));
    d.finish();
    const auto p = d.take();
    REQUIRE(p.size() == 1);
    CHECK(p[0].ask_price == 1.3);
    CHECK_FALSE(p[0].bid_size.has_value());
    CHECK(p[0].sequence_number == 77);
  }
#endif
  SUBCASE("stock quotes") {
    row_decoder<stock_quote> d(make_page_pool());
    d.feed(std::string_view(
        "ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,conditions,"
        "indicators,participant_timestamp,sequence_number,sip_timestamp,tape,trf_timestamp\n"
        "AAPL,11,169.6,2,12,169.5,3,1,\"604,605\",1712325600000000000,5,1712325600000000100,3,\n"));
    d.finish();
    const auto p = d.take();
    REQUIRE(p.size() == 1);
    CHECK(p[0].bid_price == 169.5);
    REQUIRE(p[0].indicators.size() == 2);
    CHECK(p[0].indicators[1] == 605);
    CHECK(p[0].conditions.size() == 1);
    CHECK(p[0].sequence_number == 5);
  }
#ifdef MASSIVE_FILES_HAS_FOREX_QUOTE
  SUBCASE("forex quotes") {
    row_decoder<forex_quote> d(make_page_pool());
    d.feed(std::string_view(
        "ticker,ask_exchange,ask_price,bid_exchange,bid_price,participant_timestamp\n"
        "C:EUR-USD,48,1.0841,48,1.084,1712325600000000000\n"));
    d.finish();
    const auto p = d.take();
    REQUIRE(p.size() == 1);
    CHECK(p[0].ticker == "C:EUR-USD");
    CHECK(p[0].bid_price == 1.084);
  }
#endif
}

TEST_CASE("csv: nothing is allocated per row, and pages come back to the pool") {
  std::string big = "ticker,volume,open,close,high,low,window_start,transactions\n";
  for (int i = 0; i < 20000; ++i) {
    // Appended piece by piece: g++ 12 reports a false -Wrestrict on "T" + std::to_string(i).
    if (i % 100 == 0) {
      big.append("T").append(std::to_string(i));
    } else {
      big.append("AAPL");
    }
    big.append(",100,1.5,1.6,1.7,1.4,")
        .append(std::to_string(1712325600000000000 + i))
        .append(",\"3\"\n");
  }
  auto pool = make_page_pool();
  decode_options options;
  options.rows_per_page = 4096;
  row_decoder<aggregate> decoder(pool, options);
  auto run = [&](std::string_view text) {
    decoder.reset();
    std::size_t rows = 0;
    while (!text.empty()) {
      text.remove_prefix(decoder.feed(text.substr(0, 1000)));
      while (decoder.page_ready()) rows += decoder.take().size();
    }
    decoder.finish();
    rows += decoder.take().size();
    return rows;
  };
  CHECK(run(big) == 20000);  // warms the decoder's line buffer and the pool
  const std::string small = big.substr(0, big.find('\n', 200000) + 1);
  massive::test::allocation_scope few;
  const std::size_t few_rows = run(small);
  const auto few_calls = few.calls();
  massive::test::allocation_scope many;
  CHECK(run(big) == 20000);
  if (massive::test::counting_enabled) {
    // Seen failing with the ticker copied through a std::string per row: "20003 for 20000"
    // (CHECK 20000 <= 4084).
    CHECK(few_rows > 1000);
    CHECK(many.calls() <= few_calls + 4);
    MESSAGE("allocations: " << few_calls << " for " << few_rows << " rows, " << many.calls()
                            << " for 20000");
  }
  CHECK(pool->stats().regions_mapped <= 4);
}

}  // namespace
}  // namespace massive::files
