// The hand-off between the transport and the decoder: a body arrives as chunks.
#pragma once

#include <span>

namespace massive::detail {

/// Receives a 2xx response body as it arrives, after any content decoding (gzip).
/// The transport calls feed() once per chunk, in order, then finish() once when the body
/// is complete; it never calls finish() after a failure. Either may throw decode_error,
/// which the transport propagates unchanged. A sink is used for one body.
class body_sink {
 public:
  virtual ~body_sink() = default;
  /// Takes the next chunk of the body; `chunk` is valid only during the call.
  virtual void feed(std::span<const char> chunk) = 0;
  /// The body is complete: checks that nothing is left unfinished.
  virtual void finish() = 0;
};

}  // namespace massive::detail
