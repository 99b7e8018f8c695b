#include "config.hpp"

#include "request_head.hpp"
#include "tunnel.hpp"

#include "massive/error.hpp"

#include <boost/url/parse.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace massive::transport {
namespace {

[[noreturn]] void invalid(const std::string& option, const std::string& why) {
  throw transport_error(errc::invalid_option, "client_config." + option + ": " + why);
}

bool has_control_or_space(std::string_view s, bool allow_space) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || (!allow_space && c == ' ')) return true;
  }
  return false;
}

void check_retry(const retry_policy& retry, const std::string& where) {
  const auto refuse = [&](const std::string& field, const std::string& why) {
    throw transport_error(errc::invalid_option, where + "." + field + ": " + why);
  };
  if (retry.max_attempts == 0 || retry.max_attempts > 100) refuse("max_attempts", "must be between 1 and 100");
  if (retry.initial_backoff.count() < 0) refuse("initial_backoff", "must not be negative");
  if (retry.max_backoff < retry.initial_backoff) refuse("max_backoff", "must not be less than initial_backoff");
}

}  // namespace

void check_call_options(const call_options& call) {
  if (call.request_timeout && call.request_timeout->count() <= 0) {
    throw transport_error(errc::invalid_option, "call_options.request_timeout: must be positive");
  }
  if (call.retry) check_retry(*call.retry, "call_options.retry");
}

config validate_options(client_config opts) { return validate_options(std::move(opts), &std::getenv); }

config validate_options(client_config opts, const environment_reader& getenv) {
  config c;
  if (opts.api_key.empty()) {
    if (const char* env = getenv("MASSIVE_API_KEY")) opts.api_key = env;
  }
  if (opts.api_key.empty()) invalid("api_key", "empty, and MASSIVE_API_KEY is not set");
  // A CR or LF in the key would inject header lines; the key itself is never echoed.
  if (has_control_or_space(opts.api_key, false) ||
      opts.api_key.find_first_of("\"\\") != std::string::npos) {
    invalid("api_key", "contains a space, a control character, a quote or a backslash");
  }

  auto parsed = boost::urls::parse_absolute_uri(opts.base_url);
  if (!parsed) invalid("base_url", "not an absolute URL");
  const boost::urls::url_view u = *parsed;
  if (u.has_query() || u.has_fragment()) {
    invalid("base_url", "must not have a query or a fragment (the key goes in api_key)");
  }
  auto o = parse_origin(opts.base_url);
  if (!o) invalid("base_url", "must be http:// or https:// with a host, a valid port and no user information");
  c.base = *o;
  c.tls = c.base.scheme == "https";
  c.connect_host = c.base.host;
  if (c.connect_host.size() > 2 && c.connect_host.front() == '[') {
    c.connect_host = c.connect_host.substr(1, c.connect_host.size() - 2);
  }
  c.port_text = std::to_string(c.base.port);
  c.host_header = c.base.host;
  if (c.base.port != (c.tls ? 443 : 80)) c.host_header += ":" + c.port_text;
  std::string prefix(u.encoded_path());
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  c.path_prefix = prefix;

  if (has_control_or_space(opts.user_agent, true)) {
    invalid("user_agent", "contains a control character");
  }
  if (opts.connect_timeout.count() <= 0) invalid("connect_timeout", "must be positive");
  if (opts.request_timeout.count() <= 0) invalid("request_timeout", "must be positive");
  if (opts.connections_per_origin == 0 || opts.connections_per_origin > 1024) {
    invalid("connections_per_origin", "must be between 1 and 1024");
  }
  std::error_code ec;
  if (!opts.tls.ca_file.empty() && !std::filesystem::is_regular_file(opts.tls.ca_file, ec)) {
    invalid("tls.ca_file", "'" + opts.tls.ca_file + "' is not a readable file");
  }
  if (!opts.tls.ca_directory.empty() && !std::filesystem::is_directory(opts.tls.ca_directory, ec)) {
    invalid("tls.ca_directory", "'" + opts.tls.ca_directory + "' is not a directory");
  }
  if (opts.max_body_size && *opts.max_body_size == 0) {
    invalid("max_body_size", "must be positive when set");
  }
  if (opts.max_inflate_ratio && *opts.max_inflate_ratio == 0) {
    invalid("max_inflate_ratio", "must be positive when set");
  }
  if (opts.max_page_bytes < 64 * 1024) invalid("max_page_bytes", "must be at least 64 KiB");
  check_retry(opts.retry, "client_config.retry");
  if (opts.rate_limit) {
    const auto& r = *opts.rate_limit;
    if (!std::isfinite(r.requests_per_second) || r.requests_per_second <= 0) {
      invalid("rate_limit.requests_per_second", "must be a positive number");
    }
    if (!std::isfinite(r.burst) || r.burst < 1) invalid("rate_limit.burst", "must be at least 1");
  }
  render_headers(c.header_lines, opts.headers, "client_config.headers");
  c.opts = std::move(opts);
  c.proxy = choose_proxy(c.opts.proxy, "client_config.proxy", c.base.scheme, c.base.host, getenv);
  if (c.proxy) c.connect_request = render_connect_request(*c.proxy, c.base.host + ":" + c.port_text, c.opts.user_agent);
  return c;
}

}  // namespace massive::transport
