// Links one group alone (massive::stocks) from the installed package, and uses what it compiled:
// the agg decoder decodes a body, and the core's error category names itself.
#include <massive/decoder.hpp>
#include <massive/error.hpp>
#include <massive/stocks.hpp>
#include <massive/version.hpp>

#include <iostream>
#include <string_view>

int main() {
  massive::page_decoder<massive::agg> decoder(massive::make_page_pool());
  constexpr std::string_view body = R"({"status":"OK","results":[{"o":1.5,"h":3.0,"l":1.0,"c":2.5,"v":100,"vw":2.0,"t":1704067200000,"n":3}]})";
  decoder.feed(body);
  decoder.finish();
  const massive::page<massive::agg> bars = decoder.take();
  const auto code = massive::make_error_code(massive::errc::deadline_exceeded);
  std::cout << "consumer: " << code.category().name() << ", " << bars.size() << " bar, close "
            << bars[0].close << ", version " << massive::version.string << "\n";
  return bars.size() == 1 && bars[0].close == 2.5 ? 0 : 1;
}
