#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <massive/filter.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "allocation_counter.hpp"
#include "wire_enums.hpp"

using namespace std::chrono;
using namespace std::string_view_literals;
using massive::array_filter;
using massive::filter;
using massive::range_filter;
using massive::set_filter;
using massive_test::sort_order;
using massive_test::unlabelled;

namespace {

// Which comparators each filter type has: a missing one is not a member at all.
template <class F>
concept has_eq = requires(const F& f) {
  f.eq();
};
template <class F>
concept has_gt = requires(const F& f) {
  f.gt();
};
template <class F>
concept has_gte = requires(const F& f) {
  f.gte();
};
template <class F>
concept has_lt = requires(const F& f) {
  f.lt();
};
template <class F>
concept has_lte = requires(const F& f) {
  f.lte();
};
template <class F>
concept has_any_of = requires(const F& f) {
  f.any_of();
};
template <class F>
concept has_all_of = requires(const F& f) {
  f.all_of();
};

template <class F, bool range, bool any, bool all>
constexpr bool comparators_are() {
  return has_eq<F> && has_gt<F> == range && has_gte<F> == range && has_lt<F> == range &&
         has_lte<F> == range && has_any_of<F> == any && has_all_of<F> == all;
}

template <class T>
constexpr bool comparator_matrix_holds() {
  return comparators_are<range_filter<T>, true, false, false>() &&
         comparators_are<set_filter<T>, false, true, false>() &&
         comparators_are<filter<T>, true, true, false>() &&
         comparators_are<array_filter<T>, false, true, true>();
}

// What a designated initializer does: copy-initialization of the member.
template <class To, class From>
concept assigns = std::is_convertible_v<From, To>;

template <class... A>
concept makes_any_of = requires(A... a) {
  massive::any_of(a...);
};
template <class... A>
concept makes_all_of = requires(A... a) {
  massive::all_of(a...);
};
template <class A>
concept makes_gt = requires(A a) {
  massive::gt(a);
};
template <class A, class B>
concept combinable = requires(A a, B b) {
  massive::gt(a) && massive::lt(b);
};

using ranged = decltype(massive::gte(std::int64_t{1}) && massive::lt(std::int64_t{5}));
using any_of_int = decltype(massive::any_of(std::int64_t{1}));
using all_of_int = decltype(massive::all_of(std::int64_t{1}));

template <class T>
constexpr bool builder_matrix_holds() {
  return assigns<range_filter<T>, ranged> && !assigns<range_filter<T>, any_of_int> &&
         !assigns<range_filter<T>, all_of_int> &&  //
         !assigns<set_filter<T>, ranged> && assigns<set_filter<T>, any_of_int> &&
         !assigns<set_filter<T>, all_of_int> &&  //
         assigns<filter<T>, ranged> && assigns<filter<T>, any_of_int> &&
         !assigns<filter<T>, all_of_int> &&  //
         !assigns<array_filter<T>, ranged> && assigns<array_filter<T>, any_of_int> &&
         assigns<array_filter<T>, all_of_int>;
}

}  // namespace

// Every filter type x comparator, over every value type the API uses.
static_assert(comparator_matrix_holds<std::string>());
static_assert(comparator_matrix_holds<std::string_view>());
static_assert(comparator_matrix_holds<std::int64_t>());
static_assert(comparator_matrix_holds<double>());
static_assert(comparator_matrix_holds<bool>());
static_assert(comparator_matrix_holds<year_month_day>());
static_assert(comparator_matrix_holds<massive::timestamp_ms>());
static_assert(comparator_matrix_holds<massive::timestamp_ns>());
static_assert(comparator_matrix_holds<massive::date_or_ms>());
static_assert(comparator_matrix_holds<massive::date_or_ns>());
static_assert(comparator_matrix_holds<sort_order>());

// Builders convert only to the filters that have their comparators.
static_assert(builder_matrix_holds<std::int64_t>());
static_assert(builder_matrix_holds<double>());

