// Compiled with MASSIVE_SIMD_ARCH like the rest of decode/: its predefined macros say what the
// decoding code may use. Constant data only: reading it runs no instruction of that set.
#include "decode/simd_features.hpp"

namespace massive::detail {

const unsigned simd_features_required = 0
#if defined(__SSE4_2__)
    | simd_feature::sse4_2
#endif
#if defined(__POPCNT__)
    | simd_feature::popcnt
#endif
#if defined(__PCLMUL__)
    | simd_feature::pclmul
#endif
#if defined(__AVX__)
    | simd_feature::avx
#endif
#if defined(__AVX2__)
    | simd_feature::avx2
#endif
#if defined(__BMI__)
    | simd_feature::bmi
#endif
#if defined(__BMI2__)
    | simd_feature::bmi2
#endif
#if defined(__FMA__)
    | simd_feature::fma
#endif
    ;

const char* const simd_arch_name = MASSIVE_SIMD_ARCH_NAME;

}  // namespace massive::detail
