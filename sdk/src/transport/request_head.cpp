#include "request_head.hpp"

#include "error_body.hpp"

#include "massive/error.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

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

bool is_token_char(unsigned char c) {
  return std::isalnum(c) != 0 || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Set by the SDK from its options, or framing and connection management that a caller's
// value would break.
constexpr std::array<std::string_view, 13> reserved_headers = {
    "Host", "Authorization", "Proxy-Authorization", "Content-Length", "Transfer-Encoding",
    "Connection", "Keep-Alive", "TE", "Upgrade", "Expect", "Accept", "Accept-Encoding", "User-Agent"};

[[noreturn]] void refuse(std::string_view where, const std::string& why) {
  throw transport_error(errc::invalid_option, std::string(where) + ": " + why);
}

}  // namespace

void append_header(std::string& out, std::string_view name, std::string_view value, std::string_view where) {
  if (name.empty()) refuse(where, "a header has an empty name");
  // Built by appends: g++ 12 reports a chain of operator+ here as a -Wrestrict overlap.
  std::string shown = "'";
  shown += sanitize(name, 60);
  shown += '\'';
  if (!std::all_of(name.begin(), name.end(), [](unsigned char c) { return is_token_char(c); })) {
    refuse(where, "the header name " + shown + " is not an HTTP token (no spaces, colons, CR or LF)");
  }
  for (std::string_view reserved : reserved_headers) {
    if (iequals(name, reserved)) refuse(where, "the header " + shown + " is set by the SDK or frames the request; it cannot be given");
  }
  if (std::any_of(value.begin(), value.end(), [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; })) {
    refuse(where, "the value of the header " + shown + " contains CR, LF or another control character");
  }
  out += "\r\n";
  out += name;
  out += ": ";
  out += value;
}

void render_headers(std::string& out, std::span<const header_field> headers, std::string_view where) {
  for (const auto& [name, value] : headers) append_header(out, name, value, where);
}

void render_call_headers(std::string& out, const call_options& call) {
  out.clear();
  render_headers(out, call.headers, "call_options.headers");
  struct edge_field {
    std::string_view header;
    const std::string& value;
    std::string_view where;
  };
  const edge_field edge[] = {
      {"X-Massive-Edge-ID", call.edge_id, "call_options.edge_id"},
      {"X-Massive-Edge-IP-Address", call.edge_ip_address, "call_options.edge_ip_address"},
      {"X-Massive-Edge-User-Agent", call.edge_user_agent, "call_options.edge_user_agent"},
  };
  for (const auto& f : edge) {
    if (!f.value.empty()) append_header(out, f.header, f.value, f.where);
  }
}

bool is_rate_limit_header(std::string_view name) {
  // Looked at on every response header: no copy, no allocation.
  const auto contains = [name](std::string_view needle) {
    return std::search(name.begin(), name.end(), needle.begin(), needle.end(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           }) != name.end();
  };
  return contains("ratelimit") || contains("rate-limit");
}

std::optional<std::uint64_t> requested_range_start(std::string_view head) {
  constexpr std::string_view name = "range:";
  for (std::size_t at = head.find("\r\n"); at != std::string_view::npos;
       at = head.find("\r\n", at + 2)) {
    std::string_view line = head.substr(at + 2);
    line = line.substr(0, line.find("\r\n"));
    if (line.size() < name.size() || !iequals(line.substr(0, name.size()), name)) continue;
    line.remove_prefix(name.size());
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (!line.starts_with("bytes=")) return std::nullopt;
    line.remove_prefix(6);
    std::uint64_t first = 0;
    const auto [stop, ec] = std::from_chars(line.data(), line.data() + line.size(), first);
    if (ec != std::errc{} || stop == line.data() + line.size() || *stop != '-') return std::nullopt;
    return first;
  }
  return std::nullopt;
}

std::string content_range_problem(std::string_view content_range, std::uint64_t first) {
  if (content_range.empty()) return "206 Partial Content without a Content-Range";
  // bytes <first>-<last>/<size or *>
  std::string_view rest = content_range;
  std::uint64_t from = 0, last = 0, size = 0;
  bool size_known = false;
  bool parsed = rest.starts_with("bytes ");
  const auto number = [&](std::uint64_t& out) {
    const auto [stop, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), out);
    if (ec != std::errc{}) return false;
    rest.remove_prefix(static_cast<std::size_t>(stop - rest.data()));
    return true;
  };
  if (parsed) {
    rest.remove_prefix(6);
    parsed = number(from) && rest.starts_with('-');
  }
  if (parsed) {
    rest.remove_prefix(1);
    parsed = number(last) && rest.starts_with('/');
  }
  if (parsed) {
    rest.remove_prefix(1);
    size_known = rest != "*";
    parsed = size_known ? number(size) && rest.empty() : true;
  }
  const bool malformed = !parsed || last < from || (size_known && last >= size);
  if (!malformed && from == first) return {};
  // Appended, not concatenated: g++ 12's -Wrestrict misreads `"'" + std::string + "'"` (GCC bug
  // 105329).
  std::string problem = "206 Partial Content with ";
  if (malformed) {
    problem.append("a Content-Range that is not bytes <first>-<last>/<size>: '")
        .append(sanitize(content_range, 80))
        .append("'");
  } else {
    problem.append("the bytes from ")
        .append(std::to_string(from))
        .append(" (Content-Range '")
        .append(sanitize(content_range, 80))
        .append("') to a request for the bytes from ")
        .append(std::to_string(first));
  }
  return problem;
}

std::string with_api_key_parameter(std::string_view target, std::string_view key) {
  std::string out;
  append_with_api_key_parameter(out, target, key);
  return out;
}

std::string redact_target(std::string_view target, std::string_view key) {
  const auto q = target.find('?');
  // A next_url is the server's text: it may carry the key anywhere (a cursor, a path segment),
  // not only as apiKey. Replaced as error messages replace it.
  if (q == std::string_view::npos) return redact(target, key);
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
  return redact(out, key);
}

void build_request_head(std::string& out, const request_head_input& in) {
  out.clear();
  // At most one allocation, none when `out` is reused: the fixed lines are under 128 bytes,
  // and rounding up lets a reused buffer take the next page's slightly longer cursor.
  const std::size_t longest = 128 + in.host.size() + in.target_prefix.size() + in.target.size() +
                              in.api_key.size() * 3 + in.user_agent.size() + in.client_headers.size() +
                              in.call_headers.size();
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
  out += in.client_headers;
  out += in.call_headers;
  out += "\r\n\r\n";
}

}  // namespace massive::transport
