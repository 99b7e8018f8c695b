// The flat files' S3 endpoint, offline: a bucket of deterministic gzipped CSV files consistent
// with the mock market (a day's trades file holds the trades /v3/trades answers for that day),
// answered as S3 does (ListObjectsV2 with continuation, GET and HEAD with ranges and If-Match,
// XML errors), every request's SigV4 signature checked, and faults scripted on request.
//
//   massive::mock::s3_bucket bucket;                       // keys in s3_options
//   massive::mock::server server;
//   server.respond_with(bucket.responder());
//   bucket.inject({.kind = massive::mock::s3_fault::reset, .after_bytes = 1000});
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "massive/mock/server.hpp"

namespace massive::mock {

/// What the bucket holds and whom it admits.
struct s3_options {
  std::string access_key = "MOCKFLATFILESKEY0001";  ///< the only access key id admitted
  std::string secret_key = "mock/flat+files/secret-for-tests-only";  ///< signs with it
  std::string bucket = "flatfiles";                                  ///< the only bucket
  std::string region = "us-east-1";  ///< the region requests must be signed for
  /// The tickers of the stocks files, in file order.
  std::vector<std::string> tickers = {"A", "AAPL", "MSFT"};
  /// Days with files: the weekdays from first_day to last_day (YYYY-MM-DD), both included.
  std::string first_day = "2024-01-08";
  std::string last_day = "2024-01-19";  ///< see first_day
  /// Trades per ticker and day (the mock market's ticks_per_day).
  std::int64_t ticks_per_day = 200;
  /// A listing page holds at most this many keys (S3's max-keys, 1000 there).
  std::size_t max_keys = 1000;
  /// A file's CSV is compressed in gzip members of this many rows each (0: one member).
  std::size_t rows_per_member = 0;
};

/// The faults a bucket can script.
enum class s3_fault {
  reset,           ///< the next GET's connection is reset after `after_bytes` bytes of body
  forbidden,       ///< the next request is answered 403 AccessDenied
  slow_body,       ///< the next GET's body is written 4 KiB at a time, `delay` apart
  corrupt_member,  ///< the next GET's body has one byte flipped in its last gzip member's data
  changed,         ///< the file changes: its ETag becomes another (If-Match then fails with 412)
  shifted_range,   ///< the next ranged GET is answered with the bytes from one byte later, its
                   ///< Content-Range saying so
  short_range,     ///< the next ranged GET is answered with the range's first `after_bytes`
                   ///< bytes only (at least one), its Content-Range saying so
};

/// One scripted fault, for the next request it applies to (of `key` only, when set).
struct s3_fault_script {
  s3_fault kind = s3_fault::reset;     ///< what happens
  std::string key{};                   ///< the object it applies to; empty: any
  std::size_t after_bytes = 0;         ///< reset: body bytes written first; short_range: sent
  std::chrono::milliseconds delay{2};  ///< slow_body: between pieces
};

/// The bucket (thread-safe: the server's thread answers, a test scripts).
class s3_bucket {
 public:
  /// Builds nothing yet: a file is made on its first request.
  explicit s3_bucket(s3_options options = {});
  ~s3_bucket();

  /// The answer to one request, signature checked first.
  reply answer(const recorded_request& request);
  /// answer() as a server's responder (the bucket must outlive the server's use of it).
  server::responder responder();

  /// Every key, in order.
  std::vector<std::string> keys() const;
  /// A file's bytes (gzip), as GET sends them when no fault is scripted; throws for an unknown key.
  std::string object(const std::string& key);
  /// A file's ETag, quotes included.
  std::string etag(const std::string& key);
  /// Adds or replaces a file.
  void put(const std::string& key, std::string bytes);
  /// Scripts a fault (FIFO with others).
  void inject(s3_fault_script fault);
  /// Requests refused for their signature so far.
  std::size_t signature_failures() const;
  /// The options the bucket was made with.
  const s3_options& options() const noexcept { return options_; }

 private:
  struct file {
    std::string bytes;
    std::string etag;
  };
  const file& file_of(const std::string& key);  // under mutex_
  reply get(const recorded_request& request, const std::string& key, bool head);

  s3_options options_;
  mutable std::mutex mutex_;
  std::map<std::string, std::optional<file>> files_;  // every key; made on first use
  std::vector<s3_fault_script> faults_;
  std::size_t signature_failures_ = 0;
  unsigned generation_ = 0;  // bumped by s3_fault::changed
};

}  // namespace massive::mock
