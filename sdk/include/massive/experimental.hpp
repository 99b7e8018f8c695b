// The opt-in for experimental operations (routes with a `vX` or `dev` segment, or marked
// x-polygon-experimental): their methods take massive::experimental as the first argument,
// so that every call site says it accepts an operation Massive may change or withdraw.
//
//   auto events = co_await client.reference().ticker_events(massive::experimental, {.id = "AAPL"});
#pragma once

namespace massive {

/// The type of massive::experimental.
struct experimental_t {
  explicit experimental_t() = default;
};

/// Passed first to an experimental operation's method: the explicit opt-in.
inline constexpr experimental_t experimental{};

}  // namespace massive
