// `massive completion bash|zsh`: a completion script written from the operation table and the
// flag table, so it names exactly the groups, operations, parameters, values and flags this
// build has. One plain-sh function finds the candidates; bash and zsh each wrap it.
#include "arguments.hpp"
#include "commands.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace massive::cli {

namespace {

template <class Words>
std::string words(const Words& list) {
  std::string out;
  for (std::string_view w : list) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

/// A flag's value that names a file: the shell completes file names for it.
bool takes_file(const flag& f) { return f.value == "FILE" || f.value == "PEM"; }

void shared_functions(std::ostream& out) {
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

  out << "# The parameters of an operation, comparators dotted.\n_massive_parameters() {\n  case \"$1 $2\" in\n";
  for (const operation_entry& e : operation_table()) {
    std::vector<std::string> names;
    for (const parameter_info& p : e.parameters) {
      names.emplace_back(p.wire);
      for (std::string_view c : comparators(p.filter)) names.push_back(std::string(p.wire) + "." + std::string(c));
    }
    if (!names.empty()) out << "    \"" << e.group << " " << e.name << "\") echo \"" << words(names) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  out << "# The values of an operation's enumeration parameter.\n_massive_values() {\n  case \"$1 $2 $3\" in\n";
  for (const operation_entry& e : operation_table()) {
    for (const parameter_info& p : e.parameters) {
      if (p.values.empty()) continue;
      out << "    \"" << e.group << " " << e.name << " " << p.wire << "\") echo \"" << words(p.values)
          << "\" ;;\n";
    }
  }
  out << "  esac\n}\n\n";

  out << "# The values of a flag that takes a few.\n_massive_flag_values() {\n  case \"$1\" in\n";
  for (const flag& f : call_flags()) {
    if (!f.choices.empty()) out << "    " << f.name << ") echo \"" << words(f.choices) << "\" ;;\n";
  }
  out << "  esac\n}\n\n";

  stream_completion(out);

  // The words so far (the last one being completed) in, the candidates for the last one out,
  // unfiltered; status 2 asks for file names. Plain sh, so that bash and zsh share it.
  out << "# Candidates for the last of the words given (\"massive\" first), unfiltered; status 2: file\n"
         "# names. A parameter's name ends in '='; after '=' come its values.\n"
         "_massive_candidates() {\n"
         "  local n=$(($# - 1)) i=0 a cur= prev= group= operation=\n"
         "  for a; do\n"
         "    case $i in 1) group=$a ;; 2) operation=$a ;; esac\n"
         "    prev=$cur\n"
         "    cur=$a\n"
         "    i=$((i + 1))\n"
         "  done\n"
         "  if [ $n -eq 1 ]; then\n"
         "    echo \"" << words(groups) << " " << words(command_names) << " --help\"\n"
         "    return 0\n"
         "  fi\n"
         "  if [ \"$group\" = stream ]; then\n"
         "    _massive_stream_candidates $n \"$operation\" \"$prev\" \"$cur\"\n"
         "    return $?\n"
         "  fi\n"
         "  if [ \"$group\" = completion ]; then\n"
         "    [ $n -eq 2 ] && echo \"bash zsh\"\n"
         "    return 0\n"
         "  fi\n"
         "  if [ $n -eq 2 ]; then\n"
         "    echo \"$(_massive_operations \"$group\") --help\"\n"
         "    return 0\n"
         "  fi\n"
         "  case $cur in --*=*) prev=${cur%%=*} ;; esac\n"
         "  case $prev in\n";
  for (const flag& f : call_flags()) {
    if (f.value.empty() || f.name == "--param") continue;
    out << "    " << f.short_name << (f.short_name.empty() ? "" : "|") << f.name << ")\n";
    if (!f.choices.empty()) {
      out << "      _massive_flag_values " << f.name << "\n      return 0 ;;\n";
    } else {
      out << "      return " << (takes_file(f) ? 2 : 0) << " ;;\n";
    }
  }
  out << "    -p|--param)\n"
         "      case $cur in\n"
         "        *=*)\n"
         "          a=${cur%%=*}\n"
         "          _massive_values \"$group\" \"$operation\" \"${a%%.*}\" ;;\n"
         "        *) for a in $(_massive_parameters \"$group\" \"$operation\"); do printf '%s= ' \"$a\"; done ;;\n"
         "      esac\n"
         "      return 0 ;;\n"
         "  esac\n"
         "  echo \"" << words(flag_names) << "\"\n"
         "}\n\n";
}

/// bash: the line up to the cursor split on blanks only (bash's own words break `name=value`
/// at '=', and then the reply holds only what follows the '=').
void bash_completion(std::ostream& out) {
  out << "_massive() {\n"
         "  local line=${COMP_LINE:0:COMP_POINT} candidates status prefix=\n"
         "  local -a w\n"
         "  read -ra w <<<\"$line\"\n"
         "  [[ $line == *[[:space:]] || ${#w[@]} -eq 0 ]] && w+=(\"\")\n"
         "  local cur=${w[${#w[@]}-1]}\n"
         "  candidates=$(_massive_candidates \"${w[@]}\")\n"
         "  status=$?\n"
         "  if ((status == 2)); then\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "    return 0\n"
         "  fi\n"
         "  if [[ $cur == *=* ]]; then\n"
         "    [[ $COMP_WORDBREAKS == *=* ]] || prefix=${cur%%=*}=\n"
         "    cur=${cur#*=}\n"
         "  fi\n"
         "  COMPREPLY=($(compgen -P \"$prefix\" -W \"$candidates\" -- \"$cur\"))\n"
         "  # Outside a completion (a script calling _massive) compopt fails: harmless.\n"
         "  [[ ${COMPREPLY[0]} == *[=.] ]] && { compopt -o nospace 2>/dev/null || :; }\n"
         "  return 0\n"
         "}\n"
         "complete -F _massive massive\n";
}

/// zsh: its own words and compadd (run `compinit` first, as for any completion).
void zsh_completion(std::ostream& out) {
  out << "_massive() {\n"
         "  local candidates c\n"
         "  local -a names values prefixes\n"
         "  candidates=$(_massive_candidates \"${(@)words[1,CURRENT]}\")\n"
         "  if (( $? == 2 )); then\n"
         "    _files\n"
         "    return\n"
         "  fi\n"
         "  [[ $PREFIX == *=* ]] && compset -P '*='\n"
         "  for c in ${=candidates}; do\n"
         "    if [[ $c == *= ]]; then names+=(${c%=}); elif [[ $c == *. ]]; then prefixes+=($c); "
         "else values+=($c); fi\n"
         "  done\n"
         "  (( ${#names} )) && compadd -S '=' -- $names\n"
         "  (( ${#values} )) && compadd -- $values\n"
         "  (( ${#prefixes} )) && compadd -S '' -- $prefixes\n"
         "  return 0\n"
         "}\n"
         "compdef _massive massive\n";
}

}  // namespace

int completion_command(std::span<const std::string_view> args) {
  if (args.size() != 1 || (args[0] != "bash" && args[0] != "zsh")) {
    std::cerr << "massive: usage: massive completion bash|zsh\n";
    return exit_usage;
  }
  const bool zsh = args[0] == "zsh";
  std::cout << "# " << args[0] << " completion for massive, written by `massive completion " << args[0] << "`.\n"
            << "# Load it with: source <(massive completion " << args[0] << ")"
            << (zsh ? " after compinit\n\n" : "\n\n");
  shared_functions(std::cout);
  if (zsh) {
    zsh_completion(std::cout);
  } else {
    bash_completion(std::cout);
  }
  return exit_done;
}

}  // namespace massive::cli
