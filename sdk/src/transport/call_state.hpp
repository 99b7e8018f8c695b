// The state of the client and of each call, shared by the call driver (call_driver.cpp),
// connection set-up (connection_setup.cpp) and the exchange (exchange.cpp). Private to the
// transport.
#pragma once

#include "massive/detail/http_client.hpp"

#include "config.hpp"
#include "pool.hpp"
#include "tls.hpp"

#include "massive/error.hpp"
#include "massive/rate_limiter.hpp"
#include "massive/retry.hpp"

#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/strand.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace massive::transport {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using clock_type = std::chrono::steady_clock;
using boost::system::error_code;
using call_timer = asio::basic_waitable_timer<clock_type, asio::wait_traits<clock_type>, call_executor>;

// Why a call was aborted from outside the coroutine.
enum class abort_reason { none, deadline, connect_timeout, cancelled };

struct call_control;

// A counted reference to a call_control. When the last one goes, the control returns to its
// client's idle list (or is freed when the list is full).
class control_ref {
 public:
  explicit control_ref(call_control* c) noexcept;
  control_ref(const control_ref& other) noexcept : control_ref(other.c_) {}
  control_ref(control_ref&& other) noexcept : c_(std::exchange(other.c_, nullptr)) {}
  control_ref& operator=(const control_ref&) = delete;
  control_ref& operator=(control_ref&&) = delete;
  ~control_ref();

  call_control* operator->() const noexcept { return c_; }
  call_control& operator*() const noexcept { return *c_; }

 private:
  call_control* c_;
};

// The per-call state that outlives the call's coroutine while any handler may still touch it
// (each holds a control_ref). Everything but the request head runs on the call's strand.
// Recycled call after call with its strand, timer and strings' capacity: a fresh one cost an
// operator new for itself, one for the request head and one or two for the target.
struct call_control {
  call_control(client_state& owner, call_executor s)
      : owner(owner), strand(std::move(s)), timer(strand) {}

  void arm(clock_type::time_point at, abort_reason reason) {
    const unsigned generation = ++timer_generation;
    timer.expires_at(at);
    timer.async_wait([self = control_ref(this), generation, reason](error_code ec) {
      if (!ec && generation == self->timer_generation) self->abort(reason);
    });
  }

  void abort(abort_reason reason) {
    if (why != abort_reason::none || done) return;
    why = reason;
    // The resolver ignores per-operation cancellation, and closing the socket ends any
    // operation on it whatever layer started it; the signal reaches everything else.
    if (resolver != nullptr) resolver->cancel();
    if (socket != nullptr) {
      error_code ignored;
      socket->close(ignored);
    }
    signal.emit(asio::cancellation_type::terminal);
  }

  // After this, nothing is emitted: the coroutine's cancellation state is gone.
  void finish() {
    done = true;
    ++timer_generation;
    timer.cancel();
  }

  client_state& owner;
  std::shared_ptr<client_state> keep_owner;  // while in use: the last call may outlive the client
  std::atomic<std::size_t> refs{0};
  call_executor strand;
  call_timer timer;
  asio::cancellation_signal signal;
  abort_reason why = abort_reason::none;
  bool done = false;
  unsigned timer_generation = 0;
  tcp::resolver* resolver = nullptr;
  tcp::socket* socket = nullptr;
  std::string head;             // the request head, built before the call starts
  std::string call_headers;     // the call_options' header lines, when it has any
  std::string redacted_target;  // for traces; empty without a trace hook
  std::chrono::milliseconds timeout{};  // the call's deadline: call_options', else the client's
  retry_policy retry{};                 // the call's policy: call_options', else the client's
  std::exception_ptr rejected;  // the target was refused before anything was sent
};

struct client_state {
  client_state(asio::any_io_executor ex, client_config opts)
      : executor(std::move(ex)),
        cfg(validate_options(std::move(opts))),
        pool(executor, cfg.opts.connections_per_origin),
        random(std::random_device{}()) {
    // A fixed ring of strands, shared round-robin by calls: making a strand per call would
    // allocate its implementation each time. Calls sharing a strand only interleave.
    const std::size_t count = std::clamp<std::size_t>(cfg.opts.connections_per_origin * 2, 2, 64);
    strands.reserve(count);
    for (std::size_t i = 0; i < count; ++i) strands.push_back(asio::make_strand(call_base_executor(executor)));
    idle_controls.reserve(count);
    if (cfg.tls) tls.emplace(make_tls_context());
    if (cfg.opts.rate_limit) {
      limiter.emplace(cfg.opts.rate_limit->requests_per_second, cfg.opts.rate_limit->burst,
                      clock_type::now());
    }
  }

  asio::ssl::context make_tls_context() const {
    return transport::make_tls_context(cfg.opts.tls, "client_config.tls");
  }

  call_executor next_strand() noexcept {
    return strands[next_strand_index.fetch_add(1, std::memory_order_relaxed) % strands.size()];
  }

  control_ref take_control(const std::shared_ptr<client_state>& self) {
    std::unique_ptr<call_control> c;
    {
      std::lock_guard lock(controls_mutex);
      if (!idle_controls.empty()) {
        c = std::move(idle_controls.back());
        idle_controls.pop_back();
      }
    }
    if (!c) c = std::make_unique<call_control>(*this, next_strand());
    c->keep_owner = self;
    return control_ref(c.release());
  }

  void recycle(call_control* c) noexcept {
    // Destroyed last: the state may go with its last call, idle controls included.
    const std::shared_ptr<client_state> keep = std::move(c->keep_owner);
    std::unique_ptr<call_control> owned(c);
    owned->why = abort_reason::none;
    owned->done = false;
    owned->resolver = nullptr;
    owned->socket = nullptr;
    owned->rejected = nullptr;
    std::lock_guard lock(controls_mutex);
    if (idle_controls.size() < idle_controls.capacity()) idle_controls.push_back(std::move(owned));
  }

  double jitter() {
    std::lock_guard lock(random_mutex);
    return std::uniform_real_distribution<double>(0.0, 1.0)(random);
  }

  asio::any_io_executor executor;
  config cfg;
  std::optional<asio::ssl::context> tls;
  connection_pool pool;
  std::vector<call_executor> strands;
  std::atomic<std::size_t> next_strand_index{0};
  std::mutex limiter_mutex;
  std::optional<token_bucket> limiter;
  std::mutex random_mutex;
  std::minstd_rand random;
  std::mutex controls_mutex;
  std::vector<std::unique_ptr<call_control>> idle_controls;  // reserved: recycling never allocates
};

// A duration for error messages: "250 ms".
std::string millis(std::chrono::milliseconds d);

// The error of a call whose deadline passed.
std::exception_ptr deadline_error(const call_control& ctl);

// The error a call aborted from outside its coroutine (deadline, connect timeout,
// cancellation) ends with; null when it was not aborted.
std::exception_ptr aborted_error(const client_state& st, const call_control& ctl);

[[noreturn]] void fail(errc code, const std::string& what);

}  // namespace massive::transport
