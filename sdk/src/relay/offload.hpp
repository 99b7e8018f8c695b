// Runs a blocking nats.c call on the relay's (or consumer's) private worker thread and resumes
// the awaiting coroutine on its own executor with the result (or the exception): the user's
// executor never waits for NATS.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <type_traits>

namespace massive::relay::detail {

template <class F>
boost::asio::awaitable<std::invoke_result_t<F&>> offload(boost::asio::thread_pool& worker, F f) {
  using result = std::invoke_result_t<F&>;
  co_return co_await boost::asio::co_spawn(
      worker, [&f]() -> boost::asio::awaitable<result> { co_return f(); },
      boost::asio::use_awaitable);
}

}  // namespace massive::relay::detail
