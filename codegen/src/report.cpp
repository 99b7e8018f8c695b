#include "report.hpp"

#include <map>
#include <set>
#include <vector>

namespace massive::codegen {

namespace {

/// kind -> id -> the line's other columns.
using surface = std::map<std::string, std::map<std::string, std::vector<std::string>>>;

surface parse(std::string_view text) {
  surface out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> columns;
    for (std::size_t from = 0; from <= line.size();) {
      const std::size_t tab = std::min(line.find('\t', from), line.size());
      columns.emplace_back(line.substr(from, tab - from));
      from = tab + 1;
    }
    if (columns.size() < 2) continue;
    out[columns[0]][columns[1]] = std::vector<std::string>(columns.begin() + 2, columns.end());
  }
  return out;
}

std::string column(const std::vector<std::string>& c, std::size_t i) { return i < c.size() ? c[i] : std::string(); }

/// client.stocks().trades() for "stocks.trades".
std::string call(const std::string& id) {
  const auto dot = id.find('.');
  return "`client." + id.substr(0, dot) + "()." + id.substr(dot + 1) + "()`";
}

/// massive::trade::price for "trade.price".
std::string member(const std::string& id) {
  std::string out = "`massive::" + id;
  for (std::size_t at = 0; (at = out.find('.', at)) != std::string::npos;) out.replace(at, 1, "::");
  return out + "`";
}

bool has_flag(const std::vector<std::string>& op, std::string_view flag) {
  return (" " + column(op, 2) + " ").find(" " + std::string(flag) + " ") != std::string::npos;
}

struct lists {
  std::vector<std::string> breaking, added, other;
};

void compare_operations(const surface& before, const surface& after, lists& out) {
  const auto& old_ops = before.count("op") ? before.at("op") : std::map<std::string, std::vector<std::string>>{};
  const auto& new_ops = after.count("op") ? after.at("op") : std::map<std::string, std::vector<std::string>>{};
  std::map<std::string, std::string> new_by_route;
  for (const auto& [id, c] : new_ops) new_by_route[column(c, 0)] = id;
  std::set<std::string> renamed_to;
  for (const auto& [id, c] : old_ops) {
    const auto now = new_ops.find(id);
    if (now == new_ops.end()) {
      const auto same_route = new_by_route.find(column(c, 0));
      if (same_route != new_by_route.end() && !old_ops.count(same_route->second)) {
        out.breaking.push_back("renamed " + call(id) + " to " + call(same_route->second) + " (`" + column(c, 0) + "`)");
        renamed_to.insert(same_route->second);
      } else {
        out.breaking.push_back("removed " + call(id) + " (`" + column(c, 0) + "`)");
      }
      continue;
    }
    const std::vector<std::string>& n = now->second;
    if (column(c, 1) != column(n, 1)) {
      out.breaking.push_back(call(id) + " now returns `" + column(n, 1) + "`, not `" + column(c, 1) + "`");
    }
    if (has_flag(c, "experimental") && has_flag(n, "graduated")) {
      out.other.push_back(call(id) + " is no longer experimental (massive::experimental is still taken, deprecated)");
    } else if (has_flag(c, "experimental") != has_flag(n, "experimental")) {
      out.breaking.push_back(call(id) + (has_flag(n, "experimental") ? " is now experimental (pass massive::experimental)"
                                                                      : " is no longer experimental (drop massive::experimental)"));
    }
    if (column(c, 0) != column(n, 0)) out.other.push_back(call(id) + " now calls `" + column(n, 0) + "`, not `" + column(c, 0) + "`");
    if (has_flag(c, "deprecated") != has_flag(n, "deprecated")) {
      out.other.push_back(call(id) + (has_flag(n, "deprecated") ? " is now deprecated" : " is no longer deprecated"));
    }
  }
  for (const auto& [id, c] : new_ops) {
    if (old_ops.count(id) || renamed_to.count(id)) continue;
    out.added.push_back(call(id) + " (`" + column(c, 0) + "`) returning `" + column(c, 1) + "`" +
                        (has_flag(c, "experimental") ? ", experimental" : "") + (has_flag(c, "deprecated") ? ", deprecated" : ""));
  }
  // Parameters of the operations both surfaces have.
  const auto& old_params = before.count("param") ? before.at("param") : std::map<std::string, std::vector<std::string>>{};
  const auto& new_params = after.count("param") ? after.at("param") : std::map<std::string, std::vector<std::string>>{};
  const auto op_of = [](const std::string& id) { return id.substr(0, id.rfind('.')); };
  const auto spell = [&](const std::string& id) {
    return "parameter `." + id.substr(id.rfind('.') + 1) + "` of " + call(op_of(id));
  };
  for (const auto& [id, c] : old_params) {
    if (!old_ops.count(op_of(id)) || !new_ops.count(op_of(id))) continue;
    const auto now = new_params.find(id);
    if (now == new_params.end()) {
      out.breaking.push_back("removed " + spell(id) + " (`" + column(c, 0) + "`)");
      continue;
    }
    const std::vector<std::string>& n = now->second;
    if (column(c, 1) != column(n, 1)) {
      out.breaking.push_back(spell(id) + " is now `" + column(n, 1) + "`, not `" + column(c, 1) + "`");
    } else if (column(c, 2) != column(n, 2)) {
      (column(n, 2) == "required" ? out.breaking : out.other).push_back(spell(id) + " is now " + column(n, 2));
    }
    if (column(c, 0) != column(n, 0)) out.other.push_back(spell(id) + " is now sent as `" + column(n, 0) + "`");
  }
  for (const auto& [id, c] : new_params) {
    if (!old_ops.count(op_of(id)) || !new_ops.count(op_of(id)) || old_params.count(id)) continue;
    const std::string text = spell(id) + " (`" + column(c, 0) + "`, `" + column(c, 1) + "`)";
    if (column(c, 2) == "required") {
      out.breaking.push_back("new required " + text);
    } else {
      out.added.push_back(text);
    }
  }
}

/// Models and their fields, enumerations and their values, stream events.
void compare_types(const surface& before, const surface& after, lists& out) {
  const auto kinds = [](const surface& s, const char* k) {
    return s.count(k) ? s.at(k) : std::map<std::string, std::vector<std::string>>{};
  };
  const auto owner = [](const std::string& id) { return id.substr(0, id.find('.')); };
  for (const auto& [kind, part, what] :
       {std::tuple{"model", "field", "field"}, std::tuple{"enum", "value", "value"}}) {
    const auto old_types = kinds(before, kind), new_types = kinds(after, kind);
    const auto old_parts = kinds(before, part), new_parts = kinds(after, part);
    for (const auto& [id, c] : old_types) {
      if (!new_types.count(id)) out.breaking.push_back(std::string("removed ") + kind + " `massive::" + id + "`");
    }
    for (const auto& [id, c] : new_types) {
      if (old_types.count(id)) continue;
      std::size_t parts = 0;
      for (auto it = new_parts.lower_bound(id + "."); it != new_parts.end() && owner(it->first) == id; ++it) ++parts;
      out.added.push_back(std::string(kind) + " `massive::" + id + "` (" + std::to_string(parts) + " " + what + "s)");
    }
    for (const auto& [id, c] : old_parts) {
      if (!old_types.count(owner(id)) || !new_types.count(owner(id))) continue;
      const auto now = new_parts.find(id);
      if (now == new_parts.end()) {
        out.breaking.push_back(std::string("removed ") + what + " " + member(id));
      } else if (column(c, 1) != column(now->second, 1)) {
        out.breaking.push_back(member(id) + " is now `" + column(now->second, 1) + "`, not `" + column(c, 1) + "`");
      } else if (column(c, 0) != column(now->second, 0)) {
        out.other.push_back(member(id) + " is now read from `" + column(now->second, 0) + "`");
      }
    }
    for (const auto& [id, c] : new_parts) {
      if (!old_types.count(owner(id)) || !new_types.count(owner(id)) || old_parts.count(id)) continue;
      out.added.push_back(std::string(what) + " " + member(id) + (c.size() > 1 ? " (`" + column(c, 1) + "`)" : ""));
    }
  }
  const auto old_events = kinds(before, "event"), new_events = kinds(after, "event");
  for (const auto& [id, c] : old_events) {
    const auto now = new_events.find(id);
    if (now == new_events.end()) {
      out.breaking.push_back("removed stream event `massive::" + id + "` (" + column(c, 0) + ")");
    } else if (c != now->second) {
      out.breaking.push_back("stream event `massive::" + id + "` is now " + column(now->second, 0) + " " +
                             column(now->second, 1) + ", not " + column(c, 0) + " " + column(c, 1));
    }
  }
  for (const auto& [id, c] : new_events) {
    if (!old_events.count(id)) out.added.push_back("stream event `massive::" + id + "` (" + column(c, 0) + ", " + column(c, 1) + ")");
  }
}

void section(std::string& md, const std::string& title, const std::vector<std::string>& items) {
  if (items.empty()) return;
  md += "\n## " + title + "\n\n";
  for (const std::string& i : items) md += "- " + i + "\n";
}

}  // namespace

