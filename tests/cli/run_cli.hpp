// Runs the built `massive` (MASSIVE_CLI) as a child process and keeps what it printed and how
// it exited, so that the CLI tests assert the exit code and the output together.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace massive::test {

/// How a child process ended.
struct run_result {
  int exit_code = -1;  ///< its exit status; -1 when a signal ended it
  std::string out;     ///< its stdout
  std::string err;     ///< its stderr
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Runs `argv` (argv[0] is found on PATH when it has no '/') with this process's environment
/// plus `env` ("NAME=value" each, replacing a variable of the same name), stdin from /dev/null.
inline run_result run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env = {}) {
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    bool replaced = false;
    for (const std::string& mine : env) replaced = replaced || mine.substr(0, mine.find('=') + 1) == entry.substr(0, entry.find('=') + 1);
    if (!replaced) environment.push_back(entry);
  }
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char*> args, envp;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  for (const std::string& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
  args.push_back(nullptr);
  envp.push_back(nullptr);

  char out_path[] = "/tmp/massive-cli-test-out-XXXXXX";
  char err_path[] = "/tmp/massive-cli-test-err-XXXXXX";
  const int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
  if (out_fd < 0 || err_fd < 0) throw std::runtime_error("mkstemp failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_fd);
  close(err_fd);
  run_result result;
  if (spawned == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  unlink(out_path);
  unlink(err_path);
  if (spawned != 0) throw std::runtime_error("cannot run " + argv[0]);
  return result;
}

/// Runs the CLI with `args`.
inline run_result run_cli(std::vector<std::string> args, const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), MASSIVE_CLI);
  return run_program(args, env);
}

/// The lines of `text` (a last line without '\n' counts).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace massive::test
