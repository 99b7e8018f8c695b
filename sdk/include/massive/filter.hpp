// Typed filters for the query parameters that the API offers with comparators
// (`x`, `x.gt`, `x.gte`, `x.lt`, `x.lte`, `x.any_of`, `x.all_of`). Each such parameter is one
// member whose type says which comparators the endpoint supports, so asking for one it lacks
// does not compile:
//
//   range_filter<T>  x, x.gt, x.gte, x.lt, x.lte
//   set_filter<T>    x, x.any_of
//   filter<T>        x, x.gt, x.gte, x.lt, x.lte, x.any_of
//   array_filter<T>  x, x.any_of, x.all_of
//
// They are filled from a plain value (equality) or from the factories below:
//
//   .price = 10.5                                  equality
//   .timestamp = massive::gte(from)                one bound
//   .timestamp = massive::gte(from) && massive::lt(to)   bounds combine with &&
//   .cash_amount = massive::between(0.5, 1.0)     gte(0.5) && lte(1.0)
//   .ticker = massive::any_of("AAPL", "MSFT")      also any_of(range), any_of({...})
//   .channels = massive::all_of("earnings", "ipos")
//
// Binding one side twice (gt twice, or gt with gte; likewise lt/lte), an empty any_of/all_of,
// or between(a, b) with b < a throws std::invalid_argument naming the problem, where the
// filter is built; in a constant expression it fails to compile. The range forms hold their
// values inline (std::optional) and never allocate for themselves; the set forms hold their
// values in a std::vector. Rendering lives in the URI builder (massive/detail/request_target.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "massive/detail/enum_names.hpp"
#include "massive/time.hpp"

namespace massive {

namespace detail {

template <class T>
inline constexpr bool is_unix_time_v = false;
template <class D>
inline constexpr bool is_unix_time_v<unix_time<D>> = true;

template <class T>
inline constexpr bool is_date_or_time_v = false;
template <class D>
inline constexpr bool is_date_or_time_v<date_or_time<D>> = true;

// Character types are integral, but a char parameter is never meant as a number.
template <class T>
concept character = std::same_as < std::remove_cv_t<T>,
char > || std::same_as<std::remove_cv_t<T>, wchar_t> ||
    std::same_as<std::remove_cv_t<T>, char8_t> || std::same_as<std::remove_cv_t<T>, char16_t> ||
    std::same_as<std::remove_cv_t<T>, char32_t>;

}  // namespace detail

/// An enumeration with a wire spelling: `to_wire(e)`, found by argument-dependent lookup,
/// returns the string the API expects (e.g. "asc").
template <class E>
concept wire_enum = std::is_enum_v<E> && requires(E e) {
  { to_wire(e) } -> std::convertible_to<std::string_view>;
};

/// Text: std::string, std::string_view, a string literal or a const char*.
template <class T>
concept wire_string = std::convertible_to<const T&, std::string_view>;

/// One value that a path segment or a query parameter can carry: text, bool, a non-character
/// integer, double, a calendar date, a unix_time, a date_or_time, or a wire_enum.
template <class T>
concept wire_value = wire_string<T> || std::same_as<T, bool> ||
                     (std::integral<T> && !detail::character<T>) ||
                     std::same_as<T, double> || std::same_as<T, std::chrono::year_month_day> ||
                     detail::is_unix_time_v<T> || detail::is_date_or_time_v<T> || wire_enum<T>;

/// A value type a filter holds: a wire_value kept by value (text as std::string or
/// std::string_view, never as a pointer or an array).
template <class T>
concept filter_value =
    wire_value<T> && std::same_as<T, std::remove_cv_t<T>> && !std::is_pointer_v<T> &&
    !std::is_array_v<T>;

namespace detail {

template <class U, class T>
constexpr bool converts_without_surprise() {
  using V = std::remove_cvref_t<U>;
  if constexpr (std::same_as<V, std::nullptr_t>) {
    return false;
  } else if constexpr (std::same_as<T, bool> || std::same_as<V, bool>) {
    return std::same_as<T, V>;
  } else if constexpr (std::is_arithmetic_v<T>) {
    if constexpr (!std::is_arithmetic_v<V> || character<V>) {
      return false;
    } else if constexpr (std::floating_point<T>) {
      return true;
    } else if constexpr (std::floating_point<V>) {
      return false;
    } else {
      return std::in_range<T>(std::numeric_limits<V>::min()) &&
             std::in_range<T>(std::numeric_limits<V>::max());
    }
  } else if constexpr (std::same_as<T, std::string_view> && std::same_as<V, std::string>) {
    return std::is_lvalue_reference_v<U>;
  } else if constexpr (std::same_as<T, std::string>) {
    return std::convertible_to<U, std::string_view> || std::convertible_to<U, std::string>;
  } else {
    return std::convertible_to<U, T>;
  }
}

}  // namespace detail

/// A U (an expression of type U, as in std::forward<U>) can become a filter's T without a
/// surprise: no floating point to integer, no integer that might not fit, no bool from a
/// number or a number from a bool, no character as a number, and no std::string_view of a
/// temporary std::string (it would dangle). Text becomes std::string from a string_view too.
template <class U, class T>
concept filter_value_for = filter_value<T> && detail::converts_without_surprise<U, T>();

/// The value type a factory argument is kept as: char pointers and arrays become
/// std::string_view, everything else its decayed type.
template <class X>
using wire_decay_t =
    std::conditional_t<std::is_pointer_v<std::decay_t<X>> && wire_string<std::decay_t<X>>,
                       std::string_view, std::decay_t<X>>;

namespace detail {

// The value type that values of several types are kept as together: their common type,
// except that text is a std::string as soon as one of them is, so that a temporary
// std::string is copied and never viewed.
template <class... Ts>
struct common_wire : std::common_type<Ts...> {};
template <class... Ts>
  requires((std::same_as<Ts, std::string> || ...) && (wire_string<Ts> && ...))
struct common_wire<Ts...> {
  using type = std::string;
};
template <class... Ts>
using common_wire_t = typename common_wire<Ts...>::type;

template <class T, class U>
constexpr std::vector<T> convert_values(std::vector<U>&& values) {
  if constexpr (std::same_as<T, U>) {
    return std::move(values);
  } else {
    std::vector<T> out;
    out.reserve(values.size());
    for (U& value : values) out.emplace_back(T(std::move(value)));
    return out;
  }
}

template <class T>
class value_list {
 public:
  using value_type = T;
  constexpr const std::vector<T>& values() const noexcept { return values_; }
  constexpr std::vector<T> release() && noexcept { return std::move(values_); }

