// files_config::inflate_ahead: a file inflated by a coroutine of its own while the reader decodes,
// on an io_context run by two threads (the ThreadSanitizer build runs this suite). The truth is
// the same file read with inflation in next() on one thread, the path the rest of the files
// suite checks against the mock market's REST trades; what may differ is only which thread
// inflates.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "expect_error.hpp"
#include "s3_fixture.hpp"

namespace massive::files {
namespace {

namespace asio = boost::asio;
using massive::mock::s3_fault;
const std::string day{test::day_key};  // the mock's trades file of 2024-01-12

files_config inflating_ahead(unsigned pieces) {
  files_config config;
  config.range_bytes = 997;  // many ranges, so many pieces: a hand-off each
  config.ranges_ahead = 2;
  config.inflate_ahead = pieces;
  return config;
}

TEST_CASE("inflate ahead: the same rows, over TLS and from the cache, on two threads") {
  test::fixture inline_inflation({.rows_per_member = 100});
  const auto expected = test::read_all<stock_trade>(inline_inflation, day);
  REQUIRE(expected.size() == 600);

  decode_options small_pages;
  small_pages.rows_per_page = 7;
  for (const unsigned pieces : {1u, 4u}) {
    CAPTURE(pieces);
    const auto dir = std::filesystem::temp_directory_path() / "massive-inflate-ahead-cache";
    std::filesystem::remove_all(dir);
    files_config config = inflating_ahead(pieces);
    config.cache_directory = dir.string();
    test::fixture f({.rows_per_member = 100}, config);
    // Seen failing with the reader's piece given back before the decoder had read it (the
    // spare send moved before the feed): rows of one piece overwritten by the next's.
    CHECK(test::read_all<stock_trade>(f, day, small_pages, 2) == expected);
    REQUIRE(std::filesystem::exists(dir / day));
    CHECK(test::read_all<stock_trade>(f, day, small_pages, 2) == expected);  // cached
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("inflate ahead: a corrupt member, a reset and a 403 end as with inline inflation") {
  {
    // One range: the fault flips a byte of the last member of the GET it applies to.
    files_config one_range;
    one_range.inflate_ahead = 2;
    test::fixture f({.rows_per_member = 100}, one_range);
    f.bucket.inject({.kind = s3_fault::corrupt_member, .key = day});
    test::expect_error([&] { test::read_all<stock_trade>(f, day, {}, 2); },
                       files_errc::corrupt_file, "gzip stream is corrupt");
  }
  {
    test::fixture plain;
    const auto expected = test::read_all<stock_trade>(plain, day);
    test::fixture f({}, inflating_ahead(2));
    f.bucket.inject({.kind = s3_fault::reset, .key = day, .after_bytes = 500});
    CHECK(test::read_all<stock_trade>(f, day, {}, 2) == expected);
  }
  test::fixture f({}, inflating_ahead(2));
  f.bucket.inject({.kind = s3_fault::forbidden, .key = day});
  test::expect_error([&] { test::read_all<stock_trade>(f, day, {}, 2); },
                     files_errc::access_denied, "403");
}

TEST_CASE("inflate ahead: a reader dropped mid-file stops its inflation") {
  // One piece: the reader holds it (its first page comes from it), so the inflating coroutine
  // is waiting for it to come back when the reader goes.
  test::fixture f({.rows_per_member = 50}, inflating_ahead(1));
  const std::size_t rows = f.run(
      [&]() -> asio::awaitable<std::size_t> {
        const object_info file = co_await f.files->stat(day);
        decode_options small_pages;
        small_pages.rows_per_page = 5;
        auto reader = f.files->read<stock_trade>(file, small_pages);
        const auto page = co_await reader.next();
        co_return page ? page->size() : 0;
      }(),
      2);
  CHECK(rows == 5);
  // run() returned, so the inflating coroutine ended (seen failing with the destructor's close()
  // of the channels left out: "the io_context still had work after a minute", the coroutine
  // waiting for its piece for ever). Nothing of the file is left: its state, which holds the
  // client, went with the coroutine, so the client's going closes its idle connection.
  f.files.reset();
  for (int i = 0; i < 500 && f.server.open_connections() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(f.server.open_connections() == 0);
}

}  // namespace
}  // namespace massive::files
