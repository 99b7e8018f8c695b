// Counts global operator new calls and bytes on the current thread, for allocation gates.
// The counter replaces every global operator new/delete overload (plain, array, nothrow,
// sized, aligned). Under sanitizers (MASSIVE_SANITIZED) the sanitizer owns operator new, so
// the counter is compiled out and counting_enabled is false: gates must then skip.
#pragma once

#include <cstddef>
#include <cstdint>

namespace massive::test {

inline constexpr bool counting_enabled =
#ifdef MASSIVE_SANITIZED
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

  /// What this thread allocated since the scope opened.
  allocation_totals totals() const noexcept;
  std::uint64_t calls() const noexcept { return totals().calls; }
  std::uint64_t bytes() const noexcept { return totals().bytes; }

 private:
  allocation_totals start_;
};

/// This thread's running totals since it started.
allocation_totals thread_totals() noexcept;

}  // namespace massive::test
