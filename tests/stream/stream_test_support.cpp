#include "stream_test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <exception>

namespace massive::test {

void run(std::function<boost::asio::awaitable<void>()> body) {
  boost::asio::io_context io;
  std::exception_ptr failure;
  boost::asio::co_spawn(io, body(), [&](std::exception_ptr e) { failure = e; });
  io.run();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace massive::test
