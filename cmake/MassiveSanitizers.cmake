# MASSIVE_SANITIZE=ON builds everything with ASan+UBSan; MASSIVE_TSAN=ON with ThreadSanitizer
# (the two cannot share a build). The allocation gates count through ASan's allocator hooks and
# skip themselves under ThreadSanitizer (tests/support/allocation_counter.hpp).

# The sanitizer builds link with lld where it is installed (scripts/install-deps.sh installs it):
# their executables carry line tables and the sanitizers' metadata, and GNU ld took 75 s of the
# ASan+UBSan build's time to link them (the CLI 5.4 s, lld 1.6 s). The optimised build, whose
# layout the benchmarks measure, keeps the default linker.
include(CheckLinkerFlag)
macro(massive_use_lld)
  check_linker_flag(CXX -fuse-ld=lld MASSIVE_HAVE_LLD)
  if(MASSIVE_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endmacro()
if(MASSIVE_SANITIZE AND MASSIVE_TSAN)
  message(FATAL_ERROR "MASSIVE_SANITIZE and MASSIVE_TSAN are exclusive: configure one build of each")
endif()
if(MASSIVE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang 14's function sanitizer (part of its "undefined", not of g++'s) cannot compile
    # coroutines: "Cannot represent a difference across sections".
    add_compile_options(-fno-sanitize=function)
    # The runtime as a shared library, as g++ links it: the allocation counter's operator new
    # forwards to the next definition (tests/support/allocation_counter.cpp), which must be
    # ASan's. Linked statically, ASan's operator new is left out of an executable that defines
    # its own, the next one is libstdc++'s, and every delete is reported as a mismatch.
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                    OUTPUT_VARIABLE massive_asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
    get_filename_component(massive_asan_runtime_dir "${massive_asan_runtime}" DIRECTORY)
    add_link_options(-shared-libasan -Wl,-rpath,${massive_asan_runtime_dir})
  endif()
  # Executables not position-independent: ASan's metadata for every global made the CLI a PIE
  # with 4.1 million relative relocations, which the loader applied at each start (0.22 s, 40,000
  # page faults for `massive stocks trades --help`; 0.12 s without). The CLI tests start the CLI
  # over 150 times. Libraries and objects are unchanged (PIC links into either).
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
  massive_use_lld()
endif()
# With g++, -O1: ThreadSanitizer slows instrumented code 5-15x. With clang (what scripts/test.sh
# uses), the build type's level: unoptimised, the suites labelled tsan compiled in 140 s against
# 228 s at -O1 and ran in 52 s against 34 s, 80 s less in all.
# OpenSSL and the compiled parts of Boost are not instrumented: tests/tsan.supp lists the
# third-party frames TSan cannot judge, and why (ctest passes it to every test labelled tsan).
# TSan does not model std::atomic_thread_fence (g++ refuses it under -Werror=tsan), and Asio
# orders with fences in two places: its reference counts (a release decrement, then an acquire
# fence) and its "fenced blocks" around handler calls. BOOST_ASIO_DISABLE_STD_ATOMIC makes the
# counts boost::detail::atomic_count, whose acquire-release decrement TSan does see;
# BOOST_ASIO_DISABLE_FENCED_BLOCK drops the fenced blocks, whose ordering the scheduler's and the
# strands' mutexes already give (and TSan sees those). Neither hides a race: a fence was
# invisible to TSan anyway, and on x86-64 these fences compile to no instruction.
# g++ 12 at -O1 under -fsanitize=thread reports Asio's aligned_delete (std::free of a block
# from std::aligned_alloc, boost/asio/detail/memory.hpp) as -Wmismatched-new-delete: a false
# positive of its inlining that no other build of ours shows, silenced in this build only.
if(MASSIVE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-O1 -Wno-mismatched-new-delete)
  endif()
  add_link_options(-fsanitize=thread)
  massive_use_lld()
  add_compile_definitions(BOOST_ASIO_DISABLE_STD_ATOMIC=1 BOOST_ASIO_DISABLE_FENCED_BLOCK=1)
endif()
