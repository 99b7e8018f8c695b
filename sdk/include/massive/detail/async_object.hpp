// The base of the SDK's long-lived asynchronous objects (stream::client, relay::relay,
// relay::consumer): made on an executor, never copied, their operations coroutines that run on
// a strand of that executor and complete the caller's token as boost::asio::co_spawn does.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <utility>

namespace massive::detail {

/// See the file comment. Not copyable (what runs holds the object's state), nor movable.
class async_object {
 public:
  async_object(const async_object&) = delete;
  async_object& operator=(const async_object&) = delete;

 protected:
  /// Runs the operations on a new strand of `executor`.
  explicit async_object(const boost::asio::any_io_executor& executor);
  ~async_object() = default;

  /// The strand the operations run on.
  const boost::asio::any_io_executor& executor() const noexcept { return executor_; }

  /// Starts `operation` on the strand; its result or exception goes to `token`, as co_spawn's:
  /// completion signature void(std::exception_ptr, T), or void(std::exception_ptr) for void.
  template <class T, class Token>
  auto spawn(boost::asio::awaitable<T> operation, Token&& token) {
    return boost::asio::co_spawn(executor_, std::move(operation), std::forward<Token>(token));
  }

 private:
  boost::asio::any_io_executor executor_;
};

}  // namespace massive::detail
