#include "decode/framer.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define MASSIVE_FRAMER_X86 1
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace massive::detail {
namespace {

struct block_masks {
  std::uint64_t quote;
  std::uint64_t backslash;
  std::uint64_t open;   // '{' or '['
  std::uint64_t close;  // '}' or ']'
  std::uint64_t comma;
  std::uint64_t square;  // '[' or ']' (and any other byte with bit 0x20 clear)
};

// '[' | 0x20 == '{' and ']' | 0x20 == '}', and no other byte maps there: one comparison
// finds both kinds of opening bracket, one both kinds of closing bracket.
//
// A classifier is what the framer's kernel (framer::scan_blocks, below) needs of an
// instruction set: classify() makes a block's masks from its 64 bytes, copy() moves a whole
// block from the source into the window. native_classifier uses the ISA the decoding code is
// compiled for (MASSIVE_SIMD_ARCH); avx512_classifier is compiled for AVX-512 alone and chosen
// at run time.

struct memcpy_copy {
  [[gnu::always_inline]] static void copy(char* dst, const char* src) noexcept { std::memcpy(dst, src, 64); }
};

#if defined(__AVX2__)
struct avx2_classifier : memcpy_copy {
  [[gnu::always_inline]] static block_masks classify(const char* p) noexcept {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    const auto bits = [](__m256i a, __m256i b, char c) noexcept {
      const __m256i needle = _mm256_set1_epi8(c);
      const auto low = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, needle)));
      const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, needle)));
      return std::uint64_t{low} | (std::uint64_t{high} << 32);
    };
    const __m256i case_bit = _mm256_set1_epi8(0x20);
    const __m256i lo_folded = _mm256_or_si256(lo, case_bit);
    const __m256i hi_folded = _mm256_or_si256(hi, case_bit);
    const __m256i zero = _mm256_setzero_si256();
    const auto lo_square = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(lo, case_bit), zero)));
    const auto hi_square = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(hi, case_bit), zero)));
    return {bits(lo, hi, '"'), bits(lo, hi, '\\'), bits(lo_folded, hi_folded, '{'),
            bits(lo_folded, hi_folded, '}'), bits(lo, hi, ','),
            std::uint64_t{lo_square} | (std::uint64_t{hi_square} << 32)};
  }
};
using native_classifier = avx2_classifier;
#elif defined(__SSE2__)
struct sse2_classifier : memcpy_copy {
  [[gnu::always_inline]] static block_masks classify(const char* p) noexcept {
    __m128i v[4];
    for (int i = 0; i < 4; ++i) v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const auto bits = [&v](char c, bool folded) noexcept {
      const __m128i needle = _mm_set1_epi8(c);
      const __m128i case_bit = _mm_set1_epi8(folded ? 0x20 : 0);
      std::uint64_t out = 0;
      for (int i = 0; i < 4; ++i) {
        const __m128i x = _mm_or_si128(v[i], case_bit);
        out |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, needle)))}
               << (16 * i);
      }
      return out;
    };
    std::uint64_t square = 0;
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_and_si128(v[i], _mm_set1_epi8(0x20));
      square |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())))}
                << (16 * i);
    }
    return {bits('"', false), bits('\\', false), bits('{', true), bits('}', true), bits(',', false), square};
  }
};
using native_classifier = sse2_classifier;
#elif defined(__ARM_NEON)
struct neon_classifier : memcpy_copy {
  [[gnu::always_inline]] static block_masks classify(const char* p) noexcept {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(p);
    const uint8x16_t v[4] = {vld1q_u8(bytes), vld1q_u8(bytes + 16), vld1q_u8(bytes + 32), vld1q_u8(bytes + 48)};
    const uint8x16_t case_bit = vdupq_n_u8(0x20);
    const auto equal = [&v](std::uint8_t c, bool folded) noexcept {
      const uint8x16_t needle = vdupq_n_u8(c);
      const uint8x16_t fold = vdupq_n_u8(folded ? 0x20 : 0);
      return bits(vceqq_u8(vorrq_u8(v[0], fold), needle), vceqq_u8(vorrq_u8(v[1], fold), needle),
                  vceqq_u8(vorrq_u8(v[2], fold), needle), vceqq_u8(vorrq_u8(v[3], fold), needle));
    };
    const std::uint64_t square = bits(vceqzq_u8(vandq_u8(v[0], case_bit)), vceqzq_u8(vandq_u8(v[1], case_bit)),
                                      vceqzq_u8(vandq_u8(v[2], case_bit)), vceqzq_u8(vandq_u8(v[3], case_bit)));
    return {equal('"', false), equal('\\', false), equal('{', true), equal('}', true), equal(',', false), square};
  }

