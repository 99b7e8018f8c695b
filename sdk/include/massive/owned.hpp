// Rows that outlive their page. A page<T>'s rows are views: their strings and arrays point into
// the page's memory, which goes back to the client's pool (and is reused) when the page is
// destroyed. massive::to_owned copies a row, or every row of a page, into massive::owned::<model>
// (<massive/owned/<model>.hpp>), whose strings and arrays are its own. Copying costs an
// allocation per string and array; keep views where the page lives long enough.
//
//   std::vector<massive::owned::trade> kept = massive::to_owned(page);  // page may go now
#pragma once

#include "massive/page.hpp"

#include <utility>
#include <vector>

namespace massive {

/// The owning copies of massive's models: massive::owned::trade for massive::trade, ...
namespace owned {}

/// Every row of `rows`, copied into owning values (massive::owned::trade for massive::trade, and
/// so on), in order.
template <class T>
auto to_owned(const page<T>& rows) -> std::vector<decltype(to_owned(std::declval<const T&>()))> {
  std::vector<decltype(to_owned(std::declval<const T&>()))> out;
  out.reserve(rows.size());
  for (const T& row : rows) out.push_back(to_owned(row));
  return out;
}

}  // namespace massive
