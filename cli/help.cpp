#include "help.hpp"

#include "arguments.hpp"
#include "commands.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <string>
#include <vector>

namespace massive::cli {

namespace {

std::vector<std::string_view> group_names() {
  std::vector<std::string_view> out;
  for (const operation_entry& e : operation_table()) {
    if (std::find(out.begin(), out.end(), e.group) == out.end()) out.push_back(e.group);
  }
  return out;
}

std::string padded(std::string_view text, std::size_t width) {
  std::string out(text);
  out.resize(std::max(width, text.size() + 2), ' ');
  return out;
}

std::string flag_usage(const flag& f) {
  std::string out = f.short_name.empty() ? "    " : std::string(f.short_name) + ", ";
  out += f.name;
  if (!f.value.empty()) out += " " + std::string(f.value);
  return out;
}

std::string marks(const operation_entry& e) {
  std::string out;
  if (e.paginated) out += " [pages]";
  if (e.experimental) out += " [experimental]";
  if (e.deprecated) out += " [deprecated]";
  return out;
}

/// The description's text for a terminal: HTML tags (`<br />`, `<a href=...>`) dropped, entities
/// decoded, Markdown links `[text](url)` as `text (url)`. A '<' that starts no tag (`<=`) stays.
std::string plain_text(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' && i + 1 < text.size() && (std::isalpha(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '/')) {
      const std::size_t close = text.find('>', i);
      if (close != std::string_view::npos) {
        if (!out.empty() && out.back() != ' ') out += ' ';
        i = close;
        continue;
      }
    }
    if (c == '&') {
      static constexpr std::pair<std::string_view, char> entities[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&nbsp;", ' '}};
      bool decoded = false;
      for (const auto& [name, ch] : entities) {
        if (text.substr(i, name.size()) == name) {
          out += ch, i += name.size() - 1, decoded = true;
          break;
        }
      }
      if (decoded) continue;
    }
    if (c == ']' && i + 1 < text.size() && text[i + 1] == '(') {
      const std::size_t close = text.find(')', i);
      const std::size_t open = out.rfind('[');
      if (close != std::string_view::npos && open != std::string::npos) {
        out.erase(open, 1);
        out += " (" + std::string(text.substr(i + 2, close - i - 2)) + ")";
        i = close;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/// `text` wrapped at 100 columns, each line indented by `indent` spaces.
std::string wrapped(std::string_view text, std::size_t indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && indent + line.size() + 1 + word.size() > 100) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    start = end + 1;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

std::string type_text(const parameter_info& p) {
  switch (p.type) {
    case parameter_type::string: return "string";
    case parameter_type::integer: return "integer";
    case parameter_type::number: return "number";
    case parameter_type::boolean: return "true or false";
    case parameter_type::date: return "date (YYYY-MM-DD)";
    case parameter_type::enumeration: {
      std::string out = "one of";
      for (std::string_view v : p.values) out += (out.size() == 6 ? " " : ", ") + std::string(v);
      return out;
    }
    case parameter_type::date_or_ms: return "date (YYYY-MM-DD) or Unix timestamp in milliseconds";
    case parameter_type::date_or_ns: return "date (YYYY-MM-DD) or Unix timestamp in nanoseconds";
    case parameter_type::list: return "comma-separated list";
  }
  return "string";
}

/// "stocks().trades()" -> "stocks trades".
std::string command_of(std::string_view method) {
  std::string out;
  for (char c : method) {
    if (c == '(' || c == ')') continue;
    out += c == '.' ? ' ' : c;
  }
  return out;
}

std::string column_list(const operation_entry& e) {
  std::string out;
  for (const column_info& c : e.columns) {
    out += (out.empty() ? "" : ", ") + std::string(c.name);
    if (c.timestamp_digits != 0) out += " (time)";
  }
  return out;
}

/// A required parameter's value in the example line: the description's example, else its
/// first value, else a placeholder.
std::string_view example_value(const parameter_info& p) {
  if (!p.example.empty()) return p.example;
  if (!p.values.empty()) return p.values.front();
  return "...";
}

/// `word` as a shell reads it back: single-quoted unless it is plain.
std::string shell_word(const std::string& word) {
  const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("._:,/=+-").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool is_group(std::string_view group) {
  const auto names = group_names();
  return std::find(names.begin(), names.end(), group) != names.end();
}

std::string unknown_group(std::string_view group) {
  const auto names = group_names();
  std::string message = "unknown group '" + std::string(group) + "'";
  if (const auto near = nearest_name(group, names)) return message + " (did you mean " + std::string(*near) + "?)";
  return message + " (massive --help lists them)";
}

std::string unknown_operation(std::string_view group, std::string_view name) {
  std::vector<std::string_view> names;
  for (const operation_entry& e : operation_table()) {
    if (e.group == group) names.push_back(e.name);
  }
  std::string message = "unknown operation '" + std::string(name) + "' of " + std::string(group);
  if (const auto near = nearest_name(name, names)) return message + " (did you mean " + std::string(*near) + "?)";
  return message + " (massive " + std::string(group) + " --help lists them)";
}

void print_overview(std::ostream& out) {
  out << "massive: every operation of the Massive market-data API, from the command line.\n\n"
         "usage: massive <group> <operation> [flag]...   call an operation, print its rows\n"
         "       massive <group> --help                  the group's operations\n"
         "       massive <group> <operation> --help      the operation's parameters\n";
  for (const command& c : commands()) out << "       " << padded("massive " + std::string(c.name) + " ...", 40) << c.summary << "\n";
  out << "\ngroups:\n";
  for (std::string_view g : group_names()) {
    std::size_t count = 0;
    for (const operation_entry& e : operation_table()) count += e.group == g;
    out << "  " << padded(g, 20) << count << (count == 1 ? " operation\n" : " operations\n");
  }
  out << "\nflags of a call:\n";
  for (const flag& f : call_flags()) out << "  " << padded(flag_usage(f), 26) << f.help << "\n";
  out << "\nenvironment:\n"
         "  MASSIVE_API_KEY           the API key (not needed with --mock)\n"
         "\nexit codes:\n"
         "  0 done, 2 bad usage or arguments, 3 the API answered with an error, 4 transport (or output)\n"
         "  failure, 5 a body that does not decode, 6 a limit cut the output short (--all-pages's\n"
         "  default cap of 1000 pages; --strict when a page left a value or a row out)\n"
         "\nA page that left values or rows of its body out (a value the model cannot hold) is\n"
         "reported on stderr, one line per page; see docs/guide/decoding.md.\n";
}

void print_group(std::ostream& out, std::string_view group) {
  out << "massive " << group << " <operation> [flag]...\n\noperations:\n";
  std::size_t width = 0;
  for (const operation_entry& e : operation_table()) {
    if (e.group == group) width = std::max(width, e.name.size());
  }
  // Stable operations first, experimental ones next, deprecated ones last.
  for (const int rank : {0, 1, 2}) {
    for (const operation_entry& e : operation_table()) {
      if (e.group != group || (e.deprecated ? 2 : e.experimental ? 1 : 0) != rank) continue;
      out << "  " << padded(e.name, width + 2) << plain_text(e.summary) << marks(e) << "\n";
    }
  }
  out << "\nmassive " << group << " <operation> --help describes one and its parameters.\n";
}

void print_operation(std::ostream& out, const operation_entry& e) {
  out << "massive " << e.group << " " << e.name << " [flag]...\n\n";
  out << wrapped(plain_text(e.description.empty() ? e.summary : e.description), 2) << "\n";
  out << "  GET " << e.path << "\n";
  out << (e.paginated ? "  Pages: the first page, or every page with --all-pages (next_url).\n"
                      : "  One page: the response has no next_url.\n");
  if (e.experimental) out << "  Experimental: Massive may change or remove it.\n";
  if (e.deprecated) {
    out << "  Deprecated by Massive" << (e.replacement.empty() ? "" : "; use massive " + command_of(e.replacement) + " instead")
        << ".\n";
  }
  out << "\nparameters (-p NAME=VALUE):\n";
  if (e.parameters.empty()) out << "  none\n";
  for (const parameter_info& p : e.parameters) {
    out << "  " << p.wire << "  " << type_text(p);
    if (p.in_path) {
      out << ", required (in the path)";
    } else if (p.required) {
      out << ", required";
    }
    if (!p.default_value.empty()) out << ", default " << p.default_value;
    if (!p.former.empty()) out << ", formerly " << p.former << " (still taken)";
    out << "\n";
    if (const auto taken = comparators(p.filter); !taken.empty()) {
      std::string names;
      for (std::string_view c : taken) names += (names.empty() ? "" : ", ") + std::string(p.wire) + "." + std::string(c);
      out << "      also " << names << "\n";
    }
    if (!p.description.empty()) out << wrapped(plain_text(p.description), 6);
  }
  out << "\ncolumns of -f csv and -f table:\n" << wrapped(column_list(e), 2);
  out << "\nexample:\n  massive " << e.group << " " << e.name;
  for (const parameter_info& p : e.parameters) {
    if (p.required) out << " -p " << shell_word(std::string(p.wire) + "=" + std::string(example_value(p)));
  }
  out << (e.paginated ? " --all-pages" : "") << " -f table\n\nmassive --help lists the flags.\n";
}

}  // namespace massive::cli
