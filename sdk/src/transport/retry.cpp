#include "massive/retry.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

namespace massive {
namespace {

constexpr std::chrono::seconds retry_after_cap{86'400};

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Reads exactly `n` digits at the front of `s`.
bool take_number(std::string_view& s, std::size_t n, int& out) noexcept {
  if (s.size() < n) return false;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_digit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  s.remove_prefix(n);
  return true;
}

bool take_literal(std::string_view& s, std::string_view lit) noexcept {
  if (s.substr(0, lit.size()) != lit) return false;
  s.remove_prefix(lit.size());
  return true;
}

bool take_month(std::string_view& s, unsigned& month) noexcept {
  static constexpr std::array<std::string_view, 12> names{"Jan", "Feb", "Mar", "Apr",
                                                          "May", "Jun", "Jul", "Aug",
                                                          "Sep", "Oct", "Nov", "Dec"};
  for (unsigned i = 0; i < names.size(); ++i) {
    if (take_literal(s, names[i])) {
      month = i + 1;
      return true;
    }
  }
  return false;
}

bool take_time(std::string_view& s, int& h, int& m, int& sec) noexcept {
  return take_number(s, 2, h) && take_literal(s, ":") && take_number(s, 2, m) &&
         take_literal(s, ":") && take_number(s, 2, sec) && h < 24 && m < 60 && sec < 61;
}

bool skip_day_name(std::string_view& s, char terminator) noexcept {
  const auto end = s.find(terminator);
  if (end == std::string_view::npos || end < 3 || end > 9) return false;
  for (std::size_t i = 0; i < end; ++i) {
    if (!std::isalpha(static_cast<unsigned char>(s[i]))) return false;
  }
  s.remove_prefix(end + 1);
  return true;
}

std::optional<std::chrono::sys_seconds> make_time(int year, unsigned month, int day, int h, int m,
                                                  int sec) noexcept {
  using namespace std::chrono;
  const year_month_day ymd{std::chrono::year{year}, std::chrono::month{month},
                           std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd} + hours{h} + minutes{m} + seconds{sec};
}

// The two day-first forms: IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT" (separator ' ', a
// four-digit year), and RFC 850, "Sunday, 06-Nov-94 08:49:37 GMT" ('-', two digits, which
// RFC 9110's 50-year rule places around `current_year`).
std::optional<std::chrono::sys_seconds> parse_day_first(std::string_view s, std::string_view separator,
                                                        std::size_t year_digits, int current_year) noexcept {
  int day = 0, year = 0, h = 0, m = 0, sec = 0;
  unsigned month = 0;
  if (!skip_day_name(s, ',') || !take_literal(s, " ") || !take_number(s, 2, day) ||
      !take_literal(s, separator) || !take_month(s, month) || !take_literal(s, separator) ||
      !take_number(s, year_digits, year) || !take_literal(s, " ") || !take_time(s, h, m, sec) ||
      !take_literal(s, " GMT") || !s.empty()) {
    return std::nullopt;
  }
  if (year_digits == 2) {
    year += current_year / 100 * 100;
    if (year > current_year + 50) year -= 100;
  }
  return make_time(year, month, day, h, m, sec);
}

// asctime: "Sun Nov  6 08:49:37 1994"
std::optional<std::chrono::sys_seconds> parse_asctime(std::string_view s) noexcept {
  int day = 0, year = 0, h = 0, m = 0, sec = 0;
  unsigned month = 0;
  if (!skip_day_name(s, ' ') || !take_month(s, month) || !take_literal(s, " ")) {
    return std::nullopt;
  }
  if (!s.empty() && s.front() == ' ') {
    s.remove_prefix(1);
    if (!take_number(s, 1, day)) return std::nullopt;
  } else if (!take_number(s, 2, day)) {
    return std::nullopt;
  }
  if (!take_literal(s, " ") || !take_time(s, h, m, sec) || !take_literal(s, " ") ||
      !take_number(s, 4, year) || !s.empty()) {
    return std::nullopt;
  }
  return make_time(year, month, day, h, m, sec);
}

}  // namespace

bool is_retryable_status(int status) noexcept {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

std::chrono::milliseconds backoff_delay(const retry_policy& policy, unsigned attempts_made,
                                        double jitter) noexcept {
  using std::chrono::milliseconds;
  if (!(jitter >= 0.0)) jitter = 0.0;  // also catches NaN
  if (jitter > 1.0) jitter = 1.0;
  const auto cap = std::max(policy.max_backoff.count(), std::int64_t{0});
  std::int64_t base = std::max(policy.initial_backoff.count(), std::int64_t{0});
  // Doubling stops at the cap, so the shift never overflows whatever attempts_made is.
  for (unsigned i = 1; i < attempts_made && base < cap; ++i) base *= 2;
  base = std::min(base, cap);
  const double half = static_cast<double>(base) / 2.0;
  return milliseconds{static_cast<std::int64_t>(half + jitter * half)};
}

retry_decision decide_retry(const retry_policy& policy, int status, unsigned attempts_made,
                            std::optional<std::chrono::seconds> retry_after,
                            double jitter) noexcept {
  using outcome = retry_decision::outcome;
  if (!is_retryable_status(status)) return {outcome::not_retryable, {}};
  if (attempts_made >= policy.max_attempts) return {outcome::attempts_exhausted, {}};
  if (retry_after) {
    if (*retry_after > policy.max_backoff) return {outcome::retry_after_too_long, {}};
    return {outcome::retry, std::chrono::duration_cast<std::chrono::milliseconds>(*retry_after)};
  }
  return {outcome::retry, backoff_delay(policy, attempts_made, jitter)};
}

retry_decision decide_reset_retry(const retry_policy& policy, unsigned attempts_made, double jitter) noexcept {
  using outcome = retry_decision::outcome;
  if (attempts_made >= policy.max_attempts) return {outcome::attempts_exhausted, {}};
  return {outcome::retry, backoff_delay(policy, attempts_made, jitter)};
}

bool answer_means_stale_connection(int status, bool reused_connection) noexcept {
  return reused_connection && status == 408;
}

bool skip_interim_response(int status) noexcept { return status >= 100 && status < 200 && status != 101; }

bool retry_on_fresh_connection(bool reused_connection, bool response_bytes_received,
                               bool already_retried) noexcept {
  return reused_connection && !response_bytes_received && !already_retried;
}

std::optional<std::chrono::seconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now) noexcept {
  using namespace std::chrono;
  value = trim(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), is_digit)) {
    std::int64_t secs = 0;
    for (char c : value) {
      secs = secs * 10 + (c - '0');
      if (secs > retry_after_cap.count()) return retry_after_cap;
    }
    return seconds{secs};
  }
  const int this_year = static_cast<int>(year_month_day{floor<days>(now)}.year());
  std::optional<sys_seconds> when = parse_day_first(value, " ", 4, this_year);
  if (!when) when = parse_day_first(value, "-", 2, this_year);
  if (!when) when = parse_asctime(value);
  if (!when) return std::nullopt;
  const auto delta = ceil<seconds>(*when - now);
  if (delta <= seconds{0}) return seconds{0};
  return std::min(delta, retry_after_cap);
}

}  // namespace massive
