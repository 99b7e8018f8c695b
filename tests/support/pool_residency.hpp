// What the kernel says is resident in a page_pool's regions, to check the pool's own
// accounting (page_pool_stats) against: mincore over every mapping the pool can have made.
#pragma once

#include <cstddef>
#include <cstdint>

namespace massive::test {

/// Resident bytes (whole 4 KiB pages) in [first, first + length), as mincore reports them.
std::uint64_t resident_bytes(const void* first, std::size_t length);

struct pool_residency {
  std::size_t regions = 0;     ///< region mappings found
  std::uint64_t resident = 0;  ///< resident bytes over all of them
};

/// Every anonymous mapping of this process whose length is a whole number of `region_bytes`
/// (page_pool::options::region_bytes; adjacent regions may be merged into one mapping by the
/// kernel), and what is resident in them. Allocates (it reads /proc/self/maps): call it
/// outside allocation scopes. Only meaningful while no other pool with the same region size
/// is alive, and when no other mapping of the process is a multiple of that size.
pool_residency residency_of_regions(std::size_t region_bytes);

}  // namespace massive::test
