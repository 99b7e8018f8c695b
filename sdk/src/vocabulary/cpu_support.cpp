// Compiled without MASSIVE_SIMD_ARCH (sdk/CMakeLists.txt), so that it runs on the CPUs it must
// refuse. What the decoding code needs is read from decode/simd_features.cpp, which is
// compiled with it and holds only constant data.
#include "massive/cpu_support.hpp"

#include "decode/simd_features.hpp"

#include <string>

namespace massive::detail {

namespace {

std::string missing_features() {
  std::string missing;
#if defined(__x86_64__) || defined(_M_X64)
  __builtin_cpu_init();
  const auto check = [&](unsigned bit, bool present, const char* name) {
    if ((simd_features_required & bit) != 0 && !present) missing += missing.empty() ? name : std::string(", ") + name;
  };
  check(simd_feature::sse4_2, __builtin_cpu_supports("sse4.2"), "SSE4.2");
  check(simd_feature::popcnt, __builtin_cpu_supports("popcnt"), "POPCNT");
  check(simd_feature::pclmul, __builtin_cpu_supports("pclmul"), "PCLMUL");
  check(simd_feature::avx, __builtin_cpu_supports("avx"), "AVX");
  check(simd_feature::avx2, __builtin_cpu_supports("avx2"), "AVX2");
  check(simd_feature::bmi, __builtin_cpu_supports("bmi"), "BMI");
  check(simd_feature::bmi2, __builtin_cpu_supports("bmi2"), "BMI2");
  check(simd_feature::fma, __builtin_cpu_supports("fma"), "FMA");
#endif
  return missing;
}

}  // namespace

void require_cpu_support() {
  static const std::string missing = missing_features();
  if (!missing.empty()) {
    throw unsupported_cpu("massive: this CPU lacks " + missing + ", which the SDK's decoding code was built for (MASSIVE_SIMD_ARCH=" +
                          simd_arch_name + "); rebuild the SDK with -DMASSIVE_SIMD_ARCH= (empty: the compiler's default) or an -march this CPU has");
  }
}

}  // namespace massive::detail
