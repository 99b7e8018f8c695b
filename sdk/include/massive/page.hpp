// Pages of decoded rows and the pool their memory comes from.
//
// A page owns two virtual-memory regions taken from a page_pool: one holds the rows as a
// single contiguous array of T, the other (the arena) holds everything the rows point to
// (strings, small integer arrays) and the envelope's strings. Each region reserves a large
// address range up front (page_pool::options::region_bytes, 4 GiB by default, which is the
// per-page ceiling for rows and for the arena) and the kernel commits memory only where it
// is written, so rows grow in place without ever being copied and a page of N rows costs
// N * sizeof(T) bytes of rows, rounded up to 4 KiB. Destroying a page hands its regions back
// to the pool, which keeps up to client_config::max_free_regions of them, each with at most
// options::retained_bytes_per_region committed, for the next pages.
//
// No simdjson type appears here: a consumer's compile flags never matter.
#pragma once

#include "massive/response_info.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace massive {

class page_pool;

namespace detail {
struct region;
class pool_access;
}  // namespace detail

/// What a page_pool holds and has done. Byte figures count whole 4 KiB pages. The first two
/// are cumulative and never decrease (bytes_touched is what the pool has cost beyond operator
/// new); the others are what the pool holds right now.
struct page_pool_stats {
  std::uint64_t bytes_touched = 0;   ///< region memory first written since mapped or last released
  std::uint64_t bytes_released = 0;  ///< bytes given back to the kernel (madvise or munmap)
  std::uint64_t bytes_retained = 0;  ///< committed bytes held by regions on the free list
  std::size_t regions_mapped = 0;    ///< regions mapped (in use by pages or decoders, or free)
  std::size_t regions_free = 0;      ///< regions on the free list
};

/// The memory behind pages. Thread-safe: any number of decoders and pages, on any threads,
/// may share one pool (a mutex guards the free list; the statistics are atomic). Pages and
/// decoders hold a shared_ptr to their pool, so it lives as long as the last of them.
class page_pool {
 public:
  /// How a pool reserves, keeps and returns memory.
  struct options {
    /// Address space reserved per region; a page's rows, and separately its arena, must fit
    /// in one region (else decode_error too_long). Reserved, not committed.
    std::size_t region_bytes = std::size_t{4} << 30;
    /// A region coming back with more committed memory keeps only this much; the rest goes
    /// back to the kernel. Large enough for a 50,000-row trades page.
    std::size_t retained_bytes_per_region = std::size_t{16} << 20;
    /// Free regions kept for reuse; further returned regions are unmapped.
    std::size_t max_free_regions = 8;
  };

  /// A pool with default options.
  page_pool();
  /// A pool configured by `config`.
  explicit page_pool(const options& config);
  page_pool(const page_pool&) = delete;
  page_pool& operator=(const page_pool&) = delete;
  /// Unmaps the free regions. Regions still in use keep the pool alive through their
  /// shared_ptr, so this runs after the last page is gone.
  ~page_pool();

  /// What the pool has mapped, touched, kept and given back so far.
  page_pool_stats stats() const noexcept;
  /// The options the pool was made with.
  const options& config() const noexcept { return config_; }
  /// Unmaps every free region now.
  void trim() noexcept;

 private:
  friend class detail::pool_access;

  detail::region* acquire();
  void release(detail::region* r) noexcept;

  options config_;
  mutable std::mutex mutex_;
  detail::region* free_ = nullptr;
  std::size_t free_count_ = 0;
  std::atomic<std::uint64_t> bytes_touched_{0};
  std::atomic<std::uint64_t> bytes_released_{0};
  std::atomic<std::uint64_t> bytes_retained_{0};
  std::atomic<std::size_t> regions_mapped_{0};
};

/// A pool with default options.
std::shared_ptr<page_pool> make_page_pool();
/// A pool configured by `config`.
std::shared_ptr<page_pool> make_page_pool(const page_pool::options& config);

