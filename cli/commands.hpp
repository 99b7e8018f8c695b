// The tool's commands and its exit codes. `massive <group> <operation>` calls an operation
// (call.cpp); the other commands are words that no group uses, each a row of the table in
// main.cpp and a function here.
#pragma once

#include <massive/reflection/operation_table.hpp>
#include <massive/stream/topic.hpp>

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::cli {

// The tool is built on the reflection tables: every command works by operation and model name.
using namespace massive::reflection;

/// What the process returns; --help and docs/guide/command-line.md list them.
enum exit_code : int {
  exit_done = 0,
  exit_usage = 2,      ///< bad usage or arguments
  exit_api = 3,        ///< the API answered with an error
  exit_transport = 4,  ///< the request failed below HTTP (connect, TLS, timeout, ...)
  exit_decode = 5,     ///< a body that does not decode
  /// A limit cut the output short: --all-pages's default page cap, or --strict when a page
  /// left something of its body out (the rows printed are true, but not all of them).
  exit_limit = 6,
};

/// `massive <group> <operation> [flag]...`: `words` are the flags.
int call_command(const operation_entry& operation, std::span<const std::string_view> words);
/// `massive completion bash|zsh`.
int completion_command(std::span<const std::string_view> words);
/// The completion scripts' shell functions for the words after `massive stream`: markets,
/// their topic prefixes, the stream's flags (stream_command.cpp).
void stream_completion(std::ostream& out);
/// `massive stream <market> <topics> [flag]...` (stream_command.cpp).
int stream_command(std::span<const std::string_view> words);
/// The stream market whose path is `name` ("stocks", "futures/cme"), if any (stream_command.cpp).
std::optional<stream::market> market_named(std::string_view name);
/// A comma-separated topic list as written ("T.AAPL,Q.*"), each topic split at its first dot;
/// `problem` names the first topic that is not <prefix>.<ticker>, and is empty when none.
struct topic_words {
  std::vector<std::pair<std::string_view, std::string_view>> topics;  ///< (prefix, ticker)
  std::string problem;
};
topic_words split_topics(std::string_view list);

#ifdef MASSIVE_CLI_WITH_RELAY
/// `massive relay <market>... [flag]...` (relay_command.cpp, where massive::relay is built).
int relay_command(std::span<const std::string_view> words);
/// `massive stream <market> <topics> --via URLS [flag]...`: the relay's stream (relay_command.cpp).
int stream_via_relay(std::span<const std::string_view> words);
#endif

/// Another command besides the groups: `massive <name> ...`.
struct command {
  std::string_view name;
  std::string_view summary;  ///< one line for --help
  int (*run)(std::span<const std::string_view> words);  ///< the words after the name
};

/// Every command besides the groups (main.cpp).
std::span<const command> commands();

}  // namespace massive::cli
