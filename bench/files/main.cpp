// The flat files' benchmark (issue 36, item 7; scripts/bench-files.sh runs it beside its floors
// and baselines, figures in docs/maintainers/performance-files.md):
//   massive_bench_files generate <file.csv.gz> [rows]   a synthetic day of stock trades
//   massive_bench_files local <file.csv.gz>             decode it from disk
//   massive_bench_files decode <file.csv>               the decoder alone, on an uncompressed
//                                                       file read into memory first
//   massive_bench_files digest <file.csv.gz>            decode it from disk and print a hash of
//                                                       every field of every row (a decoder
//                                                       change must leave it as it was)
//   massive_bench_files serve <file.csv.gz> <dir>       serve it from the mock's S3 bucket over
//                                                       loopback TLS until stdin closes; writes
//                                                       <dir>/endpoint, key, secret, ca.pem
//   massive_bench_files remote <dir> [ranges_ahead] [two-threads|inflate-ahead]
//                                                       read it through files::client from there
//                                                       (two-threads: the transfers on a second
//                                                       thread; inflate-ahead: the inflation
//                                                       there too, files_config::inflate_ahead)
//   massive_bench_files cached <file.csv.gz> [inflate-ahead]
//                                                       read it through files::client from its
//                                                       cache directory (no transfer), on one
//                                                       thread, or with inflate-ahead the client
//                                                       on a second
// Each reading mode prints one line: "rows=<n> seconds=<s> rows_per_s=<r> peak_rss_kib=<k>
// checksum=<c>" (the checksum sums prices and sizes, so that the modes can be compared).
//
// The day is deterministic (a fixed seed): about 11,000 tickers whose trade counts follow a
// power law, rows in ticker then time order as the files are, prices walking per ticker, round
// lots mostly, a condition list on about half the rows (quoted when it has two), TRF fields
// on off-exchange trades: about 80 bytes a row, as a day of us_stocks_sip trades has.
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <massive/files/client.hpp>
#include <massive/files/decoder.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "transport/inflater.hpp"