 protected:
  constexpr value_list(std::vector<T> values, const char* comparator) : values_(std::move(values)) {
    if (values_.empty()) {
      throw std::invalid_argument(std::string("massive: ") + comparator +
                                  " needs at least one value");
    }
  }

 private:
  std::vector<T> values_;
};

}  // namespace detail

/// The side of a range a bound is on, and whether it is strict.
enum class bound : unsigned char { gt, gte, lt, lte };

namespace detail {
/// A bound's name, as its comparator's in a query (`name.gt`).
inline constexpr enum_names bound_names{bound::gt, bound::lte, {"gt", "gte", "lt", "lte"}};
}  // namespace detail

/// Bounds made by gt/gte/lt/lte/between and combined with &&; converts to range_filter<T>
/// and filter<T>. At most one lower (gt or gte) and one upper (lt or lte) bound.
template <class T>
class range_bounds {
 public:
  /// The type of the bound values.
  using value_type = T;

  /// No bound.
  constexpr range_bounds() = default;
  /// One bound: `which` of `value`. massive::gt(), gte(), lt() and lte() make these.
  constexpr range_bounds(bound which, T value) { slot(which).emplace(std::move(value)); }
  /// From bounds of another value type, e.g. int into long.
  template <class U>
    requires(!std::same_as<U, T> && std::constructible_from<T, const U&>)
  constexpr explicit(!std::convertible_to<const U&, T>)
      range_bounds(const range_bounds<U>& other) {
    for (const bound which : {bound::gt, bound::gte, bound::lt, bound::lte}) {
      if (const auto& value = other[which]) slot(which).emplace(T(*value));
    }
  }

