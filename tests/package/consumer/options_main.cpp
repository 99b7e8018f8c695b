// Links the options group alone (massive::options) from the installed package. Its indicators
// share their route with the other markets' (x-polygon-ignore variants), and their rows
// (indicator_value) and underlying bars (indicator_bar) must be compiled into a library the
// options group brings, which the generator did not do while it placed models by the
// operations that are not ignored alone (indicator_value went to massive::stocks).
// Seen failing with `if (o.ignored) continue;` put back in emit_cmake.cpp's groups_by_model:
// "undefined reference to massive::row_codec_for(std::type_identity<massive::indicator_value>)"
// (and indicator_bar) when options_consumer links. A description without the options'
// indicators (the JVM client's copy drops the x-polygon-ignore variants) gives the group none:
// then there is nothing to check.
#include <massive/decoder.hpp>
#include <massive/options.hpp>
#include <massive/underlying.hpp>

#include <iostream>
#include <string_view>

namespace massive {
struct indicator_value;  // complete when <massive/options.hpp> has the options' indicators
}

template <class T>
concept complete = requires { sizeof(T); };

template <class Value>
int check_indicators() {
  massive::page_decoder<Value> decoder(massive::make_page_pool(), massive::payload_shape::results_values);
  constexpr std::string_view body =
      R"({"status":"OK","results":{"values":[{"timestamp":1704067200000,"value":2.25}],)"
      R"("underlying":{"url":"https://api.massive.com/v2/aggs/ticker/O:X","aggregates":[{"c":2.5,"t":1704067200000}]}}})";
  decoder.feed(body);
  decoder.finish();
  const auto values = decoder.take();
  const auto under = massive::underlying(values);
  const bool ok = values.size() == 1 && under && under->aggregates.size() == 1 && under->aggregates[0].close == 2.5;
  std::cout << "options consumer: " << values.size() << " value, " << (under ? under->aggregates.size() : 0)
            << " underlying bar\n";
  return ok ? 0 : 1;
}

template <class Value = massive::indicator_value>
int check() {
  if constexpr (!complete<Value>) {
    std::cout << "options consumer: the options group has no indicators in this description\n";
    return 0;
  } else {
    return check_indicators<Value>();
  }
}

int main() { return check(); }
