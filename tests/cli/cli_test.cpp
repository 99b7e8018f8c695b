// The command-line tool as a user runs it: each documented exit code (0, 2, 3, 4, 5) from a
// case that must produce it, together with what it printed; every row of every page with
// --all-pages, counted against the mock's own totals; the output formats.
#include "run_cli.hpp"

#include <massive/mock/api.hpp>
#include <massive/mock/server.hpp>
#include <massive/operation_table.hpp>

#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using massive::test::lines_of;
using massive::test::run_cli;
using massive::test::run_result;

const std::string origin = "https://127.0.0.1:4443";  // where the in-process mock's next_urls point

/// Rows the CLI's embedded mock serves for `group operation` with `args`: the whole next_url
/// chain with `all_pages`, else the first page. Computed from the mock API itself (the same
/// default options as --mock), not through the CLI or the client.
std::size_t mock_rows(std::string_view group, std::string_view name,
                      std::vector<std::pair<std::string_view, std::string_view>> args, bool all_pages) {
  const massive::operation_entry* op = massive::find_operation(group, name);
  REQUIRE(op != nullptr);
  REQUIRE(op->shape == massive::payload_shape::results_array);
  massive::mock::api api{{.base_url = origin}};
  simdjson::dom::parser parser;
  std::string target = op->target(args);
  std::size_t rows = 0;
  while (true) {
    const massive::mock::response r = api.answer(target);
    REQUIRE(r.status == 200);
    const simdjson::dom::element doc = parser.parse(r.body);
    rows += simdjson::dom::array(doc["results"]).size();
    std::string_view next;
    if (!all_pages || doc["next_url"].get(next) != simdjson::SUCCESS) break;
    REQUIRE(next.substr(0, origin.size()) == origin);
    target = std::string(next.substr(origin.size()));
  }
  return rows;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

/// A server the CLI is pointed at with --base-url over plain HTTP, answering `reply` once.
struct scripted_server {
  massive::mock::server server{{.tls = false}};
  explicit scripted_server(massive::mock::reply reply) { server.enqueue(std::move(reply)); }
  std::vector<std::string> flags() const { return {"--base-url", server.base_url()}; }
};

const std::vector<std::string> key = {"MASSIVE_API_KEY=cli-test-key"};

std::vector<std::string> args_with(std::vector<std::string> first, const std::vector<std::string>& more) {
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

}  // namespace

TEST_CASE("exit 0: one page as a JSON array, the rows the mock serves") {
  const run_result r = run_cli({"stocks", "aggregates", "--mock", "-p", "stocksTicker=AAPL", "-p", "multiplier=1",
                                "-p", "timespan=day", "-p", "from=2024-01-02", "-p", "to=2024-01-12"});
  CHECK(r.exit_code == 0);
  CHECK(r.err == "");
  simdjson::dom::parser parser;
  simdjson::dom::array rows;
  REQUIRE(parser.parse(r.out).get_array().get(rows) == simdjson::SUCCESS);
  // Nine trading days from Jan 2 to Jan 12, 2024.
  CHECK(rows.size() == 9);
  CHECK(rows.size() == mock_rows("stocks", "aggregates",
                                 {{"stocksTicker", "AAPL"}, {"multiplier", "1"}, {"timespan", "day"},
                                  {"from", "2024-01-02"}, {"to", "2024-01-12"}},
                                 false));
}

TEST_CASE("exit 0: --all-pages prints every row of every page, in every format") {
  // Seen failing with --all-pages made a no-op in arguments.cpp: "CHECK( 3000 == 20000 )" for
  // every format, "7 == 21" for the tickers. The mock chains 3 pages of `limit` rows for operations outside the market, and serves the
  // market's 20,000 trades of the day in pages of `limit`.
  const std::size_t tickers = mock_rows("reference", "tickers", {{"limit", "7"}}, true);
  const std::size_t trades = mock_rows("stocks", "trades", {{"stockTicker", "AAPL"}, {"limit", "3000"}}, true);
  REQUIRE(tickers == 21);
  REQUIRE(trades == 20'000);
  const std::size_t one_page = mock_rows("stocks", "trades", {{"stockTicker", "AAPL"}, {"limit", "3000"}}, false);
  REQUIRE(one_page == 3000);

  SUBCASE("jsonl: one line per row") {
    const run_result r = run_cli({"reference", "tickers", "--mock", "-p", "limit=7", "--all-pages", "--format", "jsonl"});
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() == tickers);
    const run_result t = run_cli(
        {"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000", "--all-pages", "-f", "jsonl"});
    CHECK(t.exit_code == 0);
    CHECK(lines_of(t.out).size() == trades);
  }
  SUBCASE("json: one array of every row") {
    const run_result r =
        run_cli({"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000", "--all-pages"});
    CHECK(r.exit_code == 0);
    simdjson::dom::parser parser;
    simdjson::dom::array rows;
    REQUIRE(parser.parse(r.out).get_array().get(rows) == simdjson::SUCCESS);
    CHECK(rows.size() == trades);
  }
  SUBCASE("csv: a header, then one line per row") {
    const run_result r = run_cli(
        {"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000", "--all-pages", "--format=csv"});
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() == trades + 1);
  }
  SUBCASE("table: a header, then one line per row") {
    const run_result r = run_cli(
        {"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000", "--all-pages", "-f", "table"});
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() == trades + 1);
  }
  SUBCASE("without --all-pages, the first page only") {
    const run_result r =
        run_cli({"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000", "-f", "jsonl"});
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() == one_page);
  }
  SUBCASE("--max-pages caps the pages") {
    const run_result r = run_cli({"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=3000",
                                  "--max-pages", "2", "-f", "jsonl"});
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() == 2 * one_page);
  }
}

