// `massive <group> <operation> [flag]...`: builds the target from the parameters, calls the
// operation (against the embedded mock with --mock) and prints each page as it arrives.
#include "arguments.hpp"
#include "commands.hpp"
#include "help.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <massive/client.hpp>
#include <massive/error.hpp>
#include <massive/mock/api_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace massive::cli {

namespace {

int fail(exit_code code, std::string_view message) {
  std::cerr << "massive: " << terminal_safe(message, max_message_bytes) << "\n";
  return code;
}

// `text` with every occurrence of `key` replaced: a path may hold a key of the body (a map's),
// and a server may echo the API key as one.
std::string without_key(std::string text, std::string_view key) {
  if (key.empty()) return text;
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 8)) text.replace(at, key.size(), "REDACTED");
  return text;
}

/// A page whose body says the request failed although its HTTP status is 2xx.
struct error_status : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The statuses the API's error bodies carry (API-NOTES: "ERROR", "NOT_AUTHORIZED"): a 2xx
/// answer whose body says one of them is not taken at its word, and none of its rows is printed.
void refuse_error_status(std::string_view status, std::size_t page_number) {
  if (status != "ERROR" && status != "NOT_AUTHORIZED") return;
  throw error_status("page " + std::to_string(page_number) + ": the API answered 2xx but its body says status \"" +
                     std::string(status) + "\"; none of the page's rows is printed");
}

// One line on stderr for a page whose body was not decoded exactly: what was coerced, left out
// or dropped, and where the first of them was. Unknown keys are not reported: the API adds
// fields, and they cost nothing the model declares.
void report_leniency(std::size_t page_number, const page_leniency& l, std::string_view api_key) {
  if (l.exact()) return;
  std::string line = "page " + std::to_string(page_number) + ":";
  const auto count = [&](std::uint32_t n, const char* one, const char* many) {
    if (n != 0) line += " " + std::to_string(n) + " " + (n == 1 ? one : many) + ",";
  };
  count(l.dropped_rows, "row dropped", "rows dropped");
  count(l.skipped, "value left out", "values left out");
  count(l.missing, "required field without a value", "required fields without a value");
  count(l.coerced, "value coerced", "values coerced");
  line.back() = ';';
  line += " the first at " + terminal_safe(without_key(std::string(l.first), api_key), max_path_bytes);
  std::cerr << "massive: " << line << "\n";
}

}  // namespace

int call_command(const operation_entry& operation, std::span<const std::string_view> words) {
  call_settings settings;
  std::string target;
  try {
    settings = parse_call(words);
    if (settings.help) {
      print_operation(std::cout, operation);
      return exit_done;
    }
    std::vector<std::pair<std::string_view, std::string_view>> args(settings.params.begin(), settings.params.end());
    target = operation.target(args);
  } catch (const std::invalid_argument& e) {  // usage_error is not one: both are the caller's mistake
    return fail(exit_usage, e.what());
  } catch (const usage_error& e) {
    return fail(exit_usage, std::string(e.what()) + " (massive " + std::string(operation.group) + " " +
                                std::string(operation.name) + " --help)");
  }

  std::optional<massive::mock::api_server> mock;
  if (!settings.mock && settings.client.api_key.empty()) {
    const char* key = std::getenv("MASSIVE_API_KEY");
    if (key == nullptr || *key == '\0') return fail(exit_usage, "set MASSIVE_API_KEY (or use --mock)");
  }
  if (settings.mock) {
    mock.emplace();
    settings.client.base_url = mock->base_url();
    settings.client.tls.ca_pem = mock->certificate_pem();
    settings.client.api_key = "mock";
  }
  std::ofstream file;
  if (!settings.output_path.empty()) {
    file.open(settings.output_path, std::ios::binary | std::ios::trunc);
    if (!file) return fail(exit_usage, "cannot write " + settings.output_path);
  }
  std::ostream& rows_out = settings.output_path.empty() ? std::cout : file;
  std::vector<std::string> columns;
  for (const column_info& c : operation.columns) columns.emplace_back(c.name);
  const auto printer = make_printer(settings.format, rows_out, std::move(columns), settings.raw_times);
  progress_line progress(progress_line::shown_for(!settings.output_path.empty()));
  settings.client.trace = [&progress, user = std::move(settings.client.trace)](const trace_event& event) {
    progress.received(event.body_bytes);
    if (user) user(event);
  };

  std::size_t pages = 0;
  std::size_t lossy_pages = 0;
  bool told_of_extra = false;  // of results.underlying, which only --envelope prints
  const char* key_from_environment = std::getenv("MASSIVE_API_KEY");
  const std::string api_key = !settings.client.api_key.empty() ? settings.client.api_key
                              : key_from_environment != nullptr ? std::string(key_from_environment)
                                                                : std::string();
  try {
    boost::asio::io_context io;
    massive::client client{io.get_executor(), settings.client};
    auto done = boost::asio::co_spawn(
        io,
        operation.run(client, target, operation.shape, operation.paginated, settings.run,
                      [&](const row_page& page) {
                        refuse_error_status(page.envelope.status, pages + 1);
                        if (settings.envelope) {
                          // The underlying's aggregates have leniency of their own, reported and
                          // counted as the page's.
                          reflection::underlying_leniency underlying = print_envelope(rows_out, page, operation.shape);
                          underlying.counts.first = underlying.first;
                          report_leniency(pages + 1, underlying.counts, api_key);
                          lossy_pages += underlying.counts.lossy() ? 1 : 0;
                        } else {
                          printer->page(page.data(), page.rows, page.functions());
                          if (!page.envelope.results_extra_json.empty() && !told_of_extra) {
                            told_of_extra = true;
                            std::cerr << "massive: the pages carry more than their rows (results.underlying); "
                                         "--envelope prints them whole\n";
                          }
                        }
                        progress.page(page.rows);
                        ++pages;
                        report_leniency(pages, page.envelope.leniency, api_key);
                        lossy_pages += page.envelope.leniency.lossy() ? 1 : 0;
                      }),
        boost::asio::use_future);
    io.run();
    done.get();
    if (!settings.envelope) printer->finish();
    progress.finish();
  } catch (const api_error& e) {
    progress.finish();
    return fail(exit_api, std::string("the API refused: ") + e.what());
  } catch (const error_status& e) {
    progress.finish();
    rows_out.flush();
    return fail(exit_api, e.what());
  } catch (const decode_error& e) {
    progress.finish();
    return fail(exit_decode, std::string("the response does not decode: ") + e.what());
  } catch (const output_error& e) {
    progress.finish();
    return fail(exit_decode, std::string("the rows cannot be printed: ") + e.what());
  } catch (const transport_error& e) {
    progress.finish();
    if (e.code() == massive::errc::invalid_option) return fail(exit_usage, e.what());
    if (e.code() == massive::errc::page_limit_reached) {
      rows_out.flush();
      return fail(exit_limit, std::string(e.what()) + "; --all-pages stops at " + std::to_string(default_page_cap) +
                                  " pages unless --max-pages N says how many");
    }
    return fail(exit_transport, e.what());
  } catch (const std::exception& e) {
    progress.finish();
    return fail(exit_transport, e.what());
  }
  if (!rows_out.flush()) return fail(exit_transport, "cannot write the rows");
  if (settings.strict && lossy_pages != 0) {
    return fail(exit_limit, std::to_string(lossy_pages) + (lossy_pages == 1 ? " page" : " pages") +
                                " left values or rows of the body out (--strict)");
  }
  return exit_done;
}

}  // namespace massive::cli
