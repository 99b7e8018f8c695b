// generated/surface.txt: the public surface in C++ terms, one tab-separated fact a line, sorted,
// so that two surfaces compare line by line (report.cpp) and a diff of the file reads as a list
// of what changed for a user.
#include "emit.hpp"
#include "stream.hpp"

#include <algorithm>
#include <vector>

namespace massive::codegen {

namespace {

std::string returns(const operation& o) {
  const std::string row = "massive::" + o.row->name;
  if (!o.paginated) return "page<" + row + ">";
  if (o.page_style) return "page<" + row + "> and " + o.name + "_pages(): cursor<" + row + ">";
  return "cursor<" + row + ">";
}

std::string flags(const operation& o) {
  std::string out;
  if (o.experimental) out += " experimental";
  if (o.graduated) out += " graduated";
  if (o.deprecated) out += " deprecated";
  if (o.ignored) out += " variant";
  return out.empty() ? "-" : out.substr(1);
}

}  // namespace

void emit_surface(const api& a, const std::vector<const stream_event*>& events, file_set& out) {
  std::vector<std::string> lines;
  for (const operation& o : a.operations) {
    const std::string id = o.group + "." + o.name;
    lines.push_back("op\t" + id + "\tGET " + o.path + "\t" + returns(o) + "\t" + flags(o));
    for (const std::vector<param>* list : {&o.path_params, &o.query_params}) {
      for (const param& p : *list) {
        lines.push_back("param\t" + id + "." + p.name + "\t" + p.wire + "\t" + cxx::param_type(p) + "\t" +
                        (p.required ? "required" : "optional"));
      }
    }
  }
  for (const auto& m : a.models) {
    lines.push_back("model\t" + m->name);
    for (const field& f : m->fields) {
      lines.push_back("field\t" + m->name + "." + f.name + "\t" + f.key + "\t" + cxx::field_type(f));
    }
  }
  for (const auto& e : a.enums) {
    lines.push_back("enum\t" + e->name);
    for (const std::string& v : e->values) lines.push_back("value\t" + e->name + "." + v);
  }
  for (const stream_event* e : events) {
    if (e->market.empty()) continue;  // status events: every market's, described by their model
    lines.push_back("event\t" + e->event->name + "\t" + e->market + " " + e->feed + " " + e->prefix + "\tev=" + e->ev +
                    " topic=" + e->topic);
  }
  std::sort(lines.begin(), lines.end());
  std::string f =
      "# The public surface generated/ gives a user, in C++ terms: one fact a line, tab-separated.\n"
      "# Written by massive_codegen; the change report (CHANGES.md) compares it with the one it replaces.\n";
  for (const std::string& l : lines) f += l + "\n";
  out["surface.txt"] = std::move(f);
}

}  // namespace massive::codegen
