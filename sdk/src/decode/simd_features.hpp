// The instruction-set features the decoding code was compiled with, as constant data that the
// baseline-compiled CPU check (cpu_support.cpp) can read without running any of that code.
#pragma once

namespace massive::detail {

namespace simd_feature {
inline constexpr unsigned sse4_2 = 1u << 0, popcnt = 1u << 1, pclmul = 1u << 2, avx = 1u << 3, avx2 = 1u << 4,
                          bmi = 1u << 5, bmi2 = 1u << 6, fma = 1u << 7;
}  // namespace simd_feature

/// simd_feature bits of the decoding translation units' target (decode/simd_features.cpp).
extern const unsigned simd_features_required;
/// MASSIVE_SIMD_ARCH as configured ("" for the compiler's default).
extern const char* const simd_arch_name;

}  // namespace massive::detail
