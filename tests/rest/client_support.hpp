// What the client suites share: the mock market on a trusted HTTPS server, a runner for a
// coroutine body, and the errc of a failed call (checking the key is not in its message).
#pragma once

#include <massive/client.hpp>
#include <massive/error.hpp>
#include <massive/mock/market_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace massive::test {

/// The key every client test sends; no error message may contain it.
inline constexpr std::string_view api_key = "mk_CLIENTKEY_51e0c9";

/// The mock market on a trusted HTTPS server; scripted replies, when queued, go first.
struct market_server {
  explicit market_server(std::int64_t ticks_per_day = 20'000)
      : local({.ticks_per_day = ticks_per_day}), server(local.server()) {}

  /// Client options that reach this server with api_key.
  massive::client_config options() const {
    return {.api_key = std::string(api_key), .base_url = local.base_url(), .tls = {.ca_pem = local.certificate_pem()}};
  }

  massive::mock::market_server local;
  massive::mock::server& server;
};

/// Runs `body` as a coroutine on `io` to completion, rethrowing what it throws.
inline void run(boost::asio::io_context& io, std::function<boost::asio::awaitable<void>()> body) {
  std::exception_ptr failure;
  boost::asio::co_spawn(io, std::move(body), [&](std::exception_ptr e) { failure = e; });
  io.restart();
  io.run();
  if (failure) std::rethrow_exception(failure);
}

/// The errc of a transport_error thrown by `f` (nullopt when none, or of another category).
template <class F>
std::optional<massive::errc> transport_errc_of(F&& f) {
  try {
    f();
  } catch (const massive::transport_error& e) {
    CHECK(std::string(e.what()).find(api_key) == std::string::npos);
    if (e.code().category() == massive::category()) {
      return static_cast<massive::errc>(e.code().value());
    }
  }
  return std::nullopt;
}

}  // namespace massive::test
