// The suite's check of a failure: `run` throws files_error of `code` whose message names `needle`.
#pragma once

#include <doctest/doctest.h>

#include <massive/files/error.hpp>
#include <string>
#include <string_view>

namespace massive::files::test {

template <class Run>
void expect_error(Run&& run, files_errc code, std::string_view needle) {
  try {
    run();
    FAIL("no error");
  } catch (const files_error& e) {
    CHECK(e.code() == code);
    CHECK_MESSAGE(std::string_view(e.what()).find(needle) != std::string_view::npos,
                  std::string(e.what()));
  }
}

}  // namespace massive::files::test
