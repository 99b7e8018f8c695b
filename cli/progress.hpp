// The progress line of a call: pages, rows, MB/s of response bodies and time elapsed, rewritten
// in place on stderr after each page. Shown only where a person watches it and the rows do
// not scroll it away: stderr is a terminal, and the rows go to a file or a pipe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace massive::cli {

class progress_line {
 public:
  /// Shown when `enabled`; see shown_for().
  explicit progress_line(bool enabled);
  /// True when stderr is a terminal and the rows do not go to it too (`rows_to_file`, or
  /// stdout is not a terminal).
  static bool shown_for(bool rows_to_file);

  /// Body bytes received (called from the client's trace hook).
  void received(std::uint64_t bytes) { bytes_ += bytes; }
  /// A page of `rows` rows was printed.
  void page(std::size_t rows);
  /// Ends the line, leaving the last figures on the terminal.
  void finish();

 private:
  void draw();

  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t pages_ = 0, rows_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace massive::cli
