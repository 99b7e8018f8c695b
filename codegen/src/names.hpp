// Identifier rules shared by the builder and the emitters.
#pragma once

#include <string>
#include <string_view>

namespace massive::codegen {

/// snake_case of a wire name: lastQuote -> last_quote, company_name.search ->
/// company_name_search, 10-K -> _10_k; C++ keywords get a trailing underscore.
std::string identifier(std::string_view wire);
bool is_keyword(std::string_view word);

}  // namespace massive::codegen
