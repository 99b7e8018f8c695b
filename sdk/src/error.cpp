#include "massive/error.hpp"

namespace massive {
namespace {

class massive_category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "massive"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::resolve_failed: return "host name did not resolve";
      case errc::connect_failed: return "could not connect";
      case errc::tls_handshake_failed: return "TLS handshake failed";
      case errc::connection_reset: return "connection reset by peer";
      case errc::truncated_body: return "response body truncated";
      case errc::deadline_exceeded: return "deadline exceeded";
      case errc::body_too_large: return "response body exceeds the configured maximum";
      case errc::bad_response: return "malformed HTTP response";
      case errc::foreign_next_url: return "next_url points at another origin";
      case errc::repeated_cursor: return "next_url repeats the previous page";
      case errc::page_limit_reached: return "page limit reached";
      case errc::invalid_option: return "invalid option";
      case errc::rate_limited: return "client-side rate limit reached";
      case errc::decode_failed: return "response body could not be decoded";
      case errc::cancelled: return "operation cancelled";
    }
    return "unknown massive error";
  }
};

std::string decode_what(decode_errc code, const std::string& path,
                        const std::optional<std::size_t>& row, const std::string& detail) {
  static constexpr const char* names[] = {"",          "invalid JSON",   "truncated body",
                                          "wrong type", "missing field", "out of range",
                                          "too deep",   "too long",       "empty body",
                                          "not JSON",   "unknown key"};
  std::string what = "decode error: ";
  const auto index = static_cast<std::size_t>(code);
  what += index < std::size(names) ? names[index] : "unknown";
  if (!path.empty()) what += " at " + path;
  if (row) what += " (row " + std::to_string(*row) + ")";
  if (!detail.empty()) what += ": " + detail;
  return what;
}

}  // namespace

const boost::system::error_category& category() noexcept {
  static const massive_category instance;
  return instance;
}

api_error::api_error(int status, std::string request_id, std::string message,
                     std::optional<std::chrono::seconds> retry_after)
    : error("HTTP " + std::to_string(status) + (message.empty() ? "" : ": " + message) +
            (request_id.empty() ? "" : " (request_id " + request_id + ")")),
      status_(status),
      request_id_(std::move(request_id)),
      server_message_(std::move(message)),
      retry_after_(retry_after) {}

decode_error::decode_error(decode_errc code, std::string field_path,
                           std::optional<std::size_t> row, std::string detail)
    : error(decode_what(code, field_path, row, detail)),
      code_(code),
      field_path_(std::move(field_path)),
      row_(row) {}

transport_error::transport_error(boost::system::error_code code, const std::string& what)
    : error(what.empty() ? code.message() : what + ": " + code.message()), code_(code) {}

}  // namespace massive
