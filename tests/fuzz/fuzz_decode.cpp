// libFuzzer target for the streaming decoder's entry points (feed, finish, take, reset), on
// the hand-checked models agg, trade and quote (fuzz_models.cpp reaches every other one).
//
// Input: byte 0 picks the model and the payload shape, byte 1 the chunking and the limits
// (fuzz_input.hpp), the rest is the body. The body is decoded twice with one decoder: first in
// chunks whose sizes derive from the input itself (sometimes after a first attempt abandoned
// halfway with reset()), then whole. decode_error is an accepted outcome; a crash, a sanitizer
// report, any other exception, or the two decodes disagreeing is a finding: one succeeds and the
// other fails, their rows or envelopes differ, or they fail with different errors (code, field path
// or row). The limits are the defaults or tight ones (depth, string and element lengths), which
// make the too_deep and too_long paths reachable with small inputs; every limit is compared (F1 in
// issue 3's fuzz findings: a tight max_string_bytes used to be checked only on strings that crossed
// a chunk boundary).
#include <massive/decoder.hpp>
#include <massive/error.hpp>
#include <massive/models/agg.hpp>
#include <massive/models/quote.hpp>
#include <massive/models/trade.hpp>
#include <massive/page.hpp>

#include "fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace {

using namespace massive;
using test::failure;
using test::outcome;
using test::row_hasher;

template <class T>
std::uint64_t digest(const page<T>& p) {
  row_hasher h;
  h.add(std::uint64_t{p.size()});
  for (const T& row : p) add_row(h, row);
  test::add_envelope(h, p.envelope());
  return h.value();
}

template <class T>
outcome decode(page_decoder<T>& decoder, std::span<const std::span<const char>> chunks) {
  try {
    for (std::span<const char> chunk : chunks) decoder.feed(chunk);
    decoder.finish();
    return digest(decoder.take());
  } catch (const decode_error& e) {
    decoder.reset();
    return failure(e);
  }
}

std::shared_ptr<page_pool> shared_pool() {
  static const std::shared_ptr<page_pool> pool = make_page_pool();
  return pool;
}

template <class T>
void run(std::span<const char> body, payload_shape shape, std::uint8_t control) {
  page_decoder<T> decoder(shared_pool(), shape, test::limits_for(control));
  // Sometimes abandon a first attempt halfway: reset() must leave nothing behind.
  if (test::seed_of(body, control) % 4 == 0 && body.size() > 1) {
    try {
      decoder.feed(body.first(body.size() / 2));
    } catch (const decode_error&) {
      // The half body may already be invalid; reset() must recover from that too.
    }
    decoder.reset();
  }
  const auto chunked = decode(decoder, test::chunks_of(body, control));
  const auto whole = decode(decoder, std::span(&body, 1));
  test::expect_agree("fuzz_decode", {}, chunked, whole, control);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t selector = data[0];
  const std::uint8_t control = data[1];
  const std::span<const char> body(reinterpret_cast<const char*>(data) + 2, size - 2);
  const payload_shape shape = test::shapes[(selector / 3) % test::shapes.size()];
  switch (selector % 3) {
    case 0: run<agg>(body, shape, control); break;
    case 1: run<trade>(body, shape, control); break;
    default: run<quote>(body, shape, control); break;
  }
  return 0;
}
