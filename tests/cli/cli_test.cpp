// The command-line tool as a user runs it: each documented exit code (0, 2, 3, 4, 5) from a
// case that must produce it, together with what it printed; every row of every page with
// --all-pages, counted against the mock's own totals; the output formats.
#include "csv_cells.hpp"
#include "run_cli.hpp"

#include <massive/mock/api.hpp>
#include <massive/mock/gzip.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>
#include <massive/mock/stream_server.hpp>
#include <massive/reflection/operation_table.hpp>
#include <massive/stream/events.hpp>
#include <massive/version.hpp>

#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using massive::test::csv_cells;
using massive::test::lines_of;
using massive::test::run_cli;
using massive::test::run_result;

const std::string origin = "https://127.0.0.1:4443";  // where the in-process mock's next_urls point

/// How this build's description names a path parameter that the committed one names `committed`
/// (another description may spell it otherwise: {stockTicker} as {ticker}). The command line
/// takes either; what it prints says the current name.
std::string path_name(std::string_view group, std::string_view name, std::string_view committed) {
  const massive::reflection::operation_entry* op = massive::reflection::find_operation(group, name);
  REQUIRE(op != nullptr);
  for (const massive::reflection::parameter_info& p : op->parameters) {
    if (p.in_path && (p.wire == committed || p.former == committed)) return std::string(p.wire);
  }
  FAIL("no path parameter ", committed, " in ", group, " ", name);
  return {};
}

/// The route of `group name` as this build's description writes it.
std::string route_of(std::string_view group, std::string_view name) {
  const massive::reflection::operation_entry* op = massive::reflection::find_operation(group, name);
  REQUIRE(op != nullptr);
  return std::string(op->path);
}

/// Rows the CLI's embedded mock serves for `group operation` with `args`: the whole next_url
/// chain with `all_pages`, else the first page. Computed from the mock API itself (the same
/// default options as --mock), not through the CLI or the client.
std::size_t mock_rows(std::string_view group, std::string_view name,
                      std::vector<std::pair<std::string_view, std::string_view>> args, bool all_pages) {
  const massive::reflection::operation_entry* op = massive::reflection::find_operation(group, name);
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
    std::string says;
  };
  const std::string ticker = path_name("stocks", "trades", "stockTicker");
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
      {{"stocks", "trades", "--mock"}, "missing required parameter '" + ticker + "'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker"}, "--param takes KEY=VALUE, not 'stockTicker'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--max-pages", "0"},
       "--max-pages takes a positive count, not '0'"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "--output"}, "--output needs a value (FILE)"},
      {{"completion", "fish"}, "usage: massive completion bash|zsh"},
      {{"stocks", "aggregates", "--mock", "-p", "stocksTicker=AAPL", "-p", "multiplier=1", "-p", "timespan=weekz",
        "-p", "from=2024-01-02", "-p", "to=2024-01-05"},
       "parameter 'timespan': 'weekz' is not one of its values: second, minute, hour, day, week, month, quarter, year"},
      {{"stocks", "trades", "--mock", "-p", "stockticker=AAPL"},
       "unknown parameter 'stockticker' (did you mean 'stockTicker'?); this operation takes: " + ticker + ", timestamp,"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "timestamp.gtee=2024-01-02"},
       "unknown parameter 'timestamp.gtee' (did you mean 'timestamp.gte'?)"},
      {{"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit.gte=5"}, "unknown parameter 'limit.gte'"},
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

// A 2xx answer whose body says the request failed: its rows are not shown as real ones. Seen
// failing without the check in call.cpp: exit 0, the row printed.
TEST_CASE("exit 3: a 2xx answer whose body says status ERROR or NOT_AUTHORIZED prints no row") {
  for (const char* status : {"ERROR", "NOT_AUTHORIZED"}) {
    CAPTURE(status);
    scripted_server api({.headers = {{"Content-Type", "application/json"}},
                         .body = std::string(R"({"status":")") + status +
                                 R"(","results":[{"id":"1","price":1.5,"size":2,"exchange":4,"sip_timestamp":1,)"
                                 R"("participant_timestamp":1,"sequence_number":1,"conditions":[]}]})"});
    const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
    CHECK(r.exit_code == 3);
    CAPTURE(r.err);
    CHECK_FALSE(contains(r.out, "1.5"));
    CHECK(contains(r.err, std::string("body says status \"") + status + "\""));
  }
  // DELAYED is a status of data, not of a failure.
  scripted_server delayed({.headers = {{"Content-Type", "application/json"}},
                           .body = R"({"status":"DELAYED","results":[{"id":"1","price":1.5,"size":2,"exchange":4,)"
                                   R"("sip_timestamp":1,"participant_timestamp":1,"sequence_number":1,"conditions":[]}]})"});
  const run_result ok = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, delayed.flags()), key);
  CHECK(ok.exit_code == 0);
  CHECK(contains(ok.out, "1.5"));
}

TEST_CASE("exit 4: the request failed below HTTP") {
  scripted_server api({.body = R"({"results":[],"status":"OK"})", .reset_after = 5});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CHECK(r.exit_code == 4);
  CAPTURE(r.err);
  CHECK(contains(r.err, "massive: reading the response body: Connection reset by peer"));
  CHECK_FALSE(contains(r.err, "cli-test-key"));
}

// Seen failing with --header parsed but not put in the options (arguments.cpp): "CHECK(
// requests[0].header("X-Tenant") == "acme" ) is NOT correct! values: CHECK(  == acme )" and the same
// for X-Trace; with -H not registered: "CHECK( r.exit_code == 0 ) is NOT correct! values: CHECK( 2 ==
// 0 ) logged: r.err := massive: unknown flag '-H'" and "REQUIRE( requests.size() == 1 )"; with a
// header without a colon skipped rather than refused: "CHECK( ... .exit_code == 2 ) is NOT correct!
// values: CHECK( 4 == 2 )"; with --proxy ignored: "CHECK( proxied.exit_code == 4 ) is NOT correct!
// values: CHECK( 0 == 4 )" and the "connecting to proxy 127.0.0.1:1" check; with the SDK naming the
// proxy by its URL (client.cpp's peer from options.proxy): "proxied.err := massive: connecting to
// proxy http://user:pw@127.0.0.1:1: Connection refused", failing both message checks.
TEST_CASE("--header sends the caller's headers; --proxy tunnels through the proxy it names") {
  scripted_server api({.body = R"({"results":[],"status":"OK"})"});
  const run_result r = run_cli(
      args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--header", "X-Tenant: acme", "-H", "X-Trace:t-1"}, api.flags()), key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  const auto requests = api.server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].header("X-Tenant") == "acme");
  CHECK(requests[0].header("X-Trace") == "t-1");
  CHECK(run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--header", "no-colon"}, key).exit_code == 2);
  // Nothing listens on port 1: the failure names the proxy, never the API.
  const run_result proxied = run_cli(
      args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--proxy", "http://user:pw@127.0.0.1:1"}, api.flags()), key);
  CAPTURE(proxied.err);
  CHECK(proxied.exit_code == 4);
  CHECK(contains(proxied.err, "connecting to proxy 127.0.0.1:1"));
  CHECK_FALSE(contains(proxied.err, "pw@"));
}

TEST_CASE("--timeout is the call's deadline, --retry retries a 503, --verbose traces each attempt") {
  // Seen failing with --timeout parsed but not put in the options: "CHECK( elapsed <
  // std::chrono::seconds(10) )" (the stalled call waited the default 30 s); with --verbose's hook
  // not installed: the three trace checks; with --retry's count not put in max_attempts:
  // "CHECK( once.exit_code == 3 )" (the default three retries took the 200).
  {
    scripted_server api({.body = R"({"results":[],"status":"OK"})", .stall_after = 0});
    const auto start = std::chrono::steady_clock::now();
    const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--timeout", "0.5"}, api.flags()), key);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    CAPTURE(r.err);
    CHECK(r.exit_code == 4);
    CHECK(elapsed < std::chrono::seconds(10));
    CHECK(contains(r.err, "deadline"));
  }
  {
    massive::mock::server server{{.tls = false}};
    server.enqueue({.status = 503, .headers = {{"Content-Type", "application/json"}},
                    .body = R"({"status":"ERROR","error":"busy"})"});
    server.enqueue({.body = R"({"results":[],"status":"OK"})"});
    const run_result r = run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--retry", "2", "--verbose",
                                  "--base-url", server.base_url()},
                                 key);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK(server.requests().size() == 2);
    CHECK(contains(r.err, "massive: GET 127.0.0.1:"));
    CHECK(contains(r.err, "/v3/trades/AAPL -> 503 (attempt 1"));
    CHECK(contains(r.err, "/v3/trades/AAPL -> 200 (attempt 2"));
    CHECK_FALSE(contains(r.err, "cli-test-key"));
  }
  {
    massive::mock::server server{{.tls = false}};
    server.enqueue({.status = 503, .headers = {{"Content-Type", "application/json"}},
                    .body = R"({"status":"ERROR","error":"busy"})"});
    server.enqueue({.body = R"({"results":[],"status":"OK"})"});
    const run_result once =
        run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--retry", "0", "--base-url", server.base_url()}, key);
    CHECK(once.exit_code == 3);
    CHECK(server.requests().size() == 1);
  }
  CHECK(run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--timeout", "0"}, key).exit_code == 2);
  CHECK(run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--retry", "x"}, key).exit_code == 2);
}

TEST_CASE("every missing required parameter is named in one error") {
  // Seen failing before check_arguments named them all: "missing required parameter 'stocksTicker'".
  const run_result r = run_cli({"stocks", "aggregates", "--mock"});
  CHECK(r.exit_code == 2);
  CAPTURE(r.err);
  CHECK(contains(r.err, "missing required parameters '" + path_name("stocks", "aggregates", "stocksTicker") + "'"));
  CHECK(contains(r.err, "'multiplier', 'timespan', 'from', 'to'"));
}

TEST_CASE("tables right-align numbers") {
  // Seen failing with every column left-aligned: "REQUIRE( o_end != std::string::npos + 2 )" (no
  // right-aligned " o " in the header).
  const run_result r = run_cli({"stocks", "aggregates", "--mock", "-p", "stocksTicker=AAPL", "-p", "multiplier=1",
                                "-p", "timespan=day", "-p", "from=2024-01-02", "-p", "to=2024-01-12", "-f", "table"});
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < r.out.size();) {
    const std::size_t end = r.out.find('\n', at);
    lines.push_back(r.out.substr(at, end - at));
    at = end + 1;
  }
  REQUIRE(lines.size() >= 3);
  // The header's "o" ends where every open price ends.
  const std::size_t o_end = lines[0].find(" o ") + 2;
  REQUIRE(o_end != std::string::npos + 2);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CHECK(lines[i][o_end - 1] != ' ');
    CHECK(lines[i][o_end] == ' ');
  }
}

TEST_CASE("help shows the description without markup, stable operations first") {
  // Seen failing with plain_text() returning its input: "CHECK_FALSE( contains(help.out, "<br") )";
  // with the ranking loop broken (rank 0 alone printed): the [experimental] check.
  // The operations whose description has HTML in it, each described without.
  std::size_t marked_up = 0;
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    const std::string text(e.description);
    if (!contains(text, "<br") && !contains(text, "<a href")) continue;
    ++marked_up;
    const run_result help = run_cli({std::string(e.group), std::string(e.name), "--help"});
    CAPTURE(e.name);
    CHECK(help.exit_code == 0);
    CHECK_FALSE(contains(help.out, "<br"));
    CHECK_FALSE(contains(help.out, "<a href"));
  }
  CHECK(marked_up > 0);
  const run_result group = run_cli({"stocks", "--help"});
  CHECK(group.out.find("[experimental]") > group.out.find("  trades "));
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
  // Which stocks operations start with "trad" depends on the description (trades_dev came with
  // one and went with another): the operation table says, and completion offers each.
  words trad;
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    if (e.group == "stocks" && e.name.starts_with("trad")) trad.emplace_back(e.name);
  }
  words offered = completions("massive stocks trad");
  std::sort(trad.begin(), trad.end());
  std::sort(offered.begin(), offered.end());
  CHECK(std::find(trad.begin(), trad.end(), "trades") != trad.end());
  CHECK(offered == trad);
  CHECK(completions("massive crypto snapshot_t") == words{"snapshot_ticker", "snapshot_tickers"});
  CHECK(completions("massive stocks trades --fo") == words{"--format"});
  CHECK(completions("massive stocks trades --format j") == words{"json", "jsonl"});
  CHECK(completions("massive stocks trades --format=c") == words{"csv"});
  CHECK(completions("massive stocks trades -f t") == words{"table"});
  const std::string ticker = path_name("stocks", "trades", "stockTicker");
  CHECK(completions("massive stocks trades -p " + ticker.substr(0, 5)) == words{ticker + "="});
  CHECK(completions("massive stocks trades -p timestamp.g") == words{"timestamp.gt=", "timestamp.gte="});
  CHECK(completions("massive stocks trades --param order=") == words{"asc", "desc"});
  CHECK(completions("massive stocks aggregates -p timespan=m") == words{"minute", "month"});
}

