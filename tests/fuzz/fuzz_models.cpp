// libFuzzer target for every generated row decoder, reached through the model table
// (massive/model_table.hpp): the decode half of each operation, without the transport.
//
// Input: byte 0 picks the model (its index in model_table(), modulo its size), byte 1 the
// chunking and the limits (fuzz_input.hpp) and, in bits 3-5, the payload shape; the rest is
// the body. The body is decoded in chunks and whole; decode_error is an accepted outcome, a
// crash, a sanitizer report, any other exception, or the two decodes disagreeing is a
// finding: one succeeds and the other fails, the rows the generated writer makes of them or
// the envelopes differ, or they fail with different errors (code, field path or row).
// fuzz_decode goes further on agg, trade and quote (a decoder reused after reset()).
#include <massive/model_table.hpp>

#include "fuzz_input.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <variant>

namespace {

using namespace massive;
using test::failure;

constexpr std::array shapes = {payload_shape::results_array, payload_shape::results_object,
                               payload_shape::document, payload_shape::top_level_array,
                               payload_shape::results_values};

// The outcome of one decode: a digest of the rows as JSON and of the envelope, or the error.
using outcome = std::variant<std::uint64_t, failure>;

outcome decode(const model_entry& model, std::span<const std::span<const char>> chunks, payload_shape shape,
               decode_limits limits) {
  static const std::shared_ptr<page_pool> pool = make_page_pool();
  std::uint64_t digest = 0;
  try {
    model.decode(pool, chunks, shape, limits, [&](const json_page& p) {
      test::row_hasher h;
      h.add(std::uint64_t{p.rows});
      h.add(p.rows_json);
      test::add_envelope(h, p.envelope);
      digest = h.value();
    });
    return digest;
  } catch (const decode_error& e) {
    return failure(e);
  }
}

std::string describe(const outcome& o) {
  if (const auto* f = std::get_if<failure>(&o)) return f->describe();
  return "decoded";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::span<const model_entry> models = model_table();
  const model_entry& model = models[data[0] % models.size()];
  const std::uint8_t control = data[1];
  const payload_shape shape = shapes[((control >> 3) & 0x07) % shapes.size()];
  const decode_limits limits = test::limits_for(control);
  const std::span<const char> body(reinterpret_cast<const char*>(data) + 2, size - 2);

  const outcome chunked = decode(model, test::chunks_of(body, control), shape, limits);
  const outcome whole = decode(model, std::span(&body, 1), shape, limits);
  if (chunked != whole) {
    std::fprintf(stderr,
                 "fuzz_models: %.*s: chunked and whole decodes disagree: chunked %s, whole %s "
                 "(max chunk %zu)\n",
                 static_cast<int>(model.name.size()), model.name.data(), describe(chunked).c_str(),
                 describe(whole).c_str(), test::max_chunk[control & 0x07]);
    std::abort();
  }
  return 0;
}
