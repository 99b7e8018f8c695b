// A page_pool region: one anonymous mapping that reserves address space and is committed by
// the kernel page by page as it is written. Its header lives in its own first bytes, so the
// pool needs no heap memory to track regions.
#pragma once

#include "massive/page.hpp"

#include <cstddef>

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
};

}  // namespace massive::detail