change_report compare_surfaces(std::string_view before, std::string_view after, const notices& n) {
  change_report r;
  const surface old_surface = parse(before), new_surface = parse(after);
  lists l;
  if (!before.empty()) {
    compare_operations(old_surface, new_surface, l);
    compare_types(old_surface, new_surface, l);
  }
  r.breaking = l.breaking.size();
  r.additions = l.added.size();
  r.others = l.other.size();
  const auto count = [&](const char* kind) {
    return std::to_string(new_surface.count(kind) ? new_surface.at(kind).size() : 0);
  };
  std::string& md = r.markdown;
  md = "# What the last regeneration changed\n\n"
       "Written by massive_codegen: the surface it replaced (`surface.txt` before) against the one it wrote.\n"
       "The generated API now has " + count("op") + " operations, " + count("model") + " models, " + count("enum") +
       " enumerations and " + count("event") + " stream channels.\n";
  if (before.empty()) {
    md += "\nThere was no earlier surface to compare with.\n";
  } else {
    md += "\n" + std::to_string(r.breaking) + " breaking (code using them no longer compiles), " +
          std::to_string(r.additions) + " added, " + std::to_string(r.others) + " other.\n";
  }
  section(md, "Breaking: code using these no longer compiles", l.breaking);
  section(md, "Added", l.added);
  section(md, "Other changes", l.other);
  section(md, "Names the map does not give (defaults)", n.defaults);
  section(md, "Not generated", n.skipped);
  section(md, "Warnings", n.warnings);
  return r;
}

}  // namespace massive::codegen
