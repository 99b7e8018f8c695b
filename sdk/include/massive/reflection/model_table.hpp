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

namespace massive::reflection {

/// One page as handed over by model_entry::decode and operation_entry::run: its rows as a
/// JSON array.
struct json_page {
  std::string_view rows_json;     ///< valid during the handler's call only
  std::size_t rows = 0;           ///< the number of rows in rows_json
  const page_envelope& envelope;  ///< the response fields around the rows
};

/// Receives each page of model_entry::decode and operation_entry::run.
using json_page_handler = std::function<void(const json_page&)>;

/// One model that some operation returns as its rows.
struct model_entry {
  std::string_view name;  ///< the C++ type in namespace massive, e.g. "agg"
  /// Decodes one body, given as the chunks in which it arrived, with page_decoder<model>
  /// (pages from `pool`, refusing what exceeds `limits`) and hands the page to `on_page`.
  /// Throws decode_error as page_decoder does; `on_page` is not called then.
  void (*decode)(std::shared_ptr<page_pool> pool, std::span<const std::span<const char>> chunks,
                 payload_shape shape, decode_limits limits, const json_page_handler& on_page);
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

/// Writes `count` rows of type Row from `rows` to `json` (cleared first) as a JSON array. Typed
/// by a function pointer where the rows come untyped (the operation table's runner).
template <class Row>
void write_rows_json(const void* rows, std::size_t count, std::string& json) {
  json.clear();
  json_writer w(json);
  w.begin_array();
  for (const Row& row : std::span(static_cast<const Row*>(rows), count)) w.value(row);
  w.end_array();
}

/// Writes `p`'s rows to `json` (cleared first) and hands them to `on_page`.
template <class Row>
void hand_over_as_json(const page<Row>& p, std::string& json, const json_page_handler& on_page) {
  write_rows_json<Row>(p.begin(), p.size(), json);
  on_page(json_page{json, p.size(), p.envelope()});
}

/// model_entry::decode for rows of type Row.
template <class Row>
void decode_model(std::shared_ptr<page_pool> pool, std::span<const std::span<const char>> chunks,
                  payload_shape shape, decode_limits limits, const json_page_handler& on_page) {
  page_decoder<Row> decoder(std::move(pool), shape, limits);
  for (std::span<const char> chunk : chunks) decoder.feed(chunk);
  decoder.finish();
  std::string json;
  hand_over_as_json(decoder.take(), json, on_page);
}

}  // namespace detail

}  // namespace massive::reflection
