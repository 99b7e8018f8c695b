// What the mock's data sources share: hashing for deterministic values, JSON writing, the
// request's query with its opaque cursor, and the API's error envelopes.
#pragma once

#include "massive/mock/base64url.hpp"
#include "massive/mock/market.hpp"

#include <boost/url/encode.hpp>
#include <boost/url/params_view.hpp>
#include <boost/url/parse_query.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <boost/url/url_view.hpp>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::mock::wire {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: a cheap, well-spread hash
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::uint64_t hash_text(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Uniform in [0, 1) from a hash.
inline double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

class json_writer {
 public:
  explicit json_writer(std::string& out) : out_(out) {}
  void raw(std::string_view text) { out_ += text; }
  void key(std::string_view name) {
    string(name);
    out_ += ':';
  }
  void string(std::string_view text) {
    out_ += '"';
    for (char c : text) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += c;
    }
    out_ += '"';
  }
  void number(std::int64_t value) {
    char buffer[24];
    out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  }
  void number(double value) {
    char buffer[32];
    out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  }

 private:
  std::string& out_;
};

// A request the mock can't serve for a reason the caller should read: becomes a 400.
struct bad_request : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The request's query as name/value pairs; a cursor is expanded back into the query it holds
// and the row offset its page starts at.
struct query {
  std::vector<std::pair<std::string, std::string>> items;
  std::int64_t offset = 0;

  std::optional<std::string> get(std::string_view name) const {
    for (const auto& [k, v] : items)
      if (k == name) return v;
    return std::nullopt;
  }
  std::int64_t limit(std::int64_t fallback) const {
    const auto text = get("limit");
    if (!text) return fallback;
    const auto value = parse_int(*text);
    if (!value || *value < 1 || *value > 50'000) throw bad_request("'limit' must be 1..50000");
    return *value;
  }
  bool descending(bool fallback) const {
    const auto text = get("order") ? get("order") : get("sort");
    if (!text || *text == "timestamp") return fallback;
    if (*text == "asc") return false;
    if (*text == "desc") return true;
    throw bad_request("order must be asc or desc");
  }
  // The cursor for the page that starts at `next_offset`: opaque to clients, the query that
  // produced the first page plus a position in base64url, much as the real API's.
  std::string cursor(std::int64_t next_offset) const {
    std::string plain = "offset=";
    plain += std::to_string(next_offset);
    for (const auto& [k, v] : items) {
      plain += '&';
      plain += boost::urls::encode(k, boost::urls::unreserved_chars);
      plain += '=';
      plain += boost::urls::encode(v, boost::urls::unreserved_chars);
    }
    return base64url(plain);
  }
};

inline query read_query(const boost::urls::url_view& url) {
  query q;
  for (auto param : url.params()) {
    if (param.key == "cursor") {
      const auto plain = unbase64url(param.value);
      if (!plain) throw bad_request("malformed cursor");
      const auto inner = boost::urls::parse_query(*plain);
      if (!inner) throw bad_request("malformed cursor");
      for (auto p : boost::urls::params_view(*inner)) {
        if (p.key == "offset") {
          const auto offset = parse_int(p.value);
          if (!offset || *offset < 0) throw bad_request("malformed cursor");
          q.offset = *offset;
        } else {
          q.items.emplace_back(p.key, p.value);
        }
      }
    } else if (param.key != "apiKey") {
      q.items.emplace_back(param.key, param.value);
    }
  }
  return q;
}

/// A request id derived from the target: the same request gets the same id.
inline std::string request_id(std::string_view target) {
  char buffer[33];
  std::snprintf(buffer, sizeof buffer, "%016llx%016llx", static_cast<unsigned long long>(mix(hash_text(target))),
                static_cast<unsigned long long>(mix(hash_text(target) + 1)));
  return buffer;
}

/// An error in the API's envelope: 404 as {"status":"NOT_FOUND",...,"message"}, others as
/// {"status":"ERROR",...,"error"}.
inline response error_response(int status, std::string_view target, std::string_view message) {
  std::string body;
  json_writer w{body};
  w.raw("{");
  w.key("status");
  w.string(status == 404 ? "NOT_FOUND" : "ERROR");
  w.raw(",");
  w.key("request_id");
  w.string(request_id(target));
  w.raw(",");
  w.key(status == 404 ? "message" : "error");
  w.string(message);
  w.raw("}");
  return {status, std::move(body)};
}

}  // namespace massive::mock::wire
