#include "pool_residency.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace massive::test {

std::uint64_t resident_bytes(const void* first, std::size_t length) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // In slices, so that a 4 GiB region needs 256 KiB of flags, not 1 MiB per region.
  constexpr std::size_t slice_pages = 64 * 1024;
  std::vector<unsigned char> flags(slice_pages);
  std::uint64_t resident = 0;
  const auto* at = static_cast<const char*>(first);
  std::size_t pages = (length + page - 1) / page;
  while (pages > 0) {
    const std::size_t n = std::min(pages, slice_pages);
    if (::mincore(const_cast<char*>(at), n * page, flags.data()) != 0) {
      throw std::runtime_error("mincore failed on a region of the pool");
    }
    for (std::size_t i = 0; i < n; ++i) resident += flags[i] & 1;
    at += n * page;
    pages -= n;
  }
  return resident * page;
}

pool_residency residency_of_regions(std::size_t region_bytes) {
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) throw std::runtime_error("cannot read /proc/self/maps");
  pool_residency found;
  char line[512];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    unsigned long first = 0;
    unsigned long last = 0;
    unsigned long inode = 0;
    char access[5] = {};
    int path_at = 0;
    if (std::sscanf(line, "%lx-%lx %4s %*s %*s %lu %n", &first, &last, access, &inode, &path_at) < 4) continue;
    const std::size_t length = last - first;
    const bool anonymous = inode == 0 && (line[path_at] == '\n' || line[path_at] == '\0');
    // The pool maps its regions read-write. AddressSanitizer reserves address space
    // inaccessible (---p: its shadow gap, its allocator's space), in mappings that are whole
    // numbers of 4 GiB too: 546 regions were counted before this check.
    const bool read_write = access[0] == 'r' && access[1] == 'w';
    if (!anonymous || !read_write || length < region_bytes || length % region_bytes != 0) continue;
    found.regions += length / region_bytes;
    found.resident += resident_bytes(reinterpret_cast<const void*>(first), length);
  }
  std::fclose(maps);
  return found;
}

}  // namespace massive::test
