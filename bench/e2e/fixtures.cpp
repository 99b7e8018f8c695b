// Writes the end-to-end benchmark's page chains: deterministic bodies in the API's wire format
// (compact JSON, keys in the server's order), each page's next_url naming the next file on the
// loopback origin, a .gz beside every page for nginx's gzip_static, and manifest.json with
// what the script needs (URLs, rows, bytes) and the digest every client must reproduce.
//
//   massive_e2e_fixtures <out_dir> <origin> [agg_pages trade_pages rows_per_page]
//
// Files go under <out_dir>/www/<request path>/<cursor or "first">.json; the nginx config maps
// `?cursor=` onto that layout. The expected digest is computed from the text as written,
// parsed back with std::from_chars, so it is independent of every client's JSON parser.
#include "../rng.hpp"
#include "digest.hpp"

#include <massive/mock/base64url.hpp>
#include <massive/mock/gzip.hpp>

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using massive::bench::e2e::digest;
using massive::bench::e2e::row_hasher;
using massive::bench::rng;

double parse_double(std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    throw std::runtime_error("fixture wrote an unreadable number: " + std::string(text));
  }
  return v;
}

std::int64_t append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
  return v;
}

// A price as the server prints it: at most four decimals, trailing zeros dropped. Returns the
// value a correct parser reads back.
double append_price(std::string& out, double v) {
  char buf[32];
  int n = std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string_view s(buf, static_cast<std::size_t>(n));
  while (s.back() == '0') s.remove_suffix(1);
  if (s.back() == '.') s.remove_suffix(1);
  out.append(s);
  return parse_double(s);
}

// Volumes come as 1748755, 1748755.0 and 2.384421e+06, as the API sends them.
double append_volume(std::string& out, rng& r, std::int64_t volume) {
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
  std::string_view s(buf, static_cast<std::size_t>(n));
  out.append(s);
  return parse_double(s);
}

void append_hex_id(std::string& out, rng& r) {
  static constexpr char digits[] = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) out.push_back(digits[r.below(16)]);
}

