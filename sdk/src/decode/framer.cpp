#include "decode/framer.hpp"

#include <bit>

#if defined(__AVX2__) || defined(__SSE2__) || defined(__PCLMUL__)
#include <immintrin.h>
#endif

namespace massive::detail {
namespace {

struct block_masks {
  std::uint64_t quote;
  std::uint64_t backslash;
  std::uint64_t open;   // '{' or '['
  std::uint64_t close;  // '}' or ']'
  std::uint64_t comma;
};

// '[' | 0x20 == '{' and ']' | 0x20 == '}', and no other byte maps there: one comparison
// finds both kinds of opening bracket, one both kinds of closing bracket.
#if defined(__AVX2__)
inline block_masks classify(const char* p) noexcept {
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
  return {bits(lo, hi, '"'), bits(lo, hi, '\\'), bits(lo_folded, hi_folded, '{'),
          bits(lo_folded, hi_folded, '}'), bits(lo, hi, ',')};
}
#elif defined(__SSE2__)
inline block_masks classify(const char* p) noexcept {
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
  return {bits('"', false), bits('\\', false), bits('{', true), bits('}', true), bits(',', false)};
}
#else
inline block_masks classify(const char* p) noexcept {
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
  }
  return m;
}
#endif

// Bit i set when an odd number of quote bits are at or below i.
inline std::uint64_t prefix_xor(std::uint64_t x) noexcept {
#if defined(__PCLMUL__)
  const __m128i product = _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<long long>(x)),
                                               _mm_set1_epi8(-1), 0);
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(product));
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
inline std::uint64_t escaped_bytes(std::uint64_t backslash, std::uint64_t& carry) noexcept {
  constexpr std::uint64_t even_bits = 0x5555555555555555ULL;
  backslash &= ~carry;  // an escaped backslash starts nothing
  const std::uint64_t follows_escape = (backslash << 1) | carry;
  const std::uint64_t odd_starts = backslash & ~even_bits & ~follows_escape;
  std::uint64_t even_run_ends = 0;
  carry = __builtin_add_overflow(odd_starts, backslash, &even_run_ends) ? 1 : 0;
  const std::uint64_t invert = even_run_ends << 1;
  return (even_bits ^ invert) & follows_escape;
}

inline std::uint64_t bits_from(unsigned a) noexcept { return a >= 64 ? 0 : ~std::uint64_t{0} << a; }
inline std::uint64_t bits_below(unsigned b) noexcept {
  return b == 0 ? 0 : ~std::uint64_t{0} >> (64 - b);
}

}  // namespace

framer::framer(std::size_t max_depth, std::size_t max_string_bytes)
    : max_depth_(max_depth), max_string_bytes_(max_string_bytes), kinds_(max_depth / 64 + 2, 0) {}

void framer::start_array(std::size_t outer_depth) noexcept {
  outer_depth_ = outer_depth;
  depth_ = 1;
  separator_depth_ = 1;
  kinds_[0] = 1;
  escape_carry_ = 0;
  string_carry_ = 0;
  string_bytes_ = 0;
  last_separator_ = npos;
  separators_ = 0;
  fault_ = fault::none;
}

void framer::start_value(std::size_t outer_depth) noexcept {
  start_array(outer_depth);
  depth_ = 0;
  separator_depth_ = npos;
}

inline bool framer::push(bool square) noexcept {
  if (outer_depth_ + depth_ + 1 > max_depth_) {
    fault_ = fault::too_deep;
    return false;
  }
  const std::size_t level = depth_++;
  const std::uint64_t bit = std::uint64_t{1} << (level % 64);
  if (square) {
    kinds_[level / 64] |= bit;
  } else {
    kinds_[level / 64] &= ~bit;
  }
  return true;
}

inline bool framer::pop(bool square) noexcept {
  if (depth_ == 0) {
    fault_ = fault::mismatched_bracket;
    return false;
  }
  const std::size_t level = depth_ - 1;
  const bool opened_square = (kinds_[level / 64] >> (level % 64)) & 1;
  if (opened_square != square) {
    fault_ = fault::mismatched_bracket;
    return false;
  }
  depth_ = level;
  return true;
}

std::size_t framer::scan(const char* data, std::size_t from, std::size_t to) noexcept {
  for (std::size_t pos = from; pos < to; pos += 64) {
    const std::size_t remaining = to - pos;
    const unsigned n = remaining < 64 ? static_cast<unsigned>(remaining) : 64;
    const std::uint64_t valid = bits_below(n);
    const block_masks m = classify(data + pos);

    std::uint64_t quote = m.quote & valid;
    const std::uint64_t backslash = m.backslash & valid;
    if (backslash != 0 || escape_carry_ != 0) {
      std::uint64_t carry = escape_carry_;
      const std::uint64_t escaped = escaped_bytes(backslash, carry);
      quote &= ~escaped;
      // In a partial block the byte after the last valid one starts the next call.
      escape_carry_ = n == 64 ? carry : (escaped >> n) & 1;
    }
    const std::uint64_t in_string = prefix_xor(quote) ^ string_carry_;
    string_carry_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);
    if (string_carry_ != 0) {
      string_bytes_ = quote != 0 ? n - (63 - static_cast<unsigned>(std::countl_zero(quote)))
                                 : string_bytes_ + n;
      if (string_bytes_ > max_string_bytes_) {
        fault_ = fault::too_long;
        return npos;
      }
    }

    const std::uint64_t outside = ~in_string & valid;
    const std::uint64_t comma = m.comma & outside;
    std::uint64_t brackets = (m.open | m.close) & outside;
    std::uint64_t separators = 0;
    unsigned stretch_start = 0;
    while (brackets != 0) {
      const auto i = static_cast<unsigned>(std::countr_zero(brackets));
      if (depth_ == separator_depth_) separators |= comma & bits_from(stretch_start) & bits_below(i);
      const char c = data[pos + i];
      const bool square = (c & 0x20) == 0;
      if ((m.open >> i) & 1) {
        if (!push(square)) return npos;
      } else {
        if (!pop(square)) return npos;
        if (depth_ == 0) {
          if (separators != 0) {
            last_separator_ = pos + 63 - static_cast<unsigned>(std::countl_zero(separators));
            separators_ += static_cast<unsigned>(std::popcount(separators));
          }
          return pos + i;
        }
      }
      stretch_start = i + 1;
      brackets &= brackets - 1;
    }
    if (depth_ == separator_depth_) separators |= comma & bits_from(stretch_start);
    if (separators != 0) {
      last_separator_ = pos + 63 - static_cast<unsigned>(std::countl_zero(separators));
      separators_ += static_cast<unsigned>(std::popcount(separators));
    }
  }
  return npos;
}

}  // namespace massive::detail
