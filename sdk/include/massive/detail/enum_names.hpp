// An enumerator's name as text, from one list of names written beside the function that
// returns it (stream::to_string(stream_errc), range_bounds' messages, ...).
#pragma once

#include <cstddef>
#include <type_traits>

namespace massive::detail {

/// The names of an enumeration's enumerators in the order of their values, which run without a
/// gap from `first` to `last`. It is made at compile time, and a list without exactly one name
/// per value from first to last does not compile. `last` names the enumeration's last
/// enumerator: one inserted before it is caught so; one appended after it must be named, and
/// made `last`, by hand.
template <class Enum, std::size_t N>
class enum_names {
 public:
  /// `names[i]` is the name of the value `first` + i.
  consteval enum_names(Enum first, Enum last, const char* const (&names)[N]) : first_(first) {
    // Not a constant expression, so a compile error: the list and the enumeration disagree.
    if (index(last) + 1 != N) throw "enum_names: not one name per value from first to last";
    for (std::size_t i = 0; i < N; ++i) names_[i] = names[i];
  }

  /// The name of `value`; "unknown" for a value no enumerator has (an integer cast to Enum).
  constexpr const char* operator[](Enum value) const noexcept {
    const std::size_t i = index(value);
    return i < N ? names_[i] : "unknown";
  }

 private:
  // From `first_`, in unsigned arithmetic: a value below it wraps to far beyond N.
  constexpr std::size_t index(Enum value) const noexcept {
    using underlying = std::underlying_type_t<Enum>;
    return static_cast<std::size_t>(static_cast<underlying>(value)) -
           static_cast<std::size_t>(static_cast<underlying>(first_));
  }

  Enum first_;
  const char* names_[N]{};
};

}  // namespace massive::detail
