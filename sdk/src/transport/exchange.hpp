// The exchange on one connection: writes the request head, reads the response head, streams a
// 2xx body into the call's sink or keeps a capped error body of any other status.
#pragma once

#include "call_state.hpp"

#include "massive/detail/body_sink.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace massive::transport {

struct exchange_result {
  enum class kind { success, stale, api_failure } what = kind::success;
  bool keep_alive = false;
  int status = 0;
  std::optional<api_error> error;
  std::optional<std::chrono::seconds> retry_after;
  std::string request_id;
  std::string content_encoding;
  std::vector<header_field> rate_limit;
  std::uint64_t wire_bytes = 0;
  std::uint64_t body_bytes = 0;
  std::chrono::nanoseconds time_to_headers{};
};

// One request and its response on `conn` (TLS or plain). A connection reused from the pool
// (`reused`) that the server had closed before any response byte gives kind::stale; any
// other failure throws.
call_awaitable<exchange_result> exchange(connection& conn, const client_state& st, const call_control& ctl,
                                          const std::string& head, detail::body_sink& sink, bool reused);

}  // namespace massive::transport
