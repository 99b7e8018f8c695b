// massive: calls any operation of the API by group and name and prints the decoded rows.
//
//   massive stocks trades --param stockTicker=AAPL --param timestamp.gte=2024-01-02 --all-pages
//   massive stocks aggregates --param stocksTicker=AAPL --param multiplier=1
//       --param timespan=day --param from=2024-01-02 --param to=2024-01-12 --format table
//   massive --list
//
// Parameters use the description's names (path parameters by their route name, comparators
// dotted, lists comma-separated); rows are decoded by the generated model and printed through
// the generated JSON writers as JSON (one array), CSV or an aligned table. Against the real
// API the key comes from MASSIVE_API_KEY; --base-url and --ca-file point it elsewhere, and
// --mock starts the embedded mock API (massive::mock::api_server, every operation) in the
// process. Exit codes: 0 done, 2 bad usage or arguments, 3 the API answered with an error,
// 4 transport failure, 5 a body that does not decode.
#include <massive/client.hpp>
#include <massive/error.hpp>
#include <massive/mock/api_server.hpp>
#include <massive/operation_table.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace asio = boost::asio;

int usage(const char* problem) {
  std::cerr << "massive: " << problem << "\n"
            << "usage: massive <group> <operation> [--param key=value]... [--all-pages] [--max-pages N]\n"
            << "               [--format json|csv|table] [--base-url URL] [--ca-file PEM] [--mock]\n"
            << "       massive --list\n";
  return 2;
}

/// A cell's text: strings as they are, everything else as compact JSON.
std::string cell(simdjson::dom::element value) {
  std::string_view text;
  if (value.get_string().get(text) == simdjson::SUCCESS) return std::string(text);
  return std::string(simdjson::minify(value));
}

