// `massive completion bash|zsh`: a completion script written from the operation table and the
// flag table, so it names exactly the groups, operations, parameters, values and flags this
// build has. zsh runs the bash function through bashcompinit.
#include "arguments.hpp"
#include "commands.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace massive::cli {

namespace {

std::string words(const std::vector<std::string_view>& list) {
  std::string out;
  for (std::string_view w : list) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

/// A flag's value that names a file: the shell completes file names for it.
bool takes_file(const flag& f) { return f.value == "FILE" || f.value == "PEM"; }

void bash_function(std::ostream& out) {
  std::vector<std::string_view> groups, command_names, flag_names;
  for (const operation_entry& e : operation_table()) {
    if (groups.empty() || groups.back() != e.group) groups.push_back(e.group);
  }
  for (const command& c : commands()) command_names.push_back(c.name);
  for (const flag& f : call_flags()) flag_names.push_back(f.name);

  out << "# The operations of a group.\n_massive_operations() {\n  case \"$1\" in\n";
  for (std::string_view g : groups) {
    std::vector<std::string_view> names;
    for (const operation_entry& e : operation_table()) {
      if (e.group == g) names.push_back(e.name);
    }
    out << "    " << g << ") echo \"" << words(names) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  out << "# The values of a flag that takes a few.\n_massive_flag_values() {\n  case \"$1\" in\n";
  for (const flag& f : call_flags()) {
    if (!f.choices.empty()) out << "    " << f.name << ") echo \"" << words({f.choices.begin(), f.choices.end()}) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  // The words are split on blanks only: bash's own split breaks `name=value` at '=', and the
  // reply must then hold only what follows the '='.
  out << "_massive() {\n"
         "  local line=${COMP_LINE:0:COMP_POINT}\n"
         "  local -a w\n"
         "  read -ra w <<<\"$line\"\n"
         "  [[ $line == *[[:space:]] || ${#w[@]} -eq 0 ]] && w+=(\"\")\n"
         "  local n=$((${#w[@]} - 1)) cur=${w[${#w[@]}-1]}\n"
         "  local prev=${w[n-1]}\n"
         "  COMPREPLY=()\n"
         "  if ((n == 1)); then\n"
         "    COMPREPLY=($(compgen -W \"" << words(groups) << " " << words(command_names) << " --help\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  local group=${w[1]}\n"
         "  if [[ $group == completion ]]; then\n"
         "    ((n == 2)) && COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  if ((n == 2)); then\n"
         "    COMPREPLY=($(compgen -W \"$(_massive_operations \"$group\") --help\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  local operation=${w[2]}\n"
         "  if [[ $cur == --*=* ]]; then\n"
         "    prev=${cur%%=*}\n"
         "    cur=${cur#*=}\n"
         "  fi\n"
         "  case $prev in\n";
  for (const flag& f : call_flags()) {
    if (f.value.empty()) continue;
    out << "    " << f.short_name << (f.short_name.empty() ? "" : "|") << f.name << ")\n";
    if (!f.choices.empty()) {
      out << "      COMPREPLY=($(compgen -W \"$(_massive_flag_values " << f.name << ")\" -- \"$cur\"))\n";
    } else if (takes_file(f)) {
      out << "      COMPREPLY=($(compgen -f -- \"$cur\"))\n";
    }
    out << "      return ;;\n";
  }
  out << "  esac\n"
         "  COMPREPLY=($(compgen -W \"" << words(flag_names) << "\" -- \"$cur\"))\n"
         "}\n\n";
}

}  // namespace

int completion_command(std::span<const std::string_view> args) {
  if (args.size() != 1 || (args[0] != "bash" && args[0] != "zsh")) {
    std::cerr << "massive: usage: massive completion bash|zsh\n";
    return exit_usage;
  }
  const bool zsh = args[0] == "zsh";
  std::cout << "# " << args[0] << " completion for massive, written by `massive completion " << args[0] << "`.\n"
            << (zsh ? "# Load it with: source <(massive completion zsh)\n"
                      "autoload -U +X bashcompinit && bashcompinit\n\n"
                    : "# Load it with: source <(massive completion bash)\n\n");
  bash_function(std::cout);
  std::cout << "complete -F _massive massive\n";
  return exit_done;
}

}  // namespace massive::cli
