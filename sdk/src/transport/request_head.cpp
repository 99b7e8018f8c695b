#include "request_head.hpp"

namespace massive::transport {
namespace {

constexpr std::string_view key_parameter = "apiKey";

bool is_key_parameter(std::string_view pair) {
  const auto eq = pair.find('=');
  return pair.substr(0, eq) == key_parameter;
}

// Calls f(pair, is_first) for every &-separated parameter of the query of `target`.
template <class F>
void for_each_parameter(std::string_view query, F&& f) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    f(query.substr(0, amp));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
}

void append_encoded(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
}

// Appends `target` without its apiKey parameters, then apiKey=<key>.
void append_with_api_key_parameter(std::string& out, std::string_view target, std::string_view key) {
  const auto q = target.find('?');
  out += target.substr(0, q);
  char separator = '?';
  if (q != std::string_view::npos) {
    for_each_parameter(target.substr(q + 1), [&](std::string_view pair) {
      if (pair.empty() || is_key_parameter(pair)) return;
      out += separator;
      out += pair;
      separator = '&';
    });
  }
  out += separator;
  out += key_parameter;
  out += '=';
  append_encoded(out, key);
}

}  // namespace

std::string with_api_key_parameter(std::string_view target, std::string_view key) {
  std::string out;
  append_with_api_key_parameter(out, target, key);
  return out;
}

std::string redact_target(std::string_view target) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::string(target);
  std::string out(target.substr(0, q + 1));
  bool first = true;
  for_each_parameter(target.substr(q + 1), [&](std::string_view pair) {
    if (!first) out += '&';
    first = false;
    if (is_key_parameter(pair)) {
      out += key_parameter;
      out += "=REDACTED";
    } else {
      out += pair;
    }
  });
  return out;
}

void build_request_head(std::string& out, const request_head_input& in) {
  out.clear();
  // At most one allocation, none when `out` is reused: the fixed lines are under 128 bytes,
  // and rounding up lets a reused buffer take the next page's slightly longer cursor.
  const std::size_t longest = 128 + in.host.size() + in.target_prefix.size() + in.target.size() +
                              in.api_key.size() * 3 + in.user_agent.size();
  out.reserve((longest + 255) / 256 * 256);
  out += "GET ";
  if (in.auth == auth_scheme::query_parameter) {
    // The prefix is a path: it holds no query, so no apiKey to drop.
    out += in.target_prefix;
    append_with_api_key_parameter(out, in.target, in.api_key);
  } else {
    out += in.target_prefix;
    out += in.target;
  }
  out += " HTTP/1.1\r\nHost: ";
  out += in.host;
  if (in.auth == auth_scheme::bearer_header) {
    out += "\r\nAuthorization: Bearer ";
    out += in.api_key;
  }
  out += "\r\nAccept: application/json";
  if (in.gzip) out += "\r\nAccept-Encoding: gzip";
  if (!in.user_agent.empty()) {
    out += "\r\nUser-Agent: ";
    out += in.user_agent;
  }
  out += "\r\n\r\n";
}

}  // namespace massive::transport