/// What `_massive_candidates` (the logic both shells share) prints in zsh for `words` (the
/// last one being completed), after the zsh script was loaded behind compinit and registered.
std::string zsh_candidates(std::vector<std::string> words) {
  const std::string script = "autoload -Uz compinit && compinit -u -D || exit 9\n"
                             "source <(\"$MASSIVE_CLI\" completion zsh) || exit 9\n"
                             "[[ $_comps[massive] == _massive ]] || exit 8\n"
                             "_massive_candidates \"$@\"\n";
  words.insert(words.begin(), {"zsh", "-f", "-c", script, "zsh"});
  const run_result r = massive::test::run_program(words, {"MASSIVE_CLI=" MASSIVE_CLI});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

TEST_CASE("completion: zsh loads its script behind compinit and finds the same candidates") {
  CHECK(contains(zsh_candidates({"massive", "st"}), "stocks options crypto"));
  CHECK(zsh_candidates({"massive", "completion", ""}) == "bash zsh\n");
  CHECK(contains(zsh_candidates({"massive", "stocks", "trades", "-p", ""}),
                 path_name("stocks", "trades", "stockTicker") + "= timestamp= timestamp.gt="));
  CHECK(zsh_candidates({"massive", "stocks", "trades", "-p", "order="}) == "asc desc\n");
  CHECK(zsh_candidates({"massive", "stocks", "trades", "--format", "c"}) == "json jsonl csv table\n");
  const run_result fish = run_cli({"completion", "fish"});
  CHECK(fish.exit_code == 2);
  CHECK(fish.out == "");
}

TEST_CASE("--version: the SDK's version from <massive/version.hpp>") {
  // Seen failing before the command existed: "unknown group '--version'", exit 2.
  const run_result r = run_cli({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == std::string("massive ") + MASSIVE_VERSION_STRING + " (" +
                     std::to_string(massive::reflection::operation_table().size()) + " operations)\n");
  CHECK(run_cli({"--version", "extra"}).exit_code == 2);
}

TEST_CASE("help: the overview, a group's operations, an operation's parameters, from the table") {
  // Seen failing with the default left out of help.cpp: "order  one of asc, desc, default desc"
  // and "limit  integer, default 1000" not found.
  const run_result overview = run_cli({"--help"});
  CHECK(overview.exit_code == 0);
  CHECK(overview.err == "");
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    CAPTURE(e.group);
    CHECK(contains(overview.out, "\n  " + std::string(e.group) + " "));
  }
  for (std::string_view part : {"--param KEY=VALUE", "--format FORMAT", "--all-pages", "--output FILE", "--raw-times",
                                "MASSIVE_API_KEY", "3 the API answered with an error", "massive completion"}) {
    CHECK(contains(overview.out, part));
  }

  const run_result stocks = run_cli({"stocks", "--help"});
  CHECK(stocks.exit_code == 0);
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    if (e.group != "stocks") continue;
    CAPTURE(e.name);
    CHECK(contains(stocks.out, "  " + std::string(e.name) + " "));
    CHECK(contains(stocks.out, std::string(e.summary)));
  }

  const run_result trades = run_cli({"stocks", "trades", "--help"});
  CHECK(trades.exit_code == 0);
  CHECK(trades.err == "");
  CAPTURE(trades.out);
  const std::string route = "GET " + route_of("stocks", "trades");
  const std::string ticker = path_name("stocks", "trades", "stockTicker") + "  string, required (in the path)";
  for (std::string_view part : std::initializer_list<std::string_view>{
           route, "Pages: the first page, or every page with --all-pages", ticker, "Specify a case-sensitive ticker symbol.",
        "timestamp  date (YYYY-MM-DD) or Unix timestamp in nanoseconds", "also timestamp.gt, timestamp.gte, timestamp.lt, timestamp.lte",
        "order  one of asc, desc, default desc", "limit  integer, default 1000", "sip_timestamp (time)"}) {
    CHECK(contains(trades.out, part));
  }
  // -h after the parameters, as a user adds it to a command that failed.
  CHECK(run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "-h"}).out == trades.out);

  const run_result deprecated = run_cli({"stocks", "historic_trades", "--help"});
  CHECK(deprecated.exit_code == 0);
  CHECK(contains(deprecated.out, "Deprecated by Massive"));
}


/// `count` units of 10^-digits s: the whole seconds since the epoch (rounded down, before 1970
/// too) and the fraction's digits after them ("." and `digits` digits; "" for digits 0).
struct split_instant {
  long long seconds;
  std::string fraction;
};

split_instant split(long long count, int digits) {
  long long per_second = 1;
  for (int i = 0; i < digits; ++i) per_second *= 10;
  std::string fraction = std::to_string(((count % per_second) + per_second) % per_second);
  fraction.insert(0, static_cast<std::size_t>(digits) - fraction.size(), '0');
  return {count / per_second - (count % per_second < 0 ? 1 : 0), digits > 0 ? "." + fraction : ""};
}

/// The ISO 8601 text of `count` units of 10^-digits s, written here independently of the CLI.
std::string expected_iso(long long count, int digits) {
  using namespace std::chrono;
  const split_instant at = split(count, digits);
  const sys_seconds s{seconds{at.seconds}};
  const sys_days day = floor<days>(s);
  const year_month_day ymd{day};
  const hh_mm_ss<seconds> t{s - day};
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d", int{ymd.year()}, unsigned{ymd.month()},
                unsigned{ymd.day()}, int(t.hours().count()), int(t.minutes().count()), int(t.seconds().count()));
  return text + at.fraction + "Z";
}

