// Client (a) of the end-to-end benchmark: this SDK traversing a page chain, one page in
// memory at a time, as the README shows it.
//
//   massive_e2e_sdk <aggs|trades> <base_url> <ca_file> <first_target> <gzip: 0|1> [threads]
//
// With `threads` 2 or more, the io_context is run by that many threads and the client decodes
// beside the receive (client_config::decode_beside_receive), as a service on a thread pool would.
//
// Prints the digest line of digest.hpp. A linked binary of its own, so that its peak RSS
// carries neither libcurl nor nlohmann::json.
#include "model_digest.hpp"

#include <massive/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace e2e = massive::bench::e2e;

template <class Row>
asio::awaitable<void> traverse(massive::client& client, std::string first_target, e2e::report& out) {
  out.row_bytes = sizeof(Row);
  auto cursor = client.traverse<Row>(std::move(first_target), massive::payload_shape::results_array);
  out.requesting();  // the cursor sends its first request on the first next()
  // The page is dropped at the end of each iteration, before the next one is requested.
  while (auto page = co_await cursor.next()) {
    e2e::add_rows(out.rows, page->rows());
    out.page_done();
  }
}

}  // namespace

int main(int argc, char** argv) try {
  e2e::report out;
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: %s <aggs|trades> <base_url> <ca_file> <first_target> <0|1> [threads]\n",
                 argv[0]);
    return 2;
  }
  const std::string_view workload = argv[1];
  if (workload != "aggs" && workload != "trades") {
    std::fprintf(stderr, "unknown workload: %s\n", argv[1]);
    return 2;
  }
  const int threads = argc == 7 ? std::atoi(argv[6]) : 1;
  asio::io_context io(threads);
  massive::client client{io.get_executor(), massive::client_config{.api_key = "bench",
                                                             .base_url = argv[2],
                                                             .tls = {.ca_file = argv[3]},
                                                             .gzip = std::string_view(argv[5]) == "1",
                                                             .decode_beside_receive = threads > 1}};
  std::exception_ptr failure;
  auto done = [&](std::exception_ptr e) { failure = e; };
  if (workload == "aggs") {
    asio::co_spawn(io, traverse<massive::agg>(client, argv[4], out), done);
  } else {
    asio::co_spawn(io, traverse<massive::trade>(client, argv[4], out), done);
  }
  std::vector<std::thread> others;
  for (int i = 1; i < threads; ++i) others.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& t : others) t.join();
  if (failure) std::rethrow_exception(failure);
  e2e::print_report(out);
  // Where the rows' memory came from: pool regions first touched over the whole traversal
  // (flat in the number of pages when each page reuses the previous one's regions).
  std::printf("pool_touched_kib=%llu\n",
              static_cast<unsigned long long>(client.pool()->stats().bytes_touched / 1024));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_e2e_sdk: %s\n", e.what());
  return 1;
}
