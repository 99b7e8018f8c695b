#include "allocation_counter.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace massive::bench {
namespace {
thread_local allocation_totals totals;
}

allocation_totals allocated_on_this_thread() noexcept { return totals; }

}  // namespace massive::bench

namespace {

void* counted_allocate(std::size_t size, std::size_t alignment, bool nothrow) {
  auto& t = massive::bench::totals;
  ++t.calls;
  t.bytes += size;
  if (size == 0) size = 1;
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(size)
                // aligned_alloc wants a size that is a multiple of the alignment.
                : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p == nullptr && !nothrow) throw std::bad_alloc();
  return p;
}

constexpr std::size_t plain = alignof(std::max_align_t);
std::size_t align_of(std::align_val_t a) { return static_cast<std::size_t>(a); }

}  // namespace

void* operator new(std::size_t n) { return counted_allocate(n, plain, false); }
void* operator new[](std::size_t n) { return counted_allocate(n, plain, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_allocate(n, plain, true);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_allocate(n, plain, true);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return counted_allocate(n, align_of(a), false);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return counted_allocate(n, align_of(a), false);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_allocate(n, align_of(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_allocate(n, align_of(a), true);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
