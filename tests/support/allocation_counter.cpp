#include "allocation_counter.hpp"

#include <cerrno>
#include <cstdlib>
#include <new>

#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

// ASan owns the C allocator and operator new: replacing them would bypass its checks, so under
// it the counter reads its allocator hook instead. g++ defines __SANITIZE_ADDRESS__; clang
// answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define MASSIVE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MASSIVE_ADDRESS_SANITIZER 1
#endif
#endif

namespace massive::test {
namespace {
// Constant-initialised and trivially destructible: reading them never allocates, so the
// allocation functions below may use them from any thread at any time.
thread_local allocation_totals operator_new_on_this_thread;
thread_local allocation_totals c_allocator_on_this_thread;

allocation_totals since(const allocation_totals& now, const allocation_totals& start) noexcept {
  return {now.calls - start.calls, now.bytes - start.bytes};
}
}  // namespace

allocation_totals thread_totals() noexcept {
  return {operator_new_on_this_thread.calls + c_allocator_on_this_thread.calls,
          operator_new_on_this_thread.bytes + c_allocator_on_this_thread.bytes};
}

allocation_scope::allocation_scope() noexcept
    : new_start_(operator_new_on_this_thread), c_start_(c_allocator_on_this_thread) {}

allocation_totals allocation_scope::operator_new() const noexcept {
  return since(operator_new_on_this_thread, new_start_);
}

allocation_totals allocation_scope::c_allocator() const noexcept {
  return since(c_allocator_on_this_thread, c_start_);
}

allocation_totals allocation_scope::totals() const noexcept {
  const allocation_totals cxx = operator_new();
  const allocation_totals c = c_allocator();
  return {cxx.calls + c.calls, cxx.bytes + c.bytes};
}

#ifndef MASSIVE_THREAD_SANITIZER
namespace {
void count(allocation_totals& totals, std::size_t bytes) noexcept {
  ++totals.calls;
  totals.bytes += bytes;
}
void count_c(std::size_t bytes) noexcept { count(c_allocator_on_this_thread, bytes); }
void count_new(std::size_t bytes) noexcept { count(operator_new_on_this_thread, bytes); }
}  // namespace
#endif

}  // namespace massive::test

#if defined(MASSIVE_ADDRESS_SANITIZER)
// ASan's allocator calls the installed hook on the allocating thread for every block it
// hands out (malloc and its kin, operator new, a realloc's new block, the C library's and
// OpenSSL's own calls), with the size asked for. g++ 12 ships no
// <sanitizer/allocator_interface.h>: the runtime's entry point is declared here.
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, std::size_t), void (*free_hook)(const volatile void*));

namespace {

using massive::test::count_c;
using massive::test::count_new;

// Set while one of the operator new below runs: the hook then leaves the block to it.
thread_local bool in_operator_new = false;

void on_allocation(const volatile void*, std::size_t size) {
  if (!in_operator_new) count_c(size);
}
void on_free(const volatile void*) {}

// Installed before main, before any scope can open; a runtime without room for the hooks
// would count nothing, and every gate would pass: abort instead.
[[maybe_unused]] const bool hooks_installed = [] {
  if (__sanitizer_install_malloc_and_free_hooks(on_allocation, on_free) == 0) std::abort();
  return true;
}();

// operator new is told from the C allocator by replacements that count, then call the
// sanitizer's own operator new (the next definition after this executable's), so that the
// sanitizer still pairs every new with its delete. Each resolves its symbol on first use.
template <class Signature>
Signature* sanitizer_definition(const char* symbol) noexcept {
  void* found = dlsym(RTLD_NEXT, symbol);
  if (found == nullptr) std::abort();
  return reinterpret_cast<Signature*>(found);
}

// Counts, then lets `call` resolve its definition (once: a static of its own) and call it.
template <class Call>
void* counted_new(std::size_t size, Call call) {
  count_new(size);
  struct marked {
    marked() noexcept { in_operator_new = true; }
    ~marked() { in_operator_new = false; }
  } mark;
  return call();
}

}  // namespace

