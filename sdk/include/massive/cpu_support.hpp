// The SDK's decoding code is compiled for an instruction set (the build option
// MASSIVE_SIMD_ARCH, haswell by default on x86-64: simdjson's On Demand front end picks its
// kernel at compile time). A CPU without it would stop at the first such instruction with
// SIGILL; instead, the first decoder made checks the CPU and throws unsupported_cpu.
#pragma once

#include "massive/error.hpp"

namespace massive {

/// This CPU lacks instructions the SDK's decoding code was built for. The message names the
/// missing features and the build option (MASSIVE_SIMD_ARCH) to rebuild with.
class unsupported_cpu : public error {
 public:
  using error::error;
};

namespace detail {
/// Throws unsupported_cpu unless this CPU has every feature the decoding code was compiled
/// with. Compiled for the baseline ISA, so it runs on any x86-64; cheap after the first call.
void require_cpu_support();
}  // namespace detail

}  // namespace massive