namespace {

namespace files = massive::files;
constexpr std::string_view key = "us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz";

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int generate(const std::string& path, std::uint64_t rows) {
  gzFile out = gzopen(path.c_str(), "wb6");
  if (out == nullptr) return std::fprintf(stderr, "cannot write %s\n", path.c_str()), 1;
  gzbuffer(out, 1 << 20);
  std::mt19937_64 random(20240405);
  constexpr int tickers = 11'000;
  // Trades per ticker: a power law (a few tickers trade most), normalised to `rows`.
  std::vector<double> weight(tickers);
  double total = 0;
  for (int i = 0; i < tickers; ++i) total += weight[i] = 1.0 / std::pow(i + 1.0, 1.1);
  std::string text =
      "ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_"
      "timestamp,size,tape,"
      "trf_id,trf_timestamp\n";
  std::uint64_t written = 0;
  std::uint64_t sequence = 1000;
  const std::int64_t open_ns = 1712304000000000000;  // 2024-04-05 08:00 UTC (04:00 ET)
  const std::int64_t span_ns = 16LL * 3600 * 1'000'000'000;
  char name[8];
  char number[32];
  auto put = [&](auto v) {
    text.append(number, std::to_chars(number, number + sizeof number, v).ptr);
  };
  // Tickers in alphabetical order: names from the index in base 26, the busiest spread out.
  std::vector<int> order(tickers);
  for (int i = 0; i < tickers; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), random);
  for (int n = 0; n < tickers && written < rows; ++n) {
    int rank = order[n];
    const auto count = static_cast<std::uint64_t>(
        n + 1 == tickers ? rows - written
                         : std::min<double>(static_cast<double>(rows - written),
                                            std::ceil(weight[rank] / total * rows)));
    int letters = 1 + n % 4;
    int v = n;
    for (int l = letters - 1; l >= 0; --l, v /= 26) name[l] = static_cast<char>('A' + v % 26);
    const std::string_view ticker(name, static_cast<std::size_t>(letters));
    double price = 5.0 + static_cast<double>(random() % 50'000) / 100.0;
    const int tape = 1 + static_cast<int>(random() % 3);
    std::int64_t sip = open_ns;
    const std::int64_t step =
        std::max<std::int64_t>(1, span_ns / static_cast<std::int64_t>(count + 1));
    for (std::uint64_t i = 0; i < count; ++i) {
      sip += 1 + static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(2 * step));
      price =
          std::max(0.01, price * (1.0 + (static_cast<double>(random() % 2001) - 1000.0) * 1e-6));
      const std::uint64_t r = random();
      text += ticker;
      text += ',';
      switch (r % 8) {
        case 0:
          text += "\"12,37\"";
          break;
        case 1:
          text += "37";
          break;
        case 2:
          text += "\"14,41\"";
          break;
        case 3:
          text += "12";
          break;
        default:
          break;
      }
      text += ",,";
      const int exchange = 1 + static_cast<int>((r >> 8) % 21);
      put(exchange);
      text += ',';
      put(static_cast<std::uint64_t>(i + 1 + (r >> 40) % 3));
      text += ',';
      put(sip - 1000 - static_cast<std::int64_t>((r >> 16) % 400'000));
      text += ',';
      put(std::round(price * 100.0) / 100.0);
      text += ',';
      put(sequence += 1 + (r >> 30) % 4);
      text += ',';
      put(sip);
      text += ',';
      const std::uint64_t size =
          (r >> 20) % 10 < 7 ? 100 * (1 + (r >> 24) % 5) : 1 + (r >> 24) % 99;
      put(size);
      text += ',';
      put(tape);
      if (exchange == 4) {
        text += ",201,";
        put(sip - 2000);
        text += '\n';
      } else {
        text += ",,\n";
      }
      if (text.size() > (1 << 20)) {
        gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
        text.clear();
      }
    }
    written += count;
  }
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  std::fprintf(stderr, "%s: %llu rows\n", path.c_str(), static_cast<unsigned long long>(written));
  return 0;
}

/// FNV-1a over the bytes of every field a row holds (absence included), for `digest`.
class field_hash {
 public:
  void bytes(const void* data, std::size_t size) {
    for (const unsigned char c : std::string_view(static_cast<const char*>(data), size)) {
      value_ = (value_ ^ c) * 0x100000001b3ULL;
    }
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
  template <class T>
  void value(const std::optional<T>& v) {
    value(v.has_value());
    if (v) value(*v);
  }
  void text(std::string_view s) {
    value(s.size());
    bytes(s.data(), s.size());
  }
  std::uint64_t result() const { return value_; }

 private:
  std::uint64_t value_ = 0xcbf29ce484222325ULL;
};

struct tally {
  std::uint64_t rows = 0;
  double checksum = 0;
  bool every_field = false;
  field_hash hash;
  void page(const files::row_page<files::stock_trade>& p) {
    rows += p.size();
    for (const files::stock_trade& t : p) {
      checksum += t.price + t.size;
      if (every_field) add(t);
    }
  }
  void add(const files::stock_trade& t) {
    hash.text(t.ticker);
    hash.text(t.id);
    hash.value(t.sip_timestamp.count());
    hash.value(t.participant_timestamp.count());
    hash.value(t.price);
    hash.value(t.size);
    hash.value(t.exchange);
    hash.value(t.sequence_number);
    hash.value(t.conditions.size());
    hash.bytes(t.conditions.data(), t.conditions.size_bytes());
    hash.value(t.correction);
    hash.value(t.tape);
    hash.value(t.trf_id);
    hash.value(t.trf_timestamp.has_value());
    if (t.trf_timestamp) hash.value(t.trf_timestamp->count());
  }
};

void report(const tally& t, std::chrono::steady_clock::time_point start) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("rows=%llu seconds=%.3f rows_per_s=%.0f peak_rss_kib=%ld checksum=%.6e\n",
              static_cast<unsigned long long>(t.rows), seconds,
              static_cast<double>(t.rows) / seconds, peak_rss_kib(), t.checksum);
  if (t.every_field) {
    std::printf("every field's hash=%016llx\n", static_cast<unsigned long long>(t.hash.result()));
  }
}

using trade_decoder = files::row_decoder<files::stock_trade>;

/// Feeds one piece of the file, taking each page as it fills.
void feed_piece(trade_decoder& decoder, std::span<const char> piece, tally& t) {
  while (!piece.empty()) {
    piece = piece.subspan(decoder.feed(piece));
    while (decoder.page_ready()) t.page(decoder.take());
  }
}

/// Ends the file: its last page, then the report.
void finish_file(trade_decoder& decoder, tally& t, std::chrono::steady_clock::time_point start) {
  decoder.finish();
  while (decoder.page_ready()) t.page(decoder.take());
  report(t, start);
}

int local(const std::string& path, bool every_field) {
  const auto start = std::chrono::steady_clock::now();
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::fprintf(stderr, "cannot read %s\n", path.c_str()), 1;
  massive::transport::inflater inflate(256 * 1024);
  trade_decoder decoder(massive::make_page_pool());
  std::vector<char> buffer(1 << 20);
  tally t;
  t.every_field = every_field;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    inflate.begin(std::span<const char>(buffer.data(), static_cast<std::size_t>(in.gcount())));
    for (;;) {
      std::span<const char> piece;
      if (inflate.next(piece) != massive::transport::inflater::status::ok) {
        return std::fprintf(stderr, "corrupt gzip\n"), 1;
      }
      if (piece.empty()) break;
      feed_piece(decoder, piece, t);
    }
  }
  finish_file(decoder, t, start);
  return 0;
}

/// The decoder alone: an uncompressed file read whole first, then fed in the inflater's 256 KiB
/// pieces; the time is the decoding's.
int decode_only(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::fprintf(stderr, "cannot read %s\n", path.c_str()), 1;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto start = std::chrono::steady_clock::now();
  trade_decoder decoder(massive::make_page_pool());
  tally t;
  constexpr std::size_t piece_bytes = 256 * 1024;
  for (std::size_t at = 0; at < text.size(); at += piece_bytes)
    feed_piece(decoder, {text.data() + at, std::min(piece_bytes, text.size() - at)}, t);
  finish_file(decoder, t, start);
  return 0;
}

int serve(const std::string& path, const std::filesystem::path& dir) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  massive::mock::s3_bucket bucket({.first_day = "2024-04-08", .last_day = "2024-04-08"});
  bucket.put(std::string(key), std::move(bytes));
  massive::mock::server server({.record_requests = false});
  server.respond_with(bucket.responder());
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "endpoint") << server.base_url();
  std::ofstream(dir / "key") << bucket.options().access_key;
  std::ofstream(dir / "secret") << bucket.options().secret_key;
  std::ofstream(dir / "ca.pem") << server.certificate_pem();
  std::ofstream(dir / "object") << key;
  std::cout << server.base_url() << std::endl;
  std::string ignored;
  while (std::getline(std::cin, ignored)) {
  }
  return 0;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Reads every row of `file` (by default the listing's) through a files::client made with
/// `config`, on this thread; with `client_thread`, the client runs on a second thread's
/// io_context (its transfers, and with inflate_ahead its inflation, there; the decoding here).
/// (One io_context run by both threads works too, but its coroutines then hop from thread to
/// thread, and so do their caches: 2.6 s of CPU for the day from the cache against 1.9 s.)
/// Prints the report line, or the failure and returns 1.
int read_day(const files::files_config& config, bool client_thread,
             std::optional<files::object_info> file = std::nullopt) {
  boost::asio::io_context io;
  boost::asio::io_context second_context;
  auto keep = boost::asio::make_work_guard(second_context);
  std::thread second;
  if (client_thread) second = std::thread([&] { second_context.run(); });
  files::client client(client_thread ? second_context.get_executor() : io.get_executor(), config);
  tally t;
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        if (!file) file = co_await client.stat(std::string(key));
        auto reader = client.read<files::stock_trade>(*file);
        while (auto page = co_await reader.next()) t.page(*page);
      },
      [&status](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& failure) {
          std::fprintf(stderr, "%s\n", failure.what());
          status = 1;
        }
      });
  io.run();
  keep.reset();
  if (second.joinable()) second.join();
  if (status == 0) report(t, start);
  return status;
}