/// The text of `key`'s number in a compact JSON row.
std::string json_number(const std::string& row, const std::string& key) {
  const std::size_t at = row.find("\"" + key + "\":");
  REQUIRE(at != std::string::npos);
  const std::size_t start = at + key.size() + 3;
  return row.substr(start, row.find_first_of(",}", start) - start);
}

TEST_CASE("csv and table: times as ISO 8601 in UTC with the unit's digits, numbers exactly as sent") {
  // Seen failing with the flattener never converting (output.cpp): "CHECK( 1705093198830000000 ==
  // 2024-01-12T20:59:58.830000000Z )".
  const std::vector<std::string> trades = {"stocks", "trades", "--mock", "-p", "stockTicker=AAPL", "-p", "limit=5"};
  const run_result json = run_cli(args_with(trades, {"-f", "jsonl"}));
  const run_result csv = run_cli(args_with(trades, {"-f", "csv"}));
  const run_result raw = run_cli(args_with(trades, {"-f", "csv", "--raw-times"}));
  REQUIRE(json.exit_code == 0);
  REQUIRE(csv.exit_code == 0);
  REQUIRE(raw.exit_code == 0);
  const auto rows = lines_of(json.out), lines = lines_of(csv.out), raw_lines = lines_of(raw.out);
  REQUIRE(rows.size() == 5);
  REQUIRE(lines.size() == 6);
  REQUIRE(raw_lines.size() == 6);
  const auto header = csv_cells(lines[0]);
  CHECK(csv_cells(raw_lines[0]) == header);
  const auto column = [&](std::string_view name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(rows[i]);
    const auto cells = csv_cells(lines[i + 1]), raw_cells = csv_cells(raw_lines[i + 1]);
    for (const char* time : {"sip_timestamp", "participant_timestamp"}) {
      const std::string count = json_number(rows[i], time);
      CHECK(cells[column(time)] == expected_iso(std::stoll(count), 9));
      CHECK(raw_cells[column(time)] == count);
    }
    CHECK(cells[column("price")] == json_number(rows[i], "price"));
    CHECK(cells[column("size")] == json_number(rows[i], "size"));
  }

  // Milliseconds: the aggregates' t.
  const std::vector<std::string> aggregates = {"stocks", "aggregates", "--mock", "-p", "stocksTicker=AAPL",
                                               "-p", "multiplier=1", "-p", "timespan=day", "-p", "from=2024-01-02",
                                               "-p", "to=2024-01-03"};
  const run_result bars = run_cli(args_with(aggregates, {"-f", "csv"}));
  const run_result bars_json = run_cli(args_with(aggregates, {"-f", "jsonl"}));
  REQUIRE(bars.exit_code == 0);
  const auto bar_lines = lines_of(bars.out), bar_rows = lines_of(bars_json.out);
  REQUIRE(bar_lines.size() == 3);
  REQUIRE(bar_rows.size() == 2);
  const auto bar_header = csv_cells(bar_lines[0]);
  const auto t = static_cast<std::size_t>(std::find(bar_header.begin(), bar_header.end(), "t") - bar_header.begin());
  CHECK(csv_cells(bar_lines[1])[t] == expected_iso(std::stoll(json_number(bar_rows[0], "t")), 3));
}

/// A trades body of `rows` (each a JSON object's members) with next_url `next` ("" for none).
std::string trades_body(const std::vector<std::string>& rows, const std::string& next) {
  std::string body = R"({"status":"OK","request_id":"r","results":[)";
  for (std::size_t i = 0; i < rows.size(); ++i) body += (i ? ",{" : "{") + rows[i] + "}";
  body += "]";
  if (!next.empty()) body += R"(,"next_url":")" + next + "\"";
  return body + "}";
}

/// Where each column of a table line starts: after a run of two or more spaces.
std::vector<std::size_t> column_starts(const std::string& line) {
  std::vector<std::size_t> out{0};
  for (std::size_t i = 2; i < line.size(); ++i) {
    if (line[i] != ' ' && line[i - 1] == ' ' && line[i - 2] == ' ') out.push_back(i);
  }
  return out;
}

TEST_CASE("table: printed page by page, widths fixed by the first page, a later column adds a header") {
  // Before this change the table was printed after the last page: a traversal failing on its
  // fourth page printed no row at all.
  massive::mock::server api{{.tls = false}};
  const std::string next = api.base_url() + "/v3/trades/AAPL?cursor=";
  const std::string required = R"("participant_timestamp":5,"exchange":4,"sequence_number":1,)";
  api.enqueue({.body = trades_body({required + R"("id":"1","price":1.5,"size":100,"conditions":[12,37],"sip_timestamp":0)",
                                    required + R"("id":"2","price":2.25,"size":7,"conditions":[1],"sip_timestamp":1000)"},
                                   next + "2")});
  api.enqueue({.body = trades_body({required + R"("id":"3","price":12345.678,"size":1,"sip_timestamp":2000)"},
                                   next + "3")});
  api.enqueue(
      {.body = trades_body({required + R"("id":"4","price":3.5,"size":2,"trf_id":9,"sip_timestamp":3000)"}, next + "4")});
  api.enqueue({.body = "{}", .reset_after = 0});  // the fourth page fails: the rows before are out already
  const run_result r = run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--all-pages", "-f", "table",
                                "--base-url", api.base_url()},
                               key);
  CAPTURE(r.err);
  CAPTURE(r.out);
  CHECK(r.exit_code == 4);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0].starts_with("id  sip_timestamp  "));
  const std::string participant = "  1970-01-01T00:00:00.000000005Z  ";
  // Numbers right-aligned, the rest left-aligned, in the widths the first page fixed.
  CHECK(lines[1] == " 1  1970-01-01T00:00:00.000000000Z" + participant + "  1.5   100         4                1  12, 37");
  CHECK(lines[2] == " 2  1970-01-01T00:00:00.000001000Z" + participant + " 2.25     7         4                1  1");
  // A wider value later is printed whole, pushing the rest of its line right.
  CHECK(contains(lines[3], "12345.678"));
  CHECK(column_starts(lines[3]) != column_starts(lines[1]));
  // trf_id, empty on the first page, appears with a new header line.
  CHECK(contains(lines[4], "trf_id"));
  CHECK(lines[4].starts_with("id  sip_timestamp  "));
  CHECK(lines[5].starts_with(" 4  "));
}

TEST_CASE("iso8601 as written here agrees with known instants") {
  CHECK(expected_iso(0, 3) == "1970-01-01T00:00:00.000Z");
  CHECK(expected_iso(1704153600000, 3) == "2024-01-02T00:00:00.000Z");
  CHECK(expected_iso(1705093198829721866, 9) == "2024-01-12T20:59:58.829721866Z");
  CHECK(expected_iso(-1, 6) == "1969-12-31T23:59:59.999999Z");
}

namespace {

/// What GNU date (coreutils) makes of `count` units of 10^-digits s, written as iso8601 writes
/// it: date computes the calendar itself, for years std::chrono::year cannot hold. Years
/// outside 0000-9999 take ISO 8601's expanded form, a sign and six digits or more.
std::string iso_by_gnu_date(long long count, int digits) {
  const split_instant at = split(count, digits);
  const run_result r = massive::test::run_program({"date", "-u", "-d", "@" + std::to_string(at.seconds), "+%Y %m-%dT%H:%M:%S"});
  REQUIRE(r.exit_code == 0);
  const std::size_t space = r.out.find(' ');
  const long long year = std::stoll(r.out.substr(0, space));
  char year_text[32];
  if (year >= 0 && year <= 9999) {
    std::snprintf(year_text, sizeof year_text, "%04lld", year);
  } else {
    std::snprintf(year_text, sizeof year_text, "%c%06lld", year < 0 ? '-' : '+', year < 0 ? -year : year);
  }
  const std::string rest = r.out.substr(space + 1, r.out.find('\n') - space - 1);
  return year_text + ("-" + rest) + at.fraction + "Z";
}

}  // namespace

// A server's time beyond what std::chrono::year holds (+-32,767) or beyond four digits of year,
// in the aggregates' milliseconds. Seen failing with year_month_day in output.cpp's append_date,
// as it was: 2^63 - 1 ms printed as "-6911-07-12T07:12:55.807Z", year 10000 as "0000".
TEST_CASE("a time in any year a count reaches is printed as GNU date computes it") {
  const std::vector<long long> times = {253402300799999,  // 9999-12-31T23:59:59.999Z
                                        253402300800000,  // year 10000
                                        std::numeric_limits<long long>::max(),  // year 292,278,994
                                        std::numeric_limits<long long>::min(),
                                        -62135596800001,  // 0000-12-31: the year before 1
                                        -62167219200001,  // year -1
                                        1704153600000};
  std::string body = R"({"status":"OK","request_id":"r","results":[)";
  for (std::size_t i = 0; i < times.size(); ++i)
    body += (i ? "," : "") + std::string(R"({"v":1,"o":1,"c":1,"h":1,"l":1,"t":)") + std::to_string(times[i]) + "}";
  body += "]}";
  for (const std::string format : {"csv", "table"}) {
    CAPTURE(format);
    scripted_server api({.body = body});
    const run_result r = run_cli(args_with({"stocks", "aggregates", "-p", "stocksTicker=AAPL", "-p", "multiplier=1", "-p",
                                            "timespan=day", "-p", "from=2024-01-02", "-p", "to=2024-01-03", "-f", format},
                                           api.flags()),
                                 key);
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    for (const long long t : times) {
      CAPTURE(t);
      CHECK(contains(r.out, iso_by_gnu_date(t, 3)));
    }
  }
  CHECK(iso_by_gnu_date(std::numeric_limits<long long>::max(), 3) == "+292278994-08-17T07:12:55.807Z");
}

