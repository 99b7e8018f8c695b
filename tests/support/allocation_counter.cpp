#include "allocation_counter.hpp"

#include <cstdlib>
#include <new>

namespace massive::test {
namespace {
thread_local allocation_totals totals_on_this_thread;
}

allocation_totals thread_totals() noexcept { return totals_on_this_thread; }

allocation_scope::allocation_scope() noexcept : start_(totals_on_this_thread) {}

allocation_totals allocation_scope::totals() const noexcept {
  return {totals_on_this_thread.calls - start_.calls, totals_on_this_thread.bytes - start_.bytes};
}

}  // namespace massive::test

#ifndef MASSIVE_SANITIZED
namespace {

void* counted_allocate(std::size_t size, std::size_t alignment, bool nothrow) {
  auto& totals = massive::test::totals_on_this_thread;
  ++totals.calls;
  totals.bytes += size;
  if (size == 0) size = 1;
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    p = std::malloc(size);
  } else {
    // aligned_alloc wants a size that is a multiple of the alignment.
    p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  }
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
#endif
