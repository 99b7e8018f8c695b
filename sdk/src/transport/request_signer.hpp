// An optional hook that signs each attempt's request head in place, for origins that
// authenticate requests by signature instead of a bearer key (the flat files' S3 endpoint:
// sdk/src/files/s3_signer.cpp). Called on the call's strand just before every attempt is
// written, so that each attempt carries a fresh signature and time.
#pragma once

#include <string>

namespace massive::transport {

class request_signer {
 public:
  virtual ~request_signer() = default;
  /// Rewrites `head` (a whole request head, ending in an empty line) with its authentication:
  /// whatever Authorization line the head has is replaced. Throws to fail the call.
  virtual void sign(std::string& head) const = 0;
};

}  // namespace massive::transport
