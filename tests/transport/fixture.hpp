// Shared pieces of the fault suite: a trusted server, client options pointing at it, sinks,
// a synchronous call helper, and the log that checks every message for the API key.
#pragma once

#include <massive/mock/certificates.hpp>
#include <massive/mock/server.hpp>

#include "massive/error.hpp"
#include "massive/detail/http_client.hpp"

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace massive::test {

// The server and its scripting vocabulary come from the SDK's own mock.
using namespace massive::mock;

/// The key every test client uses; no message of the suite may contain it.
inline constexpr std::string_view test_api_key = "mk_TESTKEY_9f2c41d07be3";

/// Every what() and trace line the suite produces goes here and is checked for the key the
/// moment it arrives (so the check holds whatever order the tests run in).
class message_log {
 public:
  static message_log& instance();
  void record(std::string_view text);
  std::size_t size() const;
  std::size_t leaks() const;
  std::vector<std::string> snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  std::size_t leaks_ = 0;
};

/// A server and a temp file holding the certificate the client trusts.
struct trusted_server {
  explicit trusted_server(server_options options = {});
  temp_directory dir;
  mock::server server;
  std::string ca_file;
};

/// Options for a client of `s`: test key, trusted certificate, short deadlines, traces to
/// the message log.
client_config client_options(const trusted_server& s);

/// Appends the body; counts calls.
class collecting_sink : public massive::detail::body_sink {
 public:
  void feed(std::span<const char> chunk) override;
  void finish() override { finished = true; }
  std::string data;
  std::size_t feeds = 0;
  bool finished = false;
};

/// FNV-1a of the body and its size, for bodies too large to keep.
class hashing_sink : public massive::detail::body_sink {
 public:
  void feed(std::span<const char> chunk) override;
  void finish() override { finished = true; }
  std::uint64_t hash = 14695981039346656037ull;
  std::uint64_t size = 0;
  bool finished = false;
};
std::uint64_t fnv1a(std::string_view data);

struct outcome {
  std::exception_ptr error;
  response_info info;
  bool ok() const { return !error; }
};

/// Runs one call to completion on `io` (restarting it), with a plain callback and `call`'s
/// options when given, `target` written by `kind`. Records any error's what() in the message log.
outcome get(massive::detail::http_client& client, boost::asio::io_context& io, std::string_view target, massive::detail::body_sink& sink,
            const call_options* call = nullptr,
            massive::detail::target_kind kind = massive::detail::target_kind::api_path);

/// The exception of a failed outcome as E; fails the test when it is something else.
template <class E>
E error_as(const outcome& o);

/// transport_error's code, or a default code when the outcome is something else.
boost::system::error_code transport_code(const outcome& o);

/// Deterministic pseudo-random printable bytes.
std::string make_body(std::size_t size, unsigned seed = 1);

}  // namespace massive::test