TEST_CASE("exit 2: the caller's mistakes, each named") {
  struct mistake {
    std::vector<std::string> args;
    std::string_view says;
  };
  const mistake mistakes[] = {
      {{}, "name a group and an operation"},
      {{"stonks", "trades"}, "unknown group 'stonks' (did you mean stocks?)"},
      {{"stocks", "trdes"}, "unknown operation 'trdes' of stocks (did you mean trades?)"},
      {{"stocks"}, "name an operation of stocks"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--fromat", "csv"},
       "unknown flag '--fromat' (did you mean --format?)"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--format", "xml"},
       "--format is one of json, jsonl, csv, table; not 'xml'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=ten"},
       "parameter 'limit': 'ten' is not an integer"},
      {{"stocks", "trades", "--mock"}, "missing required parameter 'stockTicker'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker"}, "--param takes KEY=VALUE, not 'stockTicker'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--max-pages", "0"},
       "--max-pages takes a positive count, not '0'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--output"}, "--output needs a value (FILE)"},
      {{"completion", "fish"}, "usage: massive completion bash|zsh"},
  };
  for (const mistake& m : mistakes) {
    std::string line = "massive";
    for (const std::string& a : m.args) line += " " + a;
    CAPTURE(line);
    const run_result r = run_cli(m.args, key);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "");
    CAPTURE(r.err);
    CHECK(contains(r.err, m.says));
  }
  SUBCASE("no key and no --mock") {
    const run_result r = run_cli({"stocks", "trades", "-p", "stockTicker=AAPL"}, {"MASSIVE_API_KEY="});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "set MASSIVE_API_KEY (or use --mock)"));
  }
}

TEST_CASE("exit 3: the API answered with an error") {
  // Seen failing with api_error mapped to exit_transport in call.cpp: "CHECK( 4 == 3 )".
  scripted_server api({.status = 403,
                       .headers = {{"Content-Type", "application/json"}},
                       .body = R"({"status":"NOT_AUTHORIZED","request_id":"r-403","message":"Not entitled."})"});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "");
  CAPTURE(r.err);
  CHECK(contains(r.err, "the API refused"));
  CHECK(contains(r.err, "403"));
  CHECK(contains(r.err, "Not entitled."));
  CHECK_FALSE(contains(r.err, "cli-test-key"));
}

TEST_CASE("exit 4: the request failed below HTTP") {
  scripted_server api({.body = R"({"results":[],"status":"OK"})", .reset_after = 5});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CHECK(r.exit_code == 4);
  CAPTURE(r.err);
  CHECK(contains(r.err, "massive: reading the response body: Connection reset by peer"));
  CHECK_FALSE(contains(r.err, "cli-test-key"));
}

TEST_CASE("exit 5: a body that does not decode") {
  scripted_server api({.body = R"({"results":[{"price":1.5,"size":)"});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CHECK(r.exit_code == 5);
  CAPTURE(r.err);
  CHECK(contains(r.err, "the response does not decode"));
}

TEST_CASE("--output writes the rows to a file; no progress line when stderr is not a terminal") {
  char path[] = "/tmp/massive-cli-test-rows-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const run_result r = run_cli({"reference", "tickers", "--mock", "-p", "limit=7", "--all-pages", "-f", "jsonl",
                                "--output", path});
  const std::string written = massive::test::slurp(path);
  unlink(path);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "");
  CHECK(r.err == "");
  CHECK(lines_of(written).size() == mock_rows("reference", "tickers", {{"limit", "7"}}, true));
}

/// What bash's completion function `_massive`, loaded from `massive completion bash`, offers
/// for the command line `line` (the cursor at its end).
std::vector<std::string> completions(const std::string& line) {
  const std::string script = "source <(\"$MASSIVE_CLI\" completion bash) || exit 9\n"
                             "COMP_LINE=\"$LINE\"; COMP_POINT=${#COMP_LINE}\n"
                             "_massive 2>/dev/null\n"
                             "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
  const run_result r = massive::test::run_program({"bash", "--norc", "--noprofile", "-c", script},
                                                  {"MASSIVE_CLI=" MASSIVE_CLI, "LINE=" + line});
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> out = lines_of(r.out);
  out.erase(std::remove(out.begin(), out.end(), ""), out.end());
  std::sort(out.begin(), out.end());
  return out;
}

using words = std::vector<std::string>;

TEST_CASE("completion: bash's completion function on a few prefixes") {
  // Seen failing with the script reading the group from the wrong word (w[2]): the
  // operations and `completion`'s shells were no longer offered.
  CHECK(completions("massive sto") == words{"stocks"});
  CHECK(completions("massive comp") == words{"completion"});
  CHECK(completions("massive completion ") == words{"bash", "zsh"});
  CHECK(completions("massive stocks trad") == words{"trades", "trades_dev"});
  CHECK(completions("massive crypto snapshot_t") == words{"snapshot_ticker", "snapshot_tickers"});
  CHECK(completions("massive stocks trades --fo") == words{"--format"});
  CHECK(completions("massive stocks trades --format j") == words{"json", "jsonl"});
  CHECK(completions("massive stocks trades --format=c") == words{"csv"});
  CHECK(completions("massive stocks trades -f t") == words{"table"});
}

TEST_CASE("completion: zsh's script loads bash's function through bashcompinit; others are refused") {
  const run_result zsh = run_cli({"completion", "zsh"});
  CHECK(zsh.exit_code == 0);
  CHECK(contains(zsh.out, "autoload -U +X bashcompinit && bashcompinit"));
  CHECK(contains(zsh.out, "complete -F _massive massive"));
  const run_result fish = run_cli({"completion", "fish"});
  CHECK(fish.exit_code == 2);
  CHECK(fish.out == "");
}
