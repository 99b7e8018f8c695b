// libFuzzer target for the stream's frame decoder (massive/stream/batch.hpp): arbitrary bytes
// as one frame of a connection, fed in chunks as a WebSocket read hands them over.
//
// Input: byte 0 picks the market (modulo 6), the channel set ((byte 0 / 6) modulo 3) and, in
// bit 7, a frame cap of 256 bytes instead of the default 1 MiB; byte 1 the chunking and the
// decode limits (fuzz_input.hpp); the rest is the frame. It is decoded twice with one decoder,
// in chunks and whole. Every outcome must be a batch or a typed error: decode_error, or
// stream_error frame_too_large; anything else (a crash, a sanitizer report, another exception)
// is a finding, and so is:
// - the two decodes disagreeing: one succeeds and the other fails, the events their generated
//   writers write differ, the skipped counts differ, or they fail with different errors. A
//   frame over the cap may fail chunked with the decode_error of a chunk that came before the
//   cap was crossed; whole, it must be frame_too_large;
// - a batch whose wire order disagrees with its counts (visited events + skipped != elements);
// - a decoder that, after a refused frame and reset(), does not decode the next frame.
// Seen failing, in 411 executions, with finish() no longer zeroing the frame's byte count: the
// frame after a decoded one was refused, "terminate called after throwing an instance of
// 'massive::stream::stream_error' what(): stream: frame_too_large: a frame longer than 256 bytes".
#include <massive/error.hpp>
#include <massive/stream/batch.hpp>
#include <massive/stream/error.hpp>

#include "../stream/frame_compare.hpp"
#include "fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace {

using namespace massive;
namespace ms = massive::stream;

constexpr ms::market markets[] = {ms::market::stocks, ms::market::options, ms::market::forex,
                                  ms::market::crypto, ms::market::indices, ms::market::futures};
constexpr ms::channel_set channel_sets[] = {ms::channel_set::market, ms::channel_set::business,
                                            ms::channel_set::launchpad};
constexpr std::size_t tight_frame_bytes = 256;

/// Every market carries status events: a frame any decoder must take after a reset(), within
/// the tight limits too (strings of at most 8 bytes).
constexpr std::string_view status_frame = R"([{"ev":"status","status":"success"}])";

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_stream: %s\n", what);
  std::abort();
}

struct decoded {
  std::string events;  // written back by the generated writers
  std::size_t skipped;
  bool operator==(const decoded&) const = default;
};

struct too_large {
  bool operator==(const too_large&) const = default;
};

using outcome = std::variant<decoded, test::failure, too_large>;

decoded check(const ms::batch& b) {
  std::size_t visited = 0;
  b.visit([&](const auto&) { ++visited; });
  if (visited != b.size()) finding("a batch visits another number of events than its size()");
  return {test::written_events(b), b.skipped()};
}

outcome decode(ms::frame_decoder& decoder, std::span<const std::span<const char>> chunks) {
  try {
    for (std::span<const char> chunk : chunks) decoder.feed(chunk);
    return check(decoder.finish());
  } catch (const decode_error& e) {
    decoder.reset();
    return test::failure(e);
  } catch (const ms::stream_error& e) {
    if (e.code() != ms::stream_errc::frame_too_large) finding("a stream_error other than frame_too_large");
    decoder.reset();
    return too_large{};
  }
}

/// After whatever came before, the decoder takes a good frame.
void expect_recovered(ms::frame_decoder& decoder) {
  decoder.feed(status_frame);
  if (decoder.finish().events<status_event>().size() != 1) finding("the decoder did not recover after a reset()");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t selector = data[0];
  const std::uint8_t control = data[1];
  const std::span<const char> frame(reinterpret_cast<const char*>(data) + 2, size - 2);
  ms::frame_limits limits;
  limits.decode = test::limits_for(control);
  if ((selector & 0x80) != 0) limits.max_frame_bytes = tight_frame_bytes;
  ms::frame_decoder decoder(markets[selector % 6], channel_sets[(selector / 6) % 3], limits);

  const outcome chunked = decode(decoder, test::chunks_of(frame, control));
  expect_recovered(decoder);
  const outcome whole = decode(decoder, std::span(&frame, 1));
  expect_recovered(decoder);

  if (frame.size() > limits.max_frame_bytes) {
    if (!std::holds_alternative<too_large>(whole)) finding("a frame over the cap was not refused as frame_too_large");
    if (std::holds_alternative<decoded>(chunked)) finding("a frame over the cap decoded in chunks");
    return 0;
  }
  if (chunked != whole) {
    const auto describe = [](const outcome& o) -> std::string {
      if (const auto* f = std::get_if<test::failure>(&o)) return f->describe();
      if (std::holds_alternative<too_large>(o)) return "frame_too_large";
      return "decoded " + std::get<decoded>(o).events;
    };
    std::fprintf(stderr, "fuzz_stream: chunked and whole decodes disagree: chunked %s, whole %s (max chunk %zu)\n",
                 describe(chunked).c_str(), describe(whole).c_str(), test::max_chunk[control & 0x07]);
    std::abort();
  }
  return 0;
}
