// A WebSocket server that breaks the protocol on purpose: it upgrades one TLS connection,
// sends the raw bytes it was given (frames Beast's own server would never write) and ends the
// connection the way a careless or hostile server does. What the stream client must then say
// is which rule was broken, not how the connection ended.
#pragma once

#include <massive/mock/certificates.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace massive::test {

/// How the rogue server ends its one connection after sending its bytes.
enum class rogue_ending {
  wait_for_close,  ///< reads until the client closes (it answers nothing)
  close_tcp,       ///< closes the socket at once: a FIN, no TLS close_notify
  /// reads the client's answer (its close frame), then resets (SO_LINGER 0). A reset sent at
  /// once would be no test: the client's kernel drops the bytes it has not read yet when the RST
  /// comes, so the frame that broke the protocol would never reach the client.
  reset_after_answer,
};

/// Serves one connection on a free loopback port, on a thread of its own; the destructor joins it.
class rogue_server {
 public:
  /// Upgrades the connection, then sends `bytes`.
  rogue_server(std::string bytes, rogue_ending ending);
  /// Answers the upgrade request with `answer` (raw HTTP; "{accept}" in it becomes the right
  /// Sec-WebSocket-Accept value), then ends as `ending` says.
  static rogue_server answering(std::string answer, rogue_ending ending);
  /// Upgrades the connection, sends `bytes`, then `drip` every `every` for `during` (reading
  /// nothing, answering no ping), then closes the socket as close_tcp does: a server that
  /// trickles.
  static rogue_server dripping(std::string bytes, std::string drip, std::chrono::milliseconds every,
                               std::chrono::milliseconds during);
  ~rogue_server();
  rogue_server(const rogue_server&) = delete;
  rogue_server& operator=(const rogue_server&) = delete;

  /// "wss://127.0.0.1:<port>/stocks".
  std::string url() const;
  /// The certificate a client should trust.
  const std::string& certificate_pem() const noexcept;

 private:
  rogue_server(std::string answer, std::string bytes, rogue_ending ending);
  struct drip;
  struct impl;
  explicit rogue_server(std::unique_ptr<impl> impl);
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::test
