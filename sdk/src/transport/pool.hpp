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
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include "body_handoff.hpp"
#include "inflater.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace massive::transport {

/// The client's executor as seen by the calls' strands. Asio 1.26's any_io_executor answers a
/// query of execution::blocking with a heap-allocated result, and a strand asks its inner
/// executor that on every handler it runs, i.e. on every socket read. This wrapper asks once
/// and answers from the cached value; after prefer(blocking.possibly) it keeps the cached
/// answer, which errs towards "never" (only costs the strand an inline run).
class call_base_executor {
 public:
  // A template so that copying a call_base_executor never considers converting it to an
  // any_io_executor (clang then recurses through Asio's is_executor).
  template <std::same_as<boost::asio::any_io_executor> Executor>
  explicit call_base_executor(Executor inner)
      : inner_(std::move(inner)), blocking_(boost::asio::query(inner_, boost::asio::execution::blocking)) {}

  template <class F>
  void execute(F&& f) const {
    inner_.execute(std::forward<F>(f));
  }
  boost::asio::execution_context& query(boost::asio::execution::context_t) const noexcept {
    return boost::asio::query(inner_, boost::asio::execution::context);
  }
  boost::asio::execution::blocking_t query(boost::asio::execution::blocking_t) const noexcept {
    return blocking_;
  }
  call_base_executor require(boost::asio::execution::blocking_t::never_t p) const {
    return {boost::asio::require(inner_, p), boost::asio::execution::blocking.never};
  }
  template <class Property>
    requires requires(const boost::asio::any_io_executor& e, const Property& p) { boost::asio::prefer(e, p); }
  call_base_executor prefer(const Property& p) const {
    return {boost::asio::any_io_executor(boost::asio::prefer(inner_, p)), blocking_};
  }
  friend bool operator==(const call_base_executor& a, const call_base_executor& b) noexcept {
    return a.inner_ == b.inner_;
  }
  friend bool operator!=(const call_base_executor& a, const call_base_executor& b) noexcept {
    return !(a == b);
  }

 private:
  call_base_executor(boost::asio::any_io_executor inner, boost::asio::execution::blocking_t blocking)
      : inner_(std::move(inner)), blocking_(blocking) {}

  boost::asio::any_io_executor inner_;
  boost::asio::execution::blocking_t blocking_;
};

/// The executor every call runs on: a strand of the client's executor. Concrete rather than
/// type-erased: an any_io_executor holding a strand is too big for its inline storage, and
/// Asio and Beast copy the handler's executor (work guards) in every operation.
using call_executor = boost::asio::strand<call_base_executor>;
template <class T>
using call_awaitable = boost::asio::awaitable<T, call_executor>;
inline constexpr boost::asio::use_awaitable_t<call_executor> use_call_awaitable{};

class connection {
 public:
  using tcp = boost::asio::ip::tcp;
  using tls_stream = boost::asio::ssl::stream<tcp::socket>;

  /// `tls` null: plain HTTP.
  connection(const boost::asio::any_io_executor& executor, boost::asio::ssl::context* tls);

  tcp::socket& socket() noexcept;
  tls_stream* tls() noexcept { return std::get_if<tls_stream>(&stream_); }
  tcp::socket* plain() noexcept { return std::get_if<tcp::socket>(&stream_); }

  /// An idle connection is fit for the next request only when nothing waits to be read on it:
  /// bytes the server sent unasked (a response pushed ahead, a late error, a 408 before it
  /// closed) would otherwise be read as the next request's answer, and an end of stream means
  /// it is closed. A TLS 1.3 session ticket sent late also counts: it costs a reconnect, never
  /// a wrong answer.
  bool quiet() noexcept;

  /// Parser input; empty between exchanges on a healthy connection. At most input_limit bytes:
  /// what Beast must see whole besides the head (a chunk's header with its extensions, the
  /// trailer) is bounded by it, and a server sending more gets bad_response, not our memory.
  boost::beast::flat_buffer input;
  static constexpr std::size_t input_limit = std::size_t{1} << 20;
  /// Created on the first gzip body; reset per exchange.
  std::unique_ptr<inflater> gzip;
  /// Created on the first body read with client_config::decode_beside_receive; shared with
  /// its posted worker.
  std::shared_ptr<body_handoff> handoff;
  /// Where the parser keeps each response's header fields (a monotonic arena rebuilt per
  /// exchange): Beast's default allocator made three operator new calls per response.
  /// Heads beyond this size spill to operator new.
  std::array<std::byte, 4096> fields_memory;

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
  call_awaitable<lease> acquire();
  /// Takes an idle connection, most recently used first, closing those that are not quiet();
  /// null when none is left.
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
