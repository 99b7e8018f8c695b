// Deterministic synthetic response bodies shaped like the API's own: compact JSON, keys in
// the server's order, the number forms the wire really uses. The same row count always
// gives the same bytes, so figures from different runs compare.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace massive::bench {

/// How an aggregates body orders each row's keys.
enum class agg_key_order {
  wire,    ///< `v vw o c h l t n`, as the server sends them (codegen/map.txt's `wire agg` row)
  sorted,  ///< `c h l n o t v vw`, as a JSON re-serialiser that sorts keys writes them
};

/// A /v2/aggs/ticker/.../range body with `rows` minute bars. Volumes come as integers,
/// as `1748755.0` and as `2.384421e+06`. The same rows whatever the key order.
std::string make_aggs_body(std::size_t rows, agg_key_order order = agg_key_order::wire);

/// A /v3/trades body with `rows` trades: conditions on most rows, `decimal_size` on every
/// row, `correction` on a few, `trf_id`/`trf_timestamp` on TRF-reported trades.
std::string make_trades_body(std::size_t rows);

/// The body cut into chunks of at most `size` bytes, as a transport would hand them over.
std::vector<std::span<const char>> chunk(const std::string& body, std::size_t size);

inline constexpr std::size_t chunk_size = 16 * 1024;

}  // namespace massive::bench
