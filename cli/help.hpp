// Help generated from the operation table: the tool's overview (groups, commands, flags, exit
// codes), a group's operations, and an operation's parameters.
#pragma once

#include <massive/reflection/operation_table.hpp>

#include <ostream>
#include <string_view>

namespace massive::cli {

/// `massive --help`.
void print_overview(std::ostream& out);
/// `massive <group> --help`.
void print_group(std::ostream& out, std::string_view group);
/// `massive <group> <operation> --help`.
void print_operation(std::ostream& out, const reflection::operation_entry& operation);

/// True when some operation belongs to `group`.
bool is_group(std::string_view group);
/// "unknown group 'stonks' (did you mean stocks?)": a message for a word that names no group.
std::string unknown_group(std::string_view group);
/// The same for an operation of a group.
std::string unknown_operation(std::string_view group, std::string_view name);

}  // namespace massive::cli
