// massive_codegen: writes generated/ from the OpenAPI description and the curated map.
//
//   massive_codegen --spec <openapi.json> [--stream-spec <websocket.json>] --map <map.txt> --out <generated dir>
//   massive_codegen --spec <openapi.json> [--stream-spec <websocket.json>] --map <map.txt> --compare <generated dir>
//
// --out writes every file and removes generated files that are no longer produced; --compare
// writes nothing and fails listing every file that differs, is missing or is extra. Exit
// codes: 0 done, 1 the description or map is refused (each problem on its own line, naming
// the operation or field and the map row to add), 2 bad usage or I/O, 3 --compare differs.
#include "build.hpp"
#include "emit.hpp"
#include "stream.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
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

int usage() {
  std::cerr << "usage: massive_codegen --spec <openapi.json> [--stream-spec <websocket.json>] --map <map.txt> (--out | --compare) <dir>\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string spec_path, stream_spec_path, map_path, out_dir;
  bool compare = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--spec") {
      spec_path = argv[i + 1];
    } else if (flag == "--stream-spec") {
      stream_spec_path = argv[i + 1];
    } else if (flag == "--map") {
      map_path = argv[i + 1];
    } else if (flag == "--out" || flag == "--compare") {
      out_dir = argv[i + 1];
      compare = flag == "--compare";
    } else {
      return usage();
    }
  }
  if (spec_path.empty() || map_path.empty() || out_dir.empty() || argc % 2 == 0) return usage();

  file_set files;
  try {
    const json spec = json::load(spec_path);
    const curated_map map = curated_map::load(map_path);
    // The stream rows first: the REST build reports every row nobody used.
    stream_api streams;
    if (stream_spec_path.empty()) {
      set_aside_stream_rows(map);
    } else {
      streams = build_stream(json::load(stream_spec_path), map);
      emit_stream(streams, files);
    }
    api a = build(spec, map);
    // The event models are plain models (no REST rows): appended after the REST ones, they keep
    // the catalog's indices of those.
    std::set<std::string> stream_models;
    for (auto& m : streams.models) {
      stream_models.insert(m->name);
      for (const auto& rest : a.models) {
        if (rest->name == m->name) throw generation_error({"stream model " + m->name + " has a REST model's name"});
      }
      a.models.push_back(std::move(m));
    }
    emit_models(a, files);
    emit_groups(a, files);
    emit_mock(a, files);
    emit_cmake(a, stream_models, files);
  } catch (const generation_error& e) {
    std::cerr << "massive_codegen: generation refused (" << e.problems().size() << " problem"
              << (e.problems().size() == 1 ? "" : "s") << "):\n";
    for (const std::string& p : e.problems()) std::cerr << "  " << p << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "massive_codegen: " << e.what() << "\n";
    return 2;
  }

  const fs::path root(out_dir);
  const std::set<std::string> before = existing_files(root);
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
      std::ofstream(target, std::ios::binary) << content;
    }
    for (const std::string& rel : before) {
      if (!files.count(rel)) fs::remove(root / rel);
    }
  } catch (const std::exception& e) {
    std::cerr << "massive_codegen: cannot write " << out_dir << ": " << e.what() << "\n";
    return 2;
  }
  std::cout << "massive_codegen: " << files.size() << " files in " << out_dir << "\n";
  return 0;
}
