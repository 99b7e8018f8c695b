// Uses a compiled part of the SDK, so that linking against the installed library is proven.
#include <massive/error.hpp>

#include <iostream>

int main() {
  const auto code = massive::make_error_code(massive::errc::deadline_exceeded);
  std::cout << "consumer: " << code.category().name() << ": " << code.message() << "\n";
  return code.category().name() == std::string_view("massive") ? 0 : 1;
}
