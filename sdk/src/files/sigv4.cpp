#include "files/sigv4.hpp"

#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <stdexcept>
#include <utility>
#include <vector>

namespace massive::files::detail {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";
constexpr char upper_hex_digits[] = "0123456789ABCDEF";

bool unreserved(unsigned char c) noexcept {
  return std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_' || c == '~';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A header value as signed: trimmed, runs of spaces as one.
std::string canonical_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> sorted_headers(
    std::span<const signed_header> headers) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(headers.size());
  for (const signed_header& h : headers) out.emplace_back(lower(h.name), canonical_value(h.value));
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // A name sent twice signs once, its values joined by commas in the order they were sent.
  std::vector<std::pair<std::string, std::string>> merged;
  for (auto& h : out) {
    if (!merged.empty() && merged.back().first == h.first) {
      merged.back().second += ',' + h.second;
    } else {
      merged.push_back(std::move(h));
    }
  }
  return merged;
}

std::string canonical_query(std::string_view query) {
  std::vector<std::pair<std::string_view, std::string_view>> params;
  std::size_t pos = 0;
  while (pos <= query.size() && !query.empty()) {
    const std::size_t amp = std::min(query.find('&', pos), query.size());
    const std::string_view param = query.substr(pos, amp - pos);
    if (!param.empty()) {
      const std::size_t eq = param.find('=');
      if (eq == std::string_view::npos) {
        params.emplace_back(param, std::string_view());
      } else {
        params.emplace_back(param.substr(0, eq), param.substr(eq + 1));
      }
    }
    pos = amp + 1;
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out.append(name).append("=").append(value);
  }
  return out;
}

}  // namespace

std::string uri_encode(std::string_view text, bool encode_slash) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || (c == '/' && !encode_slash)) {
      out += ch;
    } else {
      out += '%';
      out += upper_hex_digits[c >> 4];
      out += upper_hex_digits[c & 0x0f];
    }
  }
  return out;
}

std::string to_hex(std::span<const unsigned char> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char b : bytes) {
    out += hex_digits[b >> 4];
    out += hex_digits[b & 0x0f];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return to_hex(digest);
}

std::array<unsigned char, 32> hmac_sha256(std::span<const unsigned char> key,
                                          std::string_view data) {
  std::array<unsigned char, 32> out{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(),
           &length) == nullptr ||
      length != out.size()) {
    throw std::runtime_error("massive::files: OpenSSL's HMAC-SHA256 failed");
  }
  return out;
}

std::string signed_header_names(std::span<const signed_header> headers) {
  std::string out;
  for (const auto& [name, value] : sorted_headers(headers)) {
    if (!out.empty()) out += ';';
    out += name;
  }
  return out;
}

std::string canonical_request(const sigv4_request& request) {
  std::string out;
  out.append(request.method).append("\n");
  out.append(request.path.empty() ? std::string_view("/") : request.path).append("\n");
  out.append(canonical_query(request.query)).append("\n");
  for (const auto& [name, value] : sorted_headers(request.headers))
    out.append(name).append(":").append(value).append("\n");
  out.append("\n");
  out.append(signed_header_names(request.headers)).append("\n");
  out.append(request.payload_hash);
  return out;
}

std::string credential_scope(const sigv4_request& request) {
  std::string out(request.amz_date.substr(0, 8));
  out.append("/")
      .append(request.region)
      .append("/")
      .append(request.service)
      .append("/aws4_request");
  return out;
}

std::string string_to_sign(const sigv4_request& request, std::string_view canonical) {
  std::string out = "AWS4-HMAC-SHA256\n";
  out.append(request.amz_date).append("\n");
  out.append(credential_scope(request)).append("\n");
  out.append(sha256_hex(canonical));
  return out;
}

std::array<unsigned char, 32> signing_key(std::string_view secret, std::string_view date,
                                          std::string_view region, std::string_view service) {
  std::string first = "AWS4";
  first.append(secret);
  const auto* first_bytes = reinterpret_cast<const unsigned char*>(first.data());
  auto key = hmac_sha256(std::span(first_bytes, first.size()), date);
  // The secret's copy does not outlive the first step.
  std::fill(first.begin(), first.end(), '\0');
  key = hmac_sha256(key, region);
  key = hmac_sha256(key, service);
  return hmac_sha256(key, "aws4_request");
}

std::string signature(const sigv4_request& request, std::string_view secret) {
  const auto key =
      signing_key(secret, request.amz_date.substr(0, 8), request.region, request.service);
  return to_hex(hmac_sha256(key, string_to_sign(request, canonical_request(request))));
}

std::string authorization(const sigv4_request& request, std::string_view access_key,
                          std::string_view secret) {
  std::string out = "AWS4-HMAC-SHA256 Credential=";
  out.append(access_key).append("/").append(credential_scope(request));
  out.append(",SignedHeaders=").append(signed_header_names(request.headers));
  out.append(",Signature=").append(signature(request, secret));
  return out;
}

std::string amz_date(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[17];
  std::strftime(buffer, sizeof buffer, "%Y%m%dT%H%M%SZ", &utc);
  return buffer;
}

}  // namespace massive::files::detail
