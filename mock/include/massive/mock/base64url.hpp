// URL-safe base64 without padding: how the API's opaque cursors look, and so how the mock's
// cursors and the end-to-end benchmark's fixture cursors are spelled.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace massive::mock {

/// The 64 digits, in value order: '-' and '_' where standard base64 has '+' and '/'.
inline constexpr std::string_view base64url_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `in` in base64url, unpadded.
inline std::string base64url(std::string_view in) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : in) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) out += base64url_alphabet[(buffer >> (bits -= 6)) & 63];
  }
  if (bits > 0) out += base64url_alphabet[(buffer << (6 - bits)) & 63];
  return out;
}

/// The bytes `in` encodes; nullopt when it is not base64url.
inline std::optional<std::string> unbase64url(std::string_view in) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    const auto at = base64url_alphabet.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(at);
    bits += 6;
    if (bits >= 8) out += static_cast<char>((buffer >> (bits -= 8)) & 0xff);
  }
  return out;
}

}  // namespace massive::mock
