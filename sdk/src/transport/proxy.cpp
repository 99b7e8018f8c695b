#include "proxy.hpp"

#include "massive/error.hpp"

#include <boost/url/parse.hpp>

#include <openssl/evp.h>

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace massive::transport {
namespace {

[[noreturn]] void invalid(std::string_view source, std::string_view why) {
  throw transport_error(errc::invalid_option, std::string(source) + ": " + std::string(why));
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool has_control(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
}

std::string base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  return out;
}

// An address of `family` (AF_INET or AF_INET6) in network order; false when `text` is not one.
bool parse_address(int family, std::string_view text, std::array<unsigned char, 16>& out) {
  std::string copy(text);
  return inet_pton(family, copy.c_str(), out.data()) == 1;
}

// `host` equals `network` in its first `bits` bits (all of them when no /bits was given).
bool address_matches(int family, std::string_view host, std::string_view token) {
  const std::size_t width = family == AF_INET ? 32 : 128;
  std::size_t bits = width;
  if (const auto slash = token.find('/'); slash != std::string_view::npos) {
    const auto digits = token.substr(slash + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (ec != std::errc{} || end != digits.data() + digits.size() || bits > width) return false;
    token = token.substr(0, slash);
  }
  std::array<unsigned char, 16> a{}, b{};
  if (!parse_address(family, host, a) || !parse_address(family, token, b)) return false;
  const std::size_t whole = bits / 8;
  if (std::memcmp(a.data(), b.data(), whole) != 0) return false;
  if (bits % 8 == 0) return true;
  const auto mask = static_cast<unsigned char>(0xff << (8 - bits % 8));
  return (a[whole] & mask) == (b[whole] & mask);
}

bool name_matches(std::string_view host, std::string_view token) {
  if (!token.empty() && token.back() == '.') token.remove_suffix(1);
  if (!token.empty() && token.front() == '.') token.remove_prefix(1);
  if (token.empty()) return false;
  if (token.size() == host.size()) return iequals(token, host);
  return token.size() < host.size() && host[host.size() - token.size() - 1] == '.' &&
         iequals(token, host.substr(host.size() - token.size()));
}

}  // namespace

proxy_endpoint parse_proxy_url(std::string_view url, std::string_view source) {
  std::string text(url);
  if (text.find("://") == std::string::npos) text.insert(0, "http://");
  const auto parsed = boost::urls::parse_absolute_uri(text);
  if (!parsed) invalid(source, "not a proxy URL (http://[user:password@]host:port)");
  const boost::urls::url_view& u = *parsed;
  if (!iequals(u.scheme(), "http")) invalid(source, "only http:// proxies are supported");
  if (u.has_query() || u.has_fragment() || (!u.encoded_path().empty() && u.encoded_path() != "/")) {
    invalid(source, "a proxy URL has no path, query or fragment");
  }
  proxy_endpoint p;
  std::string host(u.encoded_host_address());
  std::transform(host.begin(), host.end(), host.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (host.empty()) invalid(source, "the proxy URL has no host");
  p.connect_host = host.size() > 2 && host.front() == '[' ? host.substr(1, host.size() - 2) : host;
  // An IPv6 address keeps its brackets in an authority, whichever form Boost.URL gave.
  if (p.connect_host.find(':') != std::string::npos) {
    // assign(1, '['), not = "[": g++ 12 misreports the latter as a -Wrestrict overlap.
    host.assign(1, '[');
    host += p.connect_host;
    host += ']';
  }
  std::uint16_t port = 1080;
  if (u.has_port()) {
    const auto digits = u.port();
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || port == 0) {
      invalid(source, "the proxy URL's port is not between 1 and 65535");
    }
  }
  p.port_text = std::to_string(port);
  p.name = host + ":" + p.port_text;
  if (u.has_userinfo()) {
    const std::string user = u.user();
    const std::string password = u.password();
    if (user.empty()) invalid(source, "the proxy URL has a password but no user name");
    if (user.find(':') != std::string::npos || has_control(user) || has_control(password)) {
      invalid(source, "the proxy user name holds a ':' or a control character, or the password a control character");
    }
    const std::string token = base64(user + ":" + password);
    p.authorization = "Basic " + token;
    p.secrets = {token};
    if (!password.empty()) p.secrets.push_back(password);
  }
  return p;
}

bool no_proxy_matches(std::string_view no_proxy, std::string_view host) {
  if (no_proxy == "*") return true;
  int family = 0;
  std::array<unsigned char, 16> ignored{};
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
    family = AF_INET6;
  } else if (parse_address(AF_INET, host, ignored)) {
    family = AF_INET;
  } else if (parse_address(AF_INET6, host, ignored)) {
    family = AF_INET6;
  } else if (!host.empty() && host.back() == '.') {
    host.remove_suffix(1);
  }
  constexpr std::string_view separators = ", \t\r\n";
  while (!no_proxy.empty()) {
    const auto start = no_proxy.find_first_not_of(separators);
    if (start == std::string_view::npos) break;
    no_proxy.remove_prefix(start);
    const auto token = no_proxy.substr(0, no_proxy.find_first_of(separators));
    no_proxy.remove_prefix(token.size());
    const bool match = family == 0 ? name_matches(host, token) : address_matches(family, host, token);
    if (match) return true;
  }
  return false;
}

std::optional<environment_proxy> proxy_from_environment(std::string_view scheme,
                                                        const environment_reader& getenv) {
  const auto read = [&](const char* name) -> std::optional<std::string> {
    const char* value = getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
  // curl never reads HTTP_PROXY in upper case: a CGI server sets it from a request's Proxy
  // header ("httpoxy").
  const std::array<const char*, 4> https_names = {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"};
  const std::array<const char*, 4> http_names = {"http_proxy", "all_proxy", "ALL_PROXY", nullptr};
  for (const char* name : scheme == "https" ? https_names : http_names) {
    if (name == nullptr) break;
    if (auto url = read(name)) {
      environment_proxy found{.url = std::move(*url), .variable = name, .no_proxy = {}};
      if (auto np = read("no_proxy")) {
        found.no_proxy = std::move(*np);
      } else if (auto upper = read("NO_PROXY")) {
        found.no_proxy = std::move(*upper);
      }
      return found;
    }
  }
  return std::nullopt;
}

std::optional<proxy_endpoint> choose_proxy(const proxy_options& settings, std::string_view option_prefix,
                                           std::string_view scheme, std::string_view host,
                                           const environment_reader& getenv) {
  std::string url(settings.url);
  std::string no_proxy(settings.no_proxy);
  std::string source = std::string(option_prefix) + ".url";
  if (url.empty() && settings.from_environment) {
    auto found = proxy_from_environment(scheme, getenv);
    if (!found) return std::nullopt;
    url = std::move(found->url);
    source = "the " + found->variable + " environment variable";
    if (no_proxy.empty()) no_proxy = std::move(found->no_proxy);
  }
  if (url.empty()) return std::nullopt;
  // Parsed even when NO_PROXY excludes the host: a malformed proxy is reported either way.
  auto proxy = parse_proxy_url(url, source);
  if (no_proxy_matches(no_proxy, host)) return std::nullopt;
  return proxy;
}

}  // namespace massive::transport