  /// Adds a bound. Throws std::invalid_argument when its side already has one.
  constexpr range_bounds& add(bound which, T value) {
    const bool lower = which == bound::gt || which == bound::gte;
    const std::optional<T>& strict = lower ? gt_ : lt_;
    const std::optional<T>& inclusive = lower ? gte_ : lte_;
    if (slot(which)) {
      throw std::invalid_argument(std::string("massive: filter bound ") +
                                  detail::bound_names[which] + " given twice");
    }
    if (strict || inclusive) {
      throw std::invalid_argument(
          std::string("massive: filter has two ") +
          (lower ? "lower bounds (gt and gte)" : "upper bounds (lt and lte)"));
    }
    slot(which).emplace(std::move(value));
    return *this;
  }

  /// The bound `which`, when set.
  constexpr const std::optional<T>& operator[](bound which) const noexcept {
    return slot_of(*this, which);
  }
  /// The strict lower bound (`name.gt`), when set.
  constexpr const std::optional<T>& gt() const noexcept { return gt_; }
  /// The inclusive lower bound (`name.gte`), when set.
  constexpr const std::optional<T>& gte() const noexcept { return gte_; }
  /// The strict upper bound (`name.lt`), when set.
  constexpr const std::optional<T>& lt() const noexcept { return lt_; }
  /// The inclusive upper bound (`name.lte`), when set.
  constexpr const std::optional<T>& lte() const noexcept { return lte_; }

  /// Equal when the same bounds are set to equal values.
  friend constexpr bool operator==(const range_bounds&, const range_bounds&) = default;

 private:
  template <class Self>
  static constexpr auto& slot_of(Self& self, bound which) noexcept {
    switch (which) {
      case bound::gt:
        return self.gt_;
      case bound::gte:
        return self.gte_;
      case bound::lt:
        return self.lt_;
      case bound::lte:
        break;
    }
    return self.lte_;
  }
  constexpr std::optional<T>& slot(bound which) noexcept { return slot_of(*this, which); }