 private:
  // NEON has no movemask: each comparison's 0xff lanes are masked to their bit within a byte,
  // and three rounds of pairwise additions fold four 16-lane results into 64 bits.
  [[gnu::always_inline]] static std::uint64_t bits(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) noexcept {
    const uint8x16_t weights = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t ab = vpaddq_u8(vandq_u8(a, weights), vandq_u8(b, weights));
    const uint8x16_t cd = vpaddq_u8(vandq_u8(c, weights), vandq_u8(d, weights));
    const uint8x16_t abcd = vpaddq_u8(ab, cd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
  }
};
using native_classifier = neon_classifier;
#else
struct scalar_classifier : memcpy_copy {
  [[gnu::always_inline]] static block_masks classify(const char* p) noexcept {
    block_masks m{};
    for (unsigned i = 0; i < 64; ++i) {
      const char c = p[i];
      const std::uint64_t bit = std::uint64_t{1} << i;
      const char folded = static_cast<char>(c | 0x20);
      if (c == '"') m.quote |= bit;
      if (c == '\\') m.backslash |= bit;
      if (c == ',') m.comma |= bit;
      if (folded == '{') m.open |= bit;
      if (folded == '}') m.close |= bit;
      if ((c & 0x20) == 0) m.square |= bit;
    }
    return m;
  }
};
using native_classifier = scalar_classifier;
#endif

#if MASSIVE_FRAMER_X86
// One 64-byte vector and mask registers: a third of the instructions of the AVX2 path.
// Chosen at run time (framer::framer): the SDK's baseline ISA need not include AVX-512. Not
// always_inline: the kernels, which call these, are compiled for the baseline before they are
// inlined into flat_run_for and scan_for, whose target matches; GCC and clang refuse to force
// an AVX-512 function into the baseline code, and inline these there on their own.
#define MASSIVE_AVX512_TARGET gnu::target("avx512f,avx512bw,avx2,bmi,bmi2,lzcnt,popcnt,pclmul")
struct avx512_classifier {
  [[MASSIVE_AVX512_TARGET]] static block_masks classify(const char* p) noexcept {
    const __m512i v = _mm512_loadu_si512(p);
    const __m512i case_bit = _mm512_set1_epi8(0x20);
    const __m512i folded = _mm512_or_si512(v, case_bit);
    return {_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')), _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')),
            _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('{')),
            _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('}')), _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(',')),
            _mm512_testn_epi8_mask(v, case_bit)};
  }
  [[MASSIVE_AVX512_TARGET]] static void copy(char* dst, const char* src) noexcept {
    _mm512_storeu_si512(dst, _mm512_loadu_si512(src));
  }
};
#endif

// Bit i set when an odd number of quote bits are at or below i.
[[gnu::always_inline]] inline std::uint64_t prefix_xor(std::uint64_t x) noexcept {
#if defined(__PCLMUL__)
  const __m128i product = _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<long long>(x)),
                                               _mm_set1_epi8(-1), 0);
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(product));
#elif defined(__ARM_FEATURE_AES)
  return static_cast<std::uint64_t>(vmull_p64(x, ~std::uint64_t{0}));
#else
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
#endif
}

