// Why a relay or a relay consumer failed. No credential (the Massive key, NATS user, password
// or token) appears in any of these messages.
#pragma once

#include <string>

#include "massive/error.hpp"

namespace massive::relay {

/// What went wrong in the relay, its consumer or the mapping of topics to subjects.
enum class relay_errc {
  invalid_ticker =
      1,            ///< a ticker or subject token that cannot be mapped (empty, malformed escape)
  invalid_option,   ///< an option given at construction cannot be used
  nats_failed,      ///< NATS or JetStream refused or failed a request (connect, stream, KV, fetch)
  lease_lost,       ///< another relay holds the lease: this one stopped publishing
  upstream_failed,  ///< the upstream stream ended for good (auth refused, max_connections, ...)
  closed,           ///< the relay or the consumer was closed
};
// Each code's name is in to_string's list (sdk/src/relay/error.cpp), which ends with the last.

/// The name of a code, e.g. "nats_failed".
const char* to_string(relay_errc code) noexcept;

/// A relay failure; code() says why, what() adds the detail (never a credential).
class relay_error : public massive::coded_error<relay_errc> {
 public:
  /// what() is "relay: <code>: <detail>"; `detail` must hold no secret.
  relay_error(relay_errc code, const std::string& detail) : coded_error("relay", code, detail) {}
};

}  // namespace massive::relay
