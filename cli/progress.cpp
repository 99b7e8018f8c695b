#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace massive::cli {

progress_line::progress_line(bool enabled) : enabled_(enabled) {}

bool progress_line::shown_for(bool rows_to_file) {
  return isatty(STDERR_FILENO) == 1 && (rows_to_file || isatty(STDOUT_FILENO) != 1);
}

void progress_line::page(std::size_t rows) {
  ++pages_;
  rows_ += rows;
  draw();
}

void progress_line::finish() {
  if (enabled_ && pages_ != 0) std::fputc('\n', stderr);
}

void progress_line::draw() {
  if (!enabled_) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // \r and erase-to-end-of-line: the line is rewritten in place.
  std::fprintf(stderr, "\r\033[K%zu page%s, %zu rows, %.1f MB/s, %.1f s", pages_, pages_ == 1 ? "" : "s", rows_,
               seconds > 0 ? static_cast<double>(bytes_) / seconds / 1e6 : 0.0, seconds);
  std::fflush(stderr);
}

}  // namespace massive::cli