/// What a lenient decoder (decode_policy::lenient, the default) did with the surprises of one
/// page: each count is of values, except dropped_rows. All zero for a body exactly as the model
/// declares it. Paths name a row by its index in the body's array (rows left out included),
/// e.g. "results[3].preMarket".
///
/// A value is never shown as another one: a value the model cannot hold exactly leaves its
/// field absent (nullopt, an empty span); where the field is required and cannot be absent, the
/// object holding it is left out (an optional nested object reset, an array element or map
/// entry dropped, else the whole row, counted in dropped_rows), never kept with a 0.
struct page_leniency {
  /// Values converted to the declared type without loss: a number sent as a string ("12.5"),
  /// a number or true/false where a string is declared (kept as its JSON text), a date-time
  /// where a date is declared (its date), a request_id sent as a number.
  std::uint32_t coerced = 0;
  /// Values left out because the declared type cannot hold them: a fraction or an int64
  /// overflow where an integer is declared, a number beyond a double's range (1e400), a string
  /// that is not a number, an object where a number is declared, an impossible date, an array
  /// element or a row of the wrong type (null included), a key given twice, a key written with
  /// JSON escapes (its object is left out). The field is then absent (nullopt, empty); a
  /// required one is also counted in missing.
  std::uint32_t skipped = 0;
  /// Required fields absent, null or skipped, and bools whose absence means false (agg::otc)
  /// given a value of another type: the object holding each was left out.
  std::uint32_t missing = 0;
  /// Rows of the body left out of the page: elements of the rows array that are not objects,
  /// and rows without a true value for a required field (or a required nested object).
  std::uint32_t dropped_rows = 0;
  /// Keys the model does not declare, in rows, nested objects and the envelope; skipped.
  std::uint32_t unknown_keys = 0;
  /// Where the first coerced, skipped or missing value is, e.g. "results[3].preMarket"; at
  /// most 256 bytes (a longer path, holding a long key of the body, ends with "...").
  std::string_view first;
  /// Where the first unknown key is, e.g. "results[0].cik".
  std::string_view first_unknown_key;

  /// Nothing was coerced, skipped, missing or dropped (unknown keys aside).
  bool exact() const noexcept { return coerced == 0 && skipped == 0 && missing == 0 && dropped_rows == 0; }
  /// Something of the body is not in the page: a value left out or a row dropped (a coerced
  /// value is the same value, so it does not count).
  bool lossy() const noexcept { return skipped != 0 || missing != 0 || dropped_rows != 0; }
};

/// What the pages of one traversal so far held beside their rows: the sums of their
/// page_leniency counts, so that a caller who does not read every page's leniency() can still
/// see that something was coerced, left out or dropped (cursor<T>::leniency()).
struct leniency_totals {
  std::uint64_t coerced = 0;       ///< sum of page_leniency::coerced
  std::uint64_t skipped = 0;       ///< sum of page_leniency::skipped
  std::uint64_t missing = 0;       ///< sum of page_leniency::missing
  std::uint64_t dropped_rows = 0;  ///< sum of page_leniency::dropped_rows
  std::uint64_t unknown_keys = 0;  ///< sum of page_leniency::unknown_keys
  std::uint64_t lossy_pages = 0;   ///< pages whose leniency().lossy()

  /// Adds one page's counts.
  void add(const page_leniency& page) noexcept {
    coerced += page.coerced;
    skipped += page.skipped;
    missing += page.missing;
    dropped_rows += page.dropped_rows;
    unknown_keys += page.unknown_keys;
    lossy_pages += page.lossy() ? 1 : 0;
  }
  /// Something of a body is not in its page (page_leniency::lossy() of some page).
  bool lossy() const noexcept { return lossy_pages != 0; }
};

/// The response fields around the rows. Strings live in the page's arena; an absent or null
/// field is empty / nullopt.
struct page_envelope {
  std::string_view status;      ///< `status`, e.g. "OK" or "DELAYED"
  std::string_view request_id;  ///< `request_id`
  std::string_view next_url;    ///< `next_url`: the next page, to follow verbatim
  std::string_view ticker;      ///< `ticker` (aggregates)
  std::optional<std::int64_t> count;          ///< `count`
  std::optional<std::int64_t> query_count;    ///< `queryCount`
  std::optional<std::int64_t> results_count;  ///< `resultsCount`
  std::optional<bool> adjusted;               ///< `adjusted` (aggregates)
  /// payload_shape::results_values only: the members of `results` other than `values` (the
  /// indicators' `underlying`), as the raw JSON text of one object, e.g.
  /// `{"underlying":{"url":"..."}}`; empty when there are none and for other shapes.
  /// It is copied verbatim from the body; massive::underlying(page) (massive/underlying.hpp)
  /// decodes its `underlying` into typed rows.
  std::string_view results_extra_json;
  /// Not a response field: what the decoder coerced, skipped or found missing in this body.
  page_leniency leniency;
};

namespace detail {

/// Owns a page's two regions and gives them back to the pool on destruction.
class page_memory {
 public:
  page_memory() noexcept = default;
  page_memory(std::shared_ptr<page_pool> pool, region* rows, region* arena) noexcept
      : pool_(std::move(pool)), rows_(rows), arena_(arena) {}
  page_memory(page_memory&& other) noexcept
      : pool_(std::move(other.pool_)),
        rows_(std::exchange(other.rows_, nullptr)),
        arena_(std::exchange(other.arena_, nullptr)) {}
  page_memory& operator=(page_memory&& other) noexcept {
    if (this != &other) {
      reset();
      pool_ = std::move(other.pool_);
      rows_ = std::exchange(other.rows_, nullptr);
      arena_ = std::exchange(other.arena_, nullptr);
    }
    return *this;
  }
  ~page_memory() { reset(); }
  void reset() noexcept;

