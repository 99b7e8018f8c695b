#include "tunnel.hpp"

#include "error_body.hpp"

#include <charconv>

namespace massive::transport {
namespace {

// What the proxy wrote (a reason phrase, a status line), unless it holds the proxy URL's
// password or Basic token: a hostile proxy may echo them, and they go into errors and logs.
std::string shown(const std::string& text, const proxy_endpoint& proxy) {
  for (const std::string& secret : proxy.secrets) {
    if (text.find(secret) != std::string::npos) return "what it wrote is not shown: it holds the proxy URL's credentials";
  }
  return text;
}

std::string_view status_text(const tunnel_response& r, const proxy_endpoint& proxy, std::string& storage) {
  storage = std::to_string(r.status);
  if (!r.reason.empty()) {
    storage += ' ';
    storage += shown(r.reason, proxy);
  }
  return storage;
}

}  // namespace

std::string render_connect_request(const proxy_endpoint& proxy, std::string_view authority,
                                   std::string_view user_agent) {
  std::string out = "CONNECT ";
  out += authority;
  out += " HTTP/1.1\r\nHost: ";
  out += authority;
  if (!proxy.authorization.empty()) {
    out += "\r\nProxy-Authorization: ";
    out += proxy.authorization;
  }
  if (!user_agent.empty()) {
    out += "\r\nUser-Agent: ";
    out += user_agent;
  }
  out += "\r\n\r\n";
  return out;
}

tunnel_response parse_tunnel_response(std::string_view received) {
  using kind = tunnel_response::kind;
  const auto malformed = [](std::string why) {
    return tunnel_response{.what = kind::malformed, .status = 0, .reason = std::move(why)};
  };
  const auto line_end = received.find("\r\n");
  const auto head_end = received.find("\r\n\r\n");
  // Checked as soon as the status line is whole, so that a non-HTTP answer fails at once.
  if (line_end != std::string_view::npos) {
    const auto line = received.substr(0, line_end);
    int status = 0;
    const bool http1 = line.size() >= 12 && (line.starts_with("HTTP/1.1 ") || line.starts_with("HTTP/1.0 "));
    const auto digits = http1 ? line.substr(9, 3) : std::string_view{};
    const bool numeric = http1 && std::from_chars(digits.data(), digits.data() + 3, status).ptr == digits.data() + 3;
    if (!numeric || status < 100 || status > 599 || (line.size() > 12 && line[12] != ' ')) {
      return malformed("the status line is not HTTP/1.x: '" + sanitize(line, 60) + "'");
    }
    if (head_end != std::string_view::npos) {
      tunnel_response r{.what = kind::refused, .status = status,
                        .reason = sanitize(line.size() > 13 ? line.substr(13) : std::string_view{}, 80)};
      if (status >= 200 && status < 300) {
        if (received.size() > head_end + 4) return malformed("bytes followed its 2xx answer before the tunnel was used");
        r.what = kind::established;
      }
      return r;
    }
  }
  if (received.size() > max_tunnel_response_head) {
    return malformed("its answer's head exceeds " + std::to_string(max_tunnel_response_head) + " bytes");
  }
  return {};
}

proxy_error tunnel_failure(const tunnel_response& response, const proxy_endpoint& proxy,
                           std::string_view authority, bool sent_credentials, std::string_view cause) {
  const std::string who = "proxy " + proxy.name;
  std::string status;
  switch (response.what) {
    case tunnel_response::kind::refused:
      // 407 is the standard refusal; tinyproxy answers wrong credentials with 401, which a
      // proxy's answer to CONNECT can only mean the same way.
      if (response.status == 407 || (response.status == 401 && sent_credentials)) {
        if (sent_credentials) {
          return {proxy_errc::auth_failed, response.status, proxy.name,
                  who + " rejected the credentials of the proxy URL (" + std::string(status_text(response, proxy, status)) + ")"};
        }
        return {proxy_errc::auth_required, 407, proxy.name,
                who + " requires credentials: give them in the proxy URL (" + std::string(status_text(response, proxy, status)) + ")"};
      }
      return {proxy_errc::refused, response.status, proxy.name,
              who + " refused the tunnel to " + std::string(authority) + " (" + std::string(status_text(response, proxy, status)) + ")"};
    case tunnel_response::kind::malformed:
      return {proxy_errc::failed, 0, proxy.name, who + " answered CONNECT malformed: " + shown(response.reason, proxy)};
    case tunnel_response::kind::incomplete:
    case tunnel_response::kind::established:
      break;
  }
  return {proxy_errc::failed, 0, proxy.name,
          who + " closed the connection before the tunnel to " + std::string(authority) +
              " was established" + (cause.empty() ? std::string() : " (" + std::string(cause) + ")")};
}

bool tunnel_refusal_is_final(const proxy_error& e) noexcept { return e.status() >= 400 && e.status() < 500; }

}  // namespace massive::transport