TEST_CASE("the progress line: on a terminal's stderr while the rows go to a file, never among the rows") {
  // script(1) (util-linux, in every Debian) runs the CLI with a terminal for stdout and stderr.
  char path[] = "/tmp/massive-cli-test-rows-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string call = std::string(MASSIVE_CLI) + " reference tickers --mock -p limit=7 --all-pages -f jsonl";
  const run_result to_file = massive::test::run_program({"script", "-qec", call + " --output " + path, "/dev/null"});
  const std::string written = massive::test::slurp(path);
  unlink(path);
  CHECK(to_file.exit_code == 0);
  CAPTURE(to_file.out);
  CHECK(contains(to_file.out, "\r\033[K1 page, 7 rows, "));
  CHECK(contains(to_file.out, "\r\033[K3 pages, 21 rows, "));
  CHECK(lines_of(written).size() == 21);
  // The rows on the terminal themselves: no progress line among them.
  const run_result to_terminal = massive::test::run_program({"script", "-qec", call, "/dev/null"});
  CHECK(to_terminal.exit_code == 0);
  CHECK_FALSE(contains(to_terminal.out, " rows, "));
  CHECK(lines_of(to_terminal.out).size() == 21);
}

// ---- issue 30: a broken or hostile server gets a clear answer -------------------------------

namespace {

const std::string trade_ok =
    R"({"exchange":1,"id":"ok","participant_timestamp":1704067200000000005,"price":1,"sequence_number":1,"sip_timestamp":1704067200000000000,"size":1})";

/// A server answering every request with `make(base_url, request)`.
struct answering_server {
  massive::mock::server server{{.tls = false}};
  explicit answering_server(std::function<massive::mock::reply(const std::string&, const massive::mock::recorded_request&)> make) {
    server.respond_with([make = std::move(make), base = server.base_url()](const massive::mock::recorded_request& r) {
      return make(base, r);
    });
  }
  std::vector<std::string> flags() const { return {"--base-url", server.base_url()}; }
};

}  // namespace

// Issue 30, kind 1. Seen failing with builder_.mark_incomplete() removed from
// row_context::missing: the rows "big" and "half" printed with "sip_timestamp":0 (1970 in CSV
// and the table) and the stderr line not matching; with report_leniency's call removed from
// call.cpp: the stderr line missing in every format; with the --strict test in call.cpp made
// false: "CHECK( 0 == 6 )".
TEST_CASE("leniency a user sees: rows left out rather than shown with 0, reported on stderr; --strict exits 6") {
  const std::string body = R"({"status":"OK","results":[)" + trade_ok +
                           R"(,{"exchange":1,"id":"big","participant_timestamp":5,"price":1,"sequence_number":1,"sip_timestamp":123456789012345678901234567890,"size":1},)" +
                           R"({"exchange":1,"id":"half","participant_timestamp":5,"price":1,"sequence_number":1,"sip_timestamp":1.5,"size":1},)" +
                           R"(7,"x",null,)" + trade_ok + "]}";
  for (const std::string format : {"json", "csv", "table"}) {
    CAPTURE(format);
    scripted_server api({.body = body});
    const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "-f", format}, api.flags()), key);
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(contains(r.out, "big"));
    CHECK_FALSE(contains(r.out, "half"));
    CHECK_FALSE(contains(r.out, "1970"));
    CHECK_FALSE(contains(r.out, "\"sip_timestamp\":0"));
    CHECK(contains(r.out, format == "json" ? "1704067200000000000" : "2024-01-01T00:00:00"));
    CHECK(contains(r.err, "massive: page 1: 5 rows dropped, 5 values left out, 2 required fields without a value;"
                          " the first at results[1].sip_timestamp"));
  }
  scripted_server strict_api({.body = body});
  const run_result strict = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--strict"}, strict_api.flags()), key);
  CAPTURE(strict.err);
  CHECK(strict.exit_code == 6);
  CHECK(contains(strict.out, "1704067200000000000"));  // the true rows are still printed
  CHECK(contains(strict.err, "1 page left values or rows of the body out (--strict)"));
  // An exact body is not reported, and --strict has nothing to say about it.
  scripted_server exact({.body = R"({"results":[)" + trade_ok + "]}"});
  const run_result quiet = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--strict"}, exact.flags()), key);
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err == "");
}

// Issue 30, kind 2. Seen failing with the max_inflate_ratio test removed from exchange.cpp's
// deliver: "CHECK( 5 == 4 )", the bomb stopped only by the decoder's 16 MiB element limit.
TEST_CASE("bounded memory: a gzip bomb and a body beyond --max-body end with an error naming the limit") {
  // 64 MiB of blanks inside the rows array inflates from about 64 KiB: far beyond 200:1.
  std::string bomb = R"({"results":[)";
  bomb.append(std::size_t{64} << 20, ' ');
  bomb += "]}";
  scripted_server api({.body = bomb, .gzip = true});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 4);
  CHECK(contains(r.err, "client_config.max_inflate_ratio (200:1)"));
  CHECK(r.err.size() < 400);

  const std::string body = R"({"results":[)" + trade_ok + "," + trade_ok + "]}";
  scripted_server small({.body = body, .gzip = true});
  const run_result capped = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--max-body", "100"}, small.flags()), key);
  CAPTURE(capped.err);
  CHECK(capped.exit_code == 4);
  CHECK(contains(capped.err, "client_config.max_body_size"));
  CHECK(run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--max-body", "12Q"}, key).exit_code == 2);
}

// A page of the API may hold a million rows: -f table, which must see a page whole before it
// knows its widths, reads the page twice instead of keeping its text. Seen failing with a
// std::optional<std::string> per cell, as before: peak RSS 172,472 KiB against jsonl's 61,092
// (ASan build; with 100,000 rows optimised, 106,452 against 26,708); now 61,248 against 61,068.
// The peak is GNU time's (scripts/install-deps.sh installs it): the child's own getrusage would
// count this process's memory, shared with the child until its exec.
TEST_CASE("bounded memory: -f table prints a page in about the memory -f jsonl takes") {
  std::string body = R"({"results":[)";
  for (int i = 0; i < 30'000; ++i) body += (i == 0 ? "" : ",") + trade_ok;
  body += "]}";
  // ASan's quarantine would keep freed memory resident, the jsonl run's too.
  const std::vector<std::string> env = {key[0], "ASAN_OPTIONS=quarantine_size_mb=0"};
  const auto peak_rss_kib = [&](const char* format) {
    scripted_server api({.body = body});
    const std::string peak = (std::filesystem::temp_directory_path() / "massive-cli-test-peak-rss").string();
    std::vector<std::string> args = {"/usr/bin/time", "-f", "%M", "-o", peak, MASSIVE_CLI, "stocks", "trades",
                                     "-p", "stockTicker=AAPL", "-f", format, "-o", "/dev/null"};
    for (const std::string& flag : api.flags()) args.push_back(flag);
    const run_result r = massive::test::run_program(args, env);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const long kib = std::stol(massive::test::slurp(peak));
    std::filesystem::remove(peak);
    return kib;
  };
  const long table = peak_rss_kib("table");
  const long jsonl = peak_rss_kib("jsonl");
  CHECK(table < jsonl + static_cast<long>(body.size() / 1024));
}

// Issue 30, kind 3. Seen failing with both cycle tests removed from traversal::advance (the
// ring of recent URLs and Brent's; either alone catches x -> y -> x): "CHECK( 6 == 4 )" and
// 1000 requests, the default cap ending it; with the empty_pages refusal removed from
// traversal::refusal: "CHECK( 6 == 4 )" and 1000 requests; with settings.run.page_cap_is_error
// left false: exit 0 after 1000 pages and nothing on stderr.
TEST_CASE("traversals end: a cycle, empty pages with fresh cursors, and the default page cap, each named") {
  answering_server cycle([](const std::string& base, const massive::mock::recorded_request& r) {
    const std::string next = r.target == "/x" ? "/y" : "/x";
    return massive::mock::reply{.body = R"({"results":[)" + trade_ok + R"(],"next_url":")" + base + next + R"("})"};
  });
  const run_result c = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--all-pages"}, cycle.flags()), key);
  CAPTURE(c.err);
  CHECK(c.exit_code == 4);
  CHECK(contains(c.err, "next_url returns to a page this traversal already fetched"));
  CHECK(cycle.server.request_count() == 3);

  std::size_t cursor = 0;  // the server's thread alone touches it
  answering_server empty([&cursor](const std::string& base, const massive::mock::recorded_request&) {
    return massive::mock::reply{.body = R"({"results":[],"next_url":")" + base + "/e?cursor=" + std::to_string(++cursor) + R"("})"};
  });
  const run_result e = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--all-pages"}, empty.flags()), key);
  CAPTURE(e.err);
  CHECK(e.exit_code == 4);
  CHECK(contains(e.err, "10 pages in a row without rows"));
  CHECK(empty.server.request_count() == 10);

  std::size_t page = 0;
  answering_server endless([&page](const std::string& base, const massive::mock::recorded_request&) {
    return massive::mock::reply{.body = R"({"results":[)" + trade_ok + R"(],"next_url":")" + base + "/p?cursor=" +
                                        std::to_string(++page) + R"("})"};
  });
  const run_result capped = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--all-pages", "-f", "jsonl"}, endless.flags()), key);
  CAPTURE(capped.err);
  CHECK(capped.exit_code == 6);
  CHECK(contains(capped.err, "stopped after 1000 pages"));
  CHECK(contains(capped.err, "--max-pages"));
  CHECK(lines_of(capped.out).size() == 1000);
  // A cap the user chose is no failure.
  const run_result chosen = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "--max-pages", "3"}, endless.flags()), key);
  CHECK(chosen.exit_code == 0);
  CHECK(chosen.err == "");
}