std::string csv_quoted(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// Collects rows and prints them in the chosen format; JSON streams, CSV and table need every
/// row's keys, so they print at the end.
class printer {
 public:
  explicit printer(std::string format) : format_(std::move(format)) {}

  void page(std::string_view rows_json) {
    simdjson::dom::element rows;
    if (parser_.parse(rows_json).get(rows) != simdjson::SUCCESS) return;
    const simdjson::dom::array list = rows.get_array().value_unsafe();
    for (simdjson::dom::element row : list) {
      if (format_ == "json") {
        std::cout << (first_ ? "[" : ",\n") << simdjson::minify(row);
        first_ = false;
        continue;
      }
      std::vector<std::pair<std::string, std::string>> cells;
      const simdjson::dom::object object = row.get_object().value_unsafe();
      for (auto [key, value] : object) {
        const std::string name(key);
        if (std::find(columns_.begin(), columns_.end(), name) == columns_.end()) columns_.push_back(name);
        cells.emplace_back(name, cell(value));
      }
      table_.push_back(std::move(cells));
    }
  }

  void finish() {
    if (format_ == "json") {
      std::cout << (first_ ? "[]\n" : "]\n");
      return;
    }
    std::vector<std::vector<std::string>> grid;
    grid.push_back(columns_);
    for (const auto& cells : table_) {
      std::vector<std::string> line(columns_.size());
      for (const auto& [key, text] : cells) {
        line[std::find(columns_.begin(), columns_.end(), key) - columns_.begin()] = text;
      }
      grid.push_back(std::move(line));
    }
    std::vector<std::size_t> width(columns_.size(), 0);
    for (const auto& line : grid) {
      for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
    }
    for (const auto& line : grid) {
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (format_ == "csv") {
          std::cout << (i ? "," : "") << csv_quoted(line[i]);
        } else {
          std::cout << (i ? "  " : "") << line[i] << std::string(width[i] - line[i].size(), ' ');
        }
      }
      std::cout << "\n";
    }
  }

 private:
  std::string format_;
  simdjson::dom::parser parser_;
  bool first_ = true;
  std::vector<std::string> columns_;
  std::vector<std::vector<std::pair<std::string, std::string>>> table_;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> words(argv + 1, argv + argc);
  if (words.size() == 1 && words[0] == "--list") {
    for (const massive::operation_entry& e : massive::operation_table()) {
      std::cout << e.group << " " << e.name << "\tGET " << e.path << (e.paginated ? "\tpaginated" : "")
                << (e.experimental ? "\texperimental" : "") << (e.deprecated ? "\tdeprecated" : "") << "\n";
    }
    return 0;
  }
  if (words.size() < 2) return usage("name a group and an operation (massive --list shows them)");
  const massive::operation_entry* entry = massive::find_operation(words[0], words[1]);
  if (entry == nullptr) return usage("no such operation (massive --list shows them)");

  std::vector<std::pair<std::string_view, std::string_view>> args;
  massive::run_options run;
  std::string format = "json";
  massive::options options{.api_key = std::getenv("MASSIVE_API_KEY") ? std::getenv("MASSIVE_API_KEY") : ""};
  bool mock = false;
  for (std::size_t i = 2; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const bool has_value = i + 1 < words.size();
    if (w == "--all-pages") {
      run.all_pages = true;
    } else if (w == "--mock") {
      mock = true;
    } else if (w == "--param" && has_value) {
      const std::string_view kv = words[++i];
      const auto eq = kv.find('=');
      if (eq == std::string_view::npos) return usage("--param takes key=value");
      args.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (w == "--max-pages" && has_value) {
      run.all_pages = true;
      run.traversal.max_pages = std::strtoull(std::string(words[++i]).c_str(), nullptr, 10);
    } else if (w == "--format" && has_value) {
      format = std::string(words[++i]);
      if (format != "json" && format != "csv" && format != "table") return usage("--format is json, csv or table");
    } else if (w == "--base-url" && has_value) {
      options.base_url = std::string(words[++i]);
    } else if (w == "--ca-file" && has_value) {
      options.ca_file = std::string(words[++i]);
    } else {
      return usage("unknown option");
    }
  }

  std::string target;
  try {
    target = entry->target(args);
  } catch (const std::invalid_argument& e) {
    std::cerr << "massive: " << e.what() << "\n";
    return 2;
  }
  std::unique_ptr<massive::mock::api_server> server;
  if (mock) {
    server = std::make_unique<massive::mock::api_server>();
    options.base_url = server->base_url();
    options.ca_pem = server->certificate_pem();
    options.api_key = "mock";
  }
  if (options.api_key.empty()) {
    std::cerr << "massive: set MASSIVE_API_KEY (or use --mock)\n";
    return 2;
  }

  printer out(format);
  std::size_t pages = 0, rows = 0, json_bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  try {
    asio::io_context io;
    massive::client client{io.get_executor(), options};
    auto done = asio::co_spawn(io, entry->run(client, target, entry->shape, entry->paginated, run,
                                             [&](const massive::json_page& page) {
                                               ++pages, rows += page.rows, json_bytes += page.rows_json.size();
                                               out.page(page.rows_json);
                                               if (run.all_pages) {
                                                 const double s = std::chrono::duration<double>(
                                                     std::chrono::steady_clock::now() - start).count();
                                                 std::fprintf(stderr, "\r%zu pages, %zu rows, %.1f MB/s of rows", pages,
                                                              rows, s > 0 ? json_bytes / s / 1e6 : 0.0);
                                               }
                                             }),
                               asio::use_future);
    io.run();
    done.get();
  } catch (const massive::api_error& e) {
    std::cerr << "\nmassive: the API refused: " << e.what() << "\n";
    return 3;
  } catch (const massive::decode_error& e) {
    std::cerr << "\nmassive: the response does not decode: " << e.what() << "\n";
    return 5;
  } catch (const std::exception& e) {
    std::cerr << "\nmassive: " << e.what() << "\n";
    return 4;
  }
  if (run.all_pages) std::fprintf(stderr, "\n");
  out.finish();
  return 0;
}
