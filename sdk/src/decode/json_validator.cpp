#include "decode/json_validator.hpp"

#include <cctype>

namespace massive::detail {
namespace {

// A recursive descent over RFC 8259's grammar.
class json_checker {
 public:
  explicit json_checker(std::string_view text) noexcept : at_(text.data()), end_(text.data() + text.size()) {}

  /// The text is exactly one JSON value (whitespace around it allowed).
  bool whole_value() {
    space();
    if (!value(0)) return false;
    space();
    return at_ == end_;
  }

 private:
  // simdjson's default depth limit: a deeper body fails before reaching here.
  static constexpr int max_depth = 1024;

  void space() noexcept {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r')) ++at_;
  }
  bool eat(char c) noexcept {
    if (at_ == end_ || *at_ != c) return false;
    ++at_;
    return true;
  }
  bool literal(std::string_view word) noexcept {
    if (static_cast<std::size_t>(end_ - at_) < word.size() || std::string_view(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }
  bool digits() noexcept {
    const char* const start = at_;
    while (at_ != end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    return at_ != start;
  }
  bool number() noexcept {
    eat('-');
    if (eat('0')) {
      if (at_ != end_ && *at_ >= '0' && *at_ <= '9') return false;
    } else if (!digits()) {
      return false;
    }
    if (eat('.') && !digits()) return false;
    if (at_ != end_ && (*at_ == 'e' || *at_ == 'E')) {
      ++at_;
      if (!eat('+')) eat('-');
      if (!digits()) return false;
    }
    return true;
  }
  bool string() noexcept {
    if (!eat('"')) return false;
    while (at_ != end_) {
      const auto c = static_cast<unsigned char>(*at_++);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (at_ == end_) return false;
      const char escape = *at_++;
      if (escape == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (at_ == end_ || !std::isxdigit(static_cast<unsigned char>(*at_))) return false;
          ++at_;
        }
      } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
        return false;
      }
    }
    return false;
  }
  bool value(int depth) {
    if (at_ == end_) return false;
    switch (*at_) {
      case '{': return container(depth + 1, '}');
      case '[': return container(depth + 1, ']');
      case '"': return string();
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return number();
    }
  }
  // An object's members (close '}') or an array's elements (close ']'), at its opening bracket.
  bool container(int depth, char close) {
    if (depth > max_depth) return false;
    ++at_;
    space();
    if (eat(close)) return true;
    do {
      space();
      if (close == '}' && !member_key()) return false;
      if (!value(depth)) return false;
      space();
    } while (eat(','));
    return eat(close);
  }
  bool member_key() {
    if (!string()) return false;
    space();
    if (!eat(':')) return false;
    space();
    return true;
  }

  const char* at_;
  const char* end_;
};

}  // namespace

bool is_one_json_value(std::string_view text) { return json_checker(text).whole_value(); }

}  // namespace massive::detail