// The bytes escaped by a backslash: those that end an odd-length run of backslashes (a run
// starting on an even bit ends escaping on an odd bit and vice versa; adding the run starts
// to the backslash mask carries each start to the end of its run). `carry` is 1 when the
// first byte is escaped; on return it says whether the byte after bit 63 is.
[[gnu::always_inline]] inline std::uint64_t escaped_bytes(std::uint64_t backslash, std::uint64_t& carry) noexcept {
  constexpr std::uint64_t even_bits = 0x5555555555555555ULL;
  backslash &= ~carry;  // an escaped backslash starts nothing
  const std::uint64_t follows_escape = (backslash << 1) | carry;
  const std::uint64_t odd_starts = backslash & ~even_bits & ~follows_escape;
  std::uint64_t even_run_ends = 0;
  carry = __builtin_add_overflow(odd_starts, backslash, &even_run_ends) ? 1 : 0;
  const std::uint64_t invert = even_run_ends << 1;
  return (even_bits ^ invert) & follows_escape;
}

[[gnu::always_inline]] inline std::uint64_t bits_from(unsigned a) noexcept {
  return a >= 64 ? 0 : ~std::uint64_t{0} << a;
}
[[gnu::always_inline]] inline std::uint64_t bits_below(unsigned b) noexcept {
  return b == 0 ? 0 : ~std::uint64_t{0} >> (64 - b);
}

// The framer's state in the steady state of a results array, as bit masks: all ones when the
// next byte is inside a string, inside a row object, inside an array within a row.
struct flat_state {
  std::uint64_t string, row, array, separators;
  std::size_t element_start;
};

// One whole block of a results array whose rows are objects of scalars and arrays of scalars
// (every row of the aggregates, trades and quotes), in straight-line code: curly brackets
// alternate between the array's depth and one below, square brackets alternate inside a row,
// so the depth at every byte is two prefix XORs of the bracket bits, and the separators are
// the commas outside strings and rows. Returns false, having changed nothing, when the block
// is anything else: a backslash, other nesting, the array's own ']', a string that runs
// through the whole block. Then the general block() takes it, faults included. A string that
// ends here began at most one block before, so it is shorter than 127 bytes: the caller makes
// sure the limit is above that.
[[gnu::always_inline]] inline bool flat_block(flat_state& s, const block_masks& m, std::size_t pos) noexcept {
  const std::uint64_t in_string = prefix_xor(m.quote) ^ s.string;
  const std::uint64_t outside = ~in_string;
  const std::uint64_t open = m.open & outside;
  const std::uint64_t close = m.close & outside;
  const std::uint64_t curly = (open | close) & ~m.square;
  const std::uint64_t square = (open | close) & m.square;
  const std::uint64_t in_row = prefix_xor(curly) ^ s.row;
  const std::uint64_t row_before = in_row ^ curly;
  std::uint64_t misplaced = (open & curly & row_before) | (close & curly & ~row_before);  // '{' in a row, '}' outside one
  std::uint64_t in_array = s.array;
  // Aggregates never come here; trades' conditions in about a third of their blocks, which
  // measured no slower than the branchless form.
  if ((square | s.array) != 0) {
    in_array = prefix_xor(square) ^ s.array;
    const std::uint64_t array_before = in_array ^ square;
    misplaced |= (open & square & array_before) | (close & square & ~array_before) |  // '[' in '[', ']' outside '['
                 (square & ~in_row) | (curly & in_array);  // '[' or ']' outside a row, '{' or '}' inside '['
  }
  const std::uint64_t runs_through = m.quote == 0 ? s.string : 0;
  if ((misplaced | m.backslash | runs_through) != 0) return false;
  s.string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);
  s.row = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_row) >> 63);
  s.array = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_array) >> 63);
  const std::uint64_t separators = m.comma & outside & ~in_row;
  // The element being framed starts after the block's last separator, if it has one.
  const std::size_t after_last = pos + 64 - static_cast<unsigned>(std::countl_zero(separators));
  s.element_start = separators != 0 ? after_last : s.element_start;
  s.separators += static_cast<unsigned>(std::popcount(separators));
  return true;
}

bool cpu_has_avx512() noexcept {
#if MASSIVE_FRAMER_X86 && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#else
  return false;
#endif
}

}  // namespace

