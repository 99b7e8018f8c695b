// What the suites that run the stream client on a socket share (client_test, proxy_test).
#pragma once

#include <boost/asio/awaitable.hpp>

#include <functional>

namespace massive::test {

/// Runs `body` as a coroutine on a fresh io_context to completion; rethrows what it threw.
void run(std::function<boost::asio::awaitable<void>()> body);

}  // namespace massive::test
