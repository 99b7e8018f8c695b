// massive_codegen: writes generated/ from the API descriptions and the curated map.
//
//   massive_codegen --spec <openapi.json> --stream-spec <websocket.json> --map <map.txt>
//                   (--out | --compare) <generated dir> [--prune] [--strict]
//
// --out writes every file and removes generated files that are no longer produced; --compare
// writes nothing and fails listing every file that differs, is missing or is extra. Names the
// map does not give get defaults, rows naming nothing are warnings, drafts are skipped: all
// listed on stderr and in the change report (generated/CHANGES.md, also printed when the
// surface changed). --prune removes the stale rows from the map and the evidence audit and
// rewrites the audit's counts; --strict refuses any default, warning or skip (the repository's
// own check). Exit codes: 0 done, 1 refused (every problem on its own line, with its place and
// the row to write), 2 bad usage or I/O, 3 --compare differs, 4 --strict found notices.
#include "build.hpp"
#include "emit.hpp"
#include "report.hpp"
#include "stream.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;
using namespace massive::codegen;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The generated files under `root` (README.md is hand-written and stays).
std::set<std::string> existing_files(const fs::path& root) {
  std::set<std::string> out;
  if (!fs::exists(root)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), root).generic_string();
    if (rel != "README.md") out.insert(rel);
  }
  return out;
}

/// A description: a readable, non-empty JSON object with paths, or an error naming the file.
json load_description(const std::string& path, const char* what) {
  if (path.empty()) throw std::runtime_error(std::string("no ") + what + " given");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) == 0) {
    throw std::runtime_error(std::string("the ") + what + " " + path + " is missing or empty: nothing generated or deleted");
  }
  json d = json::load(path);
  if (!d.is_object() || d.find("paths") == nullptr) {
    throw std::runtime_error(std::string("the ") + what + " " + path + " is not an OpenAPI description (no paths)");
  }
  return d;
}

/// How messages name a file: relative to the repository (the generated directory's parent) when
/// it lies inside it, so that generated text does not depend on where the generator ran.
std::string display_name(const std::string& file, const std::string& out_dir) {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(out_dir), ec).parent_path();
  const fs::path rel = fs::relative(fs::weakly_canonical(fs::absolute(file), ec), root, ec);
  if (ec || rel.empty() || *rel.begin() == "..") return file;
  return rel.generic_string();
}

/// Writes a whole file; throws naming it when it could not be (a name too long, a full disk):
/// a stream that failed writes nothing and says nothing.
void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

/// Rewrites `file` without the lines in `drop`; `replace` maps a line to its new text.
void rewrite(const std::string& file, const std::set<std::size_t>& drop, std::size_t replace_line = 0,
             const std::string& replacement = {}) {
  std::ifstream in(file);
  std::string text, line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (number == replace_line) {
      text += replacement + "\n";
    } else if (!drop.count(number)) {
      text += line + "\n";
    }
  }
  in.close();
  write_file(file, text);
}

/// --prune: stale rows of the map and of the official names removed; stale audit rows removed
/// and the audit summary's counts rewritten.
void prune(const curated_map& map, const notices& n) {
  if (!n.stale_map_lines.empty()) rewrite(map.file(), n.stale_map_lines);
  if (!n.stale_names_lines.empty()) rewrite(n.names_path, n.stale_names_lines);
  if (n.audit_path.empty() || n.stale_audit_lines.empty()) return;
  std::ifstream in(n.audit_path);
  std::string line;
  std::size_t summary = 0;
  std::string summary_text;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.rfind("summary\t", 0) != 0) continue;
    // summary <TAB> corrections <TAB> <n> fields <TAB> <n> payloads <TAB> why
    const std::size_t first = line.find('\t'), second = line.find('\t', first + 1);
    const std::size_t fourth = line.find('\t', line.find('\t', second + 1) + 1);
    summary = number;
    summary_text = line.substr(0, second + 1) + n.audit_counts + line.substr(fourth);
  }
  in.close();
  std::set<std::size_t> drop = n.stale_audit_lines;
  drop.erase(summary);
  rewrite(n.audit_path, drop, summary, summary_text);
}