// Equality from a plain value.
static_assert(assigns<range_filter<double>, double>);
static_assert(assigns<range_filter<double>, int>);
static_assert(assigns<range_filter<std::int64_t>, int>);
static_assert(assigns<range_filter<std::int64_t>, unsigned>);
static_assert(!assigns<range_filter<std::int64_t>, std::uint64_t>);  // might not fit
static_assert(!assigns<range_filter<std::int64_t>, double>);         // would truncate
static_assert(!assigns<range_filter<std::int64_t>, bool>);
static_assert(!assigns<range_filter<std::int64_t>, char>);
static_assert(!assigns<set_filter<bool>, int>);
static_assert(assigns<set_filter<bool>, bool>);
static_assert(assigns<range_filter<std::string>, const char*>);
static_assert(assigns<range_filter<std::string>, const char (&)[5]>);
static_assert(assigns<range_filter<std::string>, std::string_view>);
static_assert(assigns<range_filter<std::string>, std::string>);
static_assert(assigns<range_filter<std::string_view>, const char*>);
static_assert(assigns<range_filter<std::string_view>, std::string&>);
static_assert(!assigns<range_filter<std::string_view>, std::string>);  // would dangle
static_assert(!assigns<range_filter<std::string>, std::nullptr_t>);
static_assert(assigns<set_filter<sort_order>, sort_order>);
static_assert(!assigns<set_filter<sort_order>, int>);
static_assert(assigns<range_filter<massive::date_or_ms>, year_month_day>);
static_assert(assigns<range_filter<massive::date_or_ms>, massive::timestamp_ms>);
static_assert(!assigns<range_filter<massive::date_or_ms>, massive::timestamp_ns>);
static_assert(!assigns<range_filter<massive::timestamp_ns>, massive::timestamp_ms>);

// Bounds keep their unit and meaning through the conversion too.
static_assert(
    assigns<range_filter<massive::timestamp_ns>, decltype(massive::gte(massive::timestamp_ns{}))>);
static_assert(
    !assigns<range_filter<massive::timestamp_ns>, decltype(massive::gte(massive::timestamp_ms{}))>);
static_assert(!assigns<range_filter<std::int64_t>, decltype(massive::gt(1.5))>);
static_assert(assigns<range_filter<double>, decltype(massive::gt(1))>);
static_assert(assigns<range_filter<std::string>, decltype(massive::gt("A"))>);
static_assert(!assigns<range_filter<std::string_view>, decltype(massive::gt(std::string()))>);
static_assert(!assigns<set_filter<std::int64_t>, decltype(massive::any_of("A"))>);

// A factory takes only wire values, and an empty any_of/all_of does not compile.
static_assert(!makes_any_of<>);
static_assert(!makes_all_of<>);
static_assert(makes_any_of<int, long>);
static_assert(!makes_any_of<int, const char*>);
static_assert(!makes_any_of<unlabelled>);
static_assert(!makes_any_of<std::vector<unlabelled>>);
static_assert(makes_any_of<std::vector<sort_order>>);
static_assert(makes_gt<std::int64_t>);
static_assert(!makes_gt<unlabelled>);
static_assert(!makes_gt<char>);
static_assert(!makes_gt<std::vector<int>>);
// Bounds of types with no common type do not combine.
static_assert(combinable<int, long>);
static_assert(!combinable<int, const char*>);
static_assert(!combinable<massive::timestamp_ms, year_month_day>);
// Text combined with a std::string is kept as a std::string, never a view of it.
static_assert(std::is_same_v<decltype(massive::gte("A") && massive::lt(std::string())),
                             massive::range_bounds<std::string>>);

// The range forms are usable in constant expressions, and a doubled bound is then a
// compile error rather than a throw.
static_assert(range_filter<std::int64_t>{massive::gte(1) && massive::lt(5)}.lt() == 5);
static_assert(range_filter<std::int64_t>{massive::gte(1) && massive::lt(5)}.gte() == 1);
static_assert(!range_filter<std::int64_t>{massive::gte(1)}.gt().has_value());
static_assert(range_filter<std::int64_t>{}.empty());

