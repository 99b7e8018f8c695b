// The flat files' S3 client: listing, ranged downloads resumed from their last byte, and whole
// files decoded into pages of typed rows while they download, on the SDK's own transport (its
// TLS, proxy, deadline, retry and trace options, client_config's), each attempt signed with
// SigV4. The secret key appears in no error, trace or request.
//
//   massive::files::client files{io.get_executor(), {}};      // keys from the environment
//   auto reader = files.read<massive::files::stock_trade>(
//       co_await files.stat(massive::files::file_key(market::stocks, dataset::trades, day)));
//   while (auto page = co_await reader.next()) { for (const auto& t : *page) ... }
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "massive/client_config.hpp"
#include "massive/files/decoder.hpp"
#include "massive/files/keys.hpp"
#include "massive/files/listing.hpp"
#include "massive/page.hpp"

namespace massive::files {

/// How to reach the flat files and how to fetch them.
struct files_config {
  /// The S3 access key id. Empty: MASSIVE_S3_ACCESS_KEY, else AWS_ACCESS_KEY_ID (the secret then
  /// from the same family of variables). Not the REST API key.
  std::string access_key{};
  /// The S3 secret. Never printed, never sent: it only signs.
  std::string secret_key{};
  /// Scheme, host and optional port of the S3 endpoint (path-style addressing).
  std::string endpoint = "https://files.massive.com";
  /// The bucket.
  std::string bucket = "flatfiles";
  /// The region requests are signed for.
  std::string region = "us-east-1";
  /// Bytes of one ranged GET: a file is fetched in ranges of this size, each into memory,
  /// while the one before it decodes.
  std::uint64_t range_bytes = std::uint64_t{8} << 20;
  /// Ranges fetched ahead of the one decoding (1: the next one downloads while this one
  /// decodes; 0: one at a time).
  unsigned ranges_ahead = 1;
  /// A transfer dropped mid-body, or answered with fewer bytes than asked, is resumed from its
  /// last byte with a Range request, at most this many times per range (then corrupt_file).
  unsigned max_resumes = 5;
  /// Pieces of a file (256 KiB each, inflated) made ready ahead of its decoder by a coroutine of
  /// their own on the client's executor. With the client on an executor of its own thread (an
  /// io_context run by a second thread) and the reader on another, a file inflates on one core
  /// while its rows decode on the other: 10 M trades from the cache in 1.2 s instead of 1.85 s
  /// (docs/guide/flat-files.md). One executor run by several threads works too, but its
  /// coroutines then move between threads and gain less. On one thread it only adds a hand-off
  /// and a copy per piece. 0: each piece is inflated by the reader's next(), on its thread.
  unsigned inflate_ahead = 0;
  /// Keep the compressed files here (by key) and read them from here when the size and ETag
  /// match the listing's; empty: no cache.
  std::string cache_directory{};
  /// The transport's options: TLS trust, proxy, timeouts (request_timeout bounds one range),
  /// retry, rate limit, connections, trace. Its api_key, base_url and gzip are not used.
  client_config transport{};
};

namespace detail {
class file_source;
struct client_impl;
}  // namespace detail

class client;

/// How a traversal of days reads its files.
struct traversal_options {
  /// Decoding and filters, for every file.
  decode_options decode{};
  /// Files downloading ahead of the one being decoded (each with files_config::ranges_ahead
  /// ranges in flight).
  unsigned files_ahead = 1;
  /// Pages come from this pool (a new one when empty).
  std::shared_ptr<page_pool> pool{};
};

/// Pages of one file's rows, decoded while the file downloads, one range in memory beside the
/// one in flight. Move-only; keep it alive while a next() runs.
template <class Row>
class file_reader {
 public:
  /// The next page, or nullopt after the last. Throws files_error (corrupt_file, changed_file,
  /// access_denied, the decoder's errors), api_error or transport_error.
  boost::asio::awaitable<std::optional<row_page<Row>>> next();

