#include "massive/files/error.hpp"

namespace massive::files {

const char* to_string(files_errc code) noexcept {
  switch (code) {
    case files_errc::missing_column:
      return "missing_column";
    case files_errc::malformed_header:
      return "malformed_header";
    case files_errc::malformed_row:
      return "malformed_row";
    case files_errc::line_too_long:
      return "line_too_long";
    case files_errc::malformed_listing:
      return "malformed_listing";
    case files_errc::listing_too_large:
      return "listing_too_large";
    case files_errc::access_denied:
      return "access_denied";
    case files_errc::not_found:
      return "not_found";
    case files_errc::no_credentials:
      return "no_credentials";
    case files_errc::corrupt_file:
      return "corrupt_file";
    case files_errc::changed_file:
      return "changed_file";
    case files_errc::cache_failed:
      return "cache_failed";
  }
  return "unknown";
}

}  // namespace massive::files