TEST_CASE("a plain value is equality") {
  const range_filter<double> price = 10.5;
  REQUIRE(price.eq().has_value());
  CHECK(*price.eq() == 10.5);
  CHECK_FALSE(price.gt().has_value());
  CHECK_FALSE(price.empty());

  const range_filter<double> from_int = 10;
  CHECK(*from_int.eq() == 10.0);

  const set_filter<std::string> ticker = "AAPL";
  CHECK(*ticker.eq() == "AAPL");
  CHECK(ticker.any_of().empty());

  const std::string owned = "MSFT";
  const filter<std::string_view> view = owned;
  CHECK(view.eq()->data() == owned.data());

  const filter<std::string> from_view = "BRK.A"sv;
  CHECK(*from_view.eq() == "BRK.A");

  const array_filter<sort_order> order = sort_order::desc;
  CHECK(*order.eq() == sort_order::desc);

  const range_filter<bool> flag = true;
  CHECK(*flag.eq());
}

TEST_CASE("a default filter is empty") {
  CHECK(range_filter<double>{}.empty());
  CHECK(set_filter<std::string>{}.empty());
  CHECK(filter<std::int64_t>{}.empty());
  CHECK(array_filter<std::string>{}.empty());
}

TEST_CASE("bounds from the factories, combined with &&") {
  SUBCASE("one bound each") {
    CHECK(*range_filter<std::int64_t>{massive::gt(1)}.gt() == 1);
    CHECK(*range_filter<std::int64_t>{massive::gte(2)}.gte() == 2);
    CHECK(*range_filter<std::int64_t>{massive::lt(3)}.lt() == 3);
    CHECK(*range_filter<std::int64_t>{massive::lte(4)}.lte() == 4);
  }
  SUBCASE("a lower and an upper bound, in either order") {
    const range_filter<massive::timestamp_ns> window =
        massive::lt(massive::timestamp_ns::from_count(20)) &&
        massive::gte(massive::timestamp_ns::from_count(10));
    CHECK(window.gte()->count() == 10);
    CHECK(window.lt()->count() == 20);
    CHECK_FALSE(window.gt().has_value());
    CHECK_FALSE(window.lte().has_value());
    CHECK_FALSE(window.eq().has_value());
  }
  SUBCASE("between is inclusive at both ends") {
    const filter<double> amount = massive::between(0.5, 1);
    CHECK(*amount.gte() == 0.5);
    CHECK(*amount.lte() == 1.0);
    CHECK_FALSE(amount.gt().has_value());
    CHECK_FALSE(amount.lt().has_value());
  }
  SUBCASE("dates and timestamps into date_or_ms") {
    const range_filter<massive::date_or_ms> by_date =
        massive::gte(2024y / January / 2) && massive::lt(2024y / January / 3);
    CHECK(by_date.gte()->date() == 2024y / January / 2);
    CHECK(by_date.lt()->date() == 2024y / January / 3);
    const range_filter<massive::date_or_ms> by_time =
        massive::gt(massive::timestamp_ms::from_count(-5));
    CHECK(by_time.gt()->timestamp()->count() == -5);
  }
  SUBCASE("text bounds") {
    const range_filter<std::string> tickers = massive::gte("A") && massive::lt(std::string("B"));
    CHECK(*tickers.gte() == "A");
    CHECK(*tickers.lt() == "B");
  }
  SUBCASE("add() builds the same thing at run time") {
    auto bounds = massive::gte(1);
    bounds.add(massive::bound::lte, 9);
    const range_filter<std::int64_t> f = bounds;
    CHECK(*f.gte() == 1);
    CHECK(*f.lte() == 9);
  }
}

TEST_CASE("binding one side twice throws where the filter is built") {
  CHECK_THROWS_WITH_AS(massive::gt(1) && massive::gt(2), "massive: filter bound gt given twice",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::lte(1) && massive::lte(2), "massive: filter bound lte given twice",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::gte(1) && massive::gte(2), "massive: filter bound gte given twice",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::gt(1) && massive::gte(2),
                       "massive: filter has two lower bounds (gt and gte)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::lt(1) && massive::lte(2),
                       "massive: filter has two upper bounds (lt and lte)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::between(1, 2) && massive::gt(0),
                       "massive: filter has two lower bounds (gt and gte)", std::invalid_argument);
  auto bounds = massive::lt(5);
  CHECK_THROWS_WITH_AS(bounds.add(massive::bound::lt, 6), "massive: filter bound lt given twice",
                       std::invalid_argument);
  CHECK(*bounds.lt() == 5);
}

