// A day's VWAP per ticker from a flat file of trades, in bounded memory: the file is inflated and
// decoded while it downloads, page by page, and each page goes back to the pool before the next;
// it inflates on a second thread while this one decodes.
//
// With MASSIVE_S3_ACCESS_KEY and MASSIVE_S3_SECRET_KEY set it reads the real flat files (a paid
// plan's); without them it starts the mock's S3 bucket on loopback and reads the same day there.
//   flat_files_vwap [YYYY-MM-DD]
#include <massive/files/client.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>

namespace asio = boost::asio;
namespace files = massive::files;

namespace {

struct sums {
  double notional = 0;
  double volume = 0;
  std::size_t trades = 0;
};

asio::awaitable<void> run(files::client& client, std::chrono::year_month_day day) {
  const files::object_info file =
      co_await client.stat(files::file_key(files::market::stocks, files::dataset::trades, day));
  std::printf("%s: %llu bytes compressed\n", file.key.c_str(),
              static_cast<unsigned long long>(file.size));

  std::map<std::string, sums, std::less<>> by_ticker;  // one entry per ticker, not per trade
  auto reader = client.read<files::stock_trade>(file);
  while (auto page = co_await reader.next()) {
    for (const files::stock_trade& t : *page) {
      auto at = by_ticker.find(t.ticker);
      if (at == by_ticker.end()) at = by_ticker.emplace(std::string(t.ticker), sums{}).first;
      at->second.notional += t.price * t.size;
      at->second.volume += t.size;
      ++at->second.trades;
    }
  }
  for (const auto& [ticker, s] : by_ticker) {
    std::printf("%-6s VWAP %10.4f over %zu trades, %.0f shares\n", ticker.c_str(),
                s.notional / s.volume, s.trades, s.volume);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace std::chrono;
  const auto day = massive::parse_date(argc > 1 ? argv[1] : "2024-01-12");
  if (!day) {
    std::fprintf(stderr, "usage: flat_files_vwap [YYYY-MM-DD]\n");
    return 2;
  }
  files::files_config config;
  std::unique_ptr<massive::mock::s3_bucket> bucket;
  std::unique_ptr<massive::mock::server> server;
  const char* key = std::getenv("MASSIVE_S3_ACCESS_KEY");
  if (key == nullptr || *key == '\0') {
    bucket = std::make_unique<massive::mock::s3_bucket>();
    server = std::make_unique<massive::mock::server>();
    server->respond_with(bucket->responder());
    config.endpoint = server->base_url();
    config.access_key = bucket->options().access_key;
    config.secret_key = bucket->options().secret_key;
    config.transport.tls.ca_pem = server->certificate_pem();
  }

  // The client's transfers and inflation on a thread of their own, the decoding on this one:
  // the file inflates on one core while its rows decode on the other.
  asio::io_context inflating;
  auto keep = asio::make_work_guard(inflating);
  std::thread second([&] { inflating.run(); });
  config.inflate_ahead = 4;
  files::client client(inflating.get_executor(), config);

  asio::io_context io;
  int status = 0;
  asio::co_spawn(io, run(client, *day), [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "flat_files_vwap: %s\n", failure.what());
      status = 1;
    }
  });
  io.run();
  keep.reset();
  second.join();
  return status;
}
