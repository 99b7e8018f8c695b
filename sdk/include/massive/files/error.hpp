// Why reading flat files failed. No message ever holds the S3 secret or a signature.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "massive/error.hpp"

namespace massive::files {

/// What went wrong with a flat file, its listing or the S3 endpoint.
enum class files_errc {
  missing_column =
      1,             ///< the file's header lacks a column the row type needs (the message names it)
  malformed_header,  ///< the first line is not a header of column names
  malformed_row,  ///< decode_policy::strict: a field that does not parse (the message says where)
  line_too_long,  ///< a line longer than decode_options::max_line_bytes
  malformed_listing,  ///< a ListObjectsV2 answer that is not the XML it should be
  listing_too_large,  ///< a listing page larger than its cap
  access_denied,  ///< 403: outside the plan or its history, not yet published, or wrong credentials
  not_found,      ///< 404: no such file (or bucket)
  no_credentials,  ///< no S3 access key and secret in the options or the environment
  corrupt_file,    ///< the gzip stream is corrupt, or ends inside a member
  changed_file,    ///< a file changed while it was read (its ETag or size differ between ranges)
  cache_failed,    ///< files_config::cache_directory could not be written or read (the message says
                   ///< which file)
};
// Each code's name is in to_string's list (sdk/src/files/error.cpp), which ends with the last.

/// The name of a code, e.g. "missing_column".
const char* to_string(files_errc code) noexcept;

/// A flat file could not be listed, fetched or decoded; code() says why.
class files_error : public massive::coded_error<files_errc> {
 public:
  /// what() is "files: <code>: <detail>"; `detail` must hold no secret: it is shown as is.
  files_error(files_errc code, const std::string& detail,
              std::optional<std::uint64_t> line = std::nullopt)
      : coded_error("files", code, detail), line_(line) {}
  /// The line of the file (1 is the header) where a decode failed, when it is known.
  std::optional<std::uint64_t> line() const noexcept { return line_; }

 private:
  std::optional<std::uint64_t> line_;
};

}  // namespace massive::files
