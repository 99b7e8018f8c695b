// The reflection table's logic that needs no row type, compiled once: the did-you-mean
// search, argument checking and the text forms of arguments.
#include "massive/reflection/operation_table.hpp"

namespace massive::reflection {

std::optional<std::string_view> nearest_name(std::string_view name, std::span<const std::string_view> candidates) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::optional<std::string_view> best;
  std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
  std::vector<std::size_t> row;
  for (std::string_view c : candidates) {
    // Levenshtein distance, one row at a time.
    row.resize(c.size() + 1);
    for (std::size_t j = 0; j <= c.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= name.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j) {
        const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(name[i - 1]) != lower(c[j - 1]))});
        diagonal = row[j];
        row[j] = next;
      }
    }
    if (row[c.size()] < best_distance) best = c, best_distance = row[c.size()];
  }
  return best;
}

const operation_entry* find_operation(std::string_view group, std::string_view name) {
  for (const operation_entry& e : operation_table()) {
    if (e.group == group && e.name == name) return &e;
  }
  return nullptr;
}

namespace detail {

void check_arguments(argument_list args, std::span<const parameter_info> known) {
  for (const auto& [name, value] : args) {
    const std::size_t dot = name.find('.');
    const std::string_view base = name.substr(0, dot);
    const parameter_info* p = nullptr;
    for (const parameter_info& k : known) {
      if (k.wire == name || k.wire == base) p = &k;
    }
    const std::string_view comparator = p == nullptr || p->wire == name ? "" : name.substr(dot + 1);
    const auto taken = p == nullptr ? std::span<const std::string_view>{} : comparators(p->filter);
    if (p == nullptr || (!comparator.empty() && std::find(taken.begin(), taken.end(), comparator) == taken.end())) {
      std::vector<std::string> names;
      for (const parameter_info& k : known) {
        names.emplace_back(k.wire);
        for (std::string_view c : comparators(k.filter)) names.push_back(std::string(k.wire) + "." + std::string(c));
      }
      std::string message = "unknown parameter '" + std::string(name) + "'";
      // A former name is still taken (current_names), so it may be suggested too.
      std::vector<std::string_view> near_names(names.begin(), names.end());
      for (const parameter_info& k : known) {
        if (!k.former.empty()) near_names.push_back(k.former);
      }
      if (const auto near = nearest_name(name, near_names)) {
        message += " (did you mean '" + std::string(*near) + "'?)";
      }
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      throw std::invalid_argument(message + "; this operation takes: " + (list.empty() ? std::string("none") : list));
    }
    if (p->values.empty()) continue;
    const bool listed = comparator == "any_of" || comparator == "all_of";
    for (std::size_t start = 0; start <= value.size();) {
      const std::size_t end = listed ? std::min(value.find(',', start), value.size()) : value.size();
      const std::string_view piece = value.substr(start, end - start);
      if (std::find(p->values.begin(), p->values.end(), piece) == p->values.end()) {
        std::string list;
        for (std::string_view v : p->values) list += (list.empty() ? "" : ", ") + std::string(v);
        throw std::invalid_argument("parameter '" + std::string(name) + "': '" + std::string(piece) +
                                    "' is not one of its values: " + list);
      }
      start = end + 1;
    }
  }
  // Every required parameter left out, named at once: the call cannot be made without them.
  std::string missing;
  std::size_t count = 0;
  for (const parameter_info& k : known) {
    if (!k.required) continue;
    const bool given = std::any_of(args.begin(), args.end(), [&](const auto& a) { return a.first == k.wire; });
    if (given) continue;
    missing += std::string(count++ == 0 ? "'" : ", '") + std::string(k.wire) + "'";
    if (!k.former.empty()) missing += " (formerly " + std::string(k.former) + ")";
  }
  if (count != 0) {
    throw std::invalid_argument((count == 1 ? "missing required parameter " : "missing required parameters ") + missing);
  }
}

std::vector<std::pair<std::string_view, std::string_view>> current_names(argument_list args,
                                                                         std::span<const parameter_info> known) {
  std::vector<std::pair<std::string_view, std::string_view>> out(args.begin(), args.end());
  for (auto& argument : out) {
    for (const parameter_info& k : known) {
      if (!k.former.empty() && k.former == argument.first) argument.first = k.wire;
    }
  }
  return out;
}

std::optional<std::string_view> find_argument(argument_list args, std::string_view name) {
  std::optional<std::string_view> found;
  for (const auto& [key, value] : args) {
    if (key != name) continue;
    if (found) throw std::invalid_argument("parameter '" + std::string(name) + "' given twice");
    found = value;
  }
  return found;
}

[[noreturn]] void bad_argument(std::string_view name, std::string_view text, const char* expected) {
  throw std::invalid_argument("parameter '" + std::string(name) + "': '" + std::string(text) + "' is not " +
                              expected);
}

std::chrono::year_month_day date_argument(std::string_view name, std::string_view text) {
  if (const auto date = massive::parse_date(text)) return *date;
  bad_argument(name, text, "a date (YYYY-MM-DD, a day of the calendar)");
}

std::vector<std::string_view> split_list(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::span<const std::string_view> list_argument(argument_list args, std::string_view wire,
                                                std::vector<std::vector<std::string_view>>& storage) {
  const auto text = find_argument(args, wire);
  if (!text) return {};
  storage.push_back(split_list(*text));
  return storage.back();
}

}  // namespace detail

}  // namespace massive::reflection