framer::framer(std::size_t max_depth, std::size_t max_string_bytes, std::size_t max_element_bytes,
               bool allow_avx512)
    : max_depth_(max_depth),
      max_string_bytes_(max_string_bytes),
      max_element_bytes_(max_element_bytes),
      short_strings_(max_string_bytes < 62),
      kinds_(max_depth + 2, 0),
      avx512_(allow_avx512 && cpu_has_avx512()) {}

void framer::start_array(std::size_t outer_depth, std::size_t first) noexcept {
  outer_depth_ = outer_depth;
  separator_depth_ = 1;
  carry_ = carry{};
  carry_.depth = 1;
  carry_.element_start = first;
  kinds_[0] = 1;
}

void framer::start_value(std::size_t outer_depth, std::size_t first) noexcept {
  start_array(outer_depth, first);
  carry_.depth = 0;
  separator_depth_ = npos;
}

// One block's masks, of which the first n bits are valid (all 64 when Full: the common case,
// compiled without the masking), at window[pos]. Returns the offset of the bracket that ends
// the framed value, 64 when the block does not end it, or -1 on a fault.
//
// Faults are taken in stream order, so that the outcome does not depend on where blocks
// start (and so on how the body was split): a string that is too long stops the block at its
// opening quote (structural bytes after it are not looked at), a bracket fault stops it at
// the bracket, and the separators before the stop are counted either way.
template <bool Full>
[[gnu::always_inline]] inline int framer::block(carry& c, std::uint8_t* kinds, const block_input& in) const noexcept {
  const unsigned n = Full ? 64 : in.n;
  std::uint64_t quote = in.quote;
  if (in.backslash != 0 || c.escape != 0) {
    std::uint64_t escape = c.escape;
    const std::uint64_t escaped = escaped_bytes(in.backslash, escape);
    quote &= ~escaped;
    // In a partial block the byte after the last valid one starts the next call.
    c.escape = Full ? escape : (escaped >> n) & 1;
  }
  const std::uint64_t carried = c.string;
  const std::size_t carried_start = c.string_start;
  const std::uint64_t in_string = prefix_xor(quote) ^ carried;
  c.string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);

  // String lengths, as sent, between the quotes. `stop`: offset of the opening quote of the
  // first string that is too long (0 for one that began in an earlier block), else 64.
  unsigned stop = 64;
  if (carried != 0 && quote != 0 &&
      in.pos + static_cast<unsigned>(std::countr_zero(quote)) - carried_start - 1 > max_string_bytes_) {
    stop = 0;
  }
  if (short_strings_) [[unlikely]] {
    // A run of max + 2 in-string bits (opening quote and max + 1 bytes) within the block.
    const std::size_t run = max_string_bytes_ + 2;
    std::uint64_t x = Full ? in_string : in_string & bits_below(n);
    std::size_t have = 1;
    while (x != 0 && have * 2 <= run) {
      x &= x >> have;
      have *= 2;
    }
    if (have < run) x &= x >> (run - have);
    if (x != 0) stop = std::min(stop, static_cast<unsigned>(std::countr_zero(x)));
  }
  if (c.string != 0) {
    // Still open at the end of the block: too long already counts, wherever blocks end.
    const unsigned opened = quote != 0 ? 63 - static_cast<unsigned>(std::countl_zero(quote)) : 0;
    if (quote != 0) c.string_start = in.pos + opened;
    if (in.pos + n - c.string_start - 1 > max_string_bytes_) stop = std::min(stop, opened);
  }

  const std::uint64_t before_stop = bits_below(stop);
  std::uint64_t outside = Full ? ~in_string : ~in_string & bits_below(n);
  outside &= before_stop;
  const std::uint64_t comma = in.comma & outside;
  const std::uint64_t open = in.open & outside;
  std::uint64_t brackets = (open | in.close) & outside;
  std::uint64_t separators = 0;
  unsigned stretch_start = 0;
  int result = 64;
  fault failure = stop < 64 ? fault::too_long : fault::none;
  while (brackets != 0) {
    const auto i = static_cast<unsigned>(std::countr_zero(brackets));
    if (c.depth == separator_depth_) separators |= comma & bits_from(stretch_start) & bits_below(i);
    const std::uint8_t square = static_cast<std::uint8_t>((in.square >> i) & 1);
    if ((open >> i) & 1) {
      // Push: remember whether this level opened with '['.
      if (outer_depth_ + c.depth + 1 > max_depth_) {
        failure = fault::too_deep;
        stop = i;
        stretch_start = 64;
        break;
      }
      kinds[c.depth++] = square;
    } else {
      // Pop: the bracket must close what its level opened.
      if (c.depth == 0 || kinds[c.depth - 1] != square) {
        failure = fault::mismatched_bracket;
        stop = i;
        stretch_start = 64;
        break;
      }
      if (--c.depth == 0) {
        result = static_cast<int>(i);
        break;
      }
    }
    stretch_start = i + 1;
    brackets &= brackets - 1;
  }
  if (result != 64) failure = fault::none;  // the value closed before any string fault
  if (result == 64 && c.depth == separator_depth_) separators |= comma & bits_from(stretch_start);
  if (separators != 0) {
    // Only the first element ending here can be long: the others lie within this block.
    const std::size_t first = in.pos + static_cast<unsigned>(std::countr_zero(separators));
    if (first - c.element_start > max_element_bytes_) {
      c.failure = fault::element_too_long;
      c.fault_at = first;
      return -1;
    }
    c.last_separator = in.pos + 63 - static_cast<unsigned>(std::countl_zero(separators));
    c.element_start = c.last_separator + 1;
    c.separators += static_cast<unsigned>(std::popcount(separators));
  }
  if (failure != fault::none) [[unlikely]] {
    c.failure = failure;
    c.fault_at = failure == fault::too_long && stop == 0 && carried != 0 ? carried_start : in.pos + stop;
    return -1;
  }
  if (result != 64 && in.pos + static_cast<unsigned>(result) - c.element_start > max_element_bytes_) {
    c.failure = fault::element_too_long;
    c.fault_at = in.pos + static_cast<unsigned>(result);
    return -1;
  }
  return result;
}

