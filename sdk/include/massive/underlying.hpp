// The indicators' second array of rows. With expand_underlying=true an indicator's body carries,
// beside results.values (the page's rows), results.underlying: the aggregates the indicator was
// computed from and the URL that fetches them. While the rows stream, the decoder keeps that part
// verbatim (page_envelope::results_extra_json); underlying(page) decodes it into typed rows on
// demand, so a caller who does not ask pays nothing for it.
#pragma once

#include "massive/decode_policy.hpp"
#include "massive/decoder.hpp"
#include "massive/page.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace massive {

/// The rows a page of `Row` may carry in results.underlying.aggregates: `type`. Specialised by
/// the generated headers of the rows that have them (indicator_value, macd_value).
template <class Row>
struct underlying_rows_of;

/// results.underlying of one page.
template <class Bar>
struct underlying_part {
  std::string url;        ///< `url`: the aggregates request behind the indicator; empty when not sent
  page<Bar> aggregates;   ///< `aggregates`, in the order sent; empty when not sent
};

namespace detail {
/// The members of results.underlying, as found in page_envelope::results_extra_json.
struct underlying_json {
  std::string url;
  std::string aggregates;  // the array's JSON text; empty when absent
};
/// nullopt when `results_extra_json` holds no `underlying`. Throws decode_error naming the
/// member (results.underlying.url, say) when one has the wrong type.
std::optional<underlying_json> split_underlying(std::string_view results_extra_json);
/// Rethrows a decode_error of the aggregates' own decoding with its path under
/// results.underlying.aggregates.
[[noreturn]] void rethrow_underlying(const decode_error& e);
}  // namespace detail

/// The results.underlying of a page with envelope `envelope`, decoded as `Bar` rows: nullopt when
/// the body carried none. As underlying(page) below, for callers that hold the envelope of a
/// page whose row type they know only by its underlying rows (the operation table).
template <class Bar>
std::optional<underlying_part<Bar>> underlying_of(const page_envelope& envelope,
                                                  decode_policy policy = decode_policy::lenient,
                                                  std::shared_ptr<page_pool> pool = nullptr) {
  std::optional<detail::underlying_json> parts = detail::split_underlying(envelope.results_extra_json);
  if (!parts) return std::nullopt;
  underlying_part<Bar> out{std::move(parts->url), {}};
  if (parts->aggregates.empty()) return out;
  page_decoder<Bar> decoder(pool ? std::move(pool) : make_page_pool(), payload_shape::top_level_array, {}, policy);
  try {
    decoder.feed(parts->aggregates);
    decoder.finish();
  } catch (const decode_error& e) {
    detail::rethrow_underlying(e);
  }
  out.aggregates = decoder.take();
  return out;
}

/// The page's results.underlying, decoded: nullopt when the body carried none (the call did
/// not ask for expand_underlying). The aggregates are decoded with `policy` into a page of
/// their own, drawn from `pool` (a fresh pool when null), and live as long as it does.
template <class Row, class Bar = typename underlying_rows_of<Row>::type>
std::optional<underlying_part<Bar>> underlying(const page<Row>& p, decode_policy policy = decode_policy::lenient,
                                               std::shared_ptr<page_pool> pool = nullptr) {
  return underlying_of<Bar>(p.envelope(), policy, std::move(pool));
}

}  // namespace massive
