// The five ways of turning a response body into rows that the benchmark compares. Every
// arm returns rows of the SDK's own models, with strings and small arrays kept alive by the
// result, so the arms do the same work and their checksums must agree.
#pragma once

#include "bump_arena.hpp"

#include <massive/decoder.hpp>
#include <massive/models/agg.hpp>
#include <massive/models/trade.hpp>
#include <massive/page.hpp>

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace massive::bench {

/// One body in the forms the arms start from.
struct body {
  explicit body(std::string text, std::size_t rows);

  std::string text;
  simdjson::padded_string padded;            ///< for padded_whole only: the body already padded
  std::vector<std::span<const char>> chunks;  ///< text in chunk_size pieces
  std::size_t rows;
};

/// What a baseline hands back: rows plus the arena their strings and spans point into.
template <class T>
struct owned_rows {
  std::vector<T> rows;
  bump_arena arena;
};

/// (a) The SDK: the chunks fed to a long-lived page_decoder over a warm pool.
class engine_arm {
 public:
  page<agg> aggs(const body& b);
  page<trade> trades(const body& b);
  /// Pool memory written for the first time so far: what the engine allocates outside
  /// operator new (page_pool_stats::bytes_touched).
  std::uint64_t pool_bytes_touched() const { return pool_->stats().bytes_touched; }

 private:
  template <class T>
  static page<T> decode(page_decoder<T>& decoder, const body& b);

  std::shared_ptr<page_pool> pool_ = make_page_pool();
  page_decoder<agg> aggs_{pool_};
  page_decoder<trade> trades_{pool_};
};

/// (b) What a careful user writes: the chunks appended to a std::string, then simdjson
/// On Demand with a long-lived parser, rows pushed into a fresh std::vector.
class buffered_string_arm {
 public:
  owned_rows<agg> aggs(const body& b);
  owned_rows<trade> trades(const body& b);

 private:
  simdjson::ondemand::parser parser_;
};

/// (b') What a careful user writes who decodes many bodies: (b) with one std::string and one
/// std::vector reused across bodies and one pass over each row's fields on the raw key. The
/// result is valid until the next call.
class buffered_reused_arm {
 public:
  std::span<const agg> aggs(const body& b);
  std::span<const trade> trades(const body& b);

 private:
  simdjson::padded_string_view collect(const body& b);

  simdjson::ondemand::parser parser_;
  std::string text_;
  std::vector<agg> aggs_;
  std::vector<trade> trades_;
  std::vector<std::int32_t> conditions_;
  bump_arena arena_;
};

/// (c) The ceiling: On Demand over the already padded whole body, fields in wire order,
/// into a warm reserved vector and a warm arena. The result is valid until the next call.
class padded_whole_arm {
 public:
  std::span<const agg> aggs(const body& b);
  std::span<const trade> trades(const body& b);

 private:
  simdjson::ondemand::parser parser_;
  std::vector<agg> aggs_;
  std::vector<trade> trades_;
  std::vector<std::int32_t> conditions_;
  bump_arena arena_;
};

/// (d) What most C++ users write: nlohmann::json::parse of the buffered body, then
/// conversion into the structs.
class nlohmann_arm {
 public:
  owned_rows<agg> aggs(const body& b);
  owned_rows<trade> trades(const body& b);
};

}  // namespace massive::bench
