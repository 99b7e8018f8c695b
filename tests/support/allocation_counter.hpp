// Counts the heap allocations made on the current thread, calls and bytes, for allocation
// gates. Every way into the C and C++ heaps is counted once:
// - every global operator new overload (plain, array, nothrow, aligned), and
// - the C allocator: malloc, calloc, realloc, reallocarray, aligned_alloc, posix_memalign,
//   memalign, valloc and pvalloc, which OpenSSL, zlib and the C library itself call.
// Without a sanitizer both are replaced in the test executable (glibc lets an executable
// interpose them) and forward to glibc's own allocator. Under ASan, which owns the allocator,
// the C allocator is counted through its allocator hook and operator new by replacements that
// forward to ASan's own (allocation_counter.cpp), so the gates run in the ASan+UBSan build.
// ThreadSanitizer's hook misses aligned allocations (aligned_alloc, posix_memalign, memalign
// and valloc counted 0 calls, reallocarray 7 B for 56): under it the counter is compiled out,
// counting_enabled is false and gates must skip. realloc counts as one call of its new size
// (it may move the block); frees are not counted. What is not heap is not here: mmap'd memory
// (the page_pool's regions: see tests/support/pool_residency.hpp), thread stacks, static
// storage.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_THREAD__)
#define MASSIVE_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MASSIVE_THREAD_SANITIZER 1
#endif
#endif

namespace massive::test {

inline constexpr bool counting_enabled =
#ifdef MASSIVE_THREAD_SANITIZER
    false;
#else
    true;
#endif

struct allocation_totals {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

/// Counts the allocations made on this thread while it is alive. Scopes nest: each sees
/// everything allocated since it opened, including inside inner scopes.
class allocation_scope {
 public:
  allocation_scope() noexcept;
  allocation_scope(const allocation_scope&) = delete;
  allocation_scope& operator=(const allocation_scope&) = delete;

  /// What this thread allocated since the scope opened, operator new and C allocator alike.
  allocation_totals totals() const noexcept;
  std::uint64_t calls() const noexcept { return totals().calls; }
  std::uint64_t bytes() const noexcept { return totals().bytes; }
  /// The part of totals() that went through operator new.
  allocation_totals operator_new() const noexcept;
  /// The part of totals() that went through the C allocator (malloc and its kin).
  allocation_totals c_allocator() const noexcept;

 private:
  allocation_totals new_start_;
  allocation_totals c_start_;
};

/// This thread's running totals since it started, operator new and C allocator alike.
allocation_totals thread_totals() noexcept;

}  // namespace massive::test
