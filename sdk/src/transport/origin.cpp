#include "origin.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <cctype>

namespace massive::transport {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::optional<origin> parse_origin(std::string_view absolute_url) {
  auto parsed = boost::urls::parse_absolute_uri(absolute_url);
  if (!parsed) return std::nullopt;
  const boost::urls::url_view& u = *parsed;
  origin o;
  o.scheme = lower(u.scheme());
  if (o.scheme != "http" && o.scheme != "https") return std::nullopt;
  if (!u.has_authority() || u.has_userinfo()) return std::nullopt;
  // Boost.URL 1.81 reads "https://h:443:443/v3" as port 443 and path ":443/v3"; after an
  // authority, RFC 3986 only allows an empty path or one starting with '/'.
  if (!u.encoded_path().empty() && u.encoded_path().front() != '/') return std::nullopt;
  o.host = lower(u.encoded_host_address());
  if (o.host.empty()) return std::nullopt;
  if (u.has_port() && !u.port().empty()) {
    const auto port = u.port();
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(),
                                        [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    const unsigned long value = std::stoul(std::string(port));
    if (value == 0 || value > 65535) return std::nullopt;
    o.port = static_cast<std::uint16_t>(value);
  } else {
    o.port = o.scheme == "https" ? 443 : 80;
  }
  return o;
}

bool same_origin(std::string_view absolute_url, const origin& base) {
  const auto o = parse_origin(absolute_url);
  return o && *o == base;
}

}  // namespace massive::transport
