#include "route.hpp"

#include "massive/error.hpp"
#include "massive/stream/error.hpp"
#include "transport/request_head.hpp"
#include "transport/tunnel.hpp"

#include <boost/url/parse.hpp>

#include <algorithm>
#include <cctype>

namespace massive::stream::detail {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The upgrade request's own headers, beside those render_headers refuses for every request.
void refuse_handshake_headers(const std::vector<header_field>& headers) {
  constexpr std::string_view handshake = "sec-websocket-";
  for (const auto& [name, value] : headers) {
    if (lower(name).starts_with(handshake)) {
      throw transport_error(errc::invalid_option, "stream_config.headers: the header '" + name +
                                                      "' is set by the WebSocket handshake; it cannot be given");
    }
  }
}

}  // namespace

route route_of(const stream_config& o, const transport::environment_reader& getenv) {
  route r;
  if (o.url.empty()) {
    r.host = feed_host(o.feed);
    // Appended, not "/" + ...: g++ 12 reports that operator+ as a -Wrestrict overlap.
    r.path.assign(1, '/');
    r.path += market_path(o.market);
  } else {
    const auto u = boost::urls::parse_uri(o.url);
    if (!u || u->scheme() != "wss" || u->host().empty()) {
      throw stream_error(stream_errc::protocol_violation, "stream_config.url: not a wss:// URL: " + o.url);
    }
    r.host = lower(u->host_address());
    if (u->has_port()) r.port = std::string(u->port());
    r.path = u->path().empty() ? "/" : std::string(u->encoded_path());
  }
  std::string bracketed = r.host;
  if (bracketed.find(':') != std::string::npos) bracketed.insert(0, 1, '[').push_back(']');
  r.authority = bracketed + ":" + r.port;
  r.host_header = r.port == "443" ? bracketed : r.authority;

  std::string lines;  // rendered only to validate: Beast writes the upgrade request
  transport::render_headers(lines, o.headers, "stream_config.headers");
  refuse_handshake_headers(o.headers);
  r.headers = o.headers;

  // wss:// is TLS to port 443 like https://: it takes the https proxy variables.
  r.proxy = transport::choose_proxy(o.proxy, "stream_config.proxy", "https", bracketed, getenv);
  if (r.proxy) r.connect_request = transport::render_connect_request(*r.proxy, r.authority, {});
  return r;
}

}  // namespace massive::stream::detail
