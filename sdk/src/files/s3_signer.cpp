#include "files/s3_signer.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "files/sigv4.hpp"

namespace massive::files::detail {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

s3_signer::s3_signer(std::string access_key, std::string secret_key, std::string region,
                     clock_function now)
    : access_key_(std::move(access_key)),
      secret_key_(std::move(secret_key)),
      region_(std::move(region)),
      now_(std::move(now)) {}

s3_signer::~s3_signer() { std::fill(secret_key_.begin(), secret_key_.end(), '\0'); }

void s3_signer::sign(std::string& head) const {
  const std::string_view text = head;
  const std::size_t request_line_end = text.find("\r\n");
  const std::size_t head_end = text.rfind("\r\n\r\n");
  if (request_line_end == std::string_view::npos || head_end == std::string_view::npos) {
    throw std::logic_error("massive::files: a request head to sign is not one");
  }
  const std::string_view request_line = text.substr(0, request_line_end);
  const std::size_t method_end = request_line.find(' ');
  const std::size_t target_end = request_line.rfind(' ');
  if (method_end == std::string_view::npos || target_end <= method_end) {
    throw std::logic_error("massive::files: a request line to sign is not one");
  }
  const std::string_view method = request_line.substr(0, method_end);
  const std::string_view target = request_line.substr(method_end + 1, target_end - method_end - 1);
  const std::size_t query_at = target.find('?');

  std::string out(request_line);
  std::vector<signed_header> signed_lines;
  const std::string date = amz_date(now_());
  signed_lines.push_back({"x-amz-date", date});
  signed_lines.push_back({"x-amz-content-sha256", empty_payload_sha256});
  for (std::size_t at = request_line_end + 2; at < head_end + 2;) {
    const std::size_t end = text.find("\r\n", at);
    const std::string_view line = text.substr(at, end - at);
    at = end + 2;
    const std::size_t colon = line.find(':');
    const std::string_view name = line.substr(0, colon);
    if (iequals(name, "Authorization") || iequals(name, "x-amz-date") ||
        iequals(name, "x-amz-content-sha256")) {
      continue;
    }
    out.append("\r\n").append(line);
    if (colon != std::string_view::npos &&
        (iequals(name, "Host") || iequals(name, "Range") || iequals(name, "If-Match"))) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      signed_lines.push_back({name, value});
    }
  }
  sigv4_request request;
  request.method = method;
  request.path = target.substr(0, query_at);
  request.query =
      query_at == std::string_view::npos ? std::string_view() : target.substr(query_at + 1);
  request.headers = signed_lines;
  request.payload_hash = empty_payload_sha256;
  request.amz_date = date;
  request.region = region_;
  request.service = "s3";
  out.append("\r\nx-amz-date: ").append(date);
  out.append("\r\nx-amz-content-sha256: ").append(empty_payload_sha256);
  out.append("\r\nAuthorization: ").append(authorization(request, access_key_, secret_key_));
  out.append("\r\n\r\n");
  head.swap(out);
}

}  // namespace massive::files::detail
