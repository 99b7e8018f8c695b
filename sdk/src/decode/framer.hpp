// The framer: finds where the elements of an array (or one object) end in a byte stream fed
// piecewise, without parsing them. It classifies whole 64-byte blocks into bitmasks (quotes,
// backslashes, brackets, commas) the way simdjson's first stage does, drops escaped quotes
// (odd backslash runs), turns quotes into an in-string mask by prefix XOR, carries string and
// escape state from block to block, and then walks only the bracket bits to track depth and
// check that each bracket closes what it should. Separator commas are the commas that lie,
// outside strings, in the stretches between brackets where the depth is the array's own.
// In the steady state of a results array (rows of scalars and arrays of scalars, no escapes)
// the depth comes from prefix XORs of the bracket bits too, in straight-line code; a block
// with anything else goes to the general path.
// Each byte is loaded once (and, fused with that load, copied into the decoder's window); the
// work per block is a few vector operations plus, on the general path, a short loop over its
// brackets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace massive::detail {

class framer {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  enum class fault : std::uint8_t { none, too_deep, too_long, element_too_long, mismatched_bracket };

  /// `allow_avx512`: use the AVX-512 classifier when the CPU has it (tests turn it off to
  /// exercise the other path on the same machine).
  framer(std::size_t max_depth, std::size_t max_string_bytes, std::size_t max_element_bytes,
         bool allow_avx512 = true);

  /// Frames the elements of an array whose '[' was the last byte consumed; `outer_depth` is
  /// the nesting depth outside that '['; `first` is the window index after the '['.
  void start_array(std::size_t outer_depth, std::size_t first) noexcept;
  /// Frames one object or array that starts at window index `first`, the next byte given to
  /// scan().
  void start_value(std::size_t outer_depth, std::size_t first) noexcept;

  /// Examines window[from, to) (the window must be writable up to to + 63: its padding).
  /// With a `source` (to - from bytes, becoming window[from, to)), the bytes are copied into
  /// the window in the same pass, all of them, even past the closing bracket. Returns the index of the bracket that closes the array or value, or
  /// npos when the bytes end first; state carries over to the next call, which continues at
  /// `to`. On npos, check failure().
  std::size_t scan(const char* source, char* window, std::size_t from, std::size_t to) noexcept;

  fault failure() const noexcept { return carry_.failure; }
  /// After a fault: the window index of the bracket, separator or opening quote (of the
  /// string or key that is too long) where it was found. Faults are reported in stream
  /// order, and the separators before the fault are counted, however the bytes were split.
  std::size_t fault_position() const noexcept { return carry_.fault_at; }
  /// Window index of the first byte of the element being framed.
  std::size_t element_start() const noexcept { return carry_.element_start; }
  /// Index of the last separator comma found and not yet consumed, or npos.
  std::size_t last_separator() const noexcept { return carry_.last_separator; }
  void consume_separator() noexcept { carry_.last_separator = npos; }
  /// Whether scan() runs the AVX-512 kernel: allowed at construction, and the CPU has it.
  bool uses_avx512() const noexcept { return avx512_; }
  /// Separator commas found since start_array(): the index of the element being framed.
  std::uint64_t separators() const noexcept { return carry_.separators; }
  /// The window moved its bytes `by` places towards its front.
  void shift(std::size_t by) noexcept {
    if (carry_.last_separator != npos) carry_.last_separator -= by;
    carry_.element_start -= by;
    carry_.string_start -= by;
  }

 private:
  struct block_input {
    std::uint64_t quote, backslash, open, close, comma, square;
    unsigned n;            // valid bytes in the block
    std::size_t pos;       // window index of the block's first byte
  };
  // The state carried from block to block. scan() works on a local copy so that it stays in
  // registers: the window stores it makes would otherwise force reloads of every member.
  struct carry {
    std::size_t depth = 0;            // relative to outer_depth_
    std::uint64_t escape = 0;         // 1: the next byte is escaped
    std::uint64_t string = 0;         // all ones: the next byte is inside a string
    std::size_t string_start = 0;     // window index of the opening quote of the string still open
    std::size_t last_separator = npos;
    std::uint64_t separators = 0;
    std::size_t element_start = 0;    // window index where the element being framed starts
    fault failure = fault::none;
    std::size_t fault_at = 0;
  };
  template <bool Full>
  int block(carry& c, std::uint8_t* kinds, const block_input& in) const noexcept;
  // Whether the steady state (framer.cpp, flat_block) may take blocks: the elements of an
  // array, depth 3 within the limit, strings limited to 128 bytes or more.
  bool flat_allowed() const noexcept {
    return separator_depth_ == 1 && max_string_bytes_ >= 128 && outer_depth_ + 3 <= max_depth_;
  }
  // The scan, written once over a block classifier (framer.cpp): flat_run and scan_blocks are
  // the kernels, flat_run_for and scan_for their instantiations, one per classifier, each
  // compiled for the classifier's instruction set.
  template <class Classifier>
  std::size_t flat_run(carry& c, std::uint8_t* kinds, const char* source, char* window, std::size_t from,
                       std::size_t pos, std::size_t to) const noexcept;
  template <class Classifier>
  std::size_t scan_blocks(const char* source, char* window, std::size_t from, std::size_t to) noexcept;
  template <class Classifier>
  std::size_t flat_run_for(carry& c, std::uint8_t* kinds, const char* source, char* window, std::size_t from,
                           std::size_t pos, std::size_t to) const noexcept;
  template <class Classifier>
  std::size_t scan_for(const char* source, char* window, std::size_t from, std::size_t to) noexcept;

  std::size_t max_depth_;
  std::size_t max_string_bytes_;
  std::size_t max_element_bytes_;
  // A string inside one 64-byte block has at most 62 bytes: only a limit below that needs
  // every string measured; above it only strings that cross a block boundary can be too long.
  bool short_strings_;
  std::size_t outer_depth_ = 0;
  std::size_t separator_depth_ = 1;   // relative depth of the array's own commas
  carry carry_;
  std::vector<std::uint8_t> kinds_;   // per open level: 1 = '[', 0 = '{'
  bool avx512_ = false;  // the CPU has AVX-512 BW (checked once, at construction)
};

}  // namespace massive::detail