  /// The file being read.
  const object_info& file() const noexcept;
  /// Starts downloading now, before the first next() (a traversal starts the files ahead).
  void start();
  /// Compressed bytes received so far.
  std::uint64_t bytes_received() const noexcept;

  /// Takes over `other`'s file and decoder.
  file_reader(file_reader&& other) noexcept;
  /// Drops this reader's file (its ranges in flight complete unread), then takes `other`'s.
  file_reader& operator=(file_reader&& other) noexcept;
  /// Drops the file; ranges still in flight complete unread.
  ~file_reader();

 private:
  friend class client;
  file_reader(std::unique_ptr<detail::file_source> source, row_decoder<Row> decoder);

  std::unique_ptr<detail::file_source> source_;
  row_decoder<Row> decoder_;
};

template <class Row>
class days_reader;

/// The S3 client of the flat files. Thread-safety as detail::http_client's: calls from any
/// thread; a file_reader is used from one coroutine at a time.
class client {
 public:
  /// Throws files_error(no_credentials) without keys, transport_error(invalid_option) for an
  /// invalid option.
  client(boost::asio::any_io_executor executor, files_config config);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// One page of the files under `prefix` (ListObjectsV2); with a delimiter ("/"), the
  /// "folders" below the prefix in listing_page::common_prefixes. `continuation` is the
  /// previous page's next_continuation_token.
  boost::asio::awaitable<listing_page> list_page(std::string prefix, std::string delimiter = {},
                                                 std::string continuation = {});
  /// Every file under `prefix`, following continuation tokens. A listing that would not end (a
  /// token given before, more than 1,000 pages) is files_error(malformed_listing).
  boost::asio::awaitable<std::vector<object_info>> list(std::string prefix);
  /// Every "folder" right below `prefix` (the common prefixes of the delimiter "/"), following
  /// continuation tokens as list() does: list_folders("us_stocks_sip/") is the stocks datasets.
  boost::asio::awaitable<std::vector<std::string>> list_folders(std::string prefix);
  /// The file `key` as its listing shows it. Throws files_error(not_found) when there is none.
  boost::asio::awaitable<object_info> stat(std::string key);

  /// Bytes [from, from + length) of `file` (length clipped to its size), in ranged GETs of at
  /// most files_config::range_bytes, each piece handed to `sink` as it arrives; a transfer
  /// dropped mid-body resumes from its last byte. Sends If-Match
  /// with the file's ETag: a file changed meanwhile is files_error(changed_file).
  boost::asio::awaitable<std::uint64_t> fetch(const object_info& file, std::uint64_t from,
                                              std::uint64_t length,
                                              std::function<void(std::span<const char>)> sink);

  /// The files of `d` in `m` for the days from `first` to `last` (both included), in date order:
  /// days without a file (weekends, holidays, days not yet published) are simply absent. Lists
  /// each month of the range once.
  boost::asio::awaitable<std::vector<object_info>> days(market m, dataset d,
                                                        std::chrono::year_month_day first,
                                                        std::chrono::year_month_day last);

  /// The rows of `files` (from days()) as one traversal: next() yields pages across the files in
  /// their order, with options.files_ahead files downloading ahead.
  template <class Row>
  days_reader<Row> read_days(std::vector<object_info> files, traversal_options options = {}) {
    return days_reader<Row>(*this, std::move(files), std::move(options));
  }

  /// Reads `file` (a .csv.gz) into pages of Row, inflating and decoding while it downloads,
  /// drawing pages from `pool`.
  template <class Row>
  file_reader<Row> read(object_info file, decode_options options = {},
                        std::shared_ptr<page_pool> pool = nullptr) {
    auto source = open(std::move(file));
    return file_reader<Row>(
        std::move(source),
        row_decoder<Row>(pool ? std::move(pool) : make_page_pool(), std::move(options)));
  }