// An opaque cursor as the API makes them (URL-safe base64 of its state, unpadded); also a
// safe file name.
std::string cursor_for(std::size_t page, std::size_t rows) {
  return massive::mock::base64url("as=" + std::to_string(page) + "&limit=" + std::to_string(rows) + "&sort=asc");
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

struct chain {
  std::string name;
  std::string path;   // request path, shared by every page; pages differ by cursor
  std::string query;  // of the first request
  std::vector<std::string> urls;
  std::uint64_t rows = 0, body_bytes = 0, gzip_bytes = 0;
  digest expected;
};

struct agg_state {
  rng r{0xa995'e2e0};
  double price = 187.25;
  std::int64_t t = 1704205800000;  // 2024-01-02 14:30 UTC, then one bar a minute
};

void append_agg_rows(std::string& out, agg_state& s, std::size_t rows, digest& d) {
  for (std::size_t i = 0; i < rows; ++i) {
    rng& r = s.r;
    double open = s.price;
    double close = std::max(1.0, open + (r.unit() - 0.5) * 0.6);
    double high = std::max(open, close) + r.unit() * 0.2;
    double low = std::max(0.5, std::min(open, close) - r.unit() * 0.2);
    double vwap = low + (high - low) * r.unit();
    if (i != 0) out.push_back(',');
    out += R"({"v":)";
    const double v = append_volume(out, r, static_cast<std::int64_t>(1000 + r.below(3'000'000)));
    out += R"(,"vw":)";
    const double vw = append_price(out, vwap);
    out += R"(,"o":)";
    const double o = append_price(out, open);
    out += R"(,"c":)";
    const double c = append_price(out, close);
    out += R"(,"h":)";
    const double h = append_price(out, high);
    out += R"(,"l":)";
    const double l = append_price(out, low);
    out += R"(,"t":)";
    const std::int64_t t = append_int(out, s.t);
    out += R"(,"n":)";
    const std::int64_t n = append_int(out, static_cast<std::int64_t>(1 + r.below(40'000)));
    out.push_back('}');
    d.add(massive::bench::e2e::agg_row(v, vw, o, c, h, l, t, n));
    s.price = c;
    s.t += 60'000;
  }
}

struct trade_state {
  rng r{0x7ade'e2e0};
  double price = 156.43;
  std::int64_t sip = 1651181822461979400;
  std::int64_t sequence = 7179341;
  std::int64_t id = 183276;
};

void append_trade_rows(std::string& out, trade_state& s, std::size_t rows, digest& d) {
  static constexpr std::int32_t condition_codes[] = {12, 14, 37, 41, 53};
  std::int32_t conditions[3];
  for (std::size_t i = 0; i < rows; ++i) {
    rng& r = s.r;
    s.price = std::max(1.0, s.price + (static_cast<double>(r.below(21)) - 10.0) * 0.01);
    const bool trf = r.below(3) == 0;
    if (i != 0) out.push_back(',');
    out.push_back('{');
    std::size_t n_conditions = 0;
    if (r.below(10) < 7) {
      out += R"("conditions":[)";
      n_conditions = 1 + r.below(3);
      for (std::size_t k = 0; k < n_conditions; ++k) {
        if (k != 0) out.push_back(',');
        conditions[k] = condition_codes[r.below(5)];
        append_int(out, conditions[k]);
      }
      out += "],";
    }
    out += R"("exchange":)";
    const std::int64_t exchange = append_int(out, trf ? 4 : static_cast<std::int64_t>(1 + r.below(21)));
    out += R"(,"id":")";
    const std::size_t id_at = out.size();
    append_int(out, trf ? 52983525000000 + s.id * 7 : s.id);
    const std::string id = out.substr(id_at);
    out += R"(","participant_timestamp":)";
    const std::int64_t participant =
        append_int(out, s.sip - static_cast<std::int64_t>(r.below(400'000)));
    out += R"(,"price":)";
    const double price = append_price(out, s.price);
    out += R"(,"sequence_number":)";
    const std::int64_t sequence = append_int(out, s.sequence);
    out += R"(,"sip_timestamp":)";
    const std::int64_t sip = append_int(out, s.sip);
    out += R"(,"size":)";
    const std::int64_t size = append_int(out, static_cast<std::int64_t>(1 + r.below(500)));
    out += R"(,"tape":)";
    const std::int64_t tape = append_int(out, static_cast<std::int64_t>(1 + r.below(3)));
    out.push_back('}');
    auto h = massive::bench::e2e::trade_row(exchange, id, participant, price, sequence, sip,
                                            static_cast<double>(size), tape);
    massive::bench::e2e::add_conditions(h, std::span<const std::int32_t>(conditions, n_conditions));
    d.add(h);
    s.sip += static_cast<std::int64_t>(r.below(5'000'000));
    s.sequence += static_cast<std::int64_t>(1 + r.below(40));
    s.id += static_cast<std::int64_t>(1 + r.below(9));
  }
}

// Writes the pages of one chain; compression of page N overlaps generation of page N+1.
template <class AppendRows, class Envelope>
void write_chain(chain& c, const fs::path& www, const std::string& origin, std::size_t pages,
                 std::size_t rows_per_page, AppendRows append_rows, Envelope envelope) {
  const fs::path dir = www / c.path.substr(1);
  fs::create_directories(dir);
  rng ids(0x1d5 + pages);
  std::thread writer;
  for (std::size_t p = 0; p < pages; ++p) {
    const std::string file = p == 0 ? "first" : cursor_for(p, rows_per_page);
    c.urls.push_back(origin + c.path + (p == 0 ? c.query : "?cursor=" + file));
    std::string body;
    body.reserve(rows_per_page * 240 + 1024);
    std::string next_url;
    if (p + 1 < pages) next_url = origin + c.path + "?cursor=" + cursor_for(p + 1, rows_per_page);
    std::string request_id;
    append_hex_id(request_id, ids);
    envelope(body, rows_per_page, [&] { append_rows(body, rows_per_page, c.expected); },
             request_id, next_url);
    c.rows += rows_per_page;
    c.body_bytes += body.size();
    if (writer.joinable()) writer.join();
    writer = std::thread([&c, path = dir / (file + ".json"), body = std::move(body)] {
      write_file(path, body);
      const std::string packed = massive::mock::gzip_compress(body, Z_DEFAULT_COMPRESSION);
      write_file(fs::path(path.string() + ".gz"), packed);
      c.gzip_bytes += packed.size();
    });
  }
  if (writer.joinable()) writer.join();
}

void write_manifest(const fs::path& file, const std::vector<chain>& chains) {
  std::string out = "{\n";
  for (std::size_t i = 0; i < chains.size(); ++i) {
    const chain& c = chains[i];
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(c.expected.hash));
    out += "  \"" + c.name + "\": {\"first_target\": \"" + c.path + c.query + "\", \"pages\": " +
           std::to_string(c.urls.size()) + ", \"rows\": " + std::to_string(c.rows) +
           ", \"body_bytes\": " + std::to_string(c.body_bytes) +
           ", \"gzip_bytes\": " + std::to_string(c.gzip_bytes) + ", \"hash\": \"" + hash +
           "\",\n    \"urls\": [";
    for (std::size_t u = 0; u < c.urls.size(); ++u) {
      out += (u == 0 ? "\"" : ", \"") + c.urls[u] + "\"";
    }
    out += i + 1 < chains.size() ? "]},\n" : "]}\n";
  }
  out += "}\n";
  write_file(file, out);
}

std::size_t count_arg(const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v == 0) {
    throw std::runtime_error(std::string("not a positive count: ") + text);
  }
  return static_cast<std::size_t>(v);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3 && argc != 6) {
    std::fprintf(stderr, "usage: %s <out_dir> <origin> [agg_pages trade_pages rows_per_page]\n",
                 argv[0]);
    return 2;
  }
  const fs::path out = argv[1];
  const std::string origin = argv[2];
  const std::size_t agg_pages = argc == 6 ? count_arg(argv[3]) : 20;
  const std::size_t trade_pages = argc == 6 ? count_arg(argv[4]) : 10;
  const std::size_t rows = argc == 6 ? count_arg(argv[5]) : 50'000;
  const fs::path www = out / "www";

  std::vector<chain> chains(2);
  chains[0].name = "aggs";
  chains[0].path = "/v2/aggs/ticker/AAPL/range/1/minute/2024-01-02/2024-06-28";
  chains[0].query = "?adjusted=true&sort=asc&limit=" + std::to_string(rows);
  agg_state aggs;
  write_chain(
      chains[0], www, origin, agg_pages, rows,
      [&](std::string& body, std::size_t n, digest& d) { append_agg_rows(body, aggs, n, d); },
      [](std::string& body, std::size_t n, auto rows_fn, const std::string& request_id,
         const std::string& next_url) {
        body += R"({"ticker":"AAPL","queryCount":)" + std::to_string(n) +
                R"(,"resultsCount":)" + std::to_string(n) + R"(,"adjusted":true,"results":[)";
        rows_fn();
        body += R"(],"status":"OK","request_id":")" + request_id + R"(","count":)" +
                std::to_string(n);
        if (!next_url.empty()) body += R"(,"next_url":")" + next_url + '"';
        body += '}';
      });

  chains[1].name = "trades";
  chains[1].path = "/v3/trades/AAPL";
  chains[1].query = "?limit=" + std::to_string(rows);
  trade_state trades;
  write_chain(
      chains[1], www, origin, trade_pages, rows,
      [&](std::string& body, std::size_t n, digest& d) { append_trade_rows(body, trades, n, d); },
      [](std::string& body, std::size_t, auto rows_fn, const std::string& request_id,
         const std::string& next_url) {
        body += R"({"results":[)";
        rows_fn();
        body += R"(],"status":"OK","request_id":")" + request_id + '"';
        if (!next_url.empty()) body += R"(,"next_url":")" + next_url + '"';
        body += '}';
      });

  write_manifest(out / "manifest.json", chains);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_e2e_fixtures: %s\n", e.what());
  return 1;
}
