// The mock's bucket on a real HTTPS server in the process, a files::client of it, and a reader
// of a whole file's rows as text: what the S3 client's suites share.
#pragma once

#include <doctest/doctest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <chrono>
#include <massive/files/client.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "row_text.hpp"

namespace massive::files::test {

namespace asio = boost::asio;

/// A mock bucket on a real HTTPS server, and a client of it.
struct fixture {
  explicit fixture(massive::mock::s3_options options = {}, files_config config = {})
      : bucket(std::move(options)) {
    server.respond_with(bucket.responder());
    config.endpoint = server.base_url();
    if (config.access_key.empty()) {
      config.access_key = bucket.options().access_key;
      config.secret_key = bucket.options().secret_key;
    }
    config.transport.tls.ca_pem = server.certificate_pem();
    config.transport.retry = {.max_attempts = 1};
    config.transport.trace = [this](const trace_event& e) {
      std::lock_guard lock(traced_mutex);
      traced.append(e.target).append(" ").append(e.error).append("\n");
    };
    files.emplace(io.get_executor(), std::move(config));
  }

  /// Runs `work` to its end on the io_context, run by `threads` threads; returns when nothing
  /// else is left to run either (every coroutine the work started has ended). Work left after a
  /// minute, something waiting for ever, fails the test rather than hanging it.
  template <class T>
  T run(asio::awaitable<T> work, unsigned threads = 1) {
    auto done = asio::co_spawn(io, std::move(work), asio::use_future);
    io.restart();
    std::vector<std::thread> more;
    for (unsigned i = 1; i < threads; ++i) more.emplace_back([this] { io.run(); });
    io.run_for(std::chrono::minutes(1));
    const bool ended = io.stopped();
    io.stop();
    for (std::thread& t : more) t.join();
    REQUIRE_MESSAGE(ended, "the io_context still had work after a minute");
    return done.get();
  }

  /// Every request's bytes as the server saw them, one string.
  std::string everything_sent() const {
    std::string all;
    for (const auto& r : server.requests()) {
      all += r.method + " " + r.target + "\n";
      for (const auto& [k, v] : r.headers) all += k + ": " + v + "\n";
    }
    return all;
  }

  massive::mock::s3_bucket bucket;
  massive::mock::server server;
  asio::io_context io;
  std::optional<files::client> files;
  std::mutex traced_mutex;
  std::string traced;
};

/// Every row of the file `key`, as text, read on `threads` threads.
template <class Row>
std::vector<std::string> read_all(fixture& f, const std::string& key, decode_options options = {},
                                  unsigned threads = 1) {
  return f.run(
      [&]() -> asio::awaitable<std::vector<std::string>> {
        const object_info file = co_await f.files->stat(key);
        auto reader = f.files->read<Row>(file, options);
        std::vector<std::string> rows;
        while (auto page = co_await reader.next()) {
          for (const Row& r : *page) rows.push_back(text_of(r));
        }
        CHECK(reader.bytes_received() == file.size);
        co_return rows;
      }(),
      threads);
}

constexpr std::string_view day_key = "us_stocks_sip/trades_v1/2024/01/2024-01-12.csv.gz";

}  // namespace massive::files::test
