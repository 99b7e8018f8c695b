// `massive files ls|get|rows`: the flat files (bulk history over S3, massive/files/client.hpp).
//   massive files ls <market> <dataset> [YYYY | YYYY-MM]      years, months, or a month's files
//   massive files get <market> <dataset> <YYYY-MM-DD> [-o FILE] the compressed file, as is
//   massive files rows <market> <dataset> <from> [<to>] [--ticker T]... [--format F]
// Common flags: --endpoint URL (default https://files.massive.com), --mock (an in-process bucket
// of the mock market). Keys: MASSIVE_S3_ACCESS_KEY and MASSIVE_S3_SECRET_KEY (or the AWS ones).
#include <unistd.h>

#include <boost/asio.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <massive/files/client.hpp>
#include <massive/json_writer.hpp>
#include <massive/reflection/field_visitor.hpp>
#include <massive/mock/s3.hpp>
#include <massive/mock/server.hpp>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace massive::cli {
namespace {

namespace asio = boost::asio;
using files::dataset;
using files::market;

constexpr std::string_view files_usage_text =
    "usage: massive files ls <market> <dataset> [YYYY | YYYY-MM] [flags]\n"
    "       massive files get <market> <dataset> <YYYY-MM-DD> [-o FILE] [flags]\n"
    "       massive files rows <market> <dataset> <from> [<to>] [--ticker T]... [--format "
    "json|jsonl|csv|table] "
    "[flags]\n"
    "  markets: stocks, options, indices, forex, crypto; datasets: trades, quotes, minute_aggs, "
    "day_aggs\n"
    "  flags: --endpoint URL, --mock (an in-process bucket of the mock market)\n"
    "  keys: MASSIVE_S3_ACCESS_KEY and MASSIVE_S3_SECRET_KEY (or AWS_ACCESS_KEY_ID and "
    "AWS_SECRET_ACCESS_KEY)\n";

int files_usage(std::string_view problem) {
  std::cerr << "massive files: " << problem << "\n" << files_usage_text;
  return exit_usage;
}

/// An aggregate's fields after its ticker, to a json_writer or a field_visitor (a file's bar
/// has a type of its own, with window_start in nanoseconds, and no generated writer).
template <class Sink>
void aggregate_fields(Sink& out, const files::aggregate& row) {
  out.field("volume", row.volume);
  out.field("open", row.open);
  out.field("close", row.close);
  out.field("high", row.high);
  out.field("low", row.low);
  out.field("window_start", row.window_start);
  out.field("transactions", row.transactions);
}

/// A row's fields, the ticker first, then the model's.
template <class Row>
void visit_file_row(reflection::field_visitor& v, const void* rows, std::size_t index) {
  const Row& row = static_cast<const Row*>(rows)[index];
  v.field("ticker", row.ticker);
  if constexpr (std::is_same_v<Row, files::aggregate>) {
    aggregate_fields(v, row);
  } else {
    visit_fields(v, static_cast<const typename Row::model_type&>(row));
  }
}

/// A row as one JSON object, the ticker first: the model's generated writer's object, with the
/// ticker put in front of its fields.
template <class Row>
void write_file_row(json_writer& w, const void* rows, std::size_t index) {
  const Row& row = static_cast<const Row*>(rows)[index];
  thread_local std::string text;  // kept from row to row: no allocation per row
  thread_local std::string fields;
  text.clear();
  fields.clear();
  json_writer object(text);
  object.begin_object();
  object.field("ticker", row.ticker);
  object.end_object();
  json_writer model(fields);
  if constexpr (std::is_same_v<Row, files::aggregate>) {
    model.begin_object();
    aggregate_fields(model, row);
    model.end_object();
  } else {
    write_json(model, static_cast<const typename Row::model_type&>(row));
  }
  // {"ticker":"X"} and {"a":1,...} make {"ticker":"X","a":1,...}.
  if (fields.size() > 2) {
    text.pop_back();
    text += ',';
    text.append(fields, 1);
  }
  w.value(json_value(text));
}

template <class Row>
constexpr reflection::row_functions file_row_functions{&write_file_row<Row>, &visit_file_row<Row>, nullptr};

struct session {
  std::unique_ptr<mock::s3_bucket> bucket;
  std::unique_ptr<mock::server> server;
  files::files_config config;
};

/// The rows of the days from `first` to `last`, printed page by page.
template <class Row>
asio::awaitable<void> print_rows(files::client& client, market m, dataset d,
                                 std::chrono::year_month_day first,
                                 std::chrono::year_month_day last, files::traversal_options options,
                                 output_format format) {
  const std::vector<files::object_info> days = co_await client.days(m, d, first, last);
  if (days.empty()) std::cerr << "massive files: no file for these days\n";
  const Row blank{};
  const reflection::row_functions& functions = file_row_functions<Row>;
  const std::unique_ptr<row_printer> printer =
      make_printer(format, std::cout, columns_of(functions, &blank), false);
  auto reader = client.read_days<Row>(days, std::move(options));
  std::uint64_t dropped = 0;
  std::string first_dropped;  // "line L of <key>"
  while (auto page = co_await reader.next()) {
    const Row* rows = page->begin();
    printer->page(rows, page->size(), functions);
    if (page->stats().dropped_rows == 0) continue;
    if (dropped == 0 && page->stats().first_dropped_line) {
      // The page came from the file being read: those before it are done.
      first_dropped = "line " + std::to_string(*page->stats().first_dropped_line) + " of " +
                      terminal_safe(reader.files()[reader.files_done()].key, 256);
    }
    dropped += page->stats().dropped_rows;
  }
  printer->finish();
  // As a call's lossy pages are: said on stderr, the rows that could be read printed.
  if (dropped != 0) {
    std::cerr << "massive files: " << dropped << (dropped == 1 ? " row" : " rows")
              << " left out (a needed field empty or not a value of its column)"
              << (first_dropped.empty() ? std::string() : ", the first at " + first_dropped) << "\n";
  }
}

template <class Row>
using row_tag = std::type_identity<Row>;

/// Calls `run` with the row type of `d` in `m`, or returns false when the market has no such
/// dataset here (indices have no ticks; a dataset whose REST model the description lacks has no
/// row type: massive/files/rows.hpp).
template <class Run>
bool with_row_type(market m, dataset d, Run&& run) {
  if (d == dataset::minute_aggs || d == dataset::day_aggs) return run(row_tag<files::aggregate>{}), true;
  return [&]<class... Rows>(files::row_type_list<Rows...>) {
    const auto is = [&](auto traits) { return traits.market == m && traits.dataset == d; };
    return ((is(files::row_traits<Rows>{}) && (run(row_tag<Rows>{}), true)) || ...);
  }(files::tick_row_types{});
}

std::string human_size(std::uint64_t bytes) {
  char out[32];
  if (bytes >= (1u << 20)) {
    std::snprintf(out, sizeof out, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(out, sizeof out, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return out;
}

}  // namespace

int files_command(std::span<const std::string_view> words) {
  if (words.empty() || words[0] == "--help") return files_usage("name a command: ls, get or rows");
  const std::string_view verb = words[0];
  if (verb != "ls" && verb != "get" && verb != "rows")
    return files_usage("no command '" + std::string(verb) + "'");
  std::vector<std::string_view> positional;
  std::string output_path;
  output_format format = output_format::jsonl;
  files::traversal_options traversal;
  session s;
  bool mock = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_value = i + 1 < words.size();
    if (w == "--mock") {
      mock = true;
    } else if (w == "--endpoint" && has_value) {
      s.config.endpoint = words[++i];
    } else if (w == "--ticker" && has_value) {
      traversal.decode.filter.tickers.emplace_back(words[++i]);
    } else if ((w == "-o" || w == "--output") && has_value) {
      output_path = words[++i];
    } else if ((w == "--format" || w == "-f") && has_value) {
      const std::string_view v = words[++i];
      if (v == "json")
        format = output_format::json;
      else if (v == "jsonl")
        format = output_format::jsonl;
      else if (v == "csv")
        format = output_format::csv;
      else if (v == "table")
        format = output_format::table;
      else
        return files_usage("--format is one of json, jsonl, csv, table; not '" + std::string(v) +
                           "'");
    } else if (w.starts_with("-")) {
      return files_usage("unknown or incomplete flag '" + std::string(w) + "'");
    } else {
      positional.push_back(w);
    }
  }
  if (positional.size() < 2) return files_usage("name a market and a dataset");
  const auto m = files::parse_market(positional[0]);
  if (!m) return files_usage("no market '" + std::string(positional[0]) + "'");
  const auto d = files::parse_dataset(positional[1]);
  if (!d) return files_usage("no dataset '" + std::string(positional[1]) + "'");
  if (mock) {
    s.bucket = std::make_unique<mock::s3_bucket>();
    s.server = std::make_unique<mock::server>();
    s.server->respond_with(s.bucket->responder());
    s.config.endpoint = s.server->base_url();
    s.config.access_key = s.bucket->options().access_key;
    s.config.secret_key = s.bucket->options().secret_key;
    s.config.transport.tls.ca_pem = s.server->certificate_pem();
  }

  asio::io_context io;
  // Rows: the transfers and the inflation on a second thread, the decoding and the printing on
  // this one (files_config::inflate_ahead), where the machine has a second core.
  asio::io_context transfers;
  auto transfers_work = asio::make_work_guard(transfers);
  std::thread transfer_thread;
  const bool two_threads = verb == "rows" && std::thread::hardware_concurrency() > 1;
  if (two_threads) {
    s.config.inflate_ahead = 4;
    transfer_thread = std::thread([&transfers] { transfers.run(); });
  }
  int status = exit_done;
  auto work = [&]() -> asio::awaitable<void> {
    files::client client(two_threads ? transfers.get_executor() : io.get_executor(), s.config);
    if (verb == "ls") {
      std::string prefix = files::dataset_prefix(*m, *d);
      if (positional.size() > 2) {
        const std::string_view when = positional[2];
        if (when.size() != 4 && when.size() != 7)
          throw std::invalid_argument("ls takes YYYY or YYYY-MM");
        prefix += std::string(when.substr(0, 4)) + "/";
        if (when.size() == 7) prefix += std::string(when.substr(5, 2)) + "/";
      }
      if (positional.size() > 2 && positional[2].size() == 7) {
        // Keys are the server's text: a control character in one would act on the terminal.
        for (const files::object_info& o : co_await client.list(prefix)) {
          std::cout << terminal_safe(o.key) << "  " << human_size(o.size) << "\n";
        }
      } else {
        for (const std::string& folder : co_await client.list_folders(prefix)) {
          std::cout << terminal_safe(folder) << "\n";
        }
      }
      co_return;
    }
    if (positional.size() < 3) throw std::invalid_argument("name a day (YYYY-MM-DD)");
    const auto first = parse_date(positional[2]);
    const auto last = positional.size() > 3 ? parse_date(positional[3]) : first;
    if (!first || !last) throw std::invalid_argument("days are YYYY-MM-DD");
    if (verb == "get") {
      const files::object_info file = co_await client.stat(files::file_key(*m, *d, *first));
      if (output_path.empty()) output_path = file.key.substr(file.key.rfind('/') + 1);
      // Written as <name>.part and renamed once whole: a failed transfer leaves no file that
      // looks complete.
      const std::string partial = output_path + ".part";
      std::ofstream out(partial, std::ios::binary);
      if (!out) throw std::runtime_error("cannot write " + partial);
      progress_line progress(progress_line::shown_for(true));
      const std::uint64_t got =
          co_await client.fetch(file, 0, file.size, [&](std::span<const char> piece) {
            out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            progress.received(piece.size());
            progress.page(0);
          });
      progress.finish();
      if (!out.flush()) throw std::runtime_error("cannot write " + partial);
      out.close();
      std::error_code renamed;
      std::filesystem::rename(partial, output_path, renamed);
      if (renamed) throw std::runtime_error("cannot rename " + partial + " to " + output_path);
      std::cerr << output_path << ": " << got << " bytes\n";
      co_return;
    }
    bool known = false;
    asio::awaitable<void> rows{};
    known = with_row_type(*m, *d, [&](auto tag) {
      using Row = typename decltype(tag)::type;
      rows = print_rows<Row>(client, *m, *d, *first, *last, traversal, format);
    });
    if (!known) throw std::invalid_argument("the market has no such dataset");
    co_await std::move(rows);
  };
  asio::co_spawn(io, work(), [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::invalid_argument& failure) {
      status = files_usage(failure.what());
    } catch (const files::files_error& failure) {
      std::cerr << "massive files: " << terminal_safe(failure.what(), max_message_bytes) << "\n";
      const bool refused = failure.code() == files::files_errc::access_denied ||
                           failure.code() == files::files_errc::not_found ||
                           failure.code() == files::files_errc::no_credentials;
      status = refused ? exit_api : exit_decode;
    } catch (const api_error& failure) {
      std::cerr << "massive files: " << terminal_safe(failure.what(), max_message_bytes) << "\n";
      status = exit_api;
    } catch (const std::exception& failure) {
      std::cerr << "massive files: " << terminal_safe(failure.what(), max_message_bytes) << "\n";
      status = exit_transport;
    }
  });
  io.run();
  transfers_work.reset();
  if (transfer_thread.joinable()) transfer_thread.join();
  return status;
}

}  // namespace massive::cli
