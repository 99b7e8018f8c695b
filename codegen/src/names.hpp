// Identifier rules shared by the builder and the emitters.
#pragma once

#include <string>
#include <string_view>

namespace massive::codegen {

/// snake_case of a wire name: lastQuote -> last_quote, company_name.search ->
/// company_name_search, 10-K -> _10_k; reserved words get a trailing underscore.
std::string identifier(std::string_view wire);
/// A C++ keyword, or a type the generated structs name unqualified (timestamp_ms, filter...).
bool is_reserved_word(std::string_view word);
/// A default name made from the description's keys, kept short enough to name files
/// (<name>_decode.hpp must fit a file system's 255 bytes, with room to spare): a name longer
/// than 96 bytes keeps its first 48 and its last 32 (the owner and the innermost key) around 8
/// hex digits of a hash of the whole (FNV-1a), so that it stays one name per shape, the same in
/// every run.
std::string bounded_name(const std::string& name);

}  // namespace massive::codegen
