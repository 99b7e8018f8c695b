// The S3 client over the SDK's transport against the mock's bucket (massive::mock::s3_bucket on
// a real HTTPS server in the process): signing per attempt, listings with continuation, ranges,
// resumption, every scripted fault, the secret kept out of requests, errors and traces; and
// the signing checked by an independent client, the AWS CLI (Debian's awscli), against the
// same mock.
#include <doctest/doctest.h>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <massive/client.hpp>
#include <massive/files/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>
#include <massive/stocks.hpp>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "expect_error.hpp"
#include "s3_fixture.hpp"
#include "files/credentials.hpp"
#include "files/s3_signer.hpp"
#include "files/sigv4.hpp"
#include "row_text.hpp"

namespace massive::files {
namespace {

namespace asio = boost::asio;
using massive::mock::s3_fault;
using test::day_key;
using test::fixture;
using test::read_all;

TEST_CASE(
    "s3 signer: the transport's bearer line becomes a SigV4 Authorization, renewed per attempt") {
  using namespace std::chrono;
  sys_seconds now = sys_days{2013y / May / 24};
  detail::s3_signer signer("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                           "us-east-1", [&] { return now; });
  std::string head =
      "GET /test.txt HTTP/1.1\r\nHost: examplebucket.s3.amazonaws.com\r\nAuthorization: Bearer "
      "s3-sigv4\r\n"
      "Accept: application/json\r\nUser-Agent: massive-cpp/0.1\r\nRange: bytes=0-9\r\n\r\n";
  signer.sign(head);
  // The same request as AWS's GET Object example: the same signature (sigv4_test.cpp).
  // Seen failing with the Range line left out of the signed headers: no such Authorization line.
  CHECK(head.find(
            "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature="
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41\r\n") !=
        std::string::npos);
  CHECK(head.find("Bearer") == std::string::npos);
  CHECK(head.ends_with("\r\n\r\n"));
  now += 90s;
  signer.sign(head);  // the next attempt
  CHECK(head.find("x-amz-date: 20130524T000130Z") != std::string::npos);
  CHECK(head.find("20130524T000000Z") == std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = head.find("Authorization:"); at != std::string::npos;
       at = head.find("Authorization:", at + 1)) {
    ++lines;
  }
  CHECK(lines == 1);
  CHECK(head.find("wJalr") == std::string::npos);
}

TEST_CASE("s3 credentials: options, then MASSIVE_S3_*, then AWS_*, a pair from one place") {
  std::map<std::string, std::string> env;
  auto getenv = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  CHECK_THROWS_AS(detail::resolve_keys("", "", getenv), files_error);
  env["AWS_ACCESS_KEY_ID"] = "aws-id";
  env["AWS_SECRET_ACCESS_KEY"] = "aws-secret";
  CHECK(detail::resolve_keys("", "", getenv).access_key == "aws-id");
  env["MASSIVE_S3_ACCESS_KEY"] = "m-id";
  env["MASSIVE_S3_SECRET_KEY"] = "m-secret";
  CHECK(detail::resolve_keys("", "", getenv).secret_key == "m-secret");
  CHECK(detail::resolve_keys("id", "secret", getenv).access_key == "id");
  env.erase("MASSIVE_S3_SECRET_KEY");
  try {
    detail::resolve_keys("", "", getenv);
    FAIL("a half pair was taken");
  } catch (const files_error& e) {
    CHECK(e.code() == files_errc::no_credentials);
    CHECK(std::string(e.what()).find("MASSIVE_S3_SECRET_KEY") != std::string::npos);
    CHECK(std::string(e.what()).find("m-id") == std::string::npos);
  }
  CHECK_THROWS_AS(detail::resolve_keys("id", "", getenv), files_error);
}

TEST_CASE("s3 client: listings follow continuation tokens; days without files are absent") {
  fixture f({.max_keys = 3});
  const auto files = f.run(f.files->list("us_stocks_sip/trades_v1/2024/01/"));
  // 2024-01-08 .. 2024-01-19: ten weekdays, listed three at a time.
  REQUIRE(files.size() == 10);
  CHECK(files.front().key == "us_stocks_sip/trades_v1/2024/01/2024-01-08.csv.gz");
  CHECK(files.back().key == "us_stocks_sip/trades_v1/2024/01/2024-01-19.csv.gz");
  CHECK(std::none_of(files.begin(), files.end(), [](const object_info& o) {
    return o.key.find("01-13") != std::string::npos;
  }));
  CHECK(files[4].size == f.bucket.object(files[4].key).size());
  CHECK(files[4].etag == f.bucket.etag(files[4].key));
  CHECK(f.server.request_count() == 4);
  const listing_page folders = f.run(f.files->list_page("us_stocks_sip/", "/"));
  REQUIRE(folders.common_prefixes.size() == 2);
  CHECK(folders.common_prefixes[0] == "us_stocks_sip/day_aggs_v1/");
  CHECK(f.run(f.files->list_folders("us_stocks_sip/")) == folders.common_prefixes);
  CHECK(f.bucket.signature_failures() == 0);
}

// Seen failing with the status check removed from fetch_range: the second range, the file's
// first 4096 bytes again, went to the inflater, which reported "files: corrupt_file: ...: the
// gzip stream is corrupt (a bad block or CRC)": caught by chance of the bytes, not named.
TEST_CASE("s3 client: a server that ignores Range is refused, its bytes kept out of the file") {
  files_config config;
  config.range_bytes = 4096;
  fixture f({}, std::move(config));
  const std::string whole = f.bucket.object(std::string(day_key));
  REQUIRE(whole.size() > 8192);
  f.server.respond_with([inner = f.bucket.responder(), whole](const massive::mock::recorded_request& r) {
    massive::mock::reply reply = inner(r);
    if (r.method == "GET" && !r.header("Range").empty() && !r.header("Range").starts_with("bytes=0-")) {
      reply.status = 200;  // the file from its first byte, as long as the range asked
      std::erase_if(reply.headers, [](const auto& h) { return h.first == "Content-Range"; });
      reply.body = whole.substr(0, reply.body.size());
    }
    return reply;
  });
  test::expect_error([&] { read_all<stock_trade>(f, std::string(day_key)); }, files_errc::corrupt_file,
                     "the server answered 200, not 206, to a request for the bytes from 4096 (it ignored the Range)");
}

// A server that would not end a listing: client::list refuses it, its memory bounded. Seen
// failing with the check of tokens_seen removed from client::list: the cycle took 1000
// requests, not 3, and ended on the page cap's message (before this session only a token equal
// to the previous one was refused, and A, B, A went round for ever). The page cap alone ends
// the kind with a new token on every page.
TEST_CASE("s3 client: a 206 of other bytes than the range asked is refused before they are used") {
  fixture f({}, {.range_bytes = 1000, .ranges_ahead = 0});
  f.bucket.inject({.kind = s3_fault::shifted_range, .key = std::string(day_key)});
  // Seen failing with the transport's Content-Range check left out: the day's bytes from 1 to
  // 1000 taken for 0 to 999, and the inflater's "the gzip stream is corrupt" (or, had it
  // inflated, wrong rows) instead of this error.
  try {
    read_all<stock_trade>(f, std::string(day_key));
    FAIL("no error");
  } catch (const transport_error& e) {
    CHECK(e.code() == errc::bad_response);
    CHECK_MESSAGE(std::string(e.what()).find("206 Partial Content with the bytes from 1 "
                                             "(Content-Range 'bytes 1-1000/") != std::string::npos,
                  e.what());
  }
}

TEST_CASE("s3 client: a range answered short is resumed, and a server that keeps doing so refused") {
  fixture plain;
  const auto whole = read_all<stock_trade>(plain, std::string(day_key));
  {
    fixture f({}, {.range_bytes = 1000, .ranges_ahead = 0, .max_resumes = 2});
    f.bucket.inject({.kind = s3_fault::short_range, .key = std::string(day_key), .after_bytes = 10});
    CHECK(read_all<stock_trade>(f, std::string(day_key)) == whole);
    CHECK(f.server.requests()[2].header("Range") == "bytes=10-999");
  }
  fixture f({}, {.range_bytes = 1000, .ranges_ahead = 0, .max_resumes = 2});
  for (int i = 0; i < 3; ++i) {
    f.bucket.inject({.kind = s3_fault::short_range, .key = std::string(day_key), .after_bytes = 1});
  }
  // Seen failing with the short answers left uncounted: the third answer's byte taken, and the
  // rows read whole (a server answering a byte at a time would be asked for ever).
  test::expect_error([&] { read_all<stock_trade>(f, std::string(day_key)); },
                     files_errc::corrupt_file, "fewer bytes than asked 3 times");
}

TEST_CASE("s3 client: a listing's keys are held to its prefix") {
  fixture f;
  // A server's listing of us_stocks_sip/ naming a key elsewhere, and a folder elsewhere.
  for (const char* entry : {"<Contents><Key>../../etc/2024-01-12.csv.gz</Key><Size>10</Size>"
                            "<ETag>\"e\"</ETag></Contents>",
                            "<CommonPrefixes><Prefix>global_crypto/</Prefix></CommonPrefixes>"}) {
    CAPTURE(entry);
    f.server.respond_with([entry](const massive::mock::recorded_request&) {
      return massive::mock::reply{
          .headers = {{"Content-Type", "application/xml"}},
          .body = std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult>"
                              "<Name>flatfiles</Name><Prefix>us_stocks_sip/</Prefix>"
                              "<IsTruncated>false</IsTruncated>") +
                  entry + "</ListBucketResult>"};
    });
    // Seen failing with the prefix check left out: the foreign key listed as a file.
    test::expect_error([&] { f.run(f.files->list_folders("us_stocks_sip/")); },
                       files_errc::malformed_listing, "a key outside the prefix asked");
  }
}

TEST_CASE("s3 client: a key that would leave the cache directory is refused; days take day files") {
  const auto temp = std::filesystem::temp_directory_path();
  const auto dir = temp / "massive-files-cache-keys";
  const std::string escaped = "massive-files-escaped";
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(temp / escaped);
  fixture f({}, {.cache_directory = dir.string()});
  // Under the month's prefix, so a listing of the month has it, and named for a day.
  const std::string hostile =
      "us_stocks_sip/trades_v1/2024/01/../../../../../" + escaped + "/2024-01-12.csv.gz";
  f.bucket.put(hostile, f.bucket.object(std::string(day_key)));
  f.run([&]() -> asio::awaitable<void> {
    using namespace std::chrono;
    const auto days = co_await f.files->days(market::stocks, dataset::trades, 2024y / January / 12,
                                             2024y / January / 12);
    // Seen failing with days() taking any key named for a day: CHECK( 2 == 1 ).
    REQUIRE(days.size() == 1);
    CHECK(days[0].key == day_key);
    object_info file = days[0];
    file.key = hostile;
    // Seen failing with the cache's check left out: "no error", the file written to
    // <temp>/<escaped>/2024-01-12.csv.gz with its .etag beside it.
    try {
      auto reader = f.files->read<stock_trade>(file);
      while (co_await reader.next()) {
      }
      FAIL("no error");
    } catch (const files_error& e) {
      CHECK(e.code() == files_errc::cache_failed);
      CHECK(std::string(e.what()).find("not a plain relative path") != std::string::npos);
    }
  }());
  CHECK_FALSE(std::filesystem::exists(temp / escaped));
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(temp / escaped);
}

TEST_CASE("s3 client: a listing that would not end is refused: a token seen before, none, or no last page") {
  for (const std::string kind : {"cycle", "no token", "no last page"}) {
    CAPTURE(kind);
    fixture f;
    std::atomic<int> pages{0};
    f.server.respond_with([&](const massive::mock::recorded_request&) {
      const int n = ++pages;
      const std::string token = kind == "cycle" ? (n % 2 == 1 ? "A" : "B") : kind == "no token" ? "" : "t" + std::to_string(n);
      return massive::mock::reply{.headers = {{"Content-Type", "application/xml"}},
                                  .body = "<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>x/k" +
                                          std::to_string(n) + "</Key><Size>1</Size></Contents><NextContinuationToken>" +
                                          token + "</NextContinuationToken></ListBucketResult>"};
    });
    const std::string_view says = kind == "cycle"      ? "a continuation token that repeats an earlier one"
                                  : kind == "no token" ? "a truncated listing without a NextContinuationToken"
                                                       : "a listing longer than 1000 pages";
    test::expect_error([&] { f.run(f.files->list("x/")); }, files_errc::malformed_listing, says);
    CHECK(pages == (kind == "cycle" ? 3 : kind == "no token" ? 1 : 1000));
  }
}

TEST_CASE(
    "s3 client: a file's rows are the mock market's REST trades of that day, at any range size") {
  // The same market over REST: its trades of AAPL on 2024-01-12, decoded by the JSON decoder.
  massive::mock::market_server rest_server({.ticks_per_day = 200});
  asio::io_context io;
  massive::client rest(io.get_executor(), {.api_key = "k",
                                           .base_url = rest_server.base_url(),
                                           .tls = {.ca_pem = rest_server.certificate_pem()}});
  std::vector<std::string> rest_rows;
  auto done = asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        using namespace std::chrono;
        auto trades = rest.stocks().trades({.ticker = "AAPL",
                                            .timestamp = 2024y / January / 12,
                                            .order = massive::sort_order::asc,
                                            .limit = 50000});
        while (auto page = co_await trades.next()) {
          for (const massive::trade& t : *page) {
            stock_trade r{t, "AAPL"};
            rest_rows.push_back(test::text_of(r));
          }
        }
      },
      asio::use_future);
  io.run();
  done.get();
  REQUIRE(rest_rows.size() == 200);

