// The command line of a call, `massive <group> <operation> [flag]...`, read into settings.
// Every flag is one row of call_flags(): its name, its value's placeholder, its help line and
// what it sets. `massive --help` and the completion scripts list the same rows, so a new flag
// is one row here and nothing else.
#pragma once

#include <massive/client_config.hpp>
#include <massive/reflection/operation_table.hpp>

#include <cstdint>
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

/// One flag of a call.
struct flag {
  std::string_view name;        ///< "--param"
  std::string_view short_name;  ///< "-p", or "" when it has none
  std::string_view value;       ///< its value's placeholder ("KEY=VALUE"); "" for a switch
  std::span<const std::string_view> choices;  ///< the values it accepts, when they are few
  std::string_view help;        ///< one line
  /// Applies the flag (with its value, "" for a switch); throws usage_error for a bad value.
  void (*apply)(call_settings& settings, std::string_view value);
};

/// Every flag of a call, in the order --help lists them.
std::span<const flag> call_flags();

/// The settings that `words` (everything after `<group> <operation>`) ask for. Flags take
/// their value as the next word or after '=' (`--format=csv`). Throws usage_error naming an
/// unknown flag (and the nearest known one), a missing value or a bad one.
call_settings parse_call(std::span<const std::string_view> words);

}  // namespace massive::cli
