// A page_pool region: one anonymous mapping that reserves address space and is committed by
// the kernel page by page as it is written. Its header lives in its own first bytes, so the
// pool needs no heap memory to track regions.
#pragma once

#include "massive/page.hpp"

#include <cstddef>
#include <memory>

namespace massive::detail {

struct region {
  static constexpr std::size_t header_bytes = 64;

  region* next = nullptr;   // free-list link
  std::size_t mapped = 0;   // length of the mapping, header included
  std::size_t touched = 0;  // bytes from the mapping's start written at least once, page-rounded

  std::byte* data() noexcept { return reinterpret_cast<std::byte*>(this) + header_bytes; }
  std::size_t capacity() const noexcept { return mapped - header_bytes; }
};

/// The decoder's door into page_pool's private interface.
class pool_access {
 public:
  static region* acquire(page_pool& pool) { return pool.acquire(); }
  static void release(page_pool& pool, region* r) noexcept { pool.release(r); }
  /// Records that the first `used` bytes of r's data have been written.
  static void note_used(page_pool& pool, region* r, std::size_t used) noexcept;

  // A page's memory kept by its decoder for the next page rather than returned to the pool
  // (the stream's frames: one pool round trip less per frame). park() does what release()
  // does to a region but for the free list: the committed memory beyond the retention cap
  // goes back to the kernel and, in sanitizer builds, the bytes are poisoned, so that a view
  // kept past its page is reported as it would be after release(). unpark() undoes the
  // poisoning when the memory is reused. take() empties `memory`, moving its pool and regions
  // to the given places, which must be empty.
  static void park(page_memory& memory) noexcept;
  /// What release() and park() do to a region that leaves use: the retention cap, the poison.
  static void retire(page_pool& pool, region* r) noexcept;
  static void unpark(region* r) noexcept;
  /// Whether `memory` holds both regions of a page, from `pool`.
  static bool holds_page_of(const page_memory& memory, const page_pool* pool) noexcept;
  static void take(page_memory& memory, std::shared_ptr<page_pool>& pool, region*& rows,
                   region*& arena) noexcept;
};

}  // namespace massive::detail
