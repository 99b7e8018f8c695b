#include "proxy_fixture.hpp"

#include "loopback_ports.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace massive::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

tinyproxy::tinyproxy(std::uint16_t connect_port, std::optional<credentials> basic_auth)
    : log_path_((dir_.path() / "tinyproxy.log").string()) {
  const char* binary = MASSIVE_TINYPROXY;
  REQUIRE_MESSAGE(binary[0] != '\0', "tinyproxy is not installed: run scripts/install-deps.sh");
  port_ = free_port();
  std::ostringstream conf;
  conf << "Port " << port_ << "\nListen 127.0.0.1\nTimeout 30\nMaxClients 16\n"
       << "LogFile \"" << log_path_ << "\"\nLogLevel Connect\nAllow 127.0.0.1\n"
       << "ConnectPort " << connect_port << "\nDisableViaHeader Yes\n";
  if (basic_auth) conf << "BasicAuth " << basic_auth->user << " " << basic_auth->password << "\n";
  const std::string conf_path = dir_.write("tinyproxy.conf", conf.str());
  // -d: stay in the foreground, so that the pid is tinyproxy's and SIGTERM stops it.
  std::vector<std::string> args = {binary, "-d", "-c", conf_path};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const int spawned = posix_spawn(&pid_, binary, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE_MESSAGE(spawned == 0, "cannot start " << binary);
  // Ready when it accepts; bounded, and a process that exited fails at once.
  for (int i = 0; i < 200 && !accepts_connections(port_); ++i) {
    int status = 0;
    REQUIRE_MESSAGE(waitpid(pid_, &status, WNOHANG) == 0, "tinyproxy exited: " << log());
    std::this_thread::sleep_for(25ms);
  }
  REQUIRE_MESSAGE(accepts_connections(port_), "tinyproxy does not listen on " << port_ << ": " << log());
}

tinyproxy::~tinyproxy() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

std::string tinyproxy::url(const std::optional<credentials>& with) const {
  std::string userinfo = with ? with->user + ":" + with->password + "@" : "";
  return "http://" + userinfo + "127.0.0.1:" + std::to_string(port_);
}

std::string tinyproxy::log() const {
  std::ifstream in(log_path_);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t tinyproxy::tunnels() const {
  std::istringstream lines(log());
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("]: Request (file descriptor") != std::string::npos && line.find("): CONNECT ") != std::string::npos) {
      ++count;
    }
  }
  return count;
}

void check_no_proxy_credentials(const std::vector<std::string>& lines,
                                std::initializer_list<tinyproxy::credentials> pairs) {
  CHECK(lines.size() >= 1);
  std::vector<std::string> secrets;
  for (const auto& pair : pairs) {
    const std::string basic = pair.user + ":" + pair.password;
    std::string encoded(4 * ((basic.size() + 2) / 3) + 1, '\0');
    const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(encoded.data()),
                                       reinterpret_cast<const unsigned char*>(basic.data()), static_cast<int>(basic.size()));
    encoded.resize(static_cast<std::size_t>(length));
    // Without its padding: a shortened copy is caught too.
    encoded.erase(encoded.find_last_not_of('=') + 1);
    secrets.push_back(pair.password);
    secrets.push_back(std::move(encoded));
  }
  // Seen failing, in both suites, with the Proxy-Authorization value appended to tunnel_failure()'s
  // messages: "proxy credentials in: proxy 127.0.0.1:43603 rejected the credentials of the proxy URL
  // (401 Unauthorized) Basic dHJhZGVyOldyb25nUGFzcw==", in the error and in the trace line.
  for (const auto& line : lines) {
    for (const auto& secret : secrets) {
      CHECK_MESSAGE(line.find(secret) == std::string::npos, "proxy credentials in: " << line);
    }
  }
}

