// The command line of a call, `massive <group> <operation> [flag]...`, read into settings.
// Every flag is one row of call_flags(): its name, its value's placeholder, its help line and
// what it sets. `massive --help` and the completion scripts list the same rows, so a new flag
// is one row here and nothing else.
#pragma once

#include <massive/client_config.hpp>
#include <massive/reflection/operation_table.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::cli {

/// How rows are printed.
enum class output_format { json, jsonl, csv, table };

/// What the flags of one call set.
struct call_settings {
  std::vector<std::pair<std::string, std::string>> params;  ///< --param, in order
  massive::reflection::run_options run;
  massive::client_config client;  ///< the key comes from MASSIVE_API_KEY (client_config.hpp)
  output_format format = output_format::json;
  bool raw_times = false;   ///< table and CSV keep timestamps as the wire's integers
  /// Each page as the API's object (envelope, rows, results.underlying), one JSON object a line.
  bool envelope = false;
  std::string output_path;  ///< the rows go there instead of stdout
  bool mock = false;        ///< run against the embedded mock API
  bool help = false;        ///< print the operation's help instead of calling it
  /// Exit non-zero (exit_limit) when a page left a value or a row of its body out.
  bool strict = false;
  /// --max-pages was given: its cap is the user's, and reaching it is no failure.
  bool pages_capped_by_user = false;
};

/// The page cap of --all-pages when --max-pages does not set one: reaching it while the
/// server offers more is a failure that names it (exit_limit), never a quiet end. At 50,000
/// rows a page (the API's largest limit) it is 50 million rows.
inline constexpr std::uint64_t default_page_cap = 1000;

/// A mistake on the command line: printed with the usage, exit code 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One flag of a command that reads its flags into `Settings`.
template <class Settings>
struct basic_flag {
  std::string_view name;        ///< "--param"
  std::string_view short_name;  ///< "-p", or "" when it has none
  std::string_view value;       ///< its value's placeholder ("KEY=VALUE"); "" for a switch
  std::span<const std::string_view> choices;  ///< the values it accepts, when they are few
  std::string_view help;        ///< one line
  /// Applies the flag (with its value, "" for a switch); throws usage_error for a bad value.
  void (*apply)(Settings& settings, std::string_view value);
};

/// One flag of a call.
using flag = basic_flag<call_settings>;

/// Applies the flags `words` to `settings` from `table`. Flags take their value as the next
/// word or after '=' (`--format=csv`). Throws usage_error naming an unknown flag (and the
/// nearest known one), a missing value or a bad one.
template <class Settings>
void parse_flags(std::span<const std::string_view> words, std::span<const basic_flag<Settings>> table, Settings& settings) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string_view word = words[i];
    std::optional<std::string_view> attached;
    if (const auto eq = word.find('='); word.starts_with("--") && eq != std::string_view::npos) {
      attached = word.substr(eq + 1);
      word = word.substr(0, eq);
    }
    const basic_flag<Settings>* f = nullptr;
    for (const basic_flag<Settings>& known : table) {
      if (word == known.name || (!known.short_name.empty() && word == known.short_name)) f = &known;
    }
    if (f == nullptr) {
      std::vector<std::string_view> names;
      for (const basic_flag<Settings>& known : table) names.push_back(known.name);
      std::string message = "unknown flag '" + std::string(word) + "'";
      if (const auto near = reflection::nearest_name(word, names)) message += " (did you mean " + std::string(*near) + "?)";
      throw usage_error(message);
    }
    if (f->value.empty()) {
      if (attached) throw usage_error(std::string(f->name) + " takes no value");
      f->apply(settings, "");
      continue;
    }
    if (!attached && i + 1 == words.size()) {
      throw usage_error(std::string(f->name) + " needs a value (" + std::string(f->value) + ")");
    }
    f->apply(settings, attached ? *attached : words[++i]);
  }
}

/// The flag of a call named `name` ("--proxy"), or nullptr.
const flag* find_call_flag(std::string_view name);

/// Every flag of a call, in the order --help lists them.
std::span<const flag> call_flags();

/// The settings that `words` (everything after `<group> <operation>`) ask for, as
/// parse_flags() reads them; throws usage_error.
call_settings parse_call(std::span<const std::string_view> words);

}  // namespace massive::cli
