// Every row model by name, for callers that hold a body and choose the model at run time: the
// fuzzer (tests/fuzz/fuzz_models.cpp) and tests that have a body but no server. The table is
// generated (generated/src/models/model_table.cpp); it needs no transport, so it is also the
// decode half of operation_table.hpp, which hands pages over the same way.
#pragma once

#include "massive/decoder.hpp"
#include "massive/json_writer.hpp"
#include "massive/page.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include "massive/underlying.hpp"

namespace massive::reflection {

/// What decoding a page's results.underlying.aggregates coerced, left out or dropped: the
/// aggregates' own page_leniency, whose `first` is kept in `first` (a path from the body's root,
/// "results.underlying.aggregates[3].c") and not in `counts`, since their page is gone.
struct underlying_leniency {
  page_leniency counts;  ///< the aggregates' counts; its `first` and `first_unknown_key` empty
  std::string first;     ///< where the first coerced, skipped or missing value was
};

class field_visitor;

/// What a tool needs of a row type it knows only at run time: the generated functions of the
/// model, typed by function pointers (row_functions_of<Row>).
struct row_functions {
  /// Writes row `index` of `rows` (an array of the model) as a JSON object.
  void (*write_json)(json_writer& w, const void* rows, std::size_t index);
  /// Hands each field of row `index` of `rows` to `v` (field_visitor.hpp).
  void (*visit)(field_visitor& v, const void* rows, std::size_t index);
  /// Writes the page's results.underlying, decoded into its typed rows, as the JSON object
  /// `{"url":...,"aggregates":[...]}`, and what decoding them left out into `leniency`; false
  /// (nothing written) when the page has none. Null for models whose pages never carry one.
  /// Throws decode_error for an underlying that does not decode.
  bool (*write_underlying)(json_writer& w, const page_envelope& envelope, underlying_leniency& leniency);
};

/// One page as handed over by model_entry::decode and operation_entry::run: its rows, still
/// typed (each written as JSON or visited field by field on demand, never both unasked), and
/// its envelope. Valid during the handler's call only.
class row_page {
 public:
  /// `count` rows of the model `functions` describes at `rows`, and their page's envelope.
  row_page(const void* rows, std::size_t count, const page_envelope& envelope,
           const row_functions& functions) noexcept
      : rows(count), envelope(envelope), data_(rows), functions_(&functions) {}

  std::size_t rows = 0;           ///< the number of rows
  const page_envelope& envelope;  ///< the response fields around the rows

  /// The rows as one JSON array, written on the first call.
  std::string_view rows_json() const;
  /// Row `index` as a JSON object.
  void write_row(json_writer& w, std::size_t index) const {
    functions_->write_json(w, data_, index);
  }
  /// Row `index`, field by field.
  void visit_row(field_visitor& v, std::size_t index) const { functions_->visit(v, data_, index); }
  /// The rows, an array of the model functions() describes.
  const void* data() const noexcept { return data_; }
  /// The model's row functions.
  const row_functions& functions() const noexcept { return *functions_; }
  /// results.underlying decoded, as row_functions::write_underlying; false when there is none.
  bool write_underlying(json_writer& w, underlying_leniency& leniency) const {
    return functions_->write_underlying != nullptr && functions_->write_underlying(w, envelope, leniency);
  }

 private:
  const void* data_;
  const row_functions* functions_;
  mutable std::string json_;  // rows_json()'s text
};

inline std::string_view row_page::rows_json() const {
  if (json_.empty()) {
    json_writer w(json_);
    w.begin_array();
    for (std::size_t i = 0; i < rows; ++i) write_row(w, i);
    w.end_array();
  }
  return json_;
}

/// Receives each page of model_entry::decode and operation_entry::run.
using row_page_handler = std::function<void(const row_page&)>;

/// One model that some operation returns as its rows.
struct model_entry {
  std::string_view name;  ///< the C++ type in namespace massive, e.g. "agg"
  /// Decodes one body, given as the chunks in which it arrived, with page_decoder<model>
  /// (pages from `pool`, refusing what exceeds `limits`) and hands the page to `on_page`.
  /// Throws decode_error as page_decoder does; `on_page` is not called then.
  void (*decode)(std::shared_ptr<page_pool> pool, std::span<const std::span<const char>> chunks,
                 payload_shape shape, decode_limits limits, const row_page_handler& on_page);
};

/// Every row model, in the generator's order (defined in generated/src/models/).
std::span<const model_entry> model_table();

/// The row model `name`, or nullptr.
inline const model_entry* find_model(std::string_view name) {
  for (const model_entry& e : model_table()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

namespace detail {

template <class Row>
void write_row_json(json_writer& w, const void* rows, std::size_t index) {
  w.value(static_cast<const Row*>(rows)[index]);
}

template <class Row>
void visit_row(field_visitor& v, const void* rows, std::size_t index) {
  visit_fields(v, static_cast<const Row*>(rows)[index]);
}

template <class Row>
bool write_underlying_json(json_writer& w, const page_envelope& envelope, underlying_leniency& leniency) {
  const std::optional<massive::detail::underlying_json> sent =
      massive::detail::split_underlying(envelope.results_extra_json);
  if (!sent) return false;
  const auto part = underlying_of<typename underlying_rows_of<Row>::type>(envelope);
  leniency.counts = part->aggregates.leniency();
  leniency.first = "results.underlying.aggregates";
  leniency.first += leniency.counts.first;
  leniency.counts.first = {};
  leniency.counts.first_unknown_key = {};
  w.begin_object();
  if (!part->url.empty()) w.field("url", std::string_view(part->url));
  if (!sent->aggregates.empty()) {  // sent, if only as []
    w.key("aggregates");
    w.begin_array();
    for (const auto& bar : part->aggregates) w.value(bar);
    w.end_array();
  }
  w.end_object();
  return true;
}

template <class Row>
constexpr bool (*underlying_writer())(json_writer&, const page_envelope&, underlying_leniency&) {
  if constexpr (requires { typename underlying_rows_of<Row>::type; }) {
    return &write_underlying_json<Row>;
  } else {
    return nullptr;
  }
}

}  // namespace detail

/// The row functions of the model Row.
template <class Row>
inline constexpr row_functions row_functions_of{
    &detail::write_row_json<Row>, &detail::visit_row<Row>, detail::underlying_writer<Row>()};

namespace detail {

/// model_entry::decode for rows of type Row.
template <class Row>
void decode_model(std::shared_ptr<page_pool> pool, std::span<const std::span<const char>> chunks,
                  payload_shape shape, decode_limits limits, const row_page_handler& on_page) {
  page_decoder<Row> decoder(std::move(pool), shape, limits);
  for (std::span<const char> chunk : chunks) decoder.feed(chunk);
  decoder.finish();
  const page<Row> p = decoder.take();
  on_page(row_page(p.begin(), p.size(), p.envelope(), row_functions_of<Row>));
}

}  // namespace detail

}  // namespace massive::reflection