 private:
  std::unique_ptr<detail::file_source> open(object_info file);
  /// Every page of the listing of `prefix` with `delimiter`, merged into one.
  boost::asio::awaitable<listing_page> list_all(std::string prefix, std::string delimiter);

  std::shared_ptr<detail::client_impl> impl_;
};

namespace detail {

/// A file's bytes, inflated, in pieces: the I/O behind file_reader (sdk/src/files/client.cpp).
class file_source {
 public:
  file_source(std::shared_ptr<client_impl> client, object_info file);
  ~file_source();
  /// The next inflated bytes (valid until the next call), or an empty span at the end of the file.
  boost::asio::awaitable<std::span<const char>> next();
  /// Starts fetching (next() does on its first call): a traversal starts the files ahead.
  void start();
  /// The part of the last piece its reader did not take: next() returns it first.
  void put_back(std::span<const char> rest) noexcept { put_back_ = rest; }
  const object_info& file() const noexcept { return file_; }
  std::uint64_t bytes_received() const noexcept;

 private:
  struct state;
  object_info file_;
  std::shared_ptr<state> state_;  // shared with the inflating coroutine (inflate_ahead)
  std::span<const char> put_back_;
};

}  // namespace detail

template <class Row>
file_reader<Row>::file_reader(std::unique_ptr<detail::file_source> source, row_decoder<Row> decoder)
    : source_(std::move(source)), decoder_(std::move(decoder)) {}
template <class Row>
file_reader<Row>::file_reader(file_reader&&) noexcept = default;
template <class Row>
file_reader<Row>& file_reader<Row>::operator=(file_reader&&) noexcept = default;
template <class Row>
file_reader<Row>::~file_reader() = default;

template <class Row>
const object_info& file_reader<Row>::file() const noexcept {
  return source_->file();
}

template <class Row>
void file_reader<Row>::start() {
  source_->start();
}

template <class Row>
std::uint64_t file_reader<Row>::bytes_received() const noexcept {
  return source_->bytes_received();
}

template <class Row>
boost::asio::awaitable<std::optional<row_page<Row>>> file_reader<Row>::next() {
  for (;;) {
    if (decoder_.page_ready()) co_return decoder_.take();
    if (decoder_.finished()) co_return std::nullopt;
    const std::span<const char> bytes = co_await source_->next();
    if (bytes.empty()) {
      decoder_.finish();
      continue;
    }
    // A piece may hold more than fits the page: the rest waits for the next page.
    const std::size_t used = decoder_.feed(bytes);
    if (used < bytes.size()) source_->put_back(bytes.subspan(used));
  }
}

/// Pages of many files, in order, as one traversal (client::read_days). Move-only.
template <class Row>
class days_reader {
 public:
  /// The next page, across files, or nullopt after the last file's last page. Failures as
  /// file_reader::next()'s.
  boost::asio::awaitable<std::optional<row_page<Row>>> next() {
    for (;;) {
      fill();
      if (open_.empty()) co_return std::nullopt;
      if (auto page = co_await open_.front().next()) co_return page;
      open_.erase(open_.begin());
      ++done_;
    }
  }
  /// The files read to their end so far.
  std::size_t files_done() const noexcept { return done_; }
  /// Every file of the traversal.
  const std::vector<object_info>& files() const noexcept { return files_; }

 private:
  friend class client;
  days_reader(client& c, std::vector<object_info> files, traversal_options options)
      : client_(&c), files_(std::move(files)), options_(std::move(options)) {
    if (!options_.pool) options_.pool = make_page_pool();
  }
  void fill() {
    while (next_file_ < files_.size() && open_.size() <= options_.files_ahead) {
      open_.push_back(client_->read<Row>(files_[next_file_++], options_.decode, options_.pool));
      open_.back().start();
    }
  }

  client* client_;
  std::vector<object_info> files_;
  traversal_options options_;
  std::vector<file_reader<Row>> open_;
  std::size_t next_file_ = 0;
  std::size_t done_ = 0;
};

}  // namespace massive::files