// Issue 30, kinds 4 and 6. Seen failing with answer_means_stale_connection returning false:
// exit 3 "the API refused: HTTP 408", one connection; with skip_interim_response returning
// false: exit 3, no row.
TEST_CASE("a 408 on a kept-alive connection is a quiet reconnect; 1xx answers are skipped") {
  const std::string page1 = R"({"results":[)" + trade_ok + R"(],"next_url":"NEXT"})";
  massive::mock::server server{{.tls = false}};
  std::string first = page1;
  first.replace(first.find("NEXT"), 4, server.base_url() + "/page2");
  server.enqueue({.body = first});
  server.enqueue({.status = 408, .body = "idle too long", .keep_alive = false});
  server.enqueue({.body = R"({"results":[)" + trade_ok + "]}"});
  const run_result r = run_cli({"stocks", "trades", "-p", "stockTicker=AAPL", "--all-pages", "-f", "jsonl",
                                "--base-url", server.base_url()}, key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 2);
  CHECK(server.connections_accepted() == 2);

  scripted_server hints({.body = R"({"results":[)" + trade_ok + "]}",
                         .interim = {"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 103 Early Hints\r\nLink: </x>; rel=preload\r\n\r\n"}});
  const run_result h = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "-f", "jsonl"}, hints.flags()), key);
  CAPTURE(h.err);
  CHECK(h.exit_code == 0);
  CHECK(lines_of(h.out).size() == 1);
}

// Issue 30, kind 5: every printable format over strings holding each control character. Seen
// failing with terminal_safe() returning its text unchanged: "control byte 0" in CSV and the
// table; with 0xC2 left out of json_writer::escaped's test: "control byte 194" (C2 9B, CSI) in
// JSON and JSON Lines.
TEST_CASE("output is safe for terminals: no control character from the wire in any format") {
  std::string rows;
  std::vector<unsigned> controls;
  for (unsigned c = 0; c < 0x20; ++c) controls.push_back(c);
  controls.push_back(0x7F);
  for (unsigned c = 0x80; c < 0xA0; ++c) controls.push_back(c);
  for (const unsigned c : controls) {
    char escape[8];
    std::snprintf(escape, sizeof escape, "\\u%04x", c);
    std::string row = trade_ok;
    row.replace(row.find("\"ok\""), 4, std::string("\"a") + escape + "]0;title\\u0007b\"");
    rows += (rows.empty() ? "" : ",") + row;
  }
  // DEL and U+009B raw as well, as a server may send them (JSON allows both unescaped).
  std::string raw_row = trade_ok;
  raw_row.replace(raw_row.find("\"ok\""), 4, "\"x\x7f\xc2\x9b" "2Jy\"");
  rows += "," + raw_row;
  for (const std::string format : {"json", "jsonl", "csv", "table"}) {
    CAPTURE(format);
    scripted_server api({.body = R"({"results":[)" + rows + "]}"});
    const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "-f", format}, api.flags()), key);
    CHECK(r.exit_code == 0);
    CHECK(lines_of(r.out).size() >= controls.size() + 1);
    for (std::size_t i = 0; i < r.out.size(); ++i) {
      const auto byte = static_cast<unsigned char>(r.out[i]);
      const bool c1 = byte == 0xC2 && i + 1 < r.out.size() && static_cast<unsigned char>(r.out[i + 1]) < 0xA0;
      // A quoted CSV field carries tab, line feed and carriage return as text (the test below).
      const bool text_break = format == "csv" && (byte == '\t' || byte == '\r');
      if (byte == '\n' || text_break || !(byte < 0x20 || byte == 0x7F || c1)) continue;
      FAIL_CHECK("control byte " << static_cast<unsigned>(byte) << " at " << i);
      break;
    }
  }
}

// Python's csv module, an independent reader, gets back the exact text of a field holding a
// comma, quotes, a line feed, a carriage return and a tab. Seen failing with terminal_safe()
// spacing line breaks in CSV: "612c6220226322202064" (each break printed as a space, 20).
TEST_CASE("CSV keeps a text's line breaks, quoted, as a CSV reader reads them back") {
  const std::string text = "a,b\n\"c\"\r\td";
  std::string row = trade_ok;
  row.replace(row.find("\"ok\""), 4, R"("a,b\n\"c\"\r\td")");
  scripted_server api({.body = R"({"results":[)" + row + "," + trade_ok + "]}"});
  const run_result r =
      run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL", "-f", "csv"}, api.flags()), key);
  REQUIRE(r.exit_code == 0);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("massive-cli-csv-" + std::to_string(::getpid()) + ".csv");
  std::ofstream(file, std::ios::binary) << r.out;
  const run_result read = massive::test::run_program(
      {"python3", "-c",
       "import csv, sys\n"
       "for r in csv.DictReader(open(sys.argv[1], newline='')): print(r['id'].encode().hex())",
       file.string()});
  std::filesystem::remove(file);
  CAPTURE(read.err);
  REQUIRE(read.exit_code == 0);
  std::string expected;
  for (const unsigned char c : text) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", c);
    expected += hex;
  }
  CHECK(read.out == expected + "\n" + "6f6b\n");
}

// Issue 30, kind 7. Seen failing with bounded_path() returning the path whole (error.cpp) and
// terminal_safe() not cutting (each alone bounds the line): "CHECK( 100090 < 1200 )"; with
// without_key() returning current_exception() always (call_driver.cpp): "invalid JSON at
// cli-test-key: mismatched bracket".
TEST_CASE("error messages are bounded and never hold the key, whatever key names the server sends") {
  const std::string long_key(100'000, 'k');
  scripted_server api({.body = R"({"status":"OK",")" + long_key + R"(":[1,})"});
  const run_result r = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, api.flags()), key);
  CHECK(r.exit_code == 5);
  CHECK(r.err.size() < 1200);
  CHECK(contains(r.err, "kkkk..."));
  scripted_server echo({.body = R"({"status":"OK","results":[],"cli-test-key":[1,})"});
  const run_result e = run_cli(args_with({"stocks", "trades", "-p", "stockTicker=AAPL"}, echo.flags()), key);
  CAPTURE(e.err);
  CHECK(e.exit_code == 5);
  CHECK_FALSE(contains(e.err, "cli-test-key"));
  CHECK(contains(e.err, "REDACTED"));
  // A map's key is data: the leniency line names it, redacted. Seen failing with call.cpp's
  // without_key() returning its text: "...balance_sheet.cli-test-key.order".
  scripted_server map({.body = R"({"results":[{"financials":{"balance_sheet":{"cli-test-key":{"order":1.5}}}}]})"});
  const run_result m = run_cli(args_with({"reference", "financials"}, map.flags()), key);
  CAPTURE(m.err);
  CHECK(m.exit_code == 0);
  CHECK(contains(m.err, "the first at results[0].financials.balance_sheet.REDACTED.order"));
}

// ---- issue 34: streams that say what they are, the whole response, output from typed rows ----

namespace {

/// The certificate of `server` in a file, for --ca-file; removed with the object.
struct pem_file {
  std::string path;
  explicit pem_file(const std::string& pem) {
    char name[] = "/tmp/massive-cli-test-pem-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, pem.data(), pem.size()) == static_cast<ssize_t>(pem.size()));
    close(fd);
    path = name;
  }
  ~pem_file() { unlink(path.c_str()); }
};

/// A mock stream server the CLI reaches with --url and --ca-file, as it would a test server.
struct stream_target {
  massive::mock::stream_server server;
  pem_file ca;
  explicit stream_target(massive::mock::stream_server_options options = {})
      : server(std::move(options)), ca(server.certificate_pem()) {}
  std::vector<std::string> flags() const { return {"--url", server.url("stocks"), "--ca-file", ca.path}; }
};

const std::vector<std::string> stream_key = {"MASSIVE_API_KEY=mock-stream-key"};

/// The value of `key` in a JSON object line, as text ("" when absent).
std::string json_field(const std::string& line, const std::string& key) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(line).get(doc) != simdjson::SUCCESS) return "<not JSON>";
  simdjson::dom::element value;
  if (doc[key].get(value) != simdjson::SUCCESS) return "";
  if (value.is_string()) return std::string(value.get_string().value());
  return simdjson::minify(value);
}

}  // namespace

