// The string arena the baseline arms give their rows, so that every arm returns rows whose
// string_views and spans stay valid with the result, as a page's do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace massive::bench {

class bump_arena {
 public:
  /// Forgets every allocation but keeps the blocks, so a warm arena allocates nothing.
  void clear() noexcept {
    block_ = 0;
    used_ = 0;
  }

  std::string_view copy(std::string_view s) {
    char* p = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  template <class T>
  std::span<const T> copy(std::span<const T> values) {
    T* p = static_cast<T*>(allocate(values.size_bytes(), alignof(T)));
    std::memcpy(p, values.data(), values.size_bytes());
    return {p, values.size()};
  }

 private:
  static constexpr std::size_t block_size = 64 * 1024;

  void* allocate(std::size_t n, std::size_t align) {
    for (;;) {
      if (block_ < blocks_.size()) {
        std::size_t at = (used_ + align - 1) / align * align;
        if (at + n <= blocks_[block_].size) {
          used_ = at + n;
          return blocks_[block_].data.get() + at;
        }
        ++block_;
        used_ = 0;
        continue;
      }
      std::size_t size = std::max(block_size, n);
      blocks_.push_back({std::make_unique_for_overwrite<std::byte[]>(size), size});
    }
  }

  struct block {
    std::unique_ptr<std::byte[]> data;
    std::size_t size;
  };
  std::vector<block> blocks_;
  std::size_t block_ = 0;
  std::size_t used_ = 0;
};

}  // namespace massive::bench
