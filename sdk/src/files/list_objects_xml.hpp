// A reader of the two XML documents an S3 endpoint answers here: a ListObjectsV2 result and an
// error. Not a general XML parser: elements, text, the five predefined entities and character
// references, CDATA, comments and processing instructions; a DTD is refused, so no entity is
// ever defined or expanded. Bounded: nesting depth, the document's size (its caller's cap).
// docs/maintainers/flat-files.md says why it is not a Debian-packaged parser.
#pragma once

#include <string>
#include <string_view>

#include "massive/files/listing.hpp"

namespace massive::files::detail {

/// Elements nested deeper are files_error(malformed_listing).
inline constexpr std::size_t max_xml_depth = 16;

/// The page a ListObjectsV2 answer holds. Throws files_error(malformed_listing) naming what is
/// wrong (not XML, another root element, a Size that is not a number, unclosed elements).
listing_page parse_list_objects(std::string_view xml);

/// An S3 error document's Code and Message (each cut to 200 bytes, control characters as '?'),
/// from the document or its first bytes; empty when the text holds no <Error>.
struct s3_error_body {
  std::string code;
  std::string message;
};
s3_error_body parse_error_body(std::string_view xml) noexcept;

}  // namespace massive::files::detail
