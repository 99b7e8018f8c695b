// The transport's request_signer for the flat files' S3 endpoint: each attempt's head gets
// x-amz-date, x-amz-content-sha256 and a SigV4 Authorization of its own (sans-I/O: a head in, a
// head out), in place of the transport's bearer line.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "transport/request_signer.hpp"

namespace massive::files::detail {

class s3_signer final : public transport::request_signer {
 public:
  using clock_function = std::function<std::chrono::system_clock::time_point()>;

  /// Signs as `access_key` with `secret_key` for `region`'s "s3" service, at the time `now` gives.
  s3_signer(
      std::string access_key, std::string secret_key, std::string region,
      clock_function now = [] { return std::chrono::system_clock::now(); });
  ~s3_signer() override;

  /// Drops the head's Authorization, x-amz-date and x-amz-content-sha256 lines, then signs the
  /// request line's method and target with the Host, Range and If-Match lines it has.
  void sign(std::string& head) const override;

 private:
  std::string access_key_;
  std::string secret_key_;
  std::string region_;
  clock_function now_;
};

}  // namespace massive::files::detail