// Seen failing with the ev insertion removed from append_json (output.cpp): "CHECK( (ev == "T" ||
// ev == "Q") ) is NOT correct!" on every line; with --count counting frames again (the count taken
// after each batch in stream_command.cpp): "CHECK( lines_of(one.out).size() == 1 ) values: CHECK(
// 4 == 1 )" and "CHECK( 36 == 9 )".
TEST_CASE("stream: every event carries its type, --count counts events") {
  const run_result one = run_cli({"stream", "stocks", "T.AAPL", "--mock", "--count", "1"});
  CAPTURE(one.err);
  CHECK(one.exit_code == 0);
  CHECK(lines_of(one.out).size() == 1);
  const run_result r = run_cli({"stream", "stocks", "T.AAPL,Q.AAPL", "--mock", "--count", "9", "-f", "jsonl"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  const auto lines = lines_of(r.out);
  CHECK(lines.size() == 9);
  std::size_t trades = 0, quotes = 0;
  for (const std::string& line : lines) {
    CAPTURE(line);
    const std::string ev = json_field(line, "ev");
    CHECK((ev == "T" || ev == "Q"));
    trades += ev == "T";
    quotes += ev == "Q";
    CHECK(json_field(line, "sym") == "AAPL");
    // A trade has a price p; a quote has bid and ask prices, no p.
    CHECK((ev == "T") == !json_field(line, "p").empty());
  }
  CHECK(trades > 0);
  CHECK(quotes > 0);
}

// Seen failing with event_print::column_prefix left empty (stream_command.cpp): a trade's and a
// quote's `c` in one column, the CLI refusing the row "CHECK( r.exit_code == 0 ) values: CHECK( 5
// == 0 )".
TEST_CASE("stream: CSV with several event types never puts two meanings under one column") {
  const run_result r = run_cli({"stream", "stocks", "T.AAPL,Q.AAPL", "--mock", "--count", "12", "-f", "csv"});
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 13);
  const auto header = csv_cells(lines[0]);
  CAPTURE(lines[0]);
  REQUIRE(header[0] == "ev");
  for (std::size_t i = 1; i < header.size(); ++i) {
    CAPTURE(header[i]);
    CHECK((header[i].starts_with("T.") || header[i].starts_with("Q.")));
  }
  for (std::size_t row = 1; row < lines.size(); ++row) {
    const auto cells = csv_cells(lines[row]);
    CAPTURE(lines[row]);
    REQUIRE(cells.size() == header.size());
    const std::string ev = cells[0];
    REQUIRE((ev == "T" || ev == "Q"));
    // Only the event's own columns are filled.
    for (std::size_t i = 1; i < cells.size(); ++i) {
      if (!cells[i].empty()) CHECK(header[i].starts_with(ev + "."));
    }
  }
  // One type: plain keys after ev, times as ISO 8601 in the table, integers with --raw-times.
  const run_result table = run_cli({"stream", "stocks", "T.AAPL", "--mock", "--count", "3", "-f", "table"});
  CHECK(table.exit_code == 0);
  const auto rows = lines_of(table.out);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].starts_with("ev  "));
  CHECK(contains(rows[1], "Z "));
  const run_result raw = run_cli({"stream", "stocks", "T.AAPL", "--mock", "--count", "3", "-f", "csv", "--raw-times"});
  CHECK(raw.exit_code == 0);
  CHECK_FALSE(contains(raw.out, "Z,"));
}

// A server may send a type not subscribed: its keys go under its prefix, never into the columns
// of the type subscribed (a quote's c, its condition, under a trade's c, its conditions). Seen
// failing with column_prefix given with several types only (stream_command.cpp, as before): the
// quote's 604 and 999 under the trade's c and i, "CHECK_FALSE( contains(row, " bp ") ) is NOT
// correct!" for the header it added, and "REQUIRE( header != rows.end() ) is NOT correct!".
TEST_CASE("stream: a type not subscribed that the server sends has columns of its own in the table") {
  stream_target target({.max_frames = 2});
  target.server.script({{.fault = massive::mock::stream_fault::frame,
                         .after_frames = 1,
                         .frame = R"([{"ev":"Q","sym":"AAPL","bx":1,"bp":9.75,"bs":3,"ax":2,"ap":9.99,"as":4,)"
                                  R"("c":604,"i":[999],"t":1651684192463,"z":1}])"}});
  const run_result r =
      run_cli(args_with({"stream", "stocks", "T.AAPL", "--count", "9", "-f", "table"}, target.flags()), stream_key);
  CAPTURE(r.err);
  CAPTURE(r.out);
  CHECK(r.exit_code == 0);
  // The table prints its header again when a row brings columns: here the quote's.
  const auto rows = lines_of(r.out);
  CHECK(rows.size() == 11);
  for (const std::string& row : rows) CHECK_FALSE(contains(row, " bp "));
  const auto header = std::find_if(rows.begin(), rows.end(), [](const std::string& row) {
    return row.starts_with("ev  ") && contains(row, " Q.c ") && contains(row, " Q.bp ");
  });
  REQUIRE(header != rows.end());
  // The quote follows, its condition under Q.c.
  REQUIRE(std::next(header) != rows.end());
  const std::string& quote = *std::next(header);
  REQUIRE(quote.starts_with("Q "));
  CHECK(quote.substr(header->find(" Q.c ") + 1, 3) == "604");
}

// Seen failing with the prefix check bypassed (an unknown prefix taken as the market's first
// channel, stream_command.cpp): the CLI went on to connect to port 1, reconnecting until the test
// was killed (SIGTERM after 60 s), instead of exit 2.
TEST_CASE("stream: a prefix the description lacks for the market is refused before connecting") {
  // Nothing listens on port 1: a connection attempt would be exit 4.
  const std::vector<std::string> nowhere = {"--url", "wss://127.0.0.1:1/stocks"};
  const run_result r = run_cli(args_with({"stream", "stocks", "X.AAPL"}, nowhere), stream_key);
  CHECK(r.exit_code == 2);
  CAPTURE(r.err);
  CHECK(contains(r.err, "no channel 'X' on stocks"));
  const run_result typo = run_cli(args_with({"stream", "crypto", "XTT.BTC-USD"}, nowhere), stream_key);
  CHECK(typo.exit_code == 2);
  CHECK(contains(typo.err, "did you mean XT?"));
  // The business and launchpad channels are in the newer stream descriptions only.
#if __has_include(<massive/models/stock_fmv_event.hpp>)
  const run_result business = run_cli(args_with({"stream", "stocks", "FMV.AAPL"}, nowhere), stream_key);
  CHECK(business.exit_code == 2);
  CHECK(contains(business.err, "--feed business"));
#endif
#if __has_include(<massive/models/stock_launchpad_value_event.hpp>)
  // A Launchpad channel is refused without --channels launchpad, and streamed with it (the
  // mock serves the Launchpad value channel). Seen failing before --channels existed (the
  // binary of 9ce5fdd): "massive stream: unknown flag '--channels'", exit 2.
  const run_result launchpad = run_cli(args_with({"stream", "stocks", "LV.AAPL"}, nowhere), stream_key);
  CHECK(launchpad.exit_code == 2);
  CHECK(contains(launchpad.err, "--channels launchpad"));
  const run_result value = run_cli(
      {"stream", "stocks", "LV.AAPL", "--channels", "launchpad", "--mock", "--count", "1", "-f", "jsonl"}, stream_key);
  CAPTURE(value.err);
  CHECK(value.exit_code == 0);
  CHECK(contains(value.out, "\"ev\":\"LV\""));
#endif
  CHECK(run_cli({"stream", "stocks", "T.AAPL", "--count", "0"}, stream_key).exit_code == 2);
  CHECK(run_cli({"stream", "stocks", "T.AAPL", "--feed", "moon"}, stream_key).exit_code == 2);
  // A topic that is not <prefix>.<ticker>, directly and through a relay (whose NATS URL is never
  // reached). Seen failing with split_topics() accepting an empty ticker: "T." was exit 4, a
  // connection tried to port 1; through the relay the consumer's own check still refused it.
  for (const char* list : {"T.AAPL,Q", "T.", ".AAPL"}) {
    const run_result bad = run_cli(args_with({"stream", "stocks", list}, nowhere), stream_key);
    CAPTURE(bad.err);
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "a topic is <prefix>.<ticker>"));
#ifdef MASSIVE_CLI_WITH_RELAY
    const run_result via = run_cli({"stream", "stocks", list, "--via", "nats://127.0.0.1:1"}, stream_key);
    CAPTURE(via.err);
    CHECK(via.exit_code == 2);
    CHECK(contains(via.err, "a topic is <prefix>.<ticker>"));
#endif
  }
}

// The hang that no longer happens: the server drops a topic it does not serve without a word.
// Seen failing with the acknowledgement watch returning at once (stream_command.cpp): the CLI
// waited, silent, until the test was killed (SIGTERM after 60 s).
TEST_CASE("stream: a topic the server does not acknowledge is exit 3, not a silent wait") {
  stream_target quiet({.unserved_prefixes = {"Q"}});
  const run_result r =
      run_cli(args_with({"stream", "stocks", "Q.AAPL", "--ack-timeout", "1", "--count", "1"}, quiet.flags()), stream_key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "did not acknowledge Q.AAPL within 1000 ms"));
  CHECK(r.out == "");
}

