// Stream frame decode: mixed trade/quote frames of 1, 10, 100 and 1,000 events, decoded by
// massive::stream::frame_decoder (typed events in a pooled batch), by simdjson On Demand over
// a padded copy of each frame (the ceiling: what a hand-written decoder over the whole frame
// costs) and by nlohmann::json per frame. Each arm reads every field of every event and folds
// it into a checksum, so none can skip work; the checksums are compared before timing.
//
//   cmake --build build --target massive_bench_stream && build/bench/massive_bench_stream
#include <massive/stream/batch.hpp>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace ms = massive::stream;
namespace od = simdjson::ondemand;

std::string mixed_frame(int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i != 0) out += ',';
    const std::string seq = std::to_string(4'009'402 + i);
    if (i % 2 == 0) {
      out += R"({"ev":"T","sym":"AAPL","i":")" + seq + R"(","x":4,"p":189.)" + std::to_string(10 + i % 90) +
             R"(,"s":100,"c":[14,41],"t":1651684192462,"q":)" + seq + R"(,"z":3})";
    } else {
      out += R"({"ev":"Q","sym":"MSFT","bx":4,"bp":310.12,"bs":2,"ax":7,"ap":310.25,"as":3,"c":1,"i":[604],"t":1651684192463,"q":)" +
             seq + R"(,"z":3})";
    }
  }
  return out + "]";
}

/// What every arm folds: the numbers of each event and the length of its ticker.
struct checksum {
  double prices = 0;
  std::int64_t integers = 0;
  void add(double p) { prices += p; }
  void add(std::int64_t v) { integers += v; }
};

checksum with_massive(ms::frame_decoder& d, const std::string& frame) {
  d.feed(frame);
  const ms::batch b = d.finish();
  checksum c;
  for (const auto& t : b.events<massive::stock_trade_event>()) {
    c.add(t.price.value_or(0));
    c.add(t.size.value_or(0) + t.exchange.value_or(0) + t.sequence_number.value_or(0) + t.tape.value_or(0) +
          t.timestamp.count() + static_cast<std::int64_t>(t.ticker.size() + t.id.value_or("").size() + t.conditions.size()));
  }
  for (const auto& q : b.events<massive::stock_quote_event>()) {
    c.add(q.bid_price.value_or(0) + q.ask_price.value_or(0));
    c.add(q.bid_size.value_or(0) + q.ask_size.value_or(0) + q.bid_exchange.value_or(0) + q.ask_exchange.value_or(0) +
          q.condition.value_or(0) + q.sequence_number.value_or(0) + q.tape.value_or(0) + q.timestamp.count() +
          static_cast<std::int64_t>(q.ticker.size() + q.indicators.size()));
  }
  return c;
}

checksum with_ondemand(od::parser& parser, std::vector<char>& padded, const std::string& frame) {
  if (padded.size() < frame.size() + simdjson::SIMDJSON_PADDING) padded.resize(frame.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(padded.data(), frame.data(), frame.size());
  checksum c;
  od::document doc = parser.iterate(padded.data(), frame.size(), padded.size());
  for (od::object event : doc.get_array()) {
    for (auto field : event) {
      const std::string_view key = field.unescaped_key();
      od::value v = field.value();
      if (key == "ev") continue;
      if (key == "sym" || key == "i") {
        if (v.type() == od::json_type::array) {
          for (auto x : v.get_array()) c.add(std::int64_t(x.get_int64()));
        } else {
          c.add(static_cast<std::int64_t>(std::string_view(v.get_string()).size()));
        }
      } else if (key == "c") {
        if (v.type() == od::json_type::array) {
          std::int64_t n = 0;
          for (auto x : v.get_array()) n += x.get_int64().error() == simdjson::SUCCESS ? 1 : 0;
          c.add(n);
        } else {
          c.add(std::int64_t(v.get_int64()));
        }
      } else if (key == "p" || key == "bp" || key == "ap") {
        c.add(double(v.get_double()));
      } else {
        c.add(std::int64_t(v.get_int64()));
      }
    }
  }
  return c;
}

checksum with_nlohmann(const std::string& frame) {
  checksum c;
  const nlohmann::json doc = nlohmann::json::parse(frame);
  for (const auto& event : doc) {
    for (const auto& [key, v] : event.items()) {
      if (key == "ev") continue;
      if (key == "sym" || (key == "i" && v.is_string())) {
        c.add(static_cast<std::int64_t>(v.get_ref<const std::string&>().size()));
      } else if (key == "i") {
        for (const auto& x : v) c.add(x.get<std::int64_t>());
      } else if (key == "c") {
        c.add(v.is_array() ? static_cast<std::int64_t>(v.size()) : v.get<std::int64_t>());
      } else if (key == "p" || key == "bp" || key == "ap") {
        c.add(v.get<double>());
      } else {
        c.add(v.get<std::int64_t>());
      }
    }
  }
  return c;
}

/// The arms agree on the prices, up to the rounding of summing them in another order (the typed
/// arm sums by type); their integers differ by design (array lengths for conditions).
bool same(const checksum& a, const checksum& b) {
  return std::abs(a.prices - b.prices) <= 1e-9 * std::max(1.0, std::abs(a.prices));
}

void report(benchmark::State& state, std::size_t events, std::size_t bytes) {
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events) * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
}

void massive_frames(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string frame = mixed_frame(n);
  ms::frame_decoder d(ms::market::stocks);
  od::parser parser;
  std::vector<char> padded;
  if (!same(with_massive(d, frame), with_ondemand(parser, padded, frame)) || !same(with_massive(d, frame), with_nlohmann(frame))) {
    throw std::runtime_error("the arms disagree");
  }
  for (auto _ : state) benchmark::DoNotOptimize(with_massive(d, frame));
  report(state, static_cast<std::size_t>(n), frame.size());
}

void ondemand_padded_frames(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string frame = mixed_frame(n);
  od::parser parser;
  std::vector<char> padded;
  for (auto _ : state) benchmark::DoNotOptimize(with_ondemand(parser, padded, frame));
  report(state, static_cast<std::size_t>(n), frame.size());
}

void nlohmann_frames(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string frame = mixed_frame(n);
  for (auto _ : state) benchmark::DoNotOptimize(with_nlohmann(frame));
  report(state, static_cast<std::size_t>(n), frame.size());
}

BENCHMARK(massive_frames)->Arg(1)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(ondemand_padded_frames)->Arg(1)->Arg(10)->Arg(100)->Arg(1000);
BENCHMARK(nlohmann_frames)->Arg(1)->Arg(10)->Arg(100)->Arg(1000);

}  // namespace

BENCHMARK_MAIN();
