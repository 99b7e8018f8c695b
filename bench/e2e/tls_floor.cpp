// The memory floor of the end-to-end benchmark: a C++ program that fetches the same pages over
// OpenSSL on one keep-alive connection and decodes nothing. It links what any C++ client of
// this API over OpenSSL links (libstdc++, libssl, libcrypto, libc), reads into one 16 KiB
// buffer and keeps no rows, so its peak RSS is what such a client carries before it holds a
// single row: the part of client (a)'s peak that no SDK change can remove.
//
//   massive_e2e_tls_floor <port> <ca_file> <target>...
//
// Each target is fetched from 127.0.0.1:<port>, the server's certificate verified against
// <ca_file> for the address 127.0.0.1. Prints "pages=<n> body_bytes=<sum> peak_rss_kib=<kib>";
// the benchmark script checks the byte count against the fixtures it wrote.
#include "digest.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const std::string& what) {
  char detail[256] = "";
  if (const unsigned long code = ERR_get_error()) ERR_error_string_n(code, detail, sizeof detail);
  throw std::runtime_error(what + (detail[0] ? std::string(": ") + detail : std::string()));
}

class tls_connection {
 public:
  tls_connection(int port, const char* ca_file) {
    ctx_ = SSL_CTX_new(TLS_client_method());
    if (ctx_ == nullptr || SSL_CTX_load_verify_locations(ctx_, ca_file, nullptr) != 1) fail("loading the CA");
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("connecting to 127.0.0.1");
    }
    ssl_ = SSL_new(ctx_);
    if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1 ||
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), "127.0.0.1") != 1 || SSL_connect(ssl_) != 1) {
      fail("TLS handshake");
    }
  }
  tls_connection(const tls_connection&) = delete;
  tls_connection& operator=(const tls_connection&) = delete;
  ~tls_connection() {
    SSL_free(ssl_);
    if (fd_ >= 0) ::close(fd_);
    SSL_CTX_free(ctx_);
  }

  void write(std::string_view bytes) {
    while (!bytes.empty()) {
      const int n = SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()));
      if (n <= 0) fail("sending the request");
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  /// One GET; returns the body's length. The body is read into buffer_ and dropped.
  std::size_t get(std::string_view target) {
    write(std::string("GET ").append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                    "Authorization: Bearer bench\r\n\r\n"));
    // The head, byte by byte into a small string: its size is a few hundred bytes.
    std::string head;
    while (head.size() < 4 || head.compare(head.size() - 4, 4, "\r\n\r\n") != 0) {
      if (head.size() > 16 * 1024) throw std::runtime_error("response head too large");
      char c;
      if (SSL_read(ssl_, &c, 1) != 1) fail("reading the response head");
      head.push_back(c);
    }
    if (head.compare(0, 12, "HTTP/1.1 200") != 0) throw std::runtime_error("status: " + head.substr(0, 12));
    const auto length_at = head.find("\r\nContent-Length: ");
    if (length_at == std::string::npos) throw std::runtime_error("no Content-Length");
    const char* digits = head.data() + length_at + 18;
    std::size_t length = 0;
    if (std::from_chars(digits, head.data() + head.size(), length).ec != std::errc{}) {
      throw std::runtime_error("bad Content-Length");
    }
    for (std::size_t left = length; left > 0;) {
      const int n = SSL_read(ssl_, buffer_, static_cast<int>(std::min(left, sizeof buffer_)));
      if (n <= 0) fail("reading the body");
      left -= static_cast<std::size_t>(n);
    }
    return length;
  }

 private:
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  int fd_ = -1;
  char buffer_[16 * 1024];
};

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <port> <ca_file> <target>...\n", argv[0]);
    return 2;
  }
  tls_connection connection(std::atoi(argv[1]), argv[2]);
  std::size_t body_bytes = 0;
  for (int i = 3; i < argc; ++i) body_bytes += connection.get(argv[i]);
  std::printf("pages=%d body_bytes=%zu peak_rss_kib=%ld\n", argc - 3, body_bytes,
              massive::bench::e2e::peak_rss_kib());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_e2e_tls_floor: %s\n", e.what());
  return 1;
}
