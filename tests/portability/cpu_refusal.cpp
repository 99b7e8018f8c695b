// Makes a client and decodes one body, the first things a program does with the SDK. On a CPU
// with what MASSIVE_SIMD_ARCH needs it prints the row; on one without, the SDK must refuse
// with unsupported_cpu (exit 3) naming the build option, never stop on an illegal
// instruction (cpu_refusal.cmake runs it under qemu as an older CPU).
#include <massive/client.hpp>
#include <massive/cpu_support.hpp>
#include <massive/decoder.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <string_view>

int main() {
  try {
    boost::asio::io_context io;
    massive::client client{io.get_executor(), {.api_key = "cpu-refusal-test-key", .base_url = "https://127.0.0.1:9"}};
    massive::page_decoder<massive::agg> decoder(client.pool());
    constexpr std::string_view body = R"({"status":"OK","results":[{"o":1.5,"h":3.0,"l":1.0,"c":2.5,"v":100,"vw":2.0,"t":1704067200000,"n":3}]})";
    decoder.feed(body);
    decoder.finish();
    const massive::page<massive::agg> bars = decoder.take();
    std::printf("decoded %zu row, close %.1f\n", bars.size(), bars.size() == 1 ? bars[0].close : 0.0);
    return 0;
  } catch (const massive::unsupported_cpu& e) {
    std::printf("unsupported_cpu: %s\n", e.what());
    return 3;
  }
}
