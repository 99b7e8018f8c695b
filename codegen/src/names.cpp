#include "names.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>

namespace massive::codegen {

bool is_reserved_word(std::string_view word) {
  static constexpr std::string_view keywords[] = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
      "concept", "const", "consteval", "constexpr", "constinit", "continue", "decltype", "default",
      "delete", "do", "double", "else", "enum", "explicit", "export", "extern", "false", "float",
      "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
      "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register",
      "requires", "return", "short", "signed", "sizeof", "static", "struct", "switch", "template",
      "this", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "while", "xor",
      // Types the generated structs name unqualified: a member of one of these names would change
      // their meaning within the struct (declared after such a member, `timestamp_ms t;` fails).
      // std::, massive:: and owned:: need none: a name before :: is looked up as a namespace.
      "timestamp_ns", "timestamp_ms", "timestamp_us", "json_value", "decimal", "date_or_ms",
      "date_or_ns", "required", "filter", "range_filter", "set_filter", "array_filter"};
  return std::find(std::begin(keywords), std::end(keywords), word) != std::end(keywords);
}

std::string identifier(std::string_view wire) {
  std::string out;
  for (std::size_t i = 0; i < wire.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(wire[i]);
    if (std::isupper(c)) {
      const bool after_lower = i > 0 && (std::islower(static_cast<unsigned char>(wire[i - 1])) ||
                                         std::isdigit(static_cast<unsigned char>(wire[i - 1])));
      if (after_lower && !out.empty() && out.back() != '_') out += '_';
      out += static_cast<char>(std::tolower(c));
    } else if (std::isalnum(c)) {
      out += static_cast<char>(c);
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out.insert(out.begin(), '_');
  if (is_reserved_word(out)) out += '_';
  return out;
}

std::string bounded_name(const std::string& name) {
  constexpr std::size_t longest = 96, head = 48, tail = 32;
  if (name.size() <= longest) return name;
  std::uint32_t hash = 2166136261u;
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  const auto trim = [](std::string part) {
    while (!part.empty() && part.front() == '_') part.erase(part.begin());
    while (!part.empty() && part.back() == '_') part.pop_back();
    return part;
  };
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(hash));
  return trim(name.substr(0, head)) + "_" + hex + "_" + trim(name.substr(name.size() - tail));
}

}  // namespace massive::codegen