// A stream that cannot start ends rather than retrying for ever: a server whose certificate is
// not the one trusted (the SDK reconnects without end; the CLI, never authenticated, gives up
// after three attempts), and a port nothing listens on. Seen failing with the CLI's count of
// failed starts not ending it (stream_command.cpp's end_with in the trace hook): the CLI
// reconnected, naming the certificate each time, until the test was killed ("test case
// CRASHED: SIGTERM", timeout 20).
TEST_CASE("stream: a stream that fails three times before authenticating is exit 4, naming the failure") {
  stream_target target;
  const pem_file other(massive::mock::make_self_signed(massive::mock::loopback_names()).certificate);
  const run_result untrusted = run_cli(
      {"stream", "stocks", "T.AAPL", "--count", "1", "--url", target.server.url("stocks"), "--ca-file", other.path},
      stream_key);
  CAPTURE(untrusted.err);
  CHECK(untrusted.exit_code == 4);
  CHECK(contains(untrusted.err, "massive stream: no stream after 3 attempts, none authenticated; the last: connecting to "
                                "127.0.0.1: "));
  CHECK(contains(untrusted.err, "(certificate: "));
  CHECK(target.server.connections() == 0);
  const run_result nowhere = run_cli({"stream", "stocks", "T.AAPL", "--url", "wss://127.0.0.1:1/stocks"}, stream_key);
  CAPTURE(nowhere.err);
  CHECK(nowhere.exit_code == 4);
  CHECK(contains(nowhere.err, "massive stream: no stream after 3 attempts, none authenticated; the last: "));
}

// Seen failing with --url ignored (options.url not set from it): the CLI connected to the real
// feed's host instead (none reachable here) and reconnected until the test was killed (SIGTERM);
// with the headers not copied into stream_config: "CHECK( openings[0].upgrade.header("X-Tenant")
// == "acme" ) values: CHECK(  == acme )".
TEST_CASE("stream: --url, --ca-file and -H as the REST command spells them") {
  stream_target target;
  const run_result r = run_cli(args_with({"stream", "stocks", "T.AAPL", "--count", "2", "-H", "X-Tenant: acme", "-f", "jsonl"},
                                         target.flags()),
                               stream_key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 2);
  const auto openings = target.server.openings();
  REQUIRE(openings.size() == 1);
  CHECK(openings[0].upgrade.header("X-Tenant") == "acme");
  CHECK(run_cli(args_with({"stream", "stocks", "T.AAPL", "--header", "no-colon"}, target.flags()), stream_key).exit_code == 2);
}

// Seen failing with the trace hook removed (options.trace = nullptr, stream_command.cpp): "CHECK(
// contains(r.err, "slow_consumer") ) is NOT correct!", stderr holding only "gap: ... (frames
// dropped)", the cause unknown.
TEST_CASE("stream: a reconnect and the gap it leaves are reported on stderr with their cause") {
  stream_target target;
  target.server.script({{.fault = massive::mock::stream_fault::slow_consumer, .after_frames = 2}});
  const run_result r =
      run_cli(args_with({"stream", "stocks", "T.AAPL", "--count", "20", "-f", "jsonl"}, target.flags()), stream_key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 20);
  CHECK(contains(r.err, "slow_consumer"));
  CHECK(contains(r.err, "massive stream: gap: events may be missing before the next one"));
  CHECK(target.server.connections() == 2);
}

// An event type this build's description lacks (one the API added since, say) is skipped by the
// frame decoder; the CLI says so once. Seen failing before stream::client delivered a frame of
// skipped events alone (client.cpp's read_next): stderr empty, the events gone unseen.
TEST_CASE("stream: events of a type the channels do not carry are skipped, and said once") {
  stream_target target;
  target.server.script({{.fault = massive::mock::stream_fault::frame,
                         .after_frames = 1,
                         .frame = R"([{"ev":"ZZ","sym":"AAPL","x":1},{"ev":"ZZ","sym":"MSFT"}])"}});
  const run_result r =
      run_cli(args_with({"stream", "stocks", "T.AAPL", "--count", "12", "-f", "jsonl"}, target.flags()), stream_key);
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 12);
  CHECK_FALSE(contains(r.out, "ZZ"));
  CHECK(contains(r.err, "massive stream: skipping events of a type the market channels do not carry (2 in this frame;"));
  CHECK(r.err.find("skipping") == r.err.rfind("skipping"));
}