  for (const std::uint64_t range : {std::uint64_t{8} << 20, std::uint64_t{997}}) {
    CAPTURE(range);
    fixture f({.rows_per_member = 150}, {.range_bytes = range, .ranges_ahead = 2});
    decode_options only_aapl;
    only_aapl.filter.tickers = {"AAPL"};
    only_aapl.rows_per_page = 64;
    const auto rows = read_all<stock_trade>(f, std::string(day_key), only_aapl);
    // Seen failing with the mock's CSV writer one off in the trade id: the rows differ, at both
    // range sizes.
    CHECK(rows == rest_rows);
  }
}

TEST_CASE("s3 client: a transfer reset mid-file resumes from its last byte") {
  fixture plain;
  const auto whole = read_all<stock_trade>(plain, std::string(day_key));
  REQUIRE(whole.size() == 600);

  fixture f;
  f.bucket.inject({.kind = s3_fault::reset, .key = std::string(day_key), .after_bytes = 1000});
  // Seen failing with resumable() returning false: "reading the response body: Connection reset
  // by peer" thrown, and two requests instead of three.
  CHECK(read_all<stock_trade>(f, std::string(day_key)) == whole);
  const auto requests = f.server.requests();
  REQUIRE(requests.size() == 3);  // the listing, the GET cut at byte 1000, its resumption
  CHECK(requests[1].header("Range") ==
        "bytes=0-" + std::to_string(f.bucket.object(std::string(day_key)).size() - 1));
  CHECK(requests[2].header("Range").starts_with("bytes=1000-"));
  CHECK(requests[2].header("If-Match") == f.bucket.etag(std::string(day_key)));
}

// A file fetched whole (`massive files get`) was one GET of its every byte, past the
// transport's max_body_size for any file larger than 128 MiB (a day of stock trades is 1.35
// GB): found by a probe's 2 GiB answer, refused at once. Seen failing with fetch_range's single
// range, as before: "response body exceeds client_config.max_body_size as received".
TEST_CASE("s3 client: fetch asks a file range_bytes at a time, whatever its size against the body cap") {
  files_config config;
  config.range_bytes = 1000;
  config.transport.max_body_size = 1500;
  fixture f({}, std::move(config));
  const std::string whole = f.bucket.object(std::string(day_key));
  REQUIRE(whole.size() > 3000);
  const std::string got = f.run([&]() -> asio::awaitable<std::string> {
    const object_info file = co_await f.files->stat(std::string(day_key));
    std::string bytes;
    co_await f.files->fetch(file, 0, file.size, [&](std::span<const char> piece) { bytes.append(piece.data(), piece.size()); });
    co_return bytes;
  }());
  CHECK(got == whole);
  std::size_t ranges = 0;
  for (const auto& r : f.server.requests()) {
    if (r.method != "GET" || r.header("Range").empty()) continue;
    ++ranges;
    const std::string range = r.header("Range");  // bytes=<first>-<last>
    const std::uint64_t first = std::stoull(range.substr(6));
    const std::uint64_t last = std::stoull(range.substr(range.find('-') + 1));
    CHECK(last - first + 1 <= 1000);
  }
  CHECK(ranges == (whole.size() + 999) / 1000);
}

TEST_CASE("s3 client: a slow body arrives whole") {
  fixture f;
  f.bucket.inject({.kind = s3_fault::slow_body, .delay = std::chrono::milliseconds(1)});
  CHECK(read_all<aggregate>(f, "us_stocks_sip/day_aggs_v1/2024/01/2024-01-12.csv.gz").size() == 3);
}

TEST_CASE(
    "s3 client: 403 says what it may mean; a wrong secret is refused by the signature check") {
  {
    fixture f;
    f.bucket.inject({.kind = s3_fault::forbidden, .key = std::string(day_key)});
    test::expect_error([&] { read_all<stock_trade>(f, std::string(day_key)); },
                       files_errc::access_denied, "not published yet");
  }
  fixture wrong({}, {.access_key = "MOCKFLATFILESKEY0001", .secret_key = "not-the-secret"});
  // Seen failing with the mock comparing the signature it computed with itself: "no error".
  test::expect_error([&] { wrong.run(wrong.files->list("us_stocks_sip/")); },
                     files_errc::access_denied, "SignatureDoesNotMatch");
  CHECK(wrong.bucket.signature_failures() == 1);
}

TEST_CASE("s3 client: a corrupt gzip member and a file changed mid-read are typed errors") {
  {
    fixture f({.rows_per_member = 100});
    f.bucket.inject({.kind = s3_fault::corrupt_member, .key = std::string(day_key)});
    test::expect_error([&] { read_all<stock_trade>(f, std::string(day_key)); },
                       files_errc::corrupt_file, "gzip stream is corrupt");
  }
  fixture f({}, {.range_bytes = 1000, .ranges_ahead = 0});
  f.run([&]() -> asio::awaitable<void> {
    const object_info file = co_await f.files->stat(std::string(day_key));
    decode_options small_pages;
    small_pages.rows_per_page = 10;
    auto reader = f.files->read<stock_trade>(file, small_pages);
    CHECK((co_await reader.next()).has_value());
    f.bucket.inject({.kind = s3_fault::changed, .key = std::string(day_key)});
    try {
      while (co_await reader.next()) {
      }
      FAIL("no error");
    } catch (const files_error& e) {
      CHECK(e.code() == files_errc::changed_file);
    }
  }());
}

TEST_CASE("s3 client: the secret is in no request, error or trace") {
  fixture f;
  f.bucket.inject({.kind = s3_fault::forbidden, .key = std::string(day_key)});
  std::string error;
  try {
    read_all<stock_trade>(f, std::string(day_key));
  } catch (const files_error& e) {
    error = e.what();
  }
  const std::string& secret = f.bucket.options().secret_key;
  CHECK_FALSE(error.empty());
  CHECK(error.find(secret) == std::string::npos);
  const std::string sent = f.everything_sent();
  CHECK(sent.find("AWS4-HMAC-SHA256") != std::string::npos);
  CHECK(sent.find(secret) == std::string::npos);
  CHECK(sent.find("s3-sigv4") == std::string::npos);  // the transport's placeholder never leaves
  std::lock_guard lock(f.traced_mutex);
  CHECK_FALSE(f.traced.empty());
  CHECK(f.traced.find(secret) == std::string::npos);
}

std::size_t file_gets(const massive::mock::server& server) {
  const auto requests = server.requests();
  return static_cast<std::size_t>(
      std::count_if(requests.begin(), requests.end(), [](const auto& r) {
        return r.method == "GET" && r.target.find(".csv.gz") != std::string::npos &&
               r.target.find("list-type") == std::string::npos;
      }));
}

TEST_CASE(
    "traversal: days as one traversal, in date order, weekends absent by listing, files ahead in "
    "flight") {
  using namespace std::chrono;
  fixture f({.max_keys = 2});
  traversal_options options;
  options.files_ahead = 2;
  options.decode.rows_per_page = 128;
  const auto [files, days_seen, rows] = f.run(
      [&]()
          -> asio::awaitable<std::tuple<std::vector<object_info>, std::vector<int>, std::size_t>> {
        auto files = co_await f.files->days(market::stocks, dataset::trades, 2024y / January / 11,
                                            2024y / January / 16);
        auto reader = f.files->read_days<stock_trade>(files, options);
        std::vector<int> days_seen;  // the day of every page's first and last row
        std::size_t rows = 0;
        while (auto page = co_await reader.next()) {
          rows += page->size();
          for (const stock_trade* r : {&page->rows().front(), &page->rows().back()}) {
            days_seen.push_back(static_cast<int>(
                floor<days>(r->sip_timestamp.to_sys_time()).time_since_epoch().count()));
          }
        }
        CHECK(reader.files_done() == 4);
        co_return std::tuple{files, days_seen, rows};
      }());
  REQUIRE(files.size() == 4);  // the 11th, 12th, 15th and 16th: the 13th and 14th are a weekend
  CHECK(day_of(files[1].key) == 2024y / January / 12);
  CHECK(day_of(files[2].key) == 2024y / January / 15);
  CHECK(rows == 4 * 600);
  CHECK(std::is_sorted(days_seen.begin(), days_seen.end()));
  CHECK(days_seen.front() != days_seen.back());
  // Seen failing with files_ahead ignored (one file at a time): CHECK( 1 >= 2 ).
  CHECK(f.server.max_concurrent_connections() >= 2);
}

TEST_CASE(
    "cache: a file whose size and ETag match is read from disk; another is downloaded again") {
  const auto dir = std::filesystem::temp_directory_path() / "massive-files-cache-test";
  std::filesystem::remove_all(dir);
  fixture f({}, {.range_bytes = 1000, .cache_directory = dir.string()});
  const auto first = read_all<stock_trade>(f, std::string(day_key));
  CHECK(file_gets(f.server) > 1);
  const auto cached = dir / std::string(day_key);
  REQUIRE(std::filesystem::exists(cached));
  CHECK(std::filesystem::file_size(cached) == f.bucket.object(std::string(day_key)).size());
  const std::size_t gets = file_gets(f.server);
  // Seen failing with the cache's ETag comparison inverted: downloaded again, CHECK( 32 == 16 ).
  CHECK(read_all<stock_trade>(f, std::string(day_key)) == first);
  CHECK(file_gets(f.server) == gets);
  std::ofstream(dir / (std::string(day_key) + ".etag")) << "\"stale\"";
  CHECK(read_all<stock_trade>(f, std::string(day_key)) == first);
  CHECK(file_gets(f.server) > gets);
  std::filesystem::remove_all(dir);
}

// The AWS CLI (Debian's awscli, botocore's own SigV4) against the mock: what it signs, the mock
// admits, and what the mock serves, it downloads byte for byte. The independent check of the
// mock's signature verification, which the SDK's signer passes above.
std::string aws(const std::string& args, const std::filesystem::path& dir,
                const massive::mock::s3_options& o, const std::string& secret, int& status) {
  const std::filesystem::path out = dir / "aws.out";
  const std::string command = "env -i PATH=/usr/bin:/bin HOME=" + dir.string() +
                              " AWS_ACCESS_KEY_ID=" + o.access_key + " AWS_SECRET_ACCESS_KEY='" +
                              secret + "' AWS_DEFAULT_REGION=" + o.region +
                              " AWS_CONFIG_FILE=" + (dir / "config").string() +
                              " AWS_CA_BUNDLE=" + (dir / "ca.pem").string() + " aws " + args +
                              " > " + out.string() + " 2>&1";
  status = std::system(command.c_str());
  std::ifstream in(out);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE(
    "s3 mock: the AWS CLI's signatures are admitted, its downloads exact, a wrong secret refused") {
  if (std::system("command -v aws > /dev/null 2>&1") != 0) {
    FAIL("the AWS CLI (Debian's awscli, scripts/install-deps.sh) is not installed");
  }
  massive::mock::s3_bucket bucket({.max_keys = 4});
  massive::mock::server server;
  server.respond_with(bucket.responder());
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("massive-awscli-" + std::to_string(server.port()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ca.pem") << server.certificate_pem();
  std::ofstream(dir / "config") << "[default]\ns3 =\n  addressing_style = path\n";
  const auto& o = bucket.options();
  const std::string endpoint = " --endpoint-url " + server.base_url();
  int status = 0;

  const std::string listed = aws("s3 ls s3://flatfiles/us_stocks_sip/trades_v1/2024/01/" + endpoint,
                                 dir, o, o.secret_key, status);
  CHECK_MESSAGE(status == 0, listed);
  // Ten files, over three pages of four (continuation tokens through the CLI).
  CHECK(std::count(listed.begin(), listed.end(), '\n') == 10);
  CHECK(listed.find("2024-01-12.csv.gz") != std::string::npos);

  const std::string copied = aws("s3 cp s3://flatfiles/" + std::string(day_key) + " " +
                                     (dir / "day.csv.gz").string() + endpoint,
                                 dir, o, o.secret_key, status);
  CHECK_MESSAGE(status == 0, copied);
  std::ifstream file(dir / "day.csv.gz", std::ios::binary);
  const std::string downloaded{std::istreambuf_iterator<char>(file),
                               std::istreambuf_iterator<char>()};
  CHECK(downloaded == bucket.object(std::string(day_key)));
  CHECK(bucket.signature_failures() == 0);

  // Seen failing with the mock comparing the signature it computed with itself: status 0, the
  // listing shown ("PRE us_stocks_sip/").
  const std::string refused =
      aws("s3 ls s3://flatfiles/" + endpoint, dir, o, "wrong-secret", status);
  CHECK(status != 0);
  CHECK_MESSAGE(refused.find("SignatureDoesNotMatch") != std::string::npos, refused);
  CHECK(bucket.signature_failures() >= 1);
  server.stop();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace massive::files
