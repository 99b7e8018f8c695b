// What the generator's three reviewed tables share (the curated map, the evidence audit, the
// official clients' names): a text file read line by line into rows, each row remembering its
// line, and one way to name a line in a message.
#pragma once

#include <cstddef>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace massive::codegen {

template <class Row>
class row_file {
 public:
  const std::vector<Row>& rows() const noexcept { return rows_; }
  /// The file's name in messages (codegen/map.txt, whatever the working directory, so that what
  /// the generator writes does not depend on where it ran).
  const std::string& path() const noexcept { return path_; }
  /// The file itself, to read what it names beside it and to rewrite it (--prune).
  const std::string& file() const noexcept { return file_; }
  /// "<path>:<line>", to name a line (or a row's line) in a problem.
  std::string where(std::size_t line) const { return path_ + ":" + std::to_string(line); }
  std::string where(const Row& row) const { return where(row.line); }

 protected:
  /// Reads `file`, named `name` in messages, calling `read(line, number)` for each line (from
  /// 1). Throws std::runtime_error saying "cannot read <what> <file>" when it cannot be opened.
  template <class Read>
  void read_lines(const std::string& file, const std::string& name, const std::string& what,
                  Read read) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + what + " " + file);
    path_ = name;
    file_ = file;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) read(line, number);
  }

  /// The error for a malformed line: "<path>:<line>: <why>".
  std::runtime_error line_error(std::size_t line, const std::string& why) const {
    return std::runtime_error(where(line) + ": " + why);
  }

  std::vector<Row> rows_;

 private:
  std::string path_;
  std::string file_;
};

}  // namespace massive::codegen
