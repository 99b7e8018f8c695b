// Certificate and host name verification.
#include "fixture.hpp"

#include <doctest/doctest.h>

namespace asio = boost::asio;
using namespace massive::test;

namespace {

std::string handshake_failure(const trusted_server& s, massive::client_config opts) {
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), std::move(opts));
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  CHECK(transport_code(o) == massive::errc::tls_handshake_failed);
  CHECK(s.server.request_count() == 0);
  return o.error ? error_as<massive::transport_error>(o).what() : "";
}

}  // namespace

TEST_CASE("an untrusted self-signed server is refused, with the verification reason") {
  trusted_server s;
  temp_directory dir;
  auto opts = client_options(s);
  opts.tls.ca_file = dir.write("other.pem", make_self_signed(loopback_names()).certificate);
  const auto what = handshake_failure(s, opts);
  CHECK(what.find("certificate verify failed: self-signed certificate") != std::string::npos);
}

TEST_CASE("a certificate from an untrusted CA is refused") {
  certificate_authority trusted_ca("trusted test CA");
  certificate_authority rogue_ca("rogue test CA");
  trusted_server s(server_options{.identity = rogue_ca.issue(loopback_names())});
  auto opts = client_options(s);
  opts.tls.ca_file = s.dir.write("ca.pem", trusted_ca.certificate_pem());
  const auto what = handshake_failure(s, opts);
  CHECK(what.find("certificate verify failed: unable to get local issuer certificate") != std::string::npos);
}

TEST_CASE("a certificate for another host name is refused") {
  certificate_authority ca("test CA");
  SUBCASE("connecting by IP address") {
    trusted_server s(server_options{.identity = ca.issue({{"api.other.example"}, {"10.1.2.3"}})});
    auto opts = client_options(s);
    opts.tls.ca_file = s.dir.write("ca.pem", ca.certificate_pem());
    CHECK(handshake_failure(s, opts).find("IP address mismatch") != std::string::npos);
  }
  SUBCASE("connecting by host name") {
    trusted_server s(server_options{.identity = ca.issue({{"api.other.example"}, {"127.0.0.1"}})});
    auto opts = client_options(s);
    opts.tls.ca_file = s.dir.write("ca.pem", ca.certificate_pem());
    opts.base_url = "https://localhost:" + std::to_string(s.server.port());
    CHECK(handshake_failure(s, opts).find("hostname mismatch") != std::string::npos);
  }
}

TEST_CASE("a CA-issued certificate for the host is accepted, by IP and by host name") {
  certificate_authority ca("test CA");
  trusted_server s(server_options{.identity = ca.issue(loopback_names())});
  auto opts = client_options(s);
  opts.tls.ca_file = s.dir.write("ca.pem", ca.certificate_pem());
  asio::io_context io;
  for (const std::string& base : {s.server.base_url(), "https://localhost:" + std::to_string(s.server.port())}) {
    opts.base_url = base;
    massive::detail::http_client client(io.get_executor(), opts);
    collecting_sink sink;
    CHECK(get(client, io, "/x", sink).ok());
  }
}

TEST_CASE("verify_peer = false accepts an untrusted server") {
  trusted_server s;
  auto opts = client_options(s);
  opts.tls.ca_file.clear();
  opts.tls.verify_peer = false;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  CHECK(get(client, io, "/x", sink).ok());
}

TEST_CASE("the system trust store does not trust the test server") {
  trusted_server s;
  auto opts = client_options(s);
  opts.tls.ca_file.clear();
  handshake_failure(s, opts);
}

TEST_CASE("SNI carries the host name, never an IP address") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  for (const std::string& base : {s.server.base_url(), "https://localhost:" + std::to_string(s.server.port())}) {
    opts.base_url = base;
    massive::detail::http_client client(io.get_executor(), opts);
    collecting_sink sink;
    REQUIRE(get(client, io, "/x", sink).ok());
  }
  CHECK(s.server.server_names() == std::vector<std::string>{"", "localhost"});
}

TEST_CASE("a CA directory in c_rehash layout is a trust store") {
  certificate_authority ca("directory CA");
  trusted_server s(server_options{.identity = ca.issue(loopback_names())});
  temp_directory store;
  store.write(ca_directory_file_name(ca.certificate_pem()), ca.certificate_pem());
  auto opts = client_options(s);
  opts.tls.ca_file.clear();
  opts.tls.ca_directory = store.path().string();
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  CHECK(get(client, io, "/x", sink).ok());
}