  std::optional<T> gt_, gte_, lt_, lte_;
};

/// Both operands' bounds in one value. Throws std::invalid_argument when both bind the
/// same side (gt(a) && gt(b), gt(a) && gte(b), ...). Operands of different value types
/// combine into their common type (int and long give long; text gives std::string when
/// either is one).
template <class A, class B>
  requires requires { typename detail::common_wire_t<A, B>; }
constexpr range_bounds<detail::common_wire_t<A, B>> operator&&(const range_bounds<A>& a,
                                                               const range_bounds<B>& b) {
  using C = detail::common_wire_t<A, B>;
  range_bounds<C> out{a};
  for (const bound which : {bound::gt, bound::gte, bound::lt, bound::lte}) {
    if (const auto& value = b[which]) out.add(which, C(*value));
  }
  return out;
}

namespace detail {

/// massive::gt, gte, lt and lte: one bound `Which` of the value given.
template <bound Which>
struct bound_maker {
  template <class X>
    requires filter_value<wire_decay_t<X>>
  constexpr range_bounds<wire_decay_t<X>> operator()(X&& value) const {
    return {Which, wire_decay_t<X>(std::forward<X>(value))};
  }
};

}  // namespace detail

inline constexpr detail::bound_maker<bound::gt> gt{};    ///< `name.gt=value`: gt(100)
inline constexpr detail::bound_maker<bound::gte> gte{};  ///< `name.gte=value`
inline constexpr detail::bound_maker<bound::lt> lt{};    ///< `name.lt=value`
inline constexpr detail::bound_maker<bound::lte> lte{};  ///< `name.lte=value`

/// Inclusive at both ends, as SQL's BETWEEN: gte(low) && lte(high). Throws
/// std::invalid_argument when high < low (for value types that are ordered).
template <class X, class Y>
  requires filter_value<wire_decay_t<X>> && filter_value<wire_decay_t<Y>>
constexpr auto between(X&& low, Y&& high) {
  auto bounds = gte(std::forward<X>(low)) && lte(std::forward<Y>(high));
  using C = typename decltype(bounds)::value_type;
  if constexpr (std::totally_ordered<C>) {
    if (*bounds.lte() < *bounds.gte()) {
      throw std::invalid_argument("massive: between(low, high) needs low <= high");
    }
  }
  return bounds;
}

/// Values for `name.any_of=a,b,...`; converts to set_filter<T>, filter<T>, array_filter<T>.
template <class T>
class any_of_values : public detail::value_list<T> {
 public:
  /// Throws std::invalid_argument when values is empty.
  constexpr explicit any_of_values(std::vector<T> values)
      : detail::value_list<T>(std::move(values), "any_of") {}
};

/// Values for `name.all_of=a,b,...`; converts to array_filter<T>.
template <class T>
class all_of_values : public detail::value_list<T> {
 public:
  /// Throws std::invalid_argument when values is empty.
  constexpr explicit all_of_values(std::vector<T> values)
      : detail::value_list<T>(std::move(values), "all_of") {}
};

namespace detail {

template <class R>
concept value_range = std::ranges::input_range<R> && !wire_string<std::remove_cvref_t<R>> &&
                      filter_value<wire_decay_t<std::ranges::range_reference_t<R>>>;

template <class... Xs>
concept value_pack = sizeof...(Xs) > 0 && (filter_value<wire_decay_t<Xs>> && ...) &&
                     requires { typename common_wire_t<wire_decay_t<Xs>...>; };

template <class... Xs>
constexpr auto pack_values(Xs&&... values) {
  using T = common_wire_t<wire_decay_t<Xs>...>;
  std::vector<T> out;
  out.reserve(sizeof...(Xs));
  (out.emplace_back(T(std::forward<Xs>(values))), ...);
  return out;
}

template <class R>
constexpr auto range_values(R&& values) {
  using T = wire_decay_t<std::ranges::range_reference_t<R>>;
  if constexpr (std::same_as<std::remove_cvref_t<R>, std::vector<T>> &&
                !std::is_lvalue_reference_v<R>) {
    return std::vector<T>(std::move(values));
  } else {
    std::vector<T> out;
    if constexpr (std::ranges::sized_range<R>) out.reserve(std::ranges::size(values));
    for (auto&& value : values) out.emplace_back(T(std::forward<decltype(value)>(value)));
    return out;
  }
}

/// massive::any_of and massive::all_of: Values (any_of_values, all_of_values) from the values
/// given, a range or a braced list.
template <template <class> class Values>
struct values_maker {
  /// From the values given: any_of("AAPL", "MSFT"), any_of(1, 2).
  template <class... Xs>
    requires value_pack<Xs...>
  constexpr auto operator()(Xs&&... values) const {
    return made(pack_values(std::forward<Xs>(values)...));
  }
  /// From a range of values (copied; moved from an rvalue std::vector of the same type).
  /// Throws std::invalid_argument when the range is empty.
  template <value_range R>
  constexpr auto operator()(R&& values) const {
    return made(range_values(std::forward<R>(values)));
  }
  /// From a braced list: any_of({"AAPL", "MSFT"}).
  template <class X>
    requires filter_value<wire_decay_t<X>>
  constexpr auto operator()(std::initializer_list<X> values) const {
    return made(range_values(values));
  }

 private:
  template <class T>
  static constexpr Values<T> made(std::vector<T>&& values) {
    return Values<T>{std::move(values)};
  }
};

}  // namespace detail

/// `name.any_of=a,b,...`: any_of("AAPL", "MSFT"), any_of(1, 2), any_of(a_range),
/// any_of({"AAPL", "MSFT"}). Throws std::invalid_argument when there is no value.
inline constexpr detail::values_maker<any_of_values> any_of{};
/// `name.all_of=a,b,...`, made as any_of's values are.
inline constexpr detail::values_maker<all_of_values> all_of{};

namespace detail {

// The slots of the four filter types; each filter inherits the ones its comparators need, with
// their constructors, so a comparator it lacks is not a member at all.

template <class T>
class equality_slot {
 public:
  constexpr equality_slot() = default;
  /// Equality, `name=value` (for an array_filter: the array contains `value`).
  template <class U>
    requires filter_value_for<U, T>
  constexpr equality_slot(U&& value) : eq_(T(std::forward<U>(value))) {}

  /// The value of `name=value`, when set.
  constexpr const std::optional<T>& eq() const noexcept { return eq_; }
  friend constexpr bool operator==(const equality_slot&, const equality_slot&) = default;

 protected:
  constexpr bool slot_empty() const noexcept { return !eq_; }

 private:
  std::optional<T> eq_;
};

template <class T>
class range_slots {
 public:
  constexpr range_slots() = default;
  /// From gt/gte/lt/lte/between, combined with &&.
  template <class U>
    requires filter_value_for<U, T>
  constexpr range_slots(const range_bounds<U>& bounds) : bounds_(bounds) {}

