#include "massive/relay/error.hpp"

namespace massive::relay {

const char* to_string(relay_errc code) noexcept {
  switch (code) {
    case relay_errc::invalid_ticker:
      return "invalid_ticker";
    case relay_errc::invalid_option:
      return "invalid_option";
    case relay_errc::nats_failed:
      return "nats_failed";
    case relay_errc::lease_lost:
      return "lease_lost";
    case relay_errc::upstream_failed:
      return "upstream_failed";
    case relay_errc::closed:
      return "closed";
  }
  return "unknown";
}

}  // namespace massive::relay