int usage() {
  std::cerr << "usage: massive_codegen --spec <openapi.json> --stream-spec <websocket.json> --map <map.txt> "
               "(--out | --compare) <dir> [--prune] [--strict]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path, stream_spec_path, map_path, out_dir;
  bool compare = false, prune_rows = false, strict = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--prune") {
      prune_rows = true;
      continue;
    }
    if (flag == "--strict") {
      strict = true;
      continue;
    }
    if (i + 1 >= argc) return usage();
    const std::string value = argv[++i];
    if (flag == "--spec") {
      spec_path = value;
    } else if (flag == "--stream-spec") {
      stream_spec_path = value;
    } else if (flag == "--map") {
      map_path = value;
    } else if (flag == "--out" || flag == "--compare") {
      out_dir = value;
      compare = flag == "--compare";
    } else {
      return usage();
    }
  }
  if (spec_path.empty() || stream_spec_path.empty() || map_path.empty() || out_dir.empty()) return usage();

  file_set files;
  notices n;
  std::optional<curated_map> map;
  try {
    const json spec = load_description(spec_path, "REST description");
    const json stream_spec = load_description(stream_spec_path, "stream description");
    map.emplace(curated_map::load(map_path, display_name(map_path, out_dir)));
    stream_api streams = build_stream(stream_spec, *map, n);
    std::set<std::string> stream_models;
    for (const auto& m : streams.models) stream_models.insert(m->name);
    api a = build(spec, *map, stream_models, n);
    emit_stream(streams, files);
    // The event models are plain models (no REST rows): appended after the REST ones, they keep
    // the catalog's indices of those.
    for (auto& m : streams.models) a.models.push_back(std::move(m));
    emit_models(a, files);
    emit_groups(a, files);
    emit_files(a, files);
    emit_mock(a, files);
    emit_cmake(a, stream_models, files);
    std::vector<const stream_event*> events;
    for (const stream_event& e : streams.events) events.push_back(&e);
    emit_surface(a, events, files);
    emit_reference(a, files);
  } catch (const generation_error& e) {
    for (const std::string& w : n.warnings) std::cerr << "warning: " << w << "\n";
    std::cerr << "massive_codegen: generation refused (" << e.problems().size() << " problem"
              << (e.problems().size() == 1 ? "" : "s") << "; nothing written):\n";
    for (const std::string& p : e.problems()) std::cerr << "  " << p << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "massive_codegen: " << e.what() << "\n";
    return 2;
  }

  const fs::path root(out_dir);
  const std::set<std::string> before = existing_files(root);
  const std::string old_surface = before.count("surface.txt") ? read_file(root / "surface.txt") : std::string();
  const change_report report = compare_surfaces(old_surface, files.at("surface.txt"), n);
  // The report says what the last change was: a regeneration that changes nothing keeps it.
  if (!report.changed() && before.count("CHANGES.md")) {
    files["CHANGES.md"] = read_file(root / "CHANGES.md");
  } else {
    files["CHANGES.md"] = report.markdown;
  }

  for (const std::string& d : n.defaults) std::cerr << "default: " << d << "\n";
  for (const std::string& s : n.skipped) std::cerr << "skipped: " << s << "\n";
  for (const std::string& w : n.warnings) std::cerr << "warning: " << w << "\n";
  if (strict && !(n.defaults.empty() && n.skipped.empty() && n.warnings.empty())) {
    std::cerr << "massive_codegen: --strict: " << n.defaults.size() << " default name(s), " << n.skipped.size()
              << " skipped operation(s), " << n.warnings.size() << " warning(s); nothing written\n";
    return 4;
  }

  if (compare) {
    int differences = 0;
    for (const auto& [rel, content] : files) {
      if (!before.count(rel)) {
        std::cerr << "missing: " << rel << "\n", ++differences;
      } else if (read_file(root / rel) != content) {
        std::cerr << "differs: " << rel << "\n", ++differences;
      }
    }
    for (const std::string& rel : before) {
      if (!files.count(rel)) std::cerr << "extra: " << rel << "\n", ++differences;
    }
    if (differences != 0) {
      std::cerr << "massive_codegen: " << differences << " generated file(s) out of date in " << out_dir
                << ": regenerate with `cmake --build <build> --target massive_regenerate`\n";
      return 3;
    }
    return 0;
  }
  try {
    for (const auto& [rel, content] : files) {
      const fs::path target = root / rel;
      fs::create_directories(target.parent_path());
      if (before.count(rel) && read_file(target) == content) continue;  // keep timestamps: no rebuild
      write_file(target, content);
    }
    for (const std::string& rel : before) {
      if (!files.count(rel)) fs::remove(root / rel);
    }
    if (prune_rows) prune(*map, n);
  } catch (const std::exception& e) {
    std::cerr << "massive_codegen: cannot write " << out_dir << ": " << e.what() << "\n";
    return 2;
  }
  if (report.changed()) std::cout << report.markdown;
  std::cout << "massive_codegen: " << files.size() << " files in " << out_dir << "; " << report.breaking
            << " breaking, " << report.additions << " added, " << report.others << " other change(s) (CHANGES.md); "
            << n.defaults.size() << " default name(s), " << n.skipped.size() << " skipped, " << n.warnings.size()
            << " warning(s)" << (prune_rows ? "; stale rows pruned" : "") << "\n";
  return 0;
}