  constexpr const std::optional<T>& gt() const noexcept { return bounds_.gt(); }    ///< `name.gt`
  constexpr const std::optional<T>& gte() const noexcept { return bounds_.gte(); }  ///< `name.gte`
  constexpr const std::optional<T>& lt() const noexcept { return bounds_.lt(); }    ///< `name.lt`
  constexpr const std::optional<T>& lte() const noexcept { return bounds_.lte(); }  ///< `name.lte`
  friend constexpr bool operator==(const range_slots&, const range_slots&) = default;

 protected:
  constexpr bool slot_empty() const noexcept { return bounds_ == range_bounds<T>{}; }

 private:
  range_bounds<T> bounds_;
};

/// The values of `name.any_of=` or `name.all_of=` (Values: any_of_values or all_of_values, what
/// massive::any_of() and massive::all_of() make).
template <class T, template <class> class Values>
class list_slot {
 public:
  constexpr list_slot() = default;
  /// From massive::any_of() or massive::all_of(), as the filter's comparator says.
  template <class U>
    requires filter_value_for<U, T>
  constexpr list_slot(Values<U> values) : values_(convert_values<T>(std::move(values).release())) {}
  friend constexpr bool operator==(const list_slot&, const list_slot&) = default;

 protected:
  constexpr const std::vector<T>& values() const noexcept { return values_; }
  constexpr bool slot_empty() const noexcept { return values_.empty(); }

 private:
  std::vector<T> values_;
};

/// Any of several values, `name.any_of=a,b` (for an array_filter: the array contains any of them).
template <class T>
class any_of_slot : public list_slot<T, any_of_values> {
 public:
  using any_of_slot::list_slot::list_slot;
  /// The values of `name.any_of=`; empty when not set.
  constexpr const std::vector<T>& any_of() const noexcept { return this->values(); }
};

/// The array contains all of the values: `name.all_of=a,b`.
template <class T>
class all_of_slot : public list_slot<T, all_of_values> {
 public:
  using all_of_slot::list_slot::list_slot;
  /// The values of `name.all_of=`; empty when not set.
  constexpr const std::vector<T>& all_of() const noexcept { return this->values(); }
};

/// A filter made of slots: their constructors, their accessors, empty() and ==. The four public
/// filter types are distinct classes over it (generated parameters name them).
template <class T, template <class> class... Slots>
class slotted_filter : public Slots<T>... {
 public:
  /// The type of the parameter's values (array_filter: of the array's elements).
  using value_type = T;

  /// No condition: the parameter is not sent.
  constexpr slotted_filter() = default;
  using Slots<T>::Slots...;

  /// True when no comparator is set: the parameter is not sent.
  constexpr bool empty() const noexcept { return (Slots<T>::slot_empty() && ...); }
  /// Equal when the same comparators are set to equal values.
  friend constexpr bool operator==(const slotted_filter&, const slotted_filter&) = default;
};

}  // namespace detail

/// `name`, `name.gt`, `name.gte`, `name.lt`, `name.lte`. Holds its values inline: building
/// one never allocates (beyond what copying a T allocates).
template <filter_value T>
class range_filter : public detail::slotted_filter<T, detail::equality_slot, detail::range_slots> {
 public:
  using range_filter::slotted_filter::slotted_filter;
};

/// `name`, `name.any_of`.
template <filter_value T>
class set_filter : public detail::slotted_filter<T, detail::equality_slot, detail::any_of_slot> {
 public:
  using set_filter::slotted_filter::slotted_filter;
};

/// `name`, `name.gt`, `name.gte`, `name.lt`, `name.lte`, `name.any_of`.
template <filter_value T>
class filter
    : public detail::slotted_filter<T, detail::equality_slot, detail::range_slots, detail::any_of_slot> {
 public:
  using filter::slotted_filter::slotted_filter;
};

/// For array-valued fields: `name` (contains), `name.any_of`, `name.all_of`.
template <filter_value T>
class array_filter
    : public detail::slotted_filter<T, detail::equality_slot, detail::any_of_slot, detail::all_of_slot> {
 public:
  using array_filter::slotted_filter::slotted_filter;
};

}  // namespace massive
