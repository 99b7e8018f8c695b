// gzip for test bodies (the server side of Content-Encoding: gzip).
#pragma once

#include <string>
#include <string_view>

namespace massive::mock {

/// One gzip member holding `data`.
std::string gzip_compress(std::string_view data);

}  // namespace massive::mock
