#include "massive/error.hpp"

#include "errc_category.hpp"
#include "massive/detail/enum_names.hpp"

#include <algorithm>
#include <string_view>

namespace massive {
namespace {

const char* message_of(errc code) noexcept {
  switch (code) {
    case errc::resolve_failed: return "host name did not resolve";
    case errc::connect_failed: return "could not connect";
    case errc::tls_handshake_failed: return "TLS handshake failed";
    case errc::connection_reset: return "connection reset by peer";
    case errc::truncated_body: return "response body truncated";
    case errc::deadline_exceeded: return "deadline exceeded";
    case errc::body_too_large: return "response body exceeds the configured maximum";
    case errc::bad_response: return "malformed HTTP response";
    case errc::foreign_next_url: return "next_url points at another origin";
    case errc::repeated_cursor: return "next_url repeats a page already fetched";
    case errc::page_limit_reached: return "page limit reached";
    case errc::invalid_option: return "invalid option";
    case errc::rate_limited: return "client-side rate limit reached";
    case errc::decode_failed: return "response body could not be decoded";
    case errc::cancelled: return "operation cancelled";
    case errc::empty_pages: return "too many consecutive pages without rows";
  }
  return "unknown massive error";
}

// A path with every key cut to its first 64 bytes ("..." after) and the whole to 512, and a
// detail to 512: both may hold a server's text, which an error must not copy whole.
constexpr std::size_t max_key_bytes = 64;
constexpr std::size_t max_path_bytes = 512;
constexpr std::size_t max_detail_bytes = 512;

std::string printable(std::string_view text, std::size_t cap) {
  std::string out;
  for (const char c : text.substr(0, cap)) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte < 0x20 || byte == 0x7F ? '?' : c;
  }
  if (text.size() > cap) out += "...";
  return out;
}

std::string bounded_path(std::string_view path) {
  std::string out;
  // Keys are separated by '.'; an index "[3]" is the SDK's own.
  for (std::size_t at = 0; at <= path.size() && out.size() <= max_path_bytes;) {
    const std::size_t dot = std::min(path.find('.', at), path.size());
    if (at != 0) out += '.';
    out += printable(path.substr(at, dot - at), max_key_bytes);
    at = dot + 1;
  }
  if (out.size() > max_path_bytes) out = out.substr(0, max_path_bytes) + "...";
  return out;
}

// decode_errc's, in words.
constexpr detail::enum_names decode_errc_names{
    decode_errc::invalid_json, decode_errc::unknown_key,
    {"invalid JSON", "truncated body", "wrong type", "missing field", "out of range", "too deep",
     "too long", "empty body", "not JSON", "unknown key"}};

std::string decode_what(decode_errc code, const std::string& path,
                        const std::optional<std::size_t>& row, const std::string& detail) {
  std::string what = "decode error: ";
  what += decode_errc_names[code];
  if (!path.empty()) what += " at " + path;
  if (row) what += " (row " + std::to_string(*row) + ")";
  if (!detail.empty()) what += ": " + detail;
  return what;
}

}  // namespace

const boost::system::error_category& category() noexcept {
  static const detail::errc_category<errc> instance("massive", message_of);
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
    : decode_error(code, bounded_path(field_path), row, printable(detail, max_detail_bytes), 0) {}

decode_error::decode_error(decode_errc code, std::string&& field_path, std::optional<std::size_t> row,
                           std::string&& detail, int)
    : error(decode_what(code, field_path, row, detail)),
      code_(code),
      field_path_(std::move(field_path)),
      row_(row),
      detail_(std::move(detail)) {}

transport_error::transport_error(boost::system::error_code code, const std::string& what)
    : error(what.empty() ? code.message() : what + ": " + code.message()), code_(code) {}

}  // namespace massive