// Seen failing with the help's channel loop over no channel: "CHECK( contains(r.out, "\n    " +
// std::string(c.prefix) + " ") ) is NOT correct!" for every prefix.
TEST_CASE("stream --help: the markets, each market's prefixes from the stream description, examples") {
  const run_result r = run_cli({"stream", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.err == "");
  for (const massive::stream::channel_info& c : massive::stream::channel_table) {
    CAPTURE(c.prefix);
    CHECK(contains(r.out, "\n  " + std::string(massive::stream::market_path(c.market)) + "\n"));
    CHECK(contains(r.out, "\n    " + std::string(c.prefix) + " "));
  }
  CHECK(contains(r.out, "examples:"));
  CHECK(contains(r.out, "--ack-timeout"));
  CHECK(run_cli({"stream", "stocks", "T.AAPL", "-h"}).out == r.out);
}

// Seen failing with the `stream` branch removed from _massive_candidates (completion.cpp): the
// markets, the prefixes and --ack-timeout not offered (the four first checks NOT correct).
TEST_CASE("completion after stream: markets, their prefixes, the stream's flags") {
  CHECK(completions("massive stream ") ==
        words{"--help", "crypto", "forex", "futures", "indices", "options", "stocks"});
  words prefixes;
  for (const massive::stream::channel_info& c : massive::stream::channel_table) {
    const std::string word = std::string(c.prefix) + ".";
    if (c.market == massive::stream::market::stocks && std::find(prefixes.begin(), prefixes.end(), word) == prefixes.end()) {
      prefixes.push_back(word);
    }
  }
  std::sort(prefixes.begin(), prefixes.end());
  CHECK(completions("massive stream stocks ") == prefixes);
  CHECK(completions("massive stream crypto X") == words{"XA.", "XAS.", "XL2.", "XQ.", "XT."});
  CHECK(completions("massive stream stocks T.AAPL --a") == words{"--ack-timeout"});
  CHECK(completions("massive stream stocks T.AAPL --feed del") == words{"delayed", "delayed-business"});
  CHECK(completions("massive stream stocks T.AAPL -f j") == words{"json", "jsonl"});
}

/// The example body the description gives for `path`'s answer 200, as compact JSON.
std::string description_example(const std::string& path) {
  simdjson::dom::parser parser;
  const simdjson::dom::element spec = parser.load(MASSIVE_SOURCE_DIR "/spec/massive-openapi.json");
  const simdjson::dom::element example =
      spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["example"];
  return simdjson::minify(example);
}

// Truth from the description's own example of an indicator's answer with expand_underlying (the
// mock sends no bars). Seen failing with the results_values branch of print_envelope writing no
// underlying: "THREW exception: The JSON field referenced does not exist in this object." at
// body["results"]["underlying"]["url"].
TEST_CASE("--envelope: the page as the API's object, an indicator's underlying decoded") {
  const std::string sent = description_example(route_of("stocks", "sma"));
  scripted_server api({.headers = {{"Content-Type", "application/json"}}, .body = sent});
  const run_result r = run_cli(
      args_with({"stocks", "sma", "-p", "stockTicker=AAPL", "-p", "expand_underlying=true", "--envelope"}, api.flags()), key);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(lines_of(r.out).size() == 1);
  simdjson::dom::parser sent_parser, printed_parser;
  const simdjson::dom::element wire = sent_parser.parse(sent);
  const simdjson::dom::element body = printed_parser.parse(r.out);
  CAPTURE(r.out);
  CHECK(std::string_view(body["status"]) == std::string_view(wire["status"]));
  CHECK(std::string_view(body["request_id"]) == std::string_view(wire["request_id"]));
  CHECK(std::string_view(body["next_url"]) == std::string_view(wire["next_url"]));
  CHECK(simdjson::dom::array(body["results"]["values"]).size() == simdjson::dom::array(wire["results"]["values"]).size());
  CHECK(double(body["results"]["values"].at(0)["value"]) == double(wire["results"]["values"].at(0)["value"]));
  CHECK(std::string_view(body["results"]["underlying"]["url"]) == std::string_view(wire["results"]["underlying"]["url"]));
  const simdjson::dom::array bars = body["results"]["underlying"]["aggregates"];
  const simdjson::dom::array wire_bars = wire["results"]["underlying"]["aggregates"];
  REQUIRE(wire_bars.size() == 2);
  REQUIRE(bars.size() == wire_bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    for (const char* k : {"c", "h", "l", "o", "vw", "v"}) CHECK(double(bars.at(i)[k]) == double(wire_bars.at(i)[k]));
    CHECK(std::int64_t(bars.at(i)["t"]) == std::int64_t(wire_bars.at(i)["t"]));
    CHECK(std::int64_t(bars.at(i)["n"]) == std::int64_t(wire_bars.at(i)["n"]));
  }
  // Decoded into the model and written by its writer, in the model's key order, not the wire's.
  CHECK(contains(r.out, R"("aggregates":[{"vw":74.6099,"t":1577941200000,"c":75.0875,)"));
  // Without --envelope the rows print and the part left out is named on stderr.
  scripted_server rows_api({.headers = {{"Content-Type", "application/json"}}, .body = sent});
  const run_result rows = run_cli(
      args_with({"stocks", "sma", "-p", "stockTicker=AAPL", "-p", "expand_underlying=true", "-f", "jsonl"}, rows_api.flags()),
      key);
  CHECK(rows.exit_code == 0);
  CHECK(lines_of(rows.out).size() == 1);
  CHECK(contains(rows.err, "--envelope prints them whole"));
  CHECK(run_cli({"stocks", "sma", "--mock", "-p", "stockTicker=AAPL", "--envelope", "-f", "csv"}).exit_code == 2);
}

// The underlying's aggregates are decoded like any rows: what they leave out is reported and
// counted as the page's, and an underlying written twice is refused (parsers disagree on which
// one counts). Seen failing with print_envelope's leniency dropped, as before: "CHECK(
// contains(r.err, "results.underlying.aggregates[0].c") )" with nothing on stderr and exit 0
// under --strict; with split_underlying's find_field_unordered: exit 0, the first kept.
TEST_CASE("--envelope: the underlying's leniency is reported, and an underlying twice is an error") {
  const std::string bar = R"({"c":"x","h":1,"l":1,"o":1,"t":1577941200000,"v":1})";
  const std::string underlying = R"("underlying":{"url":"https://api.massive.com/v2/aggs/x","aggregates":[)" + bar + "]}";
  const std::string values = R"("values":[{"timestamp":1577941200000,"value":1.5}])";
  const auto run = [&](const std::string& results, std::vector<std::string> more) {
    scripted_server api({.headers = {{"Content-Type", "application/json"}},
                         .body = R"({"status":"OK","request_id":"r","results":{)" + results + "}}"});
    more.insert(more.begin(), {"stocks", "sma", "-p", "stockTicker=AAPL", "-p", "expand_underlying=true", "--envelope"});
    return run_cli(args_with(more, api.flags()), key);
  };
  const run_result lenient = run(underlying + "," + values, {});
  CAPTURE(lenient.err);
  CHECK(lenient.exit_code == 0);
  CHECK(contains(lenient.err, "results.underlying.aggregates[0].c"));
  CHECK(run(underlying + "," + values, {"--strict"}).exit_code == 6);
  const run_result twice = run(underlying + "," + underlying + "," + values, {});
  CAPTURE(twice.err);
  CHECK(twice.exit_code == 5);
  CHECK(contains(twice.err, "results.underlying"));
  CHECK(contains(twice.err, "duplicate key"));
}

// Seen failing with next_url left out of print_envelope: "CHECK( (page["next_url"].error() ==
// simdjson::SUCCESS) == (i + 1 < pages.size()) ) values: CHECK( false == true )" for pages 1 and 2.
TEST_CASE("--envelope --all-pages: one object per page, JSON Lines, next_url until the last") {
  const run_result r = run_cli({"reference", "tickers", "--mock", "-p", "limit=7", "--all-pages", "--envelope"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const auto pages = lines_of(r.out);
  REQUIRE(pages.size() == 3);
  for (std::size_t i = 0; i < pages.size(); ++i) {
    CAPTURE(pages[i]);
    simdjson::dom::parser parser;
    const simdjson::dom::element page = parser.parse(pages[i]);
    CHECK(simdjson::dom::array(page["results"]).size() == 7);
    CHECK(std::string_view(page["status"]) == "OK");
    CHECK((page["next_url"].error() == simdjson::SUCCESS) == (i + 1 < pages.size()));
  }
}

// Every operation's help, one run of the CLI each (the help of all operations is checked in one
// loop: each run costs a process start, about 140 of them under the sanitizers).
// Seen failing with example_value() ignoring p.example (help.cpp): "CHECK( contains(trades.out,
// "massive stocks trades -p stockTicker=AAPL --all-pages -f table") ) is NOT correct!" and the
// loop's check for every operation with an example.
TEST_CASE("help: every operation's help names its route, each parameter and its type, and an example with "
          "the description's values") {
  const run_result trades = run_cli({"stocks", "trades", "--help"});
  CHECK(contains(trades.out, "massive stocks trades -p " + path_name("stocks", "trades", "stockTicker") +
                                 "=AAPL --all-pages -f table"));
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    CAPTURE(e.group);
    CAPTURE(e.name);
    const run_result r = run_cli({std::string(e.group), std::string(e.name), "--help"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "GET " + std::string(e.path)));
    const std::size_t example_at = r.out.find("\nexample:\n");
    REQUIRE(example_at != std::string::npos);
    const std::string example = r.out.substr(example_at);
    for (const massive::reflection::parameter_info& p : e.parameters) {
      CAPTURE(p.wire);
      CHECK(contains(r.out, "\n  " + std::string(p.wire) + "  "));
      for (std::string_view v : p.values) CHECK(contains(r.out, std::string(v)));
      if (!p.required || p.example.empty() || p.example.find_first_of(" '\"") != std::string_view::npos) continue;
      CHECK(contains(example, " -p " + std::string(p.wire) + "=" + std::string(p.example)));
    }
  }
}

// Seen failing with the object's key not pushed onto the collector's prefix (on_begin_object,
// output.cpp): nested names missing from the header, "REQUIRE( csv.exit_code == 0 ) values:
// REQUIRE( 5 == 0 )".
TEST_CASE("csv from the typed rows: nested objects as dotted columns, as the JSON has them") {
  const std::vector<std::string> snapshot = {"stocks", "snapshot_ticker", "--mock", "-p", "stocksTicker=AAPL"};
  const run_result json = run_cli(args_with(snapshot, {"-f", "jsonl"}));
  const run_result csv = run_cli(args_with(snapshot, {"-f", "csv"}));
  REQUIRE(json.exit_code == 0);
  REQUIRE(csv.exit_code == 0);
  const auto rows = lines_of(json.out), lines = lines_of(csv.out);
  REQUIRE(rows.size() == 1);
  REQUIRE(lines.size() == 2);
  const auto header = csv_cells(lines[0]), cells = csv_cells(lines[1]);
  REQUIRE(header.size() == cells.size());
  simdjson::dom::parser parser;
  const simdjson::dom::element row = parser.parse(rows[0]);
  std::size_t compared = 0;
  for (const char* object : {"day", "lastQuote", "lastTrade", "min", "prevDay"}) {
    for (const char* field : {"c", "o", "p", "s"}) {
      double value = 0;
      if (row["ticker"][object][field].get(value) != simdjson::SUCCESS) continue;
      const std::string name = std::string("ticker.") + object + "." + field;
      CAPTURE(name);
      const auto at = std::find(header.begin(), header.end(), name);
      REQUIRE(at != header.end());
      CHECK(std::stod(cells[static_cast<std::size_t>(at - header.begin())]) == value);
      ++compared;
    }
  }
  CHECK(compared >= 5);
}

// A flat file's row whose values do not parse is left out, as a call's are, and said on stderr.
// Seen failing with print_rows printing the pages alone, as before: nothing on stderr, exit 0,
// a row gone without a word (a probe's hostile S3 server).
TEST_CASE("files rows: rows left out of a file are said on stderr, naming the first one's line") {
  massive::mock::s3_bucket bucket;
  massive::mock::server server{{.tls = false}};
  server.respond_with(bucket.responder());
  const std::string key = "us_stocks_sip/day_aggs_v1/2024/01/2024-01-12.csv.gz";
  bucket.put(key, massive::mock::gzip_compress("ticker,volume,open,close,high,low,window_start,transactions\n"
                                               "AAPL,100,1.5,2.5,3.5,0.5,1705035600000000000,7\n"
                                               "MSFT,1e999,abc,2.5,3.5,0.5,notatime,7\n"));
  const run_result r = run_cli(
      {"files", "rows", "stocks", "day_aggs", "2024-01-12", "-f", "jsonl", "--endpoint", server.base_url()},
      {"MASSIVE_S3_ACCESS_KEY=" + bucket.options().access_key, "MASSIVE_S3_SECRET_KEY=" + bucket.options().secret_key});
  CAPTURE(r.err);
  CHECK(r.exit_code == 0);
  CHECK(lines_of(r.out).size() == 1);
  CHECK(contains(r.out, "AAPL"));
  CHECK(contains(r.err, "massive files: 1 row left out"));
  CHECK(contains(r.err, "the first at line 3 of " + key));
}

TEST_CASE("files ls: a key's control characters do not reach the terminal") {
  // A listing whose key carries an OSC sequence (set the terminal's title) and a line feed.
  const std::string key = "us_stocks_sip/trades_v1/2024/01/\x1b]0;pwned\x07\n2024-01-12.csv.gz";
  massive::mock::server server{{.tls = false}};
  server.enqueue({.headers = {{"Content-Type", "application/xml"}},
                  .body = "<ListBucketResult><Name>flatfiles</Name><IsTruncated>false</IsTruncated>"
                          "<Contents><Key>" + key + "</Key><Size>2048</Size><ETag>\"e\"</ETag>"
                          "</Contents></ListBucketResult>"});
  const run_result r =
      run_cli({"files", "ls", "stocks", "trades", "2024-01", "--endpoint", server.base_url()},
              {"MASSIVE_S3_ACCESS_KEY=cli-test", "MASSIVE_S3_SECRET_KEY=cli-test-secret"});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  // Seen failing with the key printed as it came: the ESC, BEL and line feed on stdout.
  CHECK_FALSE(contains(r.out, "\x1b"));
  CHECK_FALSE(contains(r.out, "\x07"));
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  CHECK(contains(r.out, "us_stocks_sip/trades_v1/2024/01/\xEF\xBF\xBD]0;pwned"));
}
