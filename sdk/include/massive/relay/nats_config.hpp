// How the relay and its consumers reach NATS. The credentials go to the NATS C client only:
// no error, trace or log line shows them (nor a URL's user information).
#pragma once

#include <chrono>
#include <string>

namespace massive::relay {

/// Where NATS is and how to authenticate; every member has a default.
struct nats_config {
  /// Comma-separated server URLs (nats://host:port); a cluster's nodes, any of which will do.
  std::string servers = "nats://127.0.0.1:4222";
  /// User and password, when the server asks for them (never shown in a message).
  std::string user{};
  /// See `user`.
  std::string password{};
  /// An authentication token instead of user and password (never shown in a message).
  std::string token{};
  /// Bound on one TCP connect to a server.
  std::chrono::milliseconds connect_timeout{2'000};
  /// Bound on one JetStream or key-value request (the lease's are bounded by the lease too).
  std::chrono::milliseconds request_timeout{2'000};
  /// The prefix of the key-value buckets of the lease and the demand: <prefix>_lease and
  /// <prefix>_demand.
  std::string bucket_prefix = "massive_relay";
};

}  // namespace massive::relay
