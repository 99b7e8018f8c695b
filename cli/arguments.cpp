#include "arguments.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace massive::cli {

namespace {

constexpr std::string_view formats[] = {"json", "jsonl", "csv", "table"};

std::uint64_t count_value(std::string_view flag_name, std::string_view text) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n == 0) {
    throw usage_error(std::string(flag_name) + " takes a positive count, not '" + std::string(text) + "'");
  }
  return n;
}

// A positive byte count with an optional K, M or G (binary multiples): 64M.
std::uint64_t byte_value(std::string_view flag_name, std::string_view text) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  unsigned shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  if (suffix == "M" || suffix == "m") shift = 20;
  if (suffix == "G" || suffix == "g") shift = 30;
  if (ec != std::errc{} || n == 0 || (!suffix.empty() && shift == 0) || n > (UINT64_MAX >> shift)) {
    throw usage_error(std::string(flag_name) + " takes a positive byte count (64M, 512K, 1G), not '" +
                      std::string(text) + "'");
  }
  return n << shift;
}

// Seconds, a fraction allowed (2.5): the call's deadline.
std::chrono::milliseconds seconds_value(std::string_view flag_name, std::string_view text) {
  double seconds = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc{} || end != text.data() + text.size() || !(seconds > 0) || seconds > 86'400) {
    throw usage_error(std::string(flag_name) + " takes seconds (30, 2.5; at most a day), not '" + std::string(text) + "'");
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000 + 0.5));
}

constexpr flag flags[] = {
    {"--param", "-p", "KEY=VALUE", {},
     "a parameter by the description's name (comparators dotted: timestamp.gte=2024-01-02; lists "
     "comma-separated); repeat for each",
     [](call_settings& s, std::string_view kv) {
       const auto eq = kv.find('=');
       if (eq == std::string_view::npos || eq == 0) {
         throw usage_error("--param takes KEY=VALUE, not '" + std::string(kv) + "'");
       }
       s.params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
     }},
    {"--all-pages", "", "", {}, "follow next_url through every page (at most 1000: a failure naming the cap)",
     [](call_settings& s, std::string_view) { s.run.all_pages = true; }},
    {"--max-pages", "", "N", {}, "every page, at most N of them",
     [](call_settings& s, std::string_view n) {
       s.run.all_pages = true;
       s.run.traversal.max_pages = count_value("--max-pages", n);
       s.pages_capped_by_user = true;
     }},
    {"--max-body", "", "BYTES", {}, "refuse a body larger than BYTES once inflated (default 128M; K, M, G)",
     [](call_settings& s, std::string_view n) { s.client.max_body_size = byte_value("--max-body", n); }},
    {"--strict", "", "", {},
     "exit 6 when a page left a value or a row out (by default: reported on stderr, exit 0)",
     [](call_settings& s, std::string_view) { s.strict = true; }},
    {"--format", "-f", "FORMAT", formats,
     "json (one array, the default), jsonl (one row per line), csv, or table",
     [](call_settings& s, std::string_view f) {
       for (std::size_t i = 0; i < std::size(formats); ++i) {
         if (f == formats[i]) return void(s.format = static_cast<output_format>(i));
       }
       throw usage_error("--format is one of json, jsonl, csv, table; not '" + std::string(f) + "'");
     }},
    {"--envelope", "", "", {},
     "each page whole, as the API's object (status, request_id, count, next_url, results with the "
     "indicators' underlying), one JSON object per line",
     [](call_settings& s, std::string_view) { s.envelope = true; }},
    {"--raw-times", "", "", {}, "table and CSV: timestamps as the wire's integers instead of ISO 8601",
     [](call_settings& s, std::string_view) { s.raw_times = true; }},
    {"--output", "-o", "FILE", {}, "write the rows to FILE (progress stays on the terminal)",
     [](call_settings& s, std::string_view path) { s.output_path = std::string(path); }},
    {"--base-url", "", "URL", {}, "the API's origin (default https://api.massive.com)",
     [](call_settings& s, std::string_view url) { s.client.base_url = std::string(url); }},
    {"--ca-file", "", "PEM", {}, "trust the certificates in PEM instead of the system's",
     [](call_settings& s, std::string_view pem) { s.client.tls.ca_file = std::string(pem); }},
    {"--proxy", "", "URL", {}, "tunnel through the HTTP proxy URL: http://[user:password@]host:port",
     [](call_settings& s, std::string_view url) { s.client.proxy.url = std::string(url); }},
    {"--proxy-from-env", "", "", {}, "take the proxy from HTTPS_PROXY (or https_proxy), honouring NO_PROXY",
     [](call_settings& s, std::string_view) { s.client.proxy.from_environment = true; }},
    {"--header", "-H", "'NAME: VALUE'", {}, "send this header with every request; repeat for each",
     [](call_settings& s, std::string_view line) {
       const auto colon = line.find(':');
       if (colon == std::string_view::npos || colon == 0) {
         throw usage_error("--header takes 'NAME: VALUE', not '" + std::string(line) + "'");
       }
       std::string_view value = line.substr(colon + 1);
       while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
       s.client.headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
     }},
    {"--timeout", "", "SECONDS", {}, "the deadline of each call: queueing, every attempt and backoff (default 30)",
     [](call_settings& s, std::string_view v) { s.client.request_timeout = seconds_value("--timeout", v); }},
    {"--retry", "", "N", {}, "retry an answer 429 or 5xx up to N times, with backoff (default 3; 0: never)",
     [](call_settings& s, std::string_view n) {
       std::uint64_t retries = 0;
       const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), retries);
       if (ec != std::errc{} || end != n.data() + n.size() || retries > 99) {
         throw usage_error("--retry takes a count of retries from 0 to 99, not '" + std::string(n) + "'");
       }
       s.client.retry.max_attempts = static_cast<unsigned>(retries) + 1;
     }},
    {"--verbose", "-v", "", {},
     "one line per attempt on stderr: method, target, status, bytes, times (the key never)",
     [](call_settings& s, std::string_view) {
       s.client.trace = [](const massive::trace_event& e) { std::fprintf(stderr, "massive: %s\n", to_string(e).c_str()); };
     }},
    {"--mock", "", "", {}, "call the embedded mock API (every operation, offline) instead",
     [](call_settings& s, std::string_view) { s.mock = true; }},
    {"--help", "-h", "", {}, "describe the operation and its parameters",
     [](call_settings& s, std::string_view) { s.help = true; }},
};

}  // namespace

std::span<const flag> call_flags() { return flags; }

const flag* find_call_flag(std::string_view name) {
  for (const flag& f : flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

call_settings parse_call(std::span<const std::string_view> words) {
  call_settings settings;
  settings.run.traversal.max_pages = default_page_cap;
  parse_flags(words, call_flags(), settings);
  settings.run.page_cap_is_error = !settings.pages_capped_by_user;
  if (settings.envelope && (settings.format == output_format::csv || settings.format == output_format::table)) {
    throw usage_error("--envelope prints JSON objects: it takes no --format csv or table");
  }
  return settings;
}

}  // namespace massive::cli