// MASSIVE_FORWARD_NEW(<symbol>, <signature>, <arguments>): one replacement of operator new.
#define MASSIVE_FORWARD_NEW(symbol, signature, ...)                                         \
  counted_new(n, [&] {                                                                       \
    static signature* const next = sanitizer_definition<signature>(symbol);                  \
    return next(__VA_ARGS__);                                                                \
  })

using plain_new = void*(std::size_t);
using nothrow_new = void*(std::size_t, const std::nothrow_t&) noexcept;
using aligned_new = void*(std::size_t, std::align_val_t);
using aligned_nothrow_new = void*(std::size_t, std::align_val_t, const std::nothrow_t&) noexcept;

void* operator new(std::size_t n) { return MASSIVE_FORWARD_NEW("_Znwm", plain_new, n); }
void* operator new[](std::size_t n) { return MASSIVE_FORWARD_NEW("_Znam", plain_new, n); }
void* operator new(std::size_t n, const std::nothrow_t& t) noexcept {
  return MASSIVE_FORWARD_NEW("_ZnwmRKSt9nothrow_t", nothrow_new, n, t);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return MASSIVE_FORWARD_NEW("_ZnamRKSt9nothrow_t", nothrow_new, n, t);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return MASSIVE_FORWARD_NEW("_ZnwmSt11align_val_t", aligned_new, n, a);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return MASSIVE_FORWARD_NEW("_ZnamSt11align_val_t", aligned_new, n, a);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return MASSIVE_FORWARD_NEW("_ZnwmSt11align_val_tRKSt9nothrow_t", aligned_nothrow_new, n, a, t);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return MASSIVE_FORWARD_NEW("_ZnamSt11align_val_tRKSt9nothrow_t", aligned_nothrow_new, n, a, t);
}
#undef MASSIVE_FORWARD_NEW
#elif !defined(MASSIVE_THREAD_SANITIZER)
// glibc's allocator under its own names: the replacements below count, then call these.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}

namespace {

using massive::test::count_c;
using massive::test::count_new;

std::size_t page_size() noexcept { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

void* counted_aligned(std::size_t alignment, std::size_t size) noexcept {
  count_c(size);
  return __libc_memalign(alignment, size);
}

void* counted_new(std::size_t size, std::size_t alignment, bool nothrow) {
  if (size == 0) size = 1;
  count_new(size);
  void* p = alignment <= alignof(std::max_align_t) ? __libc_malloc(size) : __libc_memalign(alignment, size);
  if (p == nullptr && !nothrow) throw std::bad_alloc();
  return p;
}

constexpr std::size_t plain = alignof(std::max_align_t);
std::size_t align_of(std::align_val_t a) { return static_cast<std::size_t>(a); }

}  // namespace

// The C allocator (glibc documents which functions a replacement must provide).
extern "C" {
void* malloc(std::size_t size) noexcept {
  count_c(size);
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (!__builtin_mul_overflow(n, size, &bytes)) count_c(bytes);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  if (p == nullptr || size != 0) count_c(size);
  return __libc_realloc(p, size);
}
void* reallocarray(void* p, std::size_t n, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(p, bytes);
}
void free(void* p) noexcept { __libc_free(p); }
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept { return counted_aligned(alignment, size); }
void* memalign(std::size_t alignment, std::size_t size) noexcept { return counted_aligned(alignment, size); }
int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = counted_aligned(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t size) noexcept { return counted_aligned(page_size(), size); }
void* pvalloc(std::size_t size) noexcept {
  return counted_aligned(page_size(), (size + page_size() - 1) / page_size() * page_size());
}
}

void* operator new(std::size_t n) { return counted_new(n, plain, false); }
void* operator new[](std::size_t n) { return counted_new(n, plain, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_new(n, plain, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_new(n, plain, true); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_new(n, align_of(a), false); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_new(n, align_of(a), false); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_new(n, align_of(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_new(n, align_of(a), true);
}

void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
#endif
