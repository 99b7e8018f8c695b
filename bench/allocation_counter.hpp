// Bytes requested from the global operator new on the calling thread, for the benchmark's
// "bytes allocated per iteration" counter. The benchmark binary replaces operator new; the
// count is a plain thread_local add, so counting costs next to nothing in the timed loop.
#pragma once

#include <cstdint>

namespace massive::bench {

struct allocation_totals {
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

/// What this thread has allocated through operator new since it started.
allocation_totals allocated_on_this_thread() noexcept;

}  // namespace massive::bench
