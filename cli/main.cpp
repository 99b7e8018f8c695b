// massive: calls any operation of the API by group and name and prints the decoded rows.
//
//   massive --help                                   groups, commands, flags, exit codes
//   massive stocks --help                            the group's operations
//   massive stocks trades --help                     the operation's parameters
//   massive stocks trades -p stockTicker=AAPL -p timestamp.gte=2024-01-02 --all-pages -f csv
//   massive completion bash                          a completion script
//   massive --version                                the SDK's version
//
// The words after `massive` choose a command: a group (then an operation, call.cpp) or one of
// the commands below. Exit codes: commands.hpp.
#include "commands.hpp"
#include "help.hpp"

#include <massive/version.hpp>

#include <iostream>
#include <string_view>
#include <vector>

namespace massive::cli {

namespace {

int usage(std::string_view problem) {
  std::cerr << "massive: " << problem << "\nusage: massive <group> <operation> [flag]... (massive --help)\n";
  return exit_usage;
}

/// `massive --version`: the SDK's version, and the API description the operations come from.
int version_command(std::span<const std::string_view> words) {
  if (!words.empty()) return usage("--version takes nothing more");
  std::cout << "massive " << massive::version.string << " (" << massive::reflection::operation_table().size()
            << " operations)\n";
  return exit_done;
}

/// `massive --list`: one line per operation, for scripts.
int list_command(std::span<const std::string_view> words) {
  if (!words.empty()) return usage("--list takes nothing more");
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    std::cout << e.group << " " << e.name << "\tGET " << e.path << (e.paginated ? "\tpaginated" : "")
              << (e.experimental ? "\texperimental" : "") << (e.deprecated ? "\tdeprecated" : "") << "\n";
  }
  return exit_done;
}

constexpr command command_table[] = {
    {"completion", "a completion script: massive completion bash|zsh", &completion_command},
    {"--list", "every operation, one per line: group, name, route, flags", &list_command},
    {"--version", "the SDK's version", &version_command},
    {"stream", "stream a market: massive stream stocks T.AAPL,Q.* [--count N] [--format F] [--mock]", &stream_command},
};

bool is_help(std::string_view word) { return word == "--help" || word == "-h" || word == "help"; }

}  // namespace

std::span<const command> commands() { return command_table; }

}  // namespace massive::cli

int main(int argc, char** argv) {
  using namespace massive::cli;
  const std::vector<std::string_view> words(argv + 1, argv + argc);
  if (words.empty()) return usage("name a group and an operation");
  if (is_help(words[0])) {
    print_overview(std::cout);
    return exit_done;
  }
  for (const command& c : commands()) {
    if (words[0] == c.name) return c.run(std::span(words).subspan(1));
  }
  if (!is_group(words[0])) return usage(unknown_group(words[0]));
  if (words.size() == 1) {
    std::cerr << "massive: name an operation of " << words[0] << "\n\n";
    print_group(std::cerr, words[0]);
    return exit_usage;
  }
  if (is_help(words[1])) {
    print_group(std::cout, words[0]);
    return exit_done;
  }
  const massive::reflection::operation_entry* operation = massive::reflection::find_operation(words[0], words[1]);
  if (operation == nullptr) return usage(unknown_operation(words[0], words[1]));
  return call_command(*operation, std::span(words).subspan(2));
}
