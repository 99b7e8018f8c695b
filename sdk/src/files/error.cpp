#include "massive/files/error.hpp"

#include "massive/detail/enum_names.hpp"

namespace massive::files {
namespace {

constexpr massive::detail::enum_names files_errc_names{
    files_errc::missing_column, files_errc::cache_failed,
    {"missing_column", "malformed_header", "malformed_row", "line_too_long", "malformed_listing",
     "listing_too_large", "access_denied", "not_found", "no_credentials", "corrupt_file",
     "changed_file", "cache_failed"}};

}  // namespace

const char* to_string(files_errc code) noexcept { return files_errc_names[code]; }

}  // namespace massive::files
