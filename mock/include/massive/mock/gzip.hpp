// gzip for test bodies (the server side of Content-Encoding: gzip).
#pragma once

#include <string>
#include <string_view>

namespace massive::mock {

/// One gzip member holding `data`, compressed at zlib's `level` (1, the fastest, for test
/// servers; the benchmark's fixtures use zlib's default, 6, closer to what the API sends).
std::string gzip_compress(std::string_view data, int level = 1);

}  // namespace massive::mock
