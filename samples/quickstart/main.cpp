#include <massive/error.hpp>
#include <iostream>
int main() { std::cout << massive::make_error_code(massive::errc::deadline_exceeded).message() << "\n"; }
