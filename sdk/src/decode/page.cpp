#include "decode/region.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

#if defined(__has_include) && __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(address, size) ((void)(address), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(address, size) ((void)(address), (void)(size))
#endif

namespace massive {
namespace {

std::size_t os_page_size() noexcept {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

// `to` is a power of two (a page size): a mask, not a division, as this runs twice a page
// (twice a stream frame).
std::size_t round_up(std::size_t n, std::size_t to) noexcept { return (n + to - 1) & ~(to - 1); }

// Rows hold views into their page's regions, and a returned region is reused for the next
// page, so a row kept past its page would silently read another page's bytes. In
// AddressSanitizer builds a region's written bytes (up to its high-water mark, after the
// retention cap) are poisoned while it is not in use, so that such a read is reported
// (use-after-poison); elsewhere these are no-ops. The header stays readable: the free list
// lives there. Bytes beyond the retention cap are not poisoned: they went back to the kernel
// and read as zeros.
void poison(detail::region* r) noexcept {
  ASAN_POISON_MEMORY_REGION(r->data(), r->touched - detail::region::header_bytes);
}

void unpoison(detail::region* r) noexcept {
  ASAN_UNPOISON_MEMORY_REGION(r->data(), r->touched - detail::region::header_bytes);
}

}  // namespace

namespace detail {

void pool_access::note_used(page_pool& pool, region* r, std::size_t used) noexcept {
  const std::size_t touched = round_up(region::header_bytes + used, os_page_size());
  if (touched > r->touched) {
    pool.bytes_touched_.fetch_add(touched - r->touched, std::memory_order_relaxed);
    r->touched = touched;
  }
}

void pool_access::retire(page_pool& pool, region* r) noexcept {
  // Give back the committed memory beyond the retention cap (outside the pool's lock).
  const std::size_t retained = pool.config_.retained_bytes_per_region;
  if (r->touched > retained) {
    auto* base = reinterpret_cast<std::byte*>(r);
    const std::size_t excess = r->touched - retained;
    ::madvise(base + retained, excess, MADV_DONTNEED);
    pool.bytes_released_.fetch_add(excess, std::memory_order_relaxed);
    r->touched = retained;
  }
  poison(r);
}

void pool_access::park(page_memory& memory) noexcept {
  if (!memory.pool_) return;
  if (memory.arena_ != nullptr) retire(*memory.pool_, memory.arena_);
  if (memory.rows_ != nullptr) retire(*memory.pool_, memory.rows_);
}

void pool_access::unpark(region* r) noexcept { unpoison(r); }

bool pool_access::holds_page_of(const page_memory& memory, const page_pool* pool) noexcept {
  return memory.pool_.get() == pool && memory.rows_ != nullptr && memory.arena_ != nullptr;
}

void pool_access::take(page_memory& memory, std::shared_ptr<page_pool>& pool, region*& rows,
                       region*& arena) noexcept {
  pool = std::move(memory.pool_);
  rows = std::exchange(memory.rows_, nullptr);
  arena = std::exchange(memory.arena_, nullptr);
}

void page_memory::reset() noexcept {
  if (pool_) {
    // Arena first: the free list is LIFO and a builder takes its rows region first, so the
    // next page's rows land in the region that already has rows' worth of memory committed.
    if (arena_ != nullptr) pool_access::release(*pool_, arena_);
    if (rows_ != nullptr) pool_access::release(*pool_, rows_);
    rows_ = arena_ = nullptr;
    pool_.reset();
  }
}

}  // namespace detail

page_pool::page_pool() : page_pool(options{}) {}

page_pool::page_pool(const options& config) : config_(config) {
  const std::size_t page = os_page_size();
  config_.region_bytes = round_up(config_.region_bytes < 2 * page ? 2 * page : config_.region_bytes, page);
  config_.retained_bytes_per_region = round_up(config_.retained_bytes_per_region, page);
  if (config_.retained_bytes_per_region < page) config_.retained_bytes_per_region = page;
}

page_pool::~page_pool() { trim(); }

detail::region* page_pool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (free_ != nullptr) {
      detail::region* r = free_;
      free_ = r->next;
      --free_count_;
      r->next = nullptr;
      bytes_retained_.fetch_sub(r->touched, std::memory_order_relaxed);
      unpoison(r);
      return r;
    }
  }
  // MAP_NORESERVE: the reservation is address space only; memory is committed (and counted
  // in bytes_touched) as the decoder writes it.
  void* p = ::mmap(nullptr, config_.region_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_NOHUGEPAGE
  // Keeps commitment at 4 KiB granularity, so that the touched figures are what is resident.
  ::madvise(p, config_.region_bytes, MADV_NOHUGEPAGE);
#endif
  auto* r = ::new (p) detail::region{};
  r->mapped = config_.region_bytes;
  r->touched = os_page_size();
  bytes_touched_.fetch_add(r->touched, std::memory_order_relaxed);
  regions_mapped_.fetch_add(1, std::memory_order_relaxed);
  return r;
}

void page_pool::release(detail::region* r) noexcept {
  detail::pool_access::retire(*this, r);
  {
    std::lock_guard lock(mutex_);
    if (free_count_ < config_.max_free_regions) {
      r->next = free_;
      free_ = r;
      ++free_count_;
      bytes_retained_.fetch_add(r->touched, std::memory_order_relaxed);
      return;
    }
  }
  bytes_released_.fetch_add(r->touched, std::memory_order_relaxed);
  regions_mapped_.fetch_sub(1, std::memory_order_relaxed);
  unpoison(r);  // the next mapping at this address starts clean
  ::munmap(r, r->mapped);
}

void page_pool::trim() noexcept {
  detail::region* list = nullptr;
  {
    std::lock_guard lock(mutex_);
    list = std::exchange(free_, nullptr);
    free_count_ = 0;
  }
  while (list != nullptr) {
    detail::region* r = list;
    list = r->next;
    bytes_retained_.fetch_sub(r->touched, std::memory_order_relaxed);
    bytes_released_.fetch_add(r->touched, std::memory_order_relaxed);
    regions_mapped_.fetch_sub(1, std::memory_order_relaxed);
    unpoison(r);
    ::munmap(r, r->mapped);
  }
}

page_pool_stats page_pool::stats() const noexcept {
  page_pool_stats s;
  s.bytes_touched = bytes_touched_.load(std::memory_order_relaxed);
  s.bytes_released = bytes_released_.load(std::memory_order_relaxed);
  s.bytes_retained = bytes_retained_.load(std::memory_order_relaxed);
  s.regions_mapped = regions_mapped_.load(std::memory_order_relaxed);
  std::lock_guard lock(mutex_);
  s.regions_free = free_count_;
  return s;
}

std::shared_ptr<page_pool> make_page_pool() { return std::make_shared<page_pool>(); }

std::shared_ptr<page_pool> make_page_pool(const page_pool::options& config) {
  return std::make_shared<page_pool>(config);
}

}  // namespace massive
