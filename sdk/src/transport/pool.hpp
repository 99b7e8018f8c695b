// Connections to the one origin and the pool that bounds them. Thread-safe: the idle list
// is locked, and permits (one per allowed connection) live in a concurrent channel whose
// receivers queue in FIFO order and support per-operation cancellation.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include "inflater.hpp"

#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace massive::transport {

class connection {
 public:
  using tcp = boost::asio::ip::tcp;
  using tls_stream = boost::asio::ssl::stream<tcp::socket>;

  /// `tls` null: plain HTTP.
  connection(const boost::asio::any_io_executor& executor, boost::asio::ssl::context* tls);

  tcp::socket& socket() noexcept;
  tls_stream* tls() noexcept { return std::get_if<tls_stream>(&stream_); }
  tcp::socket* plain() noexcept { return std::get_if<tcp::socket>(&stream_); }

  /// Parser input; empty between exchanges on a healthy connection.
  boost::beast::flat_buffer input;
  /// Where the parser puts body bytes (buffer_body); reused for every exchange.
  std::vector<char> body_buffer;
  /// Created on the first gzip body; reset per exchange.
  std::unique_ptr<inflater> gzip;

 private:
  std::variant<tcp::socket, tls_stream> stream_;
};

class connection_pool {
 public:
  connection_pool(const boost::asio::any_io_executor& executor, std::size_t limit);

  /// A permit to hold one connection, and that connection when one was idle. Giving it back
  /// (destruction) returns the permit and, when `reusable`, the connection to the idle list;
  /// otherwise the connection is closed.
  class lease {
   public:
    explicit lease(connection_pool* pool) noexcept : pool_(pool) {}
    lease(lease&& other) noexcept;
    lease& operator=(lease&&) = delete;
    ~lease();

    std::unique_ptr<connection> conn;
    bool reusable = false;

   private:
    connection_pool* pool_;
  };

  /// Waits for a permit (FIFO). Cancellable (any type) through the awaiting coroutine.
  boost::asio::awaitable<lease> acquire();
  /// Takes an idle connection, most recently used first; null when none.
  std::unique_ptr<connection> take_idle();
  /// Closes every idle connection.
  void close_idle();

 private:
  void give_back(std::unique_ptr<connection> conn, bool reusable) noexcept;

  std::mutex mutex_;
  std::vector<std::unique_ptr<connection>> idle_;
  boost::asio::experimental::concurrent_channel<void(boost::system::error_code)> permits_;
};

}  // namespace massive::transport