// The run of whole blocks flat_block() takes, from `pos`, with the carry converted to masks
// and back; returns where it stopped: `to`'s last whole block, or a block it cannot take.
// Inlined only into flat_run_for<Classifier>, which is compiled for the classifier's ISA.
template <class Classifier>
[[gnu::always_inline]] inline std::size_t framer::flat_run(carry& c, std::uint8_t* kinds, const char* source,
                                                          char* window, std::size_t from, std::size_t pos,
                                                          std::size_t to) const noexcept {
  if (c.escape != 0 || c.depth == 0 || c.depth > 3 || (c.depth >= 2 && kinds[1] != 0) ||
      (c.depth == 3 && kinds[2] != 1) || (c.string != 0 && pos - c.string_start > 64)) {
    return pos;
  }
  flat_state s{c.string, c.depth >= 2 ? ~std::uint64_t{0} : 0, c.depth == 3 ? ~std::uint64_t{0} : 0, c.separators,
               c.element_start};
  // No element may pass its limit here: block() takes the block where one might.
  const std::size_t stop = std::min(to, c.element_start + std::min(max_element_bytes_, to));
  const std::size_t start = pos;
  for (; pos + 64 <= stop; pos += 64) {
    char* const bytes = window + pos;
    if (source != nullptr) Classifier::copy(bytes, source + (pos - from));
    if (!flat_block(s, Classifier::classify(bytes), pos)) break;
  }
  if (pos != start) {
    // A string still open began in the last block taken: at its last quote (no backslashes).
    if (s.string != 0) {
      std::size_t quote = pos - 1;
      while (window[quote] != '"') --quote;
      c.string_start = quote;
    }
    if (s.separators != c.separators) c.last_separator = s.element_start - 1;
    c.string = s.string;
    c.element_start = s.element_start;
    c.separators = s.separators;
    c.depth = 1 + (s.row & 1) + (s.array & 1);
    kinds[1] = 0;
    kinds[2] = 1;
  }
  return pos;
}

