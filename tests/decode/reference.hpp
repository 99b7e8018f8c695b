// Independent expectations for the decoder suites: a simdjson DOM parse of the same bytes
// (a different parser front end from the On Demand one the decoder uses), and field-by-field
// equality of rows.
#pragma once

#include "massive/decoder.hpp"
#include "massive/models/agg.hpp"
#include "massive/models/quote.hpp"
#include "massive/models/trade.hpp"

#include <string>
#include <string_view>

namespace massive::test {

/// An empty string when every row and envelope field of `p` equals what a DOM parse of
/// `body` says; otherwise the first difference.
std::string dom_diff(std::string_view body, const page<agg>& p, payload_shape shape = payload_shape::results_array);
std::string dom_diff(std::string_view body, const page<trade>& p, payload_shape shape = payload_shape::results_array);
std::string dom_diff(std::string_view body, const page<quote>& p, payload_shape shape = payload_shape::results_array);

bool same_row(const agg& a, const agg& b);
bool same_row(const trade& a, const trade& b);
bool same_row(const quote& a, const quote& b);
bool same_envelope(const page_envelope& a, const page_envelope& b);

/// An empty string when both pages hold equal rows and envelopes; otherwise the first
/// difference.
template <class T>
std::string page_diff(const page<T>& a, const page<T>& b) {
  if (a.size() != b.size()) return "sizes " + std::to_string(a.size()) + " != " + std::to_string(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_row(a[i], b[i])) return "row " + std::to_string(i) + " differs";
  }
  if (!same_envelope(a.envelope(), b.envelope())) return "envelopes differ";
  return {};
}

}  // namespace massive::test
