// A parameter the API cannot answer without: a parameters struct's member that a designated
// initializer must name. Left out, it does not compile, and the compiler's message names it
// (g++: "required<T, Name>::required() [with ...; Name = massive::ticker_parameter]", clang:
// "required<std::string_view, massive::ticker_parameter>::required<void> requested here"):
//
//   client.stocks().aggregates({.multiplier = 1, ...});   // error names ticker_parameter
//
// Without it a left-out path parameter failed only at run time and a left-out number was sent
// as 0.
#pragma once

#include <concepts>
#include <utility>

namespace massive {

/// Always false; dependent, so that only an instantiation of required's default constructor
/// fails.
template <class>
inline constexpr bool left_out = false;

/// A required member of type T; `Name` is an incomplete tag type named after the parameter
/// (`struct ticker_parameter`), which is how the compiler's error names it.
template <class T, class Name>
class required {
 public:
  /// The value, from anything a T is made from (`.ticker = "AAPL"`).
  template <class U>
    requires std::constructible_from<T, U&&>
  constexpr required(U&& value) : value_(std::forward<U>(value)) {}

  /// Only instantiated when a designated initializer leaves the member out.
  template <class Missing = void>
  required() {
    static_assert(left_out<Missing>,
                  "a required parameter was left out: it is the Name (<name>_parameter) of the "
                  "massive::required above");
  }

  /// The value.
  constexpr const T& get() const noexcept { return value_; }
  /// The value, where a T is expected.
  constexpr operator const T&() const noexcept { return value_; }

 private:
  T value_;
};

}  // namespace massive
