// libFuzzer target for every generated row decoder, reached through the model table
// (massive/reflection/model_table.hpp): the decode half of each operation, without the transport.
//
// Input: byte 0 picks the model (its index in massive::reflection::model_table(), modulo its size), byte 1 the
// chunking and the limits (fuzz_input.hpp) and, in bits 3-5, the payload shape; the rest is
// the body. The body is decoded in chunks and whole; decode_error is an accepted outcome, a
// crash, a sanitizer report, any other exception, or the two decodes disagreeing is a
// finding: one succeeds and the other fails, the rows the generated writer makes of them or
// the envelopes differ, or they fail with different errors (code, field path or row).
// fuzz_decode goes further on agg, trade and quote (a decoder reused after reset()).
#include <massive/reflection/model_table.hpp>

#include "fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace {

using namespace massive;
using test::failure;
using test::outcome;

outcome decode(const massive::reflection::model_entry& model, std::span<const std::span<const char>> chunks, payload_shape shape,
               decode_limits limits) {
  static const std::shared_ptr<page_pool> pool = make_page_pool();
  std::uint64_t digest = 0;
  try {
    model.decode(pool, chunks, shape, limits, [&](const massive::reflection::row_page& p) {
      test::row_hasher h;
      h.add(std::uint64_t{p.rows});
      h.add(p.rows_json());
      test::add_envelope(h, p.envelope);
      digest = h.value();
    });
    return digest;
  } catch (const decode_error& e) {
    return failure(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::span<const massive::reflection::model_entry> models = massive::reflection::model_table();
  const massive::reflection::model_entry& model = models[data[0] % models.size()];
  const std::uint8_t control = data[1];
  const payload_shape shape = test::shapes[((control >> 3) & 0x07) % test::shapes.size()];
  const decode_limits limits = test::limits_for(control);
  const std::span<const char> body(reinterpret_cast<const char*>(data) + 2, size - 2);

  const outcome chunked = decode(model, test::chunks_of(body, control), shape, limits);
  const outcome whole = decode(model, std::span(&body, 1), shape, limits);
  test::expect_agree("fuzz_models", model.name, chunked, whole, control);
  return 0;
}
