// What AddressSanitizer reports about a misuse, seen without the report ending the suite: the
// misuse runs in a forked child whose stderr the test reads.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

namespace massive::test {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
constexpr bool address_sanitizer = __has_feature(address_sanitizer);
#else
constexpr bool address_sanitizer = false;
#endif

// Runs `misuse` in a child process and returns what it wrote to stderr, and whether it
// exited normally with status 0 (which a reported error never does).
template <class Misuse>
std::pair<std::string, bool> stderr_of_child(Misuse misuse) {
  int pipe_ends[2];
  REQUIRE(::pipe(pipe_ends) == 0);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::dup2(pipe_ends[1], 2);
    ::close(pipe_ends[0]);
    misuse();
    ::_exit(0);
  }
  ::close(pipe_ends[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
    output.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_ends[0]);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return {output, WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

// Reads every byte of `bytes` where the compiler cannot drop the reads.
inline void read_all(std::string_view bytes) {
  volatile char sink = 0;
  for (const char c : bytes) sink = static_cast<char>(sink ^ c);
}

}  // namespace massive::test
