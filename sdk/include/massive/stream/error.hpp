// Why a stream failed. The API key appears in none of these messages.
#pragma once

#include "massive/error.hpp"

#include <string>

namespace massive::stream {

enum class stream_errc {
  auth_failed = 1,     ///< the server refused the key (`auth_failed`): fatal, never retried
  no_stream_access,    ///< the key's plan does not include websocket access: fatal, never retried
  auth_timeout,        ///< the server timed the authentication out (`auth_timeout`)
  frame_too_large,     ///< a frame exceeded frame_limits::max_frame_bytes
  max_connections,     ///< another connection with the same key took over (`max_connections`)
  force_disconnect,    ///< the server ended the connection (`force_disconnect`)
  slow_consumer,       ///< the server cut the connection: the client read too slowly (`slow_consumer`)
  connection_lost,     ///< the connection closed, reset or stalled (no pong in time)
  reconnects_exhausted,///< the configured number of reconnect attempts failed
  protocol_violation,  ///< the server sent something the protocol does not allow here
};
// Each code's name is in to_string's list (sdk/src/stream/error.cpp), which ends with the last.

/// The name of a code, e.g. "auth_failed".
const char* to_string(stream_errc code) noexcept;

/// A stream failed; code() says why, what() adds the server's message where it sent one.
class stream_error : public massive::coded_error<stream_errc> {
 public:
  /// what() is "stream: <code>: <detail>" (the detail: the server's message where it sent one,
  /// the key taken out of it by session::without_key: it is shown as is).
  stream_error(stream_errc code, const std::string& detail) : coded_error("stream", code, detail) {}
};

}  // namespace massive::stream
