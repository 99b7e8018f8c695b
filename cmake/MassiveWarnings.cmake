# Warnings as errors on the project's own code only: third-party headers come in as SYSTEM
# (imported targets are SYSTEM by default), so their warnings never fail our build.
function(massive_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  endif()
endfunction()

# The ISA our decoding code is compiled for; see MASSIVE_SIMD_ARCH. Only decoding code gets
# it: the rest of the SDK stays on the baseline, so that it can refuse a CPU without the ISA
# (massive/cpu_support.hpp) instead of stopping on an illegal instruction.
function(massive_simd_arch target)
  if(MASSIVE_SIMD_ARCH AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    target_compile_options(${target} PRIVATE -march=${MASSIVE_SIMD_ARCH} -mtune=generic)
  endif()
endfunction()

# As massive_simd_arch, for some sources of a target (call it in the target's directory).
function(massive_simd_arch_sources)
  if(MASSIVE_SIMD_ARCH AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -march=${MASSIVE_SIMD_ARCH} -mtune=generic)
  endif()
endfunction()
