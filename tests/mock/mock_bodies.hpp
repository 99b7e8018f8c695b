// What the mock tests share: the mock's bodies parsed, and its next_urls made targets again.
#pragma once

#include <doctest/doctest.h>
#include <simdjson.h>

#include <string>
#include <string_view>

namespace massive::test {

/// The base URL the sans-I/O mocks under test are given (nothing listens on it).
inline const std::string mock_base = "https://127.0.0.1:4443";

/// `body` parsed; the test stops if it is not JSON.
inline simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& body) {
  simdjson::dom::element doc;
  REQUIRE(parser.parse(body).get(doc) == simdjson::SUCCESS);
  return doc;
}

/// The origin-form target of an absolute next_url on mock_base.
inline std::string target_of(std::string_view next_url) {
  REQUIRE(next_url.substr(0, mock_base.size()) == mock_base);
  return std::string(next_url.substr(mock_base.size()));
}

}  // namespace massive::test
