// What the codes of every area are called: detail::enum_names, the one list of an enumeration's
// names behind each area's to_string (relay_errc's: tests/relay, built with NATS only), and the
// two boost::system categories over detail::errc_category. Every text is pinned as it was when
// each was a switch of its own: they are what() and message() texts users may match.
#include <doctest/doctest.h>

#include <massive/detail/enum_names.hpp>
#include <massive/error.hpp>
#include <massive/files/error.hpp>
#include <massive/proxy_error.hpp>
#include <massive/stream/error.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace {

enum class from_one { a = 1, b, c };
enum class from_zero : unsigned char { x, y };
enum class signed_from_minus_one : int { m = -1, n, o };

constexpr massive::detail::enum_names from_one_names{from_one::a, from_one::c, {"a", "b", "c"}};
constexpr massive::detail::enum_names from_zero_names{from_zero::x, from_zero::y, {"x", "y"}};
constexpr massive::detail::enum_names signed_names{
    signed_from_minus_one::m, signed_from_minus_one::o, {"m", "n", "o"}};

// A list one name short or long does not compile: clang says "constexpr variable
// 'from_one_names' must be initialized by a constant expression", its note at the throw in
// enum_names. So does an index taken from 0 rather than from `first` (regression tried: the
// `- first_` dropped -> from_one_names and signed_names fail to compile, 4 and 3 names asked).
// A name is found at compile time.
static_assert(std::string_view(from_one_names[from_one::b]) == "b");

std::string text(const char* name) { return name; }

// `text` of each value of Errc from 1 to one past its last enumerator, `last` (its fallback),
// joined by " | ".
template <class Errc, class Text>
std::string texts(Text text, int last) {
  std::string joined;
  for (int value = 1; value <= last + 1; ++value) {
    if (value > 1) joined += " | ";
    joined += text(static_cast<Errc>(value));
  }
  return joined;
}

}  // namespace

TEST_CASE("enum_names: each value's name from the first, unknown outside the list") {
  CHECK(text(from_one_names[from_one::a]) == "a");
  CHECK(text(from_one_names[from_one::b]) == "b");
  CHECK(text(from_one_names[from_one::c]) == "c");
  // regression: the fallback of range_bounds' former switch ("?") -> fails with "?" (four checks)
  CHECK(text(from_one_names[static_cast<from_one>(0)]) == "unknown");
  // regression: the bounds check off by one (i < N + 1) -> fails: UBSan "index 3 out of bounds
  // for type 'const char *const[3]'"
  CHECK(text(from_one_names[static_cast<from_one>(4)]) == "unknown");
  CHECK(text(from_one_names[static_cast<from_one>(-1)]) == "unknown");

  CHECK(text(from_zero_names[from_zero::x]) == "x");
  CHECK(text(from_zero_names[from_zero::y]) == "y");
  CHECK(text(from_zero_names[static_cast<from_zero>(255)]) == "unknown");

  CHECK(text(signed_names[signed_from_minus_one::m]) == "m");
  CHECK(text(signed_names[signed_from_minus_one::o]) == "o");
  CHECK(text(signed_names[static_cast<signed_from_minus_one>(-2)]) == "unknown");
  CHECK(text(signed_names[static_cast<signed_from_minus_one>(2)]) == "unknown");
}

TEST_CASE("stream_errc and files_errc: every code's name, as their errors' what() shows it") {
  const auto name = [](auto code) { return std::string(to_string(code)); };
  CHECK(texts<massive::stream::stream_errc>(name, 10) ==
        "auth_failed | no_stream_access | auth_timeout | frame_too_large | max_connections | "
        "force_disconnect | slow_consumer | connection_lost | reconnects_exhausted | "
        "protocol_violation | unknown");
  CHECK(texts<massive::files::files_errc>(name, 12) ==
        "missing_column | malformed_header | malformed_row | line_too_long | malformed_listing | "
        "listing_too_large | access_denied | not_found | no_credentials | corrupt_file | "
        "changed_file | cache_failed | unknown");
  CHECK(name(static_cast<massive::stream::stream_errc>(0)) == "unknown");
  CHECK(name(static_cast<massive::files::files_errc>(0)) == "unknown");
  using massive::stream::stream_errc;
  CHECK(std::string(massive::stream::stream_error(stream_errc::slow_consumer, "too slow").what()) ==
        "stream: slow_consumer: too slow");
  using massive::files::files_errc;
  CHECK(std::string(massive::files::files_error(files_errc::not_found, "").what()) ==
        "files: not_found");
}

TEST_CASE("decode_errc: each code in words in decode_error's what()") {
  const auto what = [](massive::decode_errc code) {
    return std::string(massive::decode_error(code, "", std::nullopt, "").what());
  };
  CHECK(texts<massive::decode_errc>(what, 10) ==
        "decode error: invalid JSON | decode error: truncated body | decode error: wrong type | "
        "decode error: missing field | decode error: out of range | decode error: too deep | "
        "decode error: too long | decode error: empty body | decode error: not JSON | "
        "decode error: unknown key | decode error: unknown");
  CHECK(std::string(massive::decode_error(massive::decode_errc::wrong_type, "results.v", 3,
                                          "expected a number")
                        .what()) ==
        "decode error: wrong type at results.v (row 3): expected a number");
}

TEST_CASE("the massive and massive.proxy categories: their names and every code's message") {
  const auto message = [](auto code) { return make_error_code(code).message(); };
  // regression: errc's category given the proxy's name (errc_category<errc>("massive.proxy",
  // ...)) -> fails with "massive.proxy"
  CHECK(std::string(massive::category().name()) == "massive");
  CHECK(texts<massive::errc>(message, 16) ==
        "host name did not resolve | could not connect | TLS handshake failed | "
        "connection reset by peer | response body truncated | deadline exceeded | "
        "response body exceeds the configured maximum | malformed HTTP response | "
        "next_url points at another origin | next_url repeats a page already fetched | "
        "page limit reached | invalid option | client-side rate limit reached | "
        "response body could not be decoded | operation cancelled | "
        "too many consecutive pages without rows | unknown massive error");
  CHECK(massive::category().message(0) == "unknown massive error");
  CHECK(std::string(massive::transport_error(massive::errc::cancelled, "GET /x").what()) ==
        "GET /x: operation cancelled");

  CHECK(std::string(massive::proxy_category().name()) == "massive.proxy");
  CHECK(texts<massive::proxy_errc>(message, 4) ==
        "the proxy requires authentication | the proxy rejected the credentials | "
        "the proxy refused the tunnel | the proxy failed before the tunnel was established | "
        "unknown proxy error");
  CHECK(massive::proxy_category().message(0) == "unknown proxy error");
  // Two categories, told apart as boost::system does: by address.
  using massive::proxy_errc;
  CHECK(make_error_code(proxy_errc::auth_required) !=
        make_error_code(massive::errc::resolve_failed));
  CHECK(make_error_code(proxy_errc::auth_required).category() == massive::proxy_category());
}
