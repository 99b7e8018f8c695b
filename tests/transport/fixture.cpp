#include "fixture.hpp"

#include <doctest/doctest.h>

#include <random>

namespace massive::test {

message_log& message_log::instance() {
  static message_log log;
  return log;
}

void message_log::record(std::string_view text) {
  const bool leaked = text.find(test_api_key) != std::string_view::npos;
  {
    std::lock_guard lock(mutex_);
    messages_.emplace_back(text);
    if (leaked) ++leaks_;
  }
  if (leaked) FAIL_CHECK("the API key appears in: " << text);
}

std::size_t message_log::size() const {
  std::lock_guard lock(mutex_);
  return messages_.size();
}

std::size_t message_log::leaks() const {
  std::lock_guard lock(mutex_);
  return leaks_;
}

std::vector<std::string> message_log::snapshot() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

trusted_server::trusted_server(server_options options)
    : server(std::move(options)), ca_file(dir.write("trusted.pem", server.certificate_pem())) {}

client_config client_options(const trusted_server& s) {
  return client_config{
      .api_key = std::string(test_api_key),
      .base_url = s.server.base_url(),
      .connect_timeout = std::chrono::milliseconds(5'000),
      .request_timeout = std::chrono::milliseconds(10'000),
      .connections_per_origin = 2,
      .tls = {.ca_file = s.ca_file},
      // The fault suites look at each answer as it came: retries are the retry suite's.
      .retry = {.max_attempts = 1},
      .trace = [](const trace_event& e) { message_log::instance().record(to_string(e)); },
  };
}

void collecting_sink::feed(std::span<const char> chunk) {
  ++feeds;
  data.append(chunk.data(), chunk.size());
}

std::uint64_t fnv1a(std::string_view data) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) h = (h ^ c) * 1099511628211ull;
  return h;
}

void hashing_sink::feed(std::span<const char> chunk) {
  for (unsigned char c : chunk) hash = (hash ^ c) * 1099511628211ull;
  size += chunk.size();
}

outcome get(massive::detail::http_client& client, boost::asio::io_context& io, std::string_view target, massive::detail::body_sink& sink,
            const call_options* call, massive::detail::target_kind kind) {
  outcome result;
  bool done = false;
  client.initiate_get(kind, target, sink, call, [&](std::exception_ptr e, response_info info) {
    result.error = e;
    result.info = std::move(info);
    done = true;
  });
  io.restart();
  io.run();
  REQUIRE(done);
  if (result.error) {
    try {
      std::rethrow_exception(result.error);
    } catch (const std::exception& e) {
      message_log::instance().record(e.what());
    }
  }
  return result;
}

template <class E>
E error_as(const outcome& o) {
  REQUIRE(o.error);
  try {
    std::rethrow_exception(o.error);
  } catch (const E& e) {
    return e;
  } catch (const std::exception& e) {
    FAIL("unexpected exception: " << std::string(e.what()));
  }
  throw std::logic_error("unreachable");
}

template api_error error_as<api_error>(const outcome&);
template transport_error error_as<transport_error>(const outcome&);
template decode_error error_as<decode_error>(const outcome&);

boost::system::error_code transport_code(const outcome& o) {
  if (!o.error) return {};
  try {
    std::rethrow_exception(o.error);
  } catch (const transport_error& e) {
    return e.code();
  } catch (...) {
  }
  return make_error_code(std::errc::invalid_argument);
}

std::string make_body(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(size, ' ');
  for (auto& c : s) c = static_cast<char>(' ' + rng() % 95);
  return s;
}

}  // namespace massive::test
