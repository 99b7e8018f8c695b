// What a listing of the flat-file bucket returns: the files under a prefix, one page of an S3
// ListObjectsV2 answer at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace massive::files {

/// One file of the bucket.
struct object_info {
  std::string key;         ///< e.g. "us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz"
  std::uint64_t size = 0;  ///< bytes, compressed
  std::string
      etag;  ///< as the server sends it, quotes included ("\"9b2cf535f27731c974343645a3985328\"")
  std::string last_modified;  ///< ISO 8601, as the server sends it
};

/// One page of a listing.
struct listing_page {
  std::vector<object_info> objects;          ///< the files, in key order
  std::vector<std::string> common_prefixes;  ///< with a delimiter: the "folders" under the prefix
  bool truncated = false;                    ///< more pages follow
  std::string next_continuation_token;       ///< what asks for the next page, when truncated
};

}  // namespace massive::files