environment_guard::~environment_guard() {
  for (auto& [name, value] : saved_) {
    if (value) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
}

void environment_guard::set(const char* name, const std::string& value) {
  remember(name);
  setenv(name, value.c_str(), 1);
}

void environment_guard::unset(const char* name) {
  remember(name);
  unsetenv(name);
}

void environment_guard::remember(const char* name) {
  const char* old = std::getenv(name);
  saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
}

struct scripted_proxy::impl {
  explicit impl(std::uint16_t upstream) : upstream_port(upstream) {}

  proxy_script next_script(std::string head) {
    std::lock_guard lock(mutex);
    heads.push_back(std::move(head));
    if (scripts.empty()) return {};
    auto s = std::move(scripts.front());
    scripts.pop_front();
    return s;
  }

  // Relays `from` to `to`; with a limit, resets `reset` once that many bytes went through.
  static asio::awaitable<void> relay(tcp::socket& from, tcp::socket& to, std::optional<std::size_t> limit,
                                     tcp::socket* reset) {
    std::array<char, 16 * 1024> buffer;
    std::size_t total = 0;
    for (;;) {
      std::size_t n = co_await from.async_read_some(asio::buffer(buffer), asio::use_awaitable);
      if (limit && total + n >= *limit) n = *limit - total;
      co_await asio::async_write(to, asio::buffer(buffer.data(), n), asio::use_awaitable);
      total += n;
      if (limit && total >= *limit) {
        reset->set_option(asio::socket_base::linger(true, 0));
        reset->close();
        co_return;
      }
    }
  }

  asio::awaitable<void> session(tcp::socket client) {
    try {
      std::string head;
      std::array<char, 4096> buffer;
      while (head.find("\r\n\r\n") == std::string::npos) {
        const std::size_t n = co_await client.async_read_some(asio::buffer(buffer), asio::use_awaitable);
        head.append(buffer.data(), n);
      }
      const proxy_script script = next_script(head);
      if (script.what != proxy_script::action::tunnel) {
        co_await asio::async_write(client, asio::buffer(script.answer), asio::use_awaitable);
        if (script.what == proxy_script::action::answer_then_stall) {
          asio::steady_timer forever(io, std::chrono::hours(1));
          co_await forever.async_wait(asio::use_awaitable);
        }
        co_return;
      }
      tcp::socket upstream(io);
      co_await upstream.async_connect({asio::ip::address_v4::loopback(), upstream_port}, asio::use_awaitable);
      static constexpr std::string_view established = "HTTP/1.1 200 Connection established\r\n\r\n";
      co_await asio::async_write(client, asio::buffer(established), asio::use_awaitable);
      using namespace asio::experimental::awaitable_operators;
      co_await (relay(client, upstream, std::nullopt, nullptr) || relay(upstream, client, script.reset_after, &client));
    } catch (const std::exception&) {
      // The client left, or a reset was scripted: the session ends.
    }
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      tcp::socket s = co_await acceptor.async_accept(asio::use_awaitable);
      asio::co_spawn(io, session(std::move(s)), asio::detached);
    }
  }

  std::uint16_t upstream_port;
  asio::io_context io;
  tcp::acceptor acceptor{io, {asio::ip::address_v4::loopback(), 0}};
  std::mutex mutex;
  std::deque<proxy_script> scripts;
  std::vector<std::string> heads;
  std::thread thread;
};

scripted_proxy::scripted_proxy(std::uint16_t upstream_port) : impl_(std::make_unique<impl>(upstream_port)) {
  asio::co_spawn(impl_->io, impl_->accept_loop(), asio::detached);
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

scripted_proxy::~scripted_proxy() {
  impl_->io.stop();
  impl_->thread.join();
}

void scripted_proxy::enqueue(proxy_script script) {
  std::lock_guard lock(impl_->mutex);
  impl_->scripts.push_back(std::move(script));
}

std::string scripted_proxy::url(const std::string& userinfo) const {
  return "http://" + (userinfo.empty() ? "" : userinfo + "@") + "127.0.0.1:" +
         std::to_string(impl_->acceptor.local_endpoint().port());
}

std::vector<std::string> scripted_proxy::heads() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->heads;
}

}  // namespace massive::test