/// A second read of a day already downloaded: the library's path from disk (the cache's file
/// matches the listing's size and ETag, so nothing is fetched); with inflate_ahead, inflated on
/// a second thread while this one decodes.
int cached(const std::string& path, bool inflate_ahead) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("massive-bench-files-cache-" + std::to_string(::getpid()));
  const auto where = dir / key;
  std::filesystem::create_directories(where.parent_path());
  std::filesystem::create_symlink(std::filesystem::absolute(path), where);
  const std::string etag = "\"bench\"";
  std::ofstream(where.string() + ".etag") << etag;
  files::files_config config;
  config.endpoint = "https://127.0.0.1:9";  // never reached: every byte comes from the cache
  config.access_key = "bench";
  config.secret_key = "bench";
  config.cache_directory = dir.string();
  config.inflate_ahead = inflate_ahead ? 4 : 0;
  const int status = read_day(
      config, inflate_ahead,
      files::object_info{std::string(key), std::filesystem::file_size(path), etag, {}});
  std::filesystem::remove_all(dir);
  return status;
}

/// Reads the day from the bucket `serve` wrote `dir` for; with transport_thread, the transfers
/// (TLS, the ranges ahead) on a second thread, and with inflate_ahead the inflation there too.
int remote(const std::filesystem::path& dir, unsigned ranges_ahead, bool transport_thread,
           bool inflate_ahead) {
  files::files_config config;
  config.endpoint = read_file(dir / "endpoint");
  config.access_key = read_file(dir / "key");
  config.secret_key = read_file(dir / "secret");
  config.transport.tls.ca_pem = read_file(dir / "ca.pem");
  config.transport.request_timeout = std::chrono::minutes(5);
  config.ranges_ahead = ranges_ahead;
  config.inflate_ahead = inflate_ahead ? 4 : 0;
  return read_day(config, transport_thread);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 2 && args[0] == "generate") {
    return generate(args[1], args.size() > 2 ? std::stoull(args[2]) : 10'000'000);
  }
  if (args.size() == 2 && args[0] == "local") return local(args[1], false);
  if (args.size() == 2 && args[0] == "digest") return local(args[1], true);
  if (args.size() == 2 && args[0] == "decode") return decode_only(args[1]);
  if (args.size() == 3 && args[0] == "serve") return serve(args[1], args[2]);
  if (args.size() >= 2 && args[0] == "remote") {
    const bool inflate_ahead = args.size() > 3 && args[3] == "inflate-ahead";
    return remote(args[1], args.size() > 2 ? static_cast<unsigned>(std::stoul(args[2])) : 1,
                  inflate_ahead || (args.size() > 3 && args[3] == "two-threads"), inflate_ahead);
  }
  if (args.size() >= 2 && args[0] == "cached") {
    return cached(args[1], args.size() > 2 && args[2] == "inflate-ahead");
  }
  std::fprintf(
      stderr,
      "usage: massive_bench_files generate <file.csv.gz> [rows] | local|digest <file.csv.gz> | "
      "decode <file.csv> | "
      "serve <file.csv.gz> "
      "<dir> | remote <dir> [ranges_ahead] [two-threads|inflate-ahead] | cached <file.csv.gz> "
      "[inflate-ahead]\n");
  return 2;
}
