// Resident memory of this process, sampled over time for the soak's "memory stays flat" check.
#pragma once

#include <chrono>
#include <cstddef>
#include <fstream>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

namespace massive::soak {

/// Resident set size now, in bytes (/proc/self/statm); 0 where it cannot be read.
inline std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

/// The kernel's high-water mark of the resident set (VmHWM of /proc/self/status), in bytes.
inline std::size_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // in kB
  }
  return 0;
}

/// Samples, in order of time: the share of the calls completed (0 to 1) and the resident bytes.
struct rss_sample {
  double progress;
  std::size_t bytes;
};

/// Flat: the second half of the calls peaks no higher than the first half's peak plus
/// `tolerance` of it and `slack` bytes. The first half holds the warm-up: the pool's pages,
/// the connections, the allocator's arenas; growth after it is what a leak looks like.
struct flatness {
  std::size_t first_half_peak = 0;
  std::size_t second_half_peak = 0;
  bool flat = true;
};

inline flatness judge(const std::vector<rss_sample>& samples, double tolerance, std::size_t slack) {
  flatness f;
  for (const rss_sample& s : samples) {
    auto& peak = s.progress < 0.5 ? f.first_half_peak : f.second_half_peak;
    if (s.bytes > peak) peak = s.bytes;
  }
  f.flat = static_cast<double>(f.second_half_peak) <=
           static_cast<double>(f.first_half_peak) * (1 + tolerance) + static_cast<double>(slack);
  return f;
}

}  // namespace massive::soak