 private:
  friend class pool_access;  // a decoder takes back the regions of a page it may reuse

  std::shared_ptr<page_pool> pool_;
  region* rows_ = nullptr;
  region* arena_ = nullptr;
};

/// What a decoder hands to a page: the memory, where the rows start, how many.
struct page_parts {
  page_memory memory;
  const void* rows = nullptr;
  std::size_t size = 0;
  page_envelope envelope;
};

/// The rows of a page in one contiguous array and the pooled memory they live in: what
/// massive::page and files::row_page share. Move-only; a move keeps the rows where they are and
/// leaves the source empty.
template <class T>
class pooled_rows {
  // Destroying the rows runs no destructors: their memory simply goes back to the pool.
  static_assert(std::is_trivially_destructible_v<T>, "page rows must be trivially destructible");

 public:
  using value_type = T;             ///< the row type
  using const_iterator = const T*;  ///< rows are contiguous

  // Rows are in the order they came and valid while the page lives.
  std::span<const T> rows() const noexcept { return {rows_, size_}; }     ///< every row
  const T* begin() const noexcept { return rows_; }                       ///< the first row
  const T* end() const noexcept { return rows_ + size_; }                 ///< past the last row
  std::size_t size() const noexcept { return size_; }                     ///< the number of rows
  bool empty() const noexcept { return size_ == 0; }                      ///< no rows
  const T& operator[](std::size_t i) const noexcept { return rows_[i]; }  ///< row i (unchecked)

 protected:
  pooled_rows() noexcept = default;
  explicit pooled_rows(page_parts& parts) noexcept
      : memory_(std::move(parts.memory)),
        rows_(static_cast<const T*>(parts.rows)),
        size_(parts.size) {}
  pooled_rows(pooled_rows&& other) noexcept
      : memory_(std::move(other.memory_)),
        rows_(std::exchange(other.rows_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  // Gives this page's memory back to its pool first.
  pooled_rows& operator=(pooled_rows&& other) noexcept {
    memory_ = std::move(other.memory_);
    rows_ = std::exchange(other.rows_, nullptr);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  ~pooled_rows() = default;

 private:
  page_memory memory_;
  const T* rows_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace detail

template <class T>
class page_decoder;
template <class T>
class cursor;
class client;

/// The rows of one response, in one contiguous array, plus the envelope. Move-only. Rows may
/// hold std::string_view and std::span into the page's arena: they are valid while the page
/// lives (moving the page keeps them valid).
///
/// Lifetime rule: once the page is destroyed its memory returns to the client's pool and the
/// next page is decoded into it, so a row, string_view or span kept past its page reads
/// another page's bytes, silently. Copy what must outlive the page (`std::string(row.id)`).
/// Sanitizer builds (MASSIVE_SANITIZE) poison a page's regions while they sit in the pool,
/// and AddressSanitizer reports such a read as use-after-poison.
template <class T>
class page : public detail::pooled_rows<T> {
 public:
  /// An empty page holding no memory.
  page() noexcept = default;
  /// Takes the rows and their memory; `other` becomes empty. Views into the rows stay valid.
  page(page&& other) noexcept
      : detail::pooled_rows<T>(std::move(other)),
        envelope_(std::exchange(other.envelope_, {})),
        response_(std::exchange(other.response_, {})) {}
  /// Returns this page's memory to its pool, then takes `other`'s.
  page& operator=(page&& other) noexcept {
    if (this != &other) {
      detail::pooled_rows<T>::operator=(std::move(other));
      envelope_ = std::exchange(other.envelope_, {});
      response_ = std::exchange(other.response_, {});
    }
    return *this;
  }

  /// The response fields around the rows.
  const page_envelope& envelope() const noexcept { return envelope_; }
  /// The next page's URL, to follow verbatim; empty on the last page.
  std::string_view next_url() const noexcept { return envelope_.next_url; }
  /// The response's `request_id`, for support requests.
  std::string_view request_id() const noexcept { return envelope_.request_id; }
  /// What the decoder coerced, skipped or found missing (decode_policy::lenient).
  const page_leniency& leniency() const noexcept { return envelope_.leniency; }
  /// The HTTP response the page came in, besides its body: status, X-Request-Id,
  /// Content-Encoding, the rate-limit headers, the bytes on the wire and the call's timings.
  /// Moved from the transport, never copied; status 0 for a page a page_decoder made alone.
  const response_info& response() const noexcept { return response_; }

 private:
  friend class page_decoder<T>;
  friend class cursor<T>;
  friend class client;
  explicit page(detail::page_parts&& parts) noexcept
      : detail::pooled_rows<T>(parts), envelope_(parts.envelope) {}

  page_envelope envelope_;
  response_info response_;
};

}  // namespace massive
