// The flat files' row types (generated/include/massive/files/rows.hpp): one per `file` row of
// the map whose model the description has, each a REST model plus the ticker, and the list of
// them that the decoder's schemas and the command-line tool's dispatch are written over. A
// description without a dataset's model leaves its row type out; everything written over the
// list still compiles.
#include "emit.hpp"

namespace massive::codegen {

namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

}  // namespace

void emit_files(const api& a, file_set& out) {
  std::string h = text::banner();
  h += "// The flat files' row types this description gives: a REST model plus the ticker a file's row\n"
       "// names (massive/files/row.hpp). A dataset whose model the description lacks has none, and\n"
       "// no MASSIVE_FILES_HAS_* macro, for code that compiles with or without it.\n"
       "#pragma once\n\n";
  for (const file_rows& f : a.files) h += "#include \"massive/models/" + f.rows->name + ".hpp\"\n";
  h += "#include \"massive/files/keys.hpp\"\n#include \"massive/files/row.hpp\"\n\nnamespace massive::files {\n";
  std::string list;
  for (const file_rows& f : a.files) {
    h += "\n" + text::comment(0, "The " + f.market + " " + f.dataset + " files' rows: REST's massive::" + f.rows->name + ".");
    h += "using " + f.name + " = row<massive::" + f.rows->name + ">;\n";
    h += "#define MASSIVE_FILES_HAS_" + upper(f.name) + " 1\n";
    h += "/// Its name (in error messages), market and dataset.\ntemplate <>\nstruct row_traits<" + f.name + "> {\n";
    h += "  static constexpr std::string_view name = \"" + f.name + "\";\n";
    h += "  static constexpr files::market market = files::market::" + f.market + ";\n";
    h += "  static constexpr files::dataset dataset = files::dataset::" + f.dataset + ";\n};\n";
    list += (list.empty() ? "" : ", ") + f.name;
  }
  h += "\n/// Every row type above, in the map's order.\nusing tick_row_types = row_type_list<" + list + ">;\n\n";
  h += "}  // namespace massive::files\n";
  out["include/massive/files/rows.hpp"] = std::move(h);
}

}  // namespace massive::codegen
