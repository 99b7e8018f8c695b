// Proxies for the proxy suite, both on loopback: Debian's tinyproxy, started and stopped by
// the test with a generated configuration, and a scripted in-process proxy that misbehaves
// on demand (wrong status line, oversized head, stall, close, reset mid-tunnel).
#pragma once

#include <massive/mock/certificates.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace massive::test {

/// A tinyproxy process on 127.0.0.1 allowing CONNECT to `connect_port` only, with Basic
/// authentication when `user` is given. Stopped (SIGTERM, then waited for) on destruction.
class tinyproxy {
 public:
  struct credentials {
    std::string user;
    std::string password;  ///< tinyproxy's syntax: no spaces or colons
  };
  explicit tinyproxy(std::uint16_t connect_port, std::optional<credentials> basic_auth = std::nullopt);
  ~tinyproxy();
  tinyproxy(const tinyproxy&) = delete;
  tinyproxy& operator=(const tinyproxy&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  /// "http://127.0.0.1:<port>", with "user:password@" when `with` is given.
  std::string url(const std::optional<credentials>& with = std::nullopt) const;
  /// Tunnels requested so far: the log's "Request ...: CONNECT" lines.
  std::size_t tunnels() const;
  /// The whole log so far.
  std::string log() const;

 private:
  mock::temp_directory dir_;
  std::string log_path_;
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
};

/// Checks that none of `lines` (what a proxied client said: errors, trace lines) holds the
/// password of one of `pairs` or the Basic encoding of a pair, the Proxy-Authorization value.
void check_no_proxy_credentials(const std::vector<std::string>& lines,
                                std::initializer_list<tinyproxy::credentials> pairs);

/// Sets environment variables for one test, restoring what was there on destruction.
class environment_guard {
 public:
  environment_guard() = default;
  environment_guard(const environment_guard&) = delete;
  environment_guard& operator=(const environment_guard&) = delete;
  ~environment_guard();
  void set(const char* name, const std::string& value);
  void unset(const char* name);

 private:
  void remember(const char* name);
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

/// What the scripted proxy does with one connection, once it has read the CONNECT head.
struct proxy_script {
  enum class action {
    tunnel,              ///< 200, then relay to the upstream port
    answer_then_close,   ///< send `answer`, then close
    answer_then_stall,   ///< send `answer` (may be empty), then hold the connection silently
  } what = action::tunnel;
  std::string answer{};
  /// tunnel: after this many bytes from upstream have been relayed, reset the client (RST).
  std::optional<std::size_t> reset_after{};
};

/// An in-process proxy on 127.0.0.1 whose connections follow queued scripts (FIFO; a plain
/// tunnel when none is queued), relaying tunnels to 127.0.0.1:`upstream_port`.
class scripted_proxy {
 public:
  explicit scripted_proxy(std::uint16_t upstream_port);
  ~scripted_proxy();
  scripted_proxy(const scripted_proxy&) = delete;
  scripted_proxy& operator=(const scripted_proxy&) = delete;

  void enqueue(proxy_script script);
  /// "http://127.0.0.1:<port>", with `userinfo` + "@" when given.
  std::string url(const std::string& userinfo = {}) const;
  /// Every request head received, in order.
  std::vector<std::string> heads() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::test
