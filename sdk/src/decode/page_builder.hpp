// The page under construction: rows appended in place at the end of the rows region, and a
// bump arena for what rows point to. Holds the regions until finish() hands them to a page
// or abandon() gives them back.
#pragma once

#include "decode/region.hpp"
#include "massive/decode_policy.hpp"
#include "massive/page.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace massive::detail {

[[noreturn, gnu::cold]] void throw_page_full(const char* what);

/// How a value the model did not foresee was let through under decode_policy::lenient.
enum class surprise_kind : std::uint8_t { coerced, skipped, missing };

class page_builder {
 public:
  page_builder() noexcept = default;
  page_builder(const page_builder&) = delete;
  page_builder& operator=(const page_builder&) = delete;
  ~page_builder() { abandon(); }

  bool started() const noexcept { return rows_ != nullptr; }
  /// Takes two regions from the pool for a page of rows of row_size bytes.
  void start(const std::shared_ptr<page_pool>& pool, std::size_t row_size);
  /// As start(), in the regions of a page's memory its owner gave back for reuse (parked:
  /// pool_access::park) rather than in two taken from the pool. Memory of another pool, or
  /// none, goes back to its pool and start() takes two regions as usual.
  void start(const std::shared_ptr<page_pool>& pool, std::size_t row_size, page_memory&& reused);

  // Rows: storage for the next rows is [row_end(), row_limit()); commit_rows() publishes.
  std::byte* row_end() const noexcept { return row_end_; }
  std::byte* row_limit() const noexcept { return row_limit_; }
  void commit_rows(std::byte* new_end) noexcept { row_end_ = new_end; }
  std::size_t row_count() const noexcept {
    return static_cast<std::size_t>(row_end_ - rows_->data()) / row_size_;
  }

  // Arena: bump allocation; arrays are built in place at arena_end() and committed.
  char* arena_end() const noexcept { return arena_end_; }
  char* arena_limit() const noexcept { return arena_limit_; }
  void commit_arena(char* new_end) noexcept { arena_end_ = new_end; }
  /// Aligns the arena's end for T (callers check the room they need against arena_limit()).
  template <class T>
  T* arena_align() {
    const auto at = reinterpret_cast<std::uintptr_t>(arena_end_);
    const std::uintptr_t aligned = (at + alignof(T) - 1) & ~(std::uintptr_t{alignof(T)} - 1);
    arena_end_ = reinterpret_cast<char*>(aligned);
    return reinterpret_cast<T*>(arena_end_);
  }
  /// Copies s into the arena.
  std::string_view store(std::string_view s) {
    if (s.size() > static_cast<std::size_t>(arena_limit_ - arena_end_)) [[unlikely]] throw_page_full("strings");
    char* at = arena_end_;
    if (!s.empty()) std::memcpy(at, s.data(), s.size());
    arena_end_ += s.size();
    return {at, s.size()};
  }

  page_envelope& envelope() noexcept { return envelope_; }

  // Surprises (decode_policy): the page's counts, and where the first ones are. The paths are
  // written aside, into buffers kept from page to page (a warm traversal allocates nothing),
  // and stored in the arena by finish(): a surprise may come while an array is being built in
  // place at the arena's end.
  void set_policy(decode_policy policy) noexcept { strict_ = policy == decode_policy::strict; }
  bool strict() const noexcept { return strict_; }
  page_leniency& leniency() noexcept { return envelope_.leniency; }
  /// Counts one coerced, skipped or missing value (rows, nested objects and the envelope
  /// alike): the buffer to write its path into when it is the page's first, cleared; else null.
  std::string* count_surprise(surprise_kind kind) noexcept {
    page_leniency& counts = envelope_.leniency;
    const bool first = counts.coerced + counts.skipped + counts.missing == 0;
    ++(kind == surprise_kind::coerced   ? counts.coerced
       : kind == surprise_kind::skipped ? counts.skipped
                                        : counts.missing);
    return first ? &first_.erase() : nullptr;
  }
  /// The buffer for the first unknown key's path, cleared.
  std::string& first_unknown_key_path() noexcept { return first_unknown_key_.erase(); }

  // An object being decoded lacks a true value for a required field (absent, null, or one its
  // type cannot hold): the model cannot show it without showing another value (a 0, a 1970
  // timestamp), so the object is left out where it can be (an optional nested object reset,
  // an array element or map entry dropped) and else its row is. Set by row_context::missing,
  // taken by whoever decoded the object.
  void mark_incomplete() noexcept { incomplete_ = true; }
  /// Whether the object just decoded was marked, clearing the mark. Called once per row: a load
  /// and a branch, the store only when marked.
  bool take_incomplete() noexcept {
    if (!incomplete_) [[likely]] return false;
    incomplete_ = false;
    return true;
  }
  /// Puts back a mark taken before a nested object was decoded (it belongs to the row).
  void restore_incomplete(bool mark) noexcept { incomplete_ = incomplete_ || mark; }

  /// Hands rows, arena and envelope to a page, and becomes empty.
  page_parts finish();
  /// Gives the regions back to the pool, and becomes empty.
  void abandon() noexcept;

 private:
  void record_usage() noexcept;
  void open(std::size_t row_size) noexcept;

  std::shared_ptr<page_pool> pool_;
  region* rows_ = nullptr;
  region* arena_ = nullptr;
  std::size_t row_size_ = 0;
  std::byte* row_end_ = nullptr;
  std::byte* row_limit_ = nullptr;
  char* arena_end_ = nullptr;
  char* arena_limit_ = nullptr;
  page_envelope envelope_;
  bool strict_ = false;
  bool incomplete_ = false;
  std::string first_;
  std::string first_unknown_key_;
};

}  // namespace massive::detail
