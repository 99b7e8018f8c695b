// Conformance: every operation of the generated table, called through a real client over HTTPS
// against the mock API, whose bodies are synthesised from the same description (the catalog).
// Every value of every page the generated decoders read and the generated writers write back
// must equal a DOM parse of the bytes the mock sent; paginated operations follow next_url
// through at least three pages. The test lists every operation that does not conform. Last, a
// failure on the runner's prefetch path.
#include "wire_compare.hpp"

#include <massive/client.hpp>
#include <massive/error.hpp>
#include <massive/mock/api_server.hpp>
#include <massive/mock/server.hpp>
#include <massive/reflection/operation_table.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;

struct page_seen {
  std::string rows_json;
  std::size_t rows = 0;
};

// Every operation through the table; `prefetch`: paginated ones with the next page requested
// ahead (operation_runner.cpp's second traversal path).
void check_every_operation(bool prefetch) {
  massive::mock::api_server local;
  asio::io_context io;
  massive::client client{io.get_executor(), massive::client_config{.api_key = "k", .base_url = local.base_url(),
                                                             .tls = {.ca_pem = local.certificate_pem()}}};
  std::vector<std::string> failures;
  std::size_t conforming = 0, paginated = 0;
  for (const massive::reflection::operation_entry& entry : massive::reflection::operation_table()) {
    const std::string name = std::string(entry.group) + "." + std::string(entry.name) + " (" +
                             std::string(entry.path) + ")";
    std::vector<page_seen> pages;
    const std::size_t first_request = local.server().request_count();
    std::vector<std::string> problems;
    try {
      // limit=4: paginated chains are several pages of a few rows.
      const std::string target = massive::test::sample_target(entry, "4");
      const auto route = local.api().route(target);
      if (!route || route->group != entry.group || route->name != entry.name) {
        problems.push_back("the mock routes " + target + " to " +
                           (route ? std::string(route->group) + "." + std::string(route->name) : "nothing"));
      }
      massive::reflection::run_options run{.all_pages = true, .traversal = {.max_pages = 3, .prefetch = prefetch}};
      auto done = asio::co_spawn(io, entry.run(client, target, entry.shape, entry.paginated, run,
                                              [&](const massive::reflection::row_page& p) {
                                                pages.push_back({std::string(p.rows_json()), p.rows});
                                              }),
                                 asio::use_future);
      io.restart();
      io.run();
      done.get();
    } catch (const std::exception& e) {
      problems.push_back(std::string("call failed: ") + e.what());
    }
    const auto requests = local.server().requests();
    if (problems.empty() && requests.size() - first_request != pages.size()) {
      problems.push_back(std::to_string(pages.size()) + " pages for " +
                         std::to_string(requests.size() - first_request) + " requests");
    }
    if (problems.empty() && entry.paginated && pages.size() < 3) {
      problems.push_back("only " + std::to_string(pages.size()) + " page(s) of a paginated operation");
    }
    for (std::size_t i = 0; problems.empty() && i < pages.size(); ++i) {
      const auto& sent = requests[first_request + i];
      if (sent.response_status != 200) {
        problems.push_back("page " + std::to_string(i + 1) + ": status " + std::to_string(sent.response_status));
        break;
      }
      try {
        for (const std::string& d :
             massive::test::row_differences(entry.shape, pages[i].rows_json, pages[i].rows, sent.response_body)) {
          problems.push_back("page " + std::to_string(i + 1) + " " + d);
        }
      } catch (const std::exception& e) {
        problems.push_back("page " + std::to_string(i + 1) + ": " + e.what());
      }
      if (problems.empty() && pages[i].rows == 0) problems.push_back("page " + std::to_string(i + 1) + ": no rows");
    }
    if (problems.empty()) {
      ++conforming;
      paginated += entry.paginated ? 1 : 0;
    } else {
      std::string line = name + ":";
      for (std::size_t k = 0; k < problems.size() && k < 5; ++k) line += "\n    " + problems[k];
      if (problems.size() > 5) line += "\n    ... " + std::to_string(problems.size() - 5) + " more";
      failures.push_back(line);
    }
  }
  std::string list;
  for (const std::string& f : failures) list += f + "\n";
  INFO("operations that do not conform (" << failures.size() << "):\n" << list);
  MESSAGE("conformance: " << conforming << "/" << massive::reflection::operation_table().size() << " operations ("
                          << paginated << " paginated, each through 3 pages)");
  CHECK(failures.empty());
  CHECK_FALSE(massive::reflection::operation_table().empty());
  CHECK(conforming == massive::reflection::operation_table().size());
}

}  // namespace

TEST_CASE("every operation decodes the mock's schema-synthesised pages like a DOM parse") {
  check_every_operation(false);
}

// Seen failing (97 operations, every paginated one: "2 pages for 3 requests") with the runner's prefetch path
// dropping the first page it is handed.
TEST_CASE("every operation conforms with the next page prefetched") {
  check_every_operation(true);
}

// The runner's prefetch path hands a failure over as the table's caller sees it: the page before
// it, then the typed error, here a next_url on another origin, refused before anything is sent
// there. Seen failing ("CHECK( {?} == 9 )": no error at all) with the runner's prefetch branch
// ending the traversal on a failure instead of rethrowing it.
TEST_CASE("a traversal through the table with prefetch delivers a refused next_url after the page before it") {
  massive::mock::api_server local;
  massive::mock::server elsewhere;  // the foreign host: it must see nothing at all
  asio::io_context io;
  massive::client client{io.get_executor(), massive::client_config{.api_key = "k", .base_url = local.base_url(),
                                                             .tls = {.ca_pem = local.certificate_pem()}}};
  const massive::reflection::operation_entry* trades = massive::reflection::find_operation("stocks", "trades");
  REQUIRE(trades != nullptr);
  // A whole trade: one lacking a required field would be left out of the page (issue 30).
  local.server().enqueue({.body = R"({"status":"OK","request_id":"r1","results":[{"price":1.5,"size":10,)"
                                  R"("exchange":4,"id":"t1","participant_timestamp":1704900000000000000,)"
                                  R"("sequence_number":7,"sip_timestamp":1704900000000000000}],"next_url":")" +
                                  elsewhere.base_url() + R"(/v3/trades/AAPL?cursor=abc"})"});
  std::vector<std::size_t> rows;
  const massive::reflection::run_options run{.all_pages = true, .traversal = {.prefetch = true}};
  auto done = asio::co_spawn(io, trades->run(client, "/v3/trades/AAPL", trades->shape, trades->paginated, run,
                                             [&](const massive::reflection::row_page& p) { rows.push_back(p.rows); }),
                             asio::use_future);
  io.run();
  std::optional<boost::system::error_code> code;
  try {
    done.get();
  } catch (const massive::transport_error& e) {
    code = e.code();
  }
  CHECK(code == massive::errc::foreign_next_url);
  CHECK(rows == std::vector<std::size_t>{1});
  CHECK(local.server().request_count() == 1);
  CHECK(elsewhere.connections_accepted() == 0);
}
