// Failures of the SDK: one exception hierarchy rooted at massive::error, plus the
// massive error category for the error_code overloads that Asio users expect.
#pragma once

#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace massive {

/// What went wrong, for failures that are not an HTTP answer from the API.
enum class errc {
  resolve_failed = 1,     ///< the host name did not resolve
  connect_failed,         ///< no TCP connection could be made
  tls_handshake_failed,   ///< TLS handshake failed (the message names the verification reason)
  connection_reset,       ///< the peer reset or closed the connection mid-exchange
  truncated_body,         ///< the body ended before its declared or framed end
  deadline_exceeded,      ///< the per-call deadline passed
  body_too_large,         ///< the body exceeded client_config::max_body_size
  bad_response,           ///< the server's response is not valid HTTP/1.1
  foreign_next_url,       ///< a next_url pointed at another scheme, host or port
  repeated_cursor,        ///< a next_url repeated its own page's URL, or returned to a page already fetched
  page_limit_reached,     ///< the traversal reached its configured page cap
  invalid_option,         ///< an option given at construction is invalid
  rate_limited,           ///< the client-side rate limiter refused to queue the call
  decode_failed,          ///< the body could not be decoded; see decode_error
  cancelled,              ///< the caller cancelled the operation (terminal cancellation)
  empty_pages,            ///< a traversal met traversal_options::max_empty_pages pages in a row without rows
};

/// The category of massive::errc; its name is "massive".
const boost::system::error_category& category() noexcept;

/// Makes `e` an error_code in the massive category (found by argument-dependent lookup).
inline boost::system::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), category()};
}

/// Root of every exception the SDK throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The base of an area's error with a code that says why (stream::stream_error,
/// relay::relay_error, files::files_error): what() is "<area>: <code's name>: <detail>".
template <class Errc>
class coded_error : public error {
 public:
  /// Why it failed.
  Errc code() const noexcept { return code_; }

 protected:
  /// `detail` must hold no secret: it is shown as is. The code's name is to_string(code), found
  /// in the code's namespace.
  coded_error(const char* area, Errc code, const std::string& detail)
      : error(std::string(area) + ": " + to_string(code) + (detail.empty() ? "" : ": " + detail)),
        code_(code) {}

 private:
  Errc code_;
};

/// The API answered with a non-2xx status.
class api_error : public error {
 public:
  /// `message` is the server's own, `retry_after` its Retry-After when it sent one.
  api_error(int status, std::string request_id, std::string message,
            std::optional<std::chrono::seconds> retry_after = std::nullopt);

  /// HTTP status code, e.g. 403.
  int status() const noexcept { return status_; }
  /// The server's request id (from the body, else the X-Request-Id header); may be empty.
  const std::string& request_id() const noexcept { return request_id_; }
  /// The server's message, from its `error` or `message` field, or the first bytes of a
  /// non-JSON body, sanitised.
  const std::string& server_message() const noexcept { return server_message_; }
  /// Retry-After, when the server sent one.
  std::optional<std::chrono::seconds> retry_after() const noexcept { return retry_after_; }

 private:
  int status_;
  std::string request_id_;
  std::string server_message_;
  std::optional<std::chrono::seconds> retry_after_;
};

/// Why a body could not be decoded.
enum class decode_errc {
  invalid_json = 1,   ///< not JSON, or broken JSON
  truncated,          ///< the body ended inside a value
  wrong_type,         ///< a field has a type the model does not accept
  missing_field,      ///< a required field is absent
  out_of_range,       ///< a number does not fit its field
  too_deep,           ///< nesting deeper than the decoder's limit
  too_long,           ///< a string or element longer than the decoder's limit
  empty_body,         ///< no bytes at all
  not_json,           ///< the body is not a JSON document (an HTML error page, say)
  unknown_key,        ///< decode_policy::strict: a key the model does not declare
};
// Each code's words are in decode_error's list (sdk/src/vocabulary/error.cpp), which ends with
// the last.

/// A response body could not be decoded. Names the field path and the row.
///
/// The path's keys come from the body, so the message is bounded whatever the server sends:
/// each key in the path is cut to its first 64 bytes (then "..."), the path to 512 bytes and
/// the detail to 512, and control characters in either become '?'. A client also redacts its
/// API key from both.
class decode_error : public error {
 public:
  /// `detail` completes what(); `field_path` and `row` say where the failure is.
  decode_error(decode_errc code, std::string field_path, std::optional<std::size_t> row,
               std::string detail);

  /// Why the body could not be decoded.
  decode_errc code() const noexcept { return code_; }
  /// JSON path of the offending field, e.g. "results[3].v" or "next_url"; may be empty.
  const std::string& field_path() const noexcept { return field_path_; }
  /// Index of the row within the page, when the failure is inside a row.
  std::optional<std::size_t> row() const noexcept { return row_; }
  /// What completes what() after the path and row, e.g. "expected a number".
  const std::string& detail() const noexcept { return detail_; }

 private:
  // The public constructor's, once path and detail are bounded.
  decode_error(decode_errc code, std::string&& field_path, std::optional<std::size_t> row, std::string&& detail, int);

  decode_errc code_;
  std::string field_path_;
  std::optional<std::size_t> row_;
  std::string detail_;
};

/// A failure below HTTP (resolve, connect, TLS, reset, deadline) or a client-side refusal
/// (foreign next_url, repeated cursor). code() is in the massive category.
class transport_error : public error {
 public:
  /// `code` is normally a massive::errc; `what` is the message what() returns.
  transport_error(boost::system::error_code code, const std::string& what);
  /// What failed, in the massive category: compare it with massive::errc values.
  const boost::system::error_code& code() const noexcept { return code_; }

 private:
  boost::system::error_code code_;
};

}  // namespace massive

// Lets errc values convert to error_code. Kept out of the reference: Doxygen cannot
// place a specialisation whose namespace it does not document.
/// @cond
template <>
struct boost::system::is_error_code_enum<massive::errc> : std::true_type {};
/// @endcond
