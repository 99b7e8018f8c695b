#include "pool.hpp"

#include <openssl/ssl.h>
#include <sys/socket.h>

#include <cerrno>

namespace massive::transport {

namespace asio = boost::asio;

connection::connection(const asio::any_io_executor& executor, asio::ssl::context* tls)
    : stream_(std::in_place_type<tcp::socket>, executor) {
  if (tls != nullptr) stream_.emplace<tls_stream>(executor, *tls);
  // Beast sizes each socket read by the free capacity of `input` (at least 512 bytes), and
  // the buffer otherwise only grows to the size of a response head: the body then came in
  // 512-byte reads, some 30 trips through TLS, parser and scheduler per 16 KiB TLS record,
  // which halved end-to-end throughput (docs/maintainers/performance-e2e.md). 64 KiB holds whole records.
  input.reserve(64 * 1024);
  input.max_size(input_limit);
}

connection::tcp::socket& connection::socket() noexcept {
  if (auto* s = tls()) return s->next_layer();
  return std::get<tcp::socket>(stream_);
}

bool connection::quiet() noexcept {
  tcp::socket& s = socket();
  if (!s.is_open() || input.size() != 0) return false;
  // Records OpenSSL read ahead and has not handed over are bytes waiting too.
  if (auto* t = tls(); t != nullptr && SSL_has_pending(t->native_handle()) != 0) return false;
  char byte = 0;
  const ssize_t n = ::recv(s.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  // Nothing to read yet (would block): quiet. Bytes (n > 0), an end of stream (0) or an error: not.
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

connection_pool::connection_pool(const asio::any_io_executor& executor, std::size_t limit)
    : permits_(executor, limit) {
  for (std::size_t i = 0; i < limit; ++i) permits_.try_send(boost::system::error_code{});
}

connection_pool::lease::lease(lease&& other) noexcept
    : conn(std::move(other.conn)), reusable(other.reusable), pool_(std::exchange(other.pool_, nullptr)) {}

connection_pool::lease::~lease() {
  if (pool_ != nullptr) pool_->give_back(std::move(conn), reusable);
}

call_awaitable<connection_pool::lease> connection_pool::acquire() {
  co_await permits_.async_receive(use_call_awaitable);
  co_return lease{this};
}

std::unique_ptr<connection> connection_pool::take_idle() {
  for (;;) {
    std::unique_ptr<connection> conn;
    {
      std::lock_guard lock(mutex_);
      if (idle_.empty()) return nullptr;
      conn = std::move(idle_.back());
      idle_.pop_back();
    }
    // Checked out of the lock; one that is not quiet is closed here, as it goes out of scope.
    if (conn->quiet()) return conn;
  }
}

void connection_pool::close_idle() {
  std::vector<std::unique_ptr<connection>> closing;
  std::lock_guard lock(mutex_);
  closing.swap(idle_);
}

void connection_pool::give_back(std::unique_ptr<connection> conn, bool reusable) noexcept {
  if (conn && reusable) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(conn));
  }
  conn.reset();
  // Never fails: at most `limit` permits are out, and the channel holds `limit`.
  permits_.try_send(boost::system::error_code{});
}

}  // namespace massive::transport
