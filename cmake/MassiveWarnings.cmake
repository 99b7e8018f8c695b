# Warnings as errors on the project's own code only (MASSIVE_WERROR: a build of this repository,
# not a project that adds it, whose compiler may warn of what ours does not): third-party
# headers come in as SYSTEM (imported targets are SYSTEM by default), so their warnings never
# fail our build.
function(massive_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic $<$<BOOL:${MASSIVE_WERROR}>:-Werror>)
  endif()
  # g++ 12 at -O1 and -O2 (not -O3) takes the class-specific operator new and delete of Asio's
  # coroutine frames (awaitable_frame_base, both through thread_info_base) for a mismatched
  # pair once inlined into a coroutine's ramp: a false positive that stopped every -O2 build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-mismatched-new-delete)
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