TEST_CASE("between needs low <= high") {
  CHECK_THROWS_WITH_AS(massive::between(5, 1), "massive: between(low, high) needs low <= high",
                       std::invalid_argument);
  CHECK_THROWS_AS(massive::between(2024y / January / 3, 2024y / January / 2),
                  std::invalid_argument);
  CHECK_NOTHROW(massive::between(3, 3));
}

TEST_CASE("any_of and all_of hold their values") {
  SUBCASE("string literals are kept as views, converted to the filter's type") {
    const set_filter<std::string> tickers = massive::any_of("AAPL", "MSFT");
    REQUIRE(tickers.any_of().size() == 2);
    CHECK(tickers.any_of()[0] == "AAPL");
    CHECK(tickers.any_of()[1] == "MSFT");
    CHECK_FALSE(tickers.eq().has_value());
  }
  SUBCASE("a temporary std::string among them is copied, never viewed") {
    auto values = massive::any_of("A", std::string("B"));
    static_assert(std::is_same_v<decltype(values), massive::any_of_values<std::string>>);
    CHECK(values.values()[1] == "B");
  }
  SUBCASE("from a range, a braced list, or a moved vector") {
    const std::list<std::int64_t> list{3, 1, 2};
    const filter<std::int64_t> from_list = massive::any_of(list);
    CHECK(from_list.any_of() == std::vector<std::int64_t>{3, 1, 2});

    const set_filter<std::string_view> braced = massive::any_of({"x", "y"});
    CHECK(braced.any_of().size() == 2);

    std::vector<std::string> owned{"earnings", "ipos"};
    const auto* storage = owned.data();
    const array_filter<std::string> moved = massive::all_of(std::move(owned));
    CHECK(moved.all_of().data() == storage);
    CHECK(moved.any_of().empty());
  }
  SUBCASE("numbers widen into the filter's type") {
    const set_filter<double> prices = massive::any_of(1, 2.5);
    CHECK(prices.any_of()[0] == 1.0);
    CHECK(prices.any_of()[1] == 2.5);
  }
  SUBCASE("enums, dates and timestamps") {
    const set_filter<sort_order> order = massive::any_of(sort_order::asc, sort_order::desc);
    CHECK(order.any_of().size() == 2);
    const filter<year_month_day> days = massive::any_of(2024y / January / 2, 2024y / March / 1);
    CHECK(days.any_of()[1] == 2024y / March / 1);
    const array_filter<massive::timestamp_ms> stamps =
        massive::all_of(massive::timestamp_ms::from_count(1));
    CHECK(stamps.all_of()[0].count() == 1);
  }
}

TEST_CASE("an empty set throws where it is built") {
  CHECK_THROWS_WITH_AS(massive::any_of(std::vector<std::string>{}),
                       "massive: any_of needs at least one value", std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::all_of(std::vector<std::int64_t>{}),
                       "massive: all_of needs at least one value", std::invalid_argument);
}

// Gate: the range forms hold their values inline. Seen failing when range_slots kept its
// four bounds in a std::vector<std::optional<T>>: 4 calls, 352 bytes > 0 for the four
// filters below.
TEST_CASE("building a range filter allocates nothing") {
  const range_filter<massive::timestamp_ns> window =
      massive::gte(massive::timestamp_ns::from_count(1)) &&
      massive::lt(massive::timestamp_ns::from_count(2));
  CHECK(window.lt()->count() == 2);
  if (!massive::test::counting_enabled) {
    MESSAGE("allocation counting is off in this build (ThreadSanitizer): gate skipped");
    return;
  }
  massive::test::allocation_scope scope;
  const range_filter<massive::timestamp_ns> built =
      massive::gte(massive::timestamp_ns::from_count(1)) &&
      massive::lt(massive::timestamp_ns::from_count(2));
  const range_filter<double> price = massive::between(1.5, 2.5);
  const filter<std::string_view> ticker = massive::gte("A") && massive::lte("M");
  const range_filter<massive::date_or_ms> day = 2024y / January / 2;
  const auto calls = scope.calls();
  const auto bytes = scope.bytes();
  CHECK(built == window);
  CHECK(*price.lte() == 2.5);
  CHECK(*ticker.lte() == "M");
  CHECK(day.eq()->is_date());
  CHECK(calls == 0);
  CHECK(bytes == 0);
}
