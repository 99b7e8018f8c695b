#include "massive/relay/subject.hpp"

#include <algorithm>
#include <cctype>

#include "massive/relay/error.hpp"

namespace massive::relay {

namespace {

constexpr std::string_view control_token = "_relay";
constexpr std::string_view control_lead = "_relay.";

/// A byte a subject token holds as itself: printable ASCII but the separators and wildcards,
/// and '%' (the escape).
constexpr bool token_byte(unsigned char c) noexcept {
  return c > 0x20 && c < 0x7F && c != '.' && c != '*' && c != '>' && c != '%';
}

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;  // lower case is never written, so never read: one token per ticker
}

void append_market(std::string& out, stream::market m) {
  out += subject_root;
  out += '.';
  out += stream::market_path(m);
  out += '.';
}

}  // namespace

void append_ticker_token(std::string& out, std::string_view ticker) {
  if (ticker.empty())
    throw relay_error(relay_errc::invalid_ticker, "an empty ticker has no subject token");
  constexpr char hex[] = "0123456789ABCDEF";
  for (const char ch : ticker) {
    const auto c = static_cast<unsigned char>(ch);
    if (token_byte(c)) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xF];
    }
  }
}

std::string ticker_token(std::string_view ticker) {
  std::string out;
  append_ticker_token(out, ticker);
  return out;
}

std::string token_ticker(std::string_view token) {
  if (token.empty()) throw relay_error(relay_errc::invalid_ticker, "an empty subject token");
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c == '%') {
      const int high = i + 2 < token.size() ? hex_value(token[i + 1]) : -1;
      const int low = high >= 0 ? hex_value(token[i + 2]) : -1;
      if (low < 0)
        throw relay_error(relay_errc::invalid_ticker,
                          "a '%' not followed by two upper-case hex digits");
      const auto decoded = static_cast<unsigned char>(high * 16 + low);
      // An escape of a byte that stands for itself was not written by ticker_token.
      if (token_byte(decoded))
        throw relay_error(relay_errc::invalid_ticker, "an escape of a plain byte");
      out += static_cast<char>(decoded);
      i += 2;
    } else if (token_byte(c)) {
      out += static_cast<char>(c);
    } else {
      throw relay_error(relay_errc::invalid_ticker, "a byte a subject token cannot hold");
    }
  }
  return out;
}

void event_subject(std::string& out, stream::market m, std::string_view ev,
                   std::string_view ticker) {
  out.clear();
  append_market(out, m);
  out += ev;
  out += '.';
  append_ticker_token(out, ticker);
}

std::string topic_filter(const stream::topic& t) {
  const auto dot = t.text.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == t.text.size()) {
    throw relay_error(relay_errc::invalid_ticker,
                      "a topic is <prefix>.<ticker>, not '" + t.text + "'");
  }
  const std::string_view prefix = std::string_view(t.text).substr(0, dot);
  if (!std::all_of(prefix.begin(), prefix.end(),
                   [](char c) { return token_byte(static_cast<unsigned char>(c)); })) {
    throw relay_error(relay_errc::invalid_ticker,
                      "a topic prefix a subject token cannot hold: '" + t.text + "'");
  }
  const std::string_view ticker = std::string_view(t.text).substr(dot + 1);
  std::string out;
  append_market(out, t.market);
  out += prefix;
  out += '.';
  if (ticker == "*") {
    out += '*';
  } else {
    append_ticker_token(out, ticker);
  }
  return out;
}

std::string market_filter(stream::market m) {
  std::string out;
  append_market(out, m);
  return out + ">";
}

std::string control_subject(stream::market m, std::string_view kind) {
  std::string out;
  append_market(out, m);
  out += control_token;
  out += '.';
  out += kind;
  return out;
}

bool is_control_subject(std::string_view subject) noexcept {
  // massive.<market>._relay.<kind>
  const auto first = subject.find('.');
  if (first == std::string_view::npos || subject.substr(0, first) != subject_root) return false;
  const auto second = subject.find('.', first + 1);
  if (second == std::string_view::npos) return false;
  return subject.substr(second + 1).starts_with(control_lead);
}

bool subject_matches(std::string_view filter, std::string_view subject) noexcept {
  for (;;) {
    const std::string_view f = filter.substr(0, filter.find('.'));
    const std::string_view s = subject.substr(0, subject.find('.'));
    if (f == ">") return !subject.empty();
    if (subject.empty() || (f != "*" && f != s)) return false;
    const bool filter_ends = f.size() == filter.size();
    const bool subject_ends = s.size() == subject.size();
    if (filter_ends || subject_ends) return filter_ends && subject_ends;
    filter.remove_prefix(f.size() + 1);
    subject.remove_prefix(s.size() + 1);
  }
}

std::string stream_name(stream::market m) {
  std::string out = "MASSIVE_";
  for (const char c : stream::market_path(m))
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace massive::relay
