#include "bodies.hpp"

#include "rng.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace massive::bench {
namespace {

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  out.append(buf, static_cast<std::size_t>(n));
}

// A price as the server prints it: at most `decimals` decimals, trailing zeros dropped.
void append_price(std::string& out, double v, int decimals) {
  char buf[32];
  int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string_view s(buf, static_cast<std::size_t>(n));
  while (s.back() == '0') s.remove_suffix(1);
  if (s.back() == '.') s.remove_suffix(1);
  out.append(s);
}

void append_volume(std::string& out, rng& r, std::int64_t volume) {
  char buf[32];
  int n = 0;
  switch (r.below(10)) {
    case 0:
    case 1:
      n = std::snprintf(buf, sizeof buf, "%lld.0", static_cast<long long>(volume));
      break;
    case 2:
      n = std::snprintf(buf, sizeof buf, "%.6e", static_cast<double>(volume));
      break;
    default:
      n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(volume));
      break;
  }
  out.append(buf, static_cast<std::size_t>(n));
}

void append_hex_id(std::string& out, rng& r) {
  static constexpr char digits[] = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) out.push_back(digits[r.below(16)]);
}

}  // namespace

std::string make_aggs_body(std::size_t rows, agg_key_order order) {
  rng r(0xa995'0000 + rows);
  std::string out;
  out.reserve(rows * 120 + 512);
  out += R"({"ticker":"AAPL","queryCount":)";
  append_int(out, static_cast<std::int64_t>(rows));
  out += R"(,"resultsCount":)";
  append_int(out, static_cast<std::int64_t>(rows));
  out += R"(,"adjusted":true,"results":[)";
  double price = 187.25;
  std::int64_t t = 1704205800000;  // 2024-01-02 14:30 UTC, the first regular-session minute
  // A row's fields in wire order, each `"key":value`; written out in the body's key order.
  std::string fields[8];
  static constexpr int sorted[8] = {3, 4, 5, 7, 2, 6, 0, 1};  // c h l n o t v vw
  for (std::size_t i = 0; i < rows; ++i) {
    double open = price;
    double close = std::max(1.0, open + (r.unit() - 0.5) * 0.6);
    double high = std::max(open, close) + r.unit() * 0.2;
    double low = std::min(open, close) - r.unit() * 0.2;
    double vwap = low + (high - low) * r.unit();
    price = close;
    for (std::string& f : fields) f.clear();
    fields[0] = R"("v":)";
    append_volume(fields[0], r, static_cast<std::int64_t>(1000 + r.below(3'000'000)));
    fields[1] = R"("vw":)";
    append_price(fields[1], vwap, 4);
    fields[2] = R"("o":)";
    append_price(fields[2], open, 4);
    fields[3] = R"("c":)";
    append_price(fields[3], close, 4);
    fields[4] = R"("h":)";
    append_price(fields[4], high, 4);
    fields[5] = R"("l":)";
    append_price(fields[5], low, 4);
    fields[6] = R"("t":)";
    append_int(fields[6], t);
    fields[7] = R"("n":)";
    append_int(fields[7], static_cast<std::int64_t>(1 + r.below(40'000)));
    if (i != 0) out.push_back(',');
    out.push_back('{');
    for (int k = 0; k < 8; ++k) {
      if (k != 0) out.push_back(',');
      out += fields[order == agg_key_order::wire ? k : sorted[k]];
    }
    out.push_back('}');
    t += 60'000;
  }
  out += R"(],"status":"OK","request_id":")";
  append_hex_id(out, r);
  out += R"(","count":)";
  append_int(out, static_cast<std::int64_t>(rows));
  out += R"(,"next_url":"https://api.massive.com/v2/aggs/ticker/AAPL/range/1/minute/)";
  append_int(out, t);
  out += R"(/2024-06-28?cursor=bGltaXQ9NTAwMDAmc29ydD1hc2M"})";
  return out;
}

std::string make_trades_body(std::size_t rows) {
  rng r(0x7ade'0000 + rows);
  std::string out;
  out.reserve(rows * 300 + 512);
  out += R"({"results":[)";
  static constexpr int condition_codes[] = {12, 14, 37, 41, 53};
  double price = 156.43;
  std::int64_t sip = 1651181822461979400;
  std::int64_t sequence = 7179341;
  std::int64_t id = 183276;
  for (std::size_t i = 0; i < rows; ++i) {
    price = std::max(1.0, price + (static_cast<double>(r.below(21)) - 10.0) * 0.01);
    bool fractional = r.below(20) == 0;
    std::int64_t size = fractional ? 0 : static_cast<std::int64_t>(1 + r.below(500));
    bool trf = r.below(3) == 0;
    if (i != 0) out.push_back(',');
    out.push_back('{');
    if (r.below(10) < 7) {
      out += R"("conditions":[)";
      std::uint64_t n = 1 + r.below(3);
      for (std::uint64_t k = 0; k < n; ++k) {
        if (k != 0) out.push_back(',');
        append_int(out, condition_codes[r.below(5)]);
      }
      out += "],";
    }
    if (r.below(200) == 0) out += R"("correction":1,)";
    out += R"("decimal_size":")";
    if (fractional) {
      out += "0.";
      append_int(out, static_cast<std::int64_t>(1 + r.below(99)));
    } else {
      append_int(out, size);
      out += ".0";
    }
    out += R"(","exchange":)";
    append_int(out, trf ? 4 : static_cast<std::int64_t>(1 + r.below(21)));
    out += R"(,"id":")";
    append_int(out, trf ? 52983525000000 + id * 7 : id);
    out += R"(","participant_timestamp":)";
    append_int(out, sip - static_cast<std::int64_t>(r.below(400'000)));
    out += R"(,"price":)";
    append_price(out, price, 4);
    out += R"(,"sequence_number":)";
    append_int(out, sequence);
    out += R"(,"sip_timestamp":)";
    append_int(out, sip);
    out += R"(,"size":)";
    append_int(out, size);
    out += R"(,"tape":)";
    append_int(out, static_cast<std::int64_t>(1 + r.below(3)));
    if (trf) {
      out += R"(,"trf_id":)";
      append_int(out, static_cast<std::int64_t>(1 + r.below(3)));
      out += R"(,"trf_timestamp":)";
      append_int(out, sip - static_cast<std::int64_t>(r.below(300'000'000)));
    }
    out.push_back('}');
    sip += static_cast<std::int64_t>(r.below(5'000'000));
    sequence += static_cast<std::int64_t>(1 + r.below(40));
    id += static_cast<std::int64_t>(1 + r.below(9));
  }
  out += R"(],"status":"OK","request_id":")";
  append_hex_id(out, r);
  out += R"(","next_url":"https://api.massive.com/v3/trades/AAPL?cursor=YXA9MTkyODgxNjYmYXM9JmxpbWl0PTUwMDAw"})";
  return out;
}

std::vector<std::span<const char>> chunk(const std::string& body, std::size_t size) {
  std::vector<std::span<const char>> chunks;
  for (std::size_t at = 0; at < body.size(); at += size) {
    chunks.emplace_back(body.data() + at, std::min(size, body.size() - at));
  }
  return chunks;
}

}  // namespace massive::bench
