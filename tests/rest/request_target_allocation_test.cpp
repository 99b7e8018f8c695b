// Allocation gates for building request targets. Skipped (with a message) under
// ThreadSanitizer, where the allocation counter is compiled out.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <massive/detail/request_target.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "allocation_counter.hpp"
#include "wire_enums.hpp"

using namespace std::chrono;
using massive_test::sort_order;
using massive_test::timespan;

namespace {

// Shaped like a generated parameters struct and its render function.
struct aggregates_params {
  std::string ticker;
  std::int64_t multiplier = 0;
  timespan span = timespan::minute;
  massive::date_or_ms from;
  massive::date_or_ms to;
  std::optional<bool> adjusted;
  std::optional<sort_order> sort;
  std::optional<std::int64_t> limit;
};

void render(massive::detail::target_builder& b, const aggregates_params& p) {
  b.path_literal("/v2/aggs/ticker/").path_segment(p.ticker);
  b.path_literal("/range/").path_segment(p.multiplier);
  b.path_literal("/").path_segment(p.span);
  b.path_literal("/").path_segment(p.from);
  b.path_literal("/").path_segment(p.to);
  b.query("adjusted", p.adjusted);
  b.query("sort", p.sort);
  b.query("limit", p.limit);
}

const aggregates_params params{.ticker = "AAPL",
                               .multiplier = 1,
                               .span = timespan::day,
                               .from = 2024y / January / 2,
                               .to = 2024y / January / 12,
                               .adjusted = true,
                               .sort = sort_order::asc,
                               .limit = 50000};

constexpr std::string_view expected =
    "/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-12?adjusted=true&sort=asc&limit=50000";

bool counting_or_say_why() {
  if (!massive::test::counting_enabled) {
    MESSAGE("allocation counting is off in this build (ThreadSanitizer): gate skipped");
  }
  return massive::test::counting_enabled;
}

}  // namespace

// Gate: a warm buffer builds the target with no allocation at all, over 100 builds.
// Seen failing when target_builder's constructor released the buffer's capacity (clear() then
// shrink_to_fit(): a fresh string each call): 300 calls, 21300 bytes > 0. Seen failing when
// appending was std::string concatenation (*out_ = *out_ + std::string(text)): 2500 calls,
// 146300 bytes > 0.
TEST_CASE("a reused buffer builds the aggregates target without allocating") {
  std::string buffer;
  {
    massive::detail::target_builder first{buffer};
    render(first, params);
    REQUIRE(first.target() == expected);
  }
  if (!counting_or_say_why()) return;

  massive::test::allocation_scope scope;
  for (int i = 0; i < 100; ++i) {
    massive::detail::target_builder b{buffer};
    render(b, params);
  }
  const auto totals = scope.totals();
  CHECK(buffer == expected);
  CHECK(totals.bytes == 0);
  CHECK(totals.calls == 0);
}

// Gate: build_target measures first, then allocates once, exactly the size (+1 for the
// terminator). Seen failing when build_target did not reserve the measured size and let
// the fresh std::string grow: 3 calls, 213 bytes > 1 call, 90 bytes. Seen failing with
// std::string concatenation as above: 26 calls, 1553 bytes.
TEST_CASE("build_target returns the aggregates target with one allocation of its size") {
  const auto build = [] {
    return massive::detail::build_target([](massive::detail::target_builder& b) { render(b, params); });
  };
  REQUIRE(build() == expected);
  if (!counting_or_say_why()) return;

  massive::test::allocation_scope scope;
  const std::string target = build();
  const auto totals = scope.totals();
  CHECK(target == expected);
  CHECK(totals.calls == 1);
  CHECK(totals.bytes == expected.size() + 1);
}
