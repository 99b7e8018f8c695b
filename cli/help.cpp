#include "help.hpp"

#include "arguments.hpp"
#include "commands.hpp"
#include "nearest.hpp"

#include <algorithm>
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

}  // namespace

bool is_group(std::string_view group) {
  const auto names = group_names();
  return std::find(names.begin(), names.end(), group) != names.end();
}

std::string unknown_group(std::string_view group) {
  const auto names = group_names();
  std::string message = "unknown group '" + std::string(group) + "'";
  if (const auto near = nearest(group, names)) return message + " (did you mean " + std::string(*near) + "?)";
  return message + " (massive --help lists them)";
}

std::string unknown_operation(std::string_view group, std::string_view name) {
  std::vector<std::string_view> names;
  for (const operation_entry& e : operation_table()) {
    if (e.group == group) names.push_back(e.name);
  }
  std::string message = "unknown operation '" + std::string(name) + "' of " + std::string(group);
  if (const auto near = nearest(name, names)) return message + " (did you mean " + std::string(*near) + "?)";
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
         "  0 done, 2 bad usage or arguments, 3 the API answered with an error, 4 transport failure,\n"
         "  5 a body that does not decode\n";
}

void print_group(std::ostream& out, std::string_view group) {
  out << "massive " << group << " <operation> [flag]...\n\noperations:\n";
  std::size_t width = 0;
  for (const operation_entry& e : operation_table()) {
    if (e.group == group) width = std::max(width, e.name.size());
  }
  for (const operation_entry& e : operation_table()) {
    if (e.group == group) out << "  " << padded(e.name, width + 2) << "GET " << e.path << marks(e) << "\n";
  }
  out << "\nmassive " << group << " <operation> --help describes one.\n";
}

void print_operation(std::ostream& out, const operation_entry& e) {
  out << "massive " << e.group << " " << e.name << " [flag]...\n\n  GET " << e.path << marks(e) << "\n";
}

}  // namespace massive::cli
