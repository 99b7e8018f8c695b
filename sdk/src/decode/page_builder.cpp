#include "decode/page_builder.hpp"

#include "massive/error.hpp"

#include <string>

namespace massive::detail {

void throw_page_full(const char* what) {
  throw decode_error(decode_errc::too_long, "", std::nullopt,
                     std::string("the page's ") + what +
                         " exceed the pool's region size (page_pool::options::region_bytes; a client's "
                         "client_config::max_page_bytes)");
}

void page_builder::start(const std::shared_ptr<page_pool>& pool, std::size_t row_size) {
  abandon();
  pool_ = pool;
  rows_ = pool_access::acquire(*pool_);
  try {
    arena_ = pool_access::acquire(*pool_);
  } catch (...) {
    pool_access::release(*pool_, std::exchange(rows_, nullptr));
    throw;
  }
  open(row_size);
}

void page_builder::start(const std::shared_ptr<page_pool>& pool, std::size_t row_size,
                         page_memory&& reused) {
  if (!pool_access::holds_page_of(reused, pool.get())) {
    reused.reset();
    start(pool, row_size);
    return;
  }
  abandon();
  pool_access::take(reused, pool_, rows_, arena_);
  pool_access::unpark(rows_);
  pool_access::unpark(arena_);
  open(row_size);
}

namespace {

// What open() copies into the envelope. Not const on purpose: `envelope_ = {}` (a known zero)
// compiles to `rep stos`, whose start-up costs more than the copy of 192 bytes, once a page
// and so once a stream frame.
page_envelope blank_envelope;

}  // namespace

void page_builder::open(std::size_t row_size) noexcept {
  row_size_ = row_size;
  row_end_ = rows_->data();
  row_limit_ = row_end_ + rows_->capacity() / row_size * row_size;
  arena_end_ = reinterpret_cast<char*>(arena_->data());
  arena_limit_ = arena_end_ + arena_->capacity();
  envelope_ = blank_envelope;
  incomplete_ = false;
  first_.clear();
  first_unknown_key_.clear();
}

void page_builder::record_usage() noexcept {
  pool_access::note_used(*pool_, rows_, static_cast<std::size_t>(row_end_ - rows_->data()));
  pool_access::note_used(*pool_, arena_,
                         static_cast<std::size_t>(arena_end_ - reinterpret_cast<char*>(arena_->data())));
}

namespace {

// A path may hold keys of the body (a map's, an unknown one), up to max_string_bytes each: a
// page keeps no more of it than names the place.
constexpr std::size_t max_kept_path = 256;

std::string_view kept_path(std::string& path) {
  if (path.size() > max_kept_path) path.replace(max_kept_path - 3, std::string::npos, "...");
  return path;
}

}  // namespace

page_parts page_builder::finish() {
  if (!first_.empty()) envelope_.leniency.first = store(kept_path(first_));
  if (!first_unknown_key_.empty()) envelope_.leniency.first_unknown_key = store(kept_path(first_unknown_key_));
  record_usage();
  // Built whole rather than zeroed and then assigned, and envelope_ left as it is (open()
  // resets it): zeroing 192 bytes of envelope showed in the profile of one-event frames.
  const void* rows = rows_->data();
  const std::size_t size = row_count();
  return page_parts{
      page_memory(std::move(pool_), std::exchange(rows_, nullptr), std::exchange(arena_, nullptr)),
      rows, size, envelope_};
}

void page_builder::abandon() noexcept {
  if (rows_ == nullptr) return;
  record_usage();
  pool_access::release(*pool_, std::exchange(arena_, nullptr));  // see page_memory::reset
  pool_access::release(*pool_, std::exchange(rows_, nullptr));
  pool_.reset();
  envelope_ = {};
}

}  // namespace massive::detail
