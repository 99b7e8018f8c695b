// nats-server with JetStream on loopback, started and stopped by the test: one node, or the
// nodes of a cluster (each its own process, store directory and ports).
#pragma once

#include "loopback_ports.hpp"

#include <sys/types.h>

#include <cstdint>
#include <massive/mock/certificates.hpp>
#include <memory>
#include <string>
#include <vector>

namespace massive::test {

/// One nats-server process with JetStream. Killed (SIGKILL) and waited for on destruction.
class nats_node {
 public:
  struct options {
    std::string user{};  ///< with a password: the server requires them
    std::string password{};
    std::string cluster{};                ///< a cluster's name; empty: a single node
    std::uint16_t cluster_port = 0;       ///< with a cluster: this node's route port
    std::vector<std::uint16_t> routes{};  ///< with a cluster: every node's route port
    std::string name = "n1";              ///< the server's name
    std::uint16_t port = 0;               ///< 0: a free one
  };
  explicit nats_node(options o);
  nats_node() : nats_node(options{}) {}
  ~nats_node();
  nats_node(const nats_node&) = delete;
  nats_node& operator=(const nats_node&) = delete;

  /// "nats://127.0.0.1:<port>".
  std::string url() const;
  std::uint16_t port() const noexcept { return port_; }
  /// SIGKILL, as a node dies.
  void kill();
  /// The server's log so far.
  std::string log() const;

 private:
  mock::temp_directory dir_;
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
};

/// Three nats_nodes routed to one another.
class nats_cluster {
 public:
  nats_cluster();
  /// Every node's URL, comma-separated (nats_config::servers).
  std::string servers() const;
  nats_node& node(std::size_t i) { return *nodes_[i]; }

 private:
  std::vector<std::unique_ptr<nats_node>> nodes_;
};

}  // namespace massive::test
