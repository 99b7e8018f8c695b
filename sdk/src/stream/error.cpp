#include "massive/stream/error.hpp"

namespace massive::stream {

const char* to_string(stream_errc code) noexcept {
  switch (code) {
    case stream_errc::auth_failed: return "auth_failed";
    case stream_errc::no_stream_access: return "no_stream_access";
    case stream_errc::auth_timeout: return "auth_timeout";
    case stream_errc::frame_too_large: return "frame_too_large";
    case stream_errc::max_connections: return "max_connections";
    case stream_errc::force_disconnect: return "force_disconnect";
    case stream_errc::slow_consumer: return "slow_consumer";
    case stream_errc::connection_lost: return "connection_lost";
    case stream_errc::reconnects_exhausted: return "reconnects_exhausted";
    case stream_errc::protocol_violation: return "protocol_violation";
  }
  return "unknown";
}

}  // namespace massive::stream
