#include "nats_fixture.hpp"

#include "loopback_ports.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace massive::test {

namespace asio = boost::asio;
using asio::ip::tcp;

nats_node::nats_node(options o) : port_(o.port != 0 ? o.port : free_port()) {
  std::ostringstream conf;
  conf << "server_name: " << o.name << "\nlisten: 127.0.0.1:" << port_
       << "\njetstream {\n  store_dir: \"" << (dir_.path() / "store").string() << "\"\n}\n";
  if (!o.user.empty()) {
    conf << "authorization {\n  user: \"" << o.user << "\"\n  password: \"" << o.password
         << "\"\n}\n";
  }
  if (!o.cluster.empty()) {
    conf << "cluster {\n  name: " << o.cluster << "\n  listen: 127.0.0.1:" << o.cluster_port
         << "\n  routes: [";
    for (std::size_t i = 0; i < o.routes.size(); ++i) {
      conf << (i == 0 ? "" : ", ") << "nats-route://127.0.0.1:" << o.routes[i];
    }
    conf << "]\n}\n";
  }
  const std::string conf_path = dir_.write("nats.conf", conf.str());
  const std::string log_path = (dir_.path() / "nats.log").string();
  const char* binary = MASSIVE_NATS_SERVER;
  std::vector<char*> argv{const_cast<char*>(binary), const_cast<char*>("-c"),
                          const_cast<char*>(conf_path.c_str()), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  const int spawned = posix_spawn(&pid_, binary, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE_MESSAGE(spawned == 0, "cannot start " << binary);
  for (int i = 0; i < 500 && !accepts_connections(port_); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE_MESSAGE(accepts_connections(port_),
                  "nats-server does not listen on " << port_ << ": " << log());
}

nats_node::~nats_node() { kill(); }

void nats_node::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::string nats_node::url() const { return "nats://127.0.0.1:" + std::to_string(port_); }

std::string nats_node::log() const {
  std::ifstream in(dir_.path() / "nats.log");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

nats_cluster::nats_cluster() {
  std::vector<std::uint16_t> routes{free_port(), free_port(), free_port()};
  for (std::size_t i = 0; i < routes.size(); ++i) {
    nodes_.push_back(
        std::make_unique<nats_node>(nats_node::options{.cluster = "massive",
                                                       .cluster_port = routes[i],
                                                       .routes = routes,
                                                       .name = "n" + std::to_string(i + 1)}));
  }
}

std::string nats_cluster::servers() const {
  std::string out;
  for (const auto& n : nodes_) out += (out.empty() ? "" : ",") + n->url();
  return out;
}

}  // namespace massive::test