// The scan loop, written once for every classifier. With `source`, the bytes come from there
// (its first byte is window byte `from`) and are stored into the window as they are
// classified: the window is written and examined in one pass. Whole blocks are loaded from the
// source only while they lie inside it; the last partial block is copied first and read from
// the window, whose padding makes the 64-byte load safe. Inlined only into
// scan_for<Classifier>, which is compiled for the classifier's ISA.
template <class Classifier>
[[gnu::always_inline]] inline std::size_t framer::scan_blocks(const char* source, char* window, std::size_t from,
                                                             std::size_t to) noexcept {
  carry c = carry_;
  std::uint8_t* const kinds = kinds_.data();
  std::size_t result = npos;
  std::size_t pos = from;
  int end = 64;
  const bool flat = flat_allowed();
  for (; pos + 64 <= to; pos += 64) {
    if (flat) {
      pos = flat_run_for<Classifier>(c, kinds, source, window, from, pos, to);
      if (pos + 64 > to) break;
    }
    char* const bytes = window + pos;
    if (source != nullptr) Classifier::copy(bytes, source + (pos - from));
    const block_masks m = Classifier::classify(bytes);
    end = block<true>(c, kinds, {m.quote, m.backslash, m.open, m.close, m.comma, m.square, 64, pos});
    if (end != 64) break;
  }
  if (end == 64 && pos < to) {
    const auto n = static_cast<unsigned>(to - pos);
    char* const bytes = window + pos;
    if (source != nullptr) std::memcpy(bytes, source + (pos - from), n);
    const block_masks m = Classifier::classify(bytes);
    const std::uint64_t valid = bits_below(n);
    end = block<false>(c, kinds, {m.quote & valid, m.backslash & valid, m.open, m.close, m.comma, m.square, n, pos});
  }
  if (end >= 0 && end < 64) {
    result = pos + static_cast<unsigned>(end);
    // The rest of the slice is copied all the same: it is the envelope's.
    const std::size_t copied = std::min(to, pos + 64);
    if (source != nullptr && copied < to) std::memcpy(window + copied, source + (copied - from), to - copied);
  }
  carry_ = c;
  return result;
}

// The kernels' instantiations, one pair per classifier, each compiled for its ISA. The flat run
// stays a function of its own (noinline: these have internal linkage, and GCC would inline it),
// as it was when the kernels were macros: the scan loop's registers are allocated without it.
template <>
[[gnu::noinline]] std::size_t framer::flat_run_for<native_classifier>(carry& c, std::uint8_t* kinds, const char* source, char* window,
                                                    std::size_t from, std::size_t pos, std::size_t to) const noexcept {
  return flat_run<native_classifier>(c, kinds, source, window, from, pos, to);
}

template <>
std::size_t framer::scan_for<native_classifier>(const char* source, char* window, std::size_t from,
                                                std::size_t to) noexcept {
  return scan_blocks<native_classifier>(source, window, from, to);
}

#if MASSIVE_FRAMER_X86
template <>
[[MASSIVE_AVX512_TARGET, gnu::noinline]] std::size_t framer::flat_run_for<avx512_classifier>(carry& c, std::uint8_t* kinds,
                                                                          const char* source, char* window,
                                                                          std::size_t from, std::size_t pos,
                                                                          std::size_t to) const noexcept {
  return flat_run<avx512_classifier>(c, kinds, source, window, from, pos, to);
}

template <>
[[MASSIVE_AVX512_TARGET]] std::size_t framer::scan_for<avx512_classifier>(const char* source, char* window,
                                                                      std::size_t from, std::size_t to) noexcept {
  return scan_blocks<avx512_classifier>(source, window, from, to);
}
#endif

std::size_t framer::scan(const char* source, char* window, std::size_t from, std::size_t to) noexcept {
#if MASSIVE_FRAMER_X86
  if (avx512_) return scan_for<avx512_classifier>(source, window, from, to);
#endif
  return scan_for<native_classifier>(source, window, from, to);
}

}  // namespace massive::detail
