// Test input for the decoder suites: synthetic response bodies with the quirks of the real
// wire (volumes as 1.0e+06 / 1748755.0 / 135647456, absent optionals, escaped strings,
// envelope keys before and after the results, unknown keys of every JSON type), the
// recorded responses, and ways of feeding a body in pieces.
#pragma once

#include "massive/decoder.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace massive::test {

struct body_options {
  std::size_t rows = 10;
  std::uint64_t seed = 1;
  bool pretty = false;            // indented like the recorded responses
  bool envelope_first = true;     // envelope keys before results (else after)
  bool unknown_keys = true;       // unknown keys in the envelope and in rows
  bool next_url = true;
};

std::string aggs_body(const body_options& o);
std::string trades_body(const body_options& o);
std::string quotes_body(const body_options& o);

/// A recorded response from MASSIVE_WIRE_SAMPLES.
std::string wire_sample(const std::string& file);

/// Feeds `body` in pieces ending at the given offsets (then the rest), and finishes.
void feed_split(massive::detail::body_sink& sink, std::string_view body, std::span<const std::size_t> cuts);
/// Feeds `body` in chunks of `chunk` bytes, and finishes.
void feed_chunks(massive::detail::body_sink& sink, std::string_view body, std::size_t chunk);
/// Feeds `body` in chunks of random sizes (1 byte to max_chunk), and finishes.
void feed_random(massive::detail::body_sink& sink, std::string_view body, std::mt19937_64& rng, std::size_t max_chunk);

}  // namespace massive::test
