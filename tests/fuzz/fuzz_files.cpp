// libFuzzer target for the flat-file CSV decoder (massive/files/decoder.hpp): arbitrary bytes
// as an inflated file, fed in chunks as a download hands them over.
//
// Input: byte 0 picks the row type (modulo 7) and, in its bits 3-6, tight paging and line
// limits (2 rows a page, 64-byte lines), a ticker filter, a time window and the strict policy;
// byte 1 the chunking (fuzz_input.hpp); the rest is the file. It is decoded twice with one
// decoder, in chunks and whole. Every outcome must be pages of rows or files_error; anything
// else (a crash, a sanitizer report, another exception) is a finding, and so is:
// - the two decodes disagreeing: their rows (every field as text), their pages' filtered and
//   dropped counts, or their errors' codes and lines;
// - a page larger than rows_per_page, or a feed() that takes nothing while no page waits;
// - a decoder that, after a failure and reset(), reads a good file otherwise than a new one.
// Seen failing, replaying its seeds, with feed() keeping half of a carried line once it completed:
// "fuzz_files: chunked and whole decodes disagree: chunked rows 0 filtered 4 dropped 0, whole
// rows 1 filtered 1 dropped 1" (SIGABRT).
#include <massive/files/decoder.hpp>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../files/row_text.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace massive::files;
using massive::decode_policy;
using massive::make_page_pool;
using massive::timestamp_ns;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_files: %s\n", what.c_str());
  std::abort();
}

struct rows_outcome {
  std::vector<std::string> rows;
  std::uint64_t filtered = 0;
  std::uint64_t dropped = 0;
  bool operator==(const rows_outcome&) const = default;
};

struct error_outcome {
  files_errc code;
  std::optional<std::uint64_t> line;
  bool operator==(const error_outcome&) const = default;
};

using outcome = std::variant<rows_outcome, error_outcome>;

std::string describe(const outcome& o) {
  if (const auto* e = std::get_if<error_outcome>(&o)) return to_string(e->code);
  const auto& r = std::get<rows_outcome>(o);
  return "rows " + std::to_string(r.rows.size()) + " filtered " + std::to_string(r.filtered) +
         " dropped " + std::to_string(r.dropped);
}

template <class Row>
void drain(row_decoder<Row>& decoder, rows_outcome& out, std::size_t per_page) {
  while (decoder.page_ready()) {
    const row_page<Row> page = decoder.take();
    if (page.size() > per_page) finding("a page larger than rows_per_page");
    out.filtered += page.stats().filtered_rows;
    out.dropped += page.stats().dropped_rows;
    for (const Row& r : page) out.rows.push_back(massive::files::test::text_of(r));
  }
}

template <class Row>
outcome decode(row_decoder<Row>& decoder, std::span<const std::span<const char>> chunks,
               std::size_t per_page) {
  rows_outcome out;
  try {
    for (std::span<const char> chunk : chunks) {
      while (!chunk.empty()) {
        const std::size_t used = decoder.feed(chunk);
        if (used == 0 && !decoder.page_ready()) finding("feed() took nothing while no page waits");
        chunk = chunk.subspan(used);
        drain(decoder, out, per_page);
      }
    }
    decoder.finish();
    drain(decoder, out, per_page);
  } catch (const files_error& e) {
    volatile std::size_t n = std::string_view(e.what()).size();  // the message is well-formed
    (void)n;
    decoder.reset();
    return error_outcome{e.code(), e.line()};
  }
  decoder.reset();
  return out;
}

/// A file with every needed column of every row type.
constexpr std::string_view good_file =
    "ticker,conditions,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,"
    "ask_price,"
    "bid_price,volume,open,close,high,low,window_start\n"
    "AAPL,\"1,2\",4,7,1712325600000000000,1.5,9,1712325600000000001,100,1.6,1.4,10,1,2,3,0.5,"
    "1712325600000000000\n";

template <class Row>
void run(std::span<const char> file, std::uint8_t selector, std::uint8_t control) {
  decode_options options;
  if ((selector & 0x08) != 0) {
    options.rows_per_page = 2;
    options.max_line_bytes = 64;
  }
  if ((selector & 0x10) != 0) options.filter.tickers = {"AAPL", "A"};
  if ((selector & 0x20) != 0) {
    options.filter.from = timestamp_ns::from_count(1000);
    options.filter.to = timestamp_ns::from_count(1712325600000000001);
  }
  if ((selector & 0x40) != 0) options.policy = decode_policy::strict;
  const std::size_t per_page = options.rows_per_page;
  const decode_options decoder_options = options;
  row_decoder<Row> decoder(make_page_pool(), std::move(options));

  const outcome chunked = decode(decoder, massive::test::chunks_of(file, control), per_page);
  const outcome whole = decode(decoder, std::span(&file, 1), per_page);
  if (chunked != whole) {
    finding("chunked and whole decodes disagree: chunked " + describe(chunked) + ", whole " +
            describe(whole));
  }
  // After whatever came before (and the reset() decode() made), the decoder reads a good file as
  // a new one does.
  const std::span<const char> good(good_file.data(), good_file.size());
  row_decoder<Row> fresh(make_page_pool(), decoder_options);
  if (decode(decoder, std::span(&good, 1), per_page) !=
      decode(fresh, std::span(&good, 1), per_page)) {
    finding("the decoder did not recover after reset()");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t selector = data[0];
  const std::uint8_t control = data[1];
  const std::span<const char> file(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (selector % 7) {
    case 0:
      run<stock_trade>(file, selector, control);
      break;
    case 1:
      run<stock_quote>(file, selector, control);
      break;
#ifdef MASSIVE_FILES_HAS_OPTION_TRADE
    case 2:
      run<option_trade>(file, selector, control);
      break;
#endif
#ifdef MASSIVE_FILES_HAS_OPTION_QUOTE
    case 3:
      run<option_quote>(file, selector, control);
      break;
#endif
#ifdef MASSIVE_FILES_HAS_CRYPTO_TRADE
    case 4:
      run<crypto_trade>(file, selector, control);
      break;
#endif
#ifdef MASSIVE_FILES_HAS_FOREX_QUOTE
    case 5:
      run<forex_quote>(file, selector, control);
      break;
#endif
    default:
      run<aggregate>(file, selector, control);
      break;
  }
  return 0;
}
