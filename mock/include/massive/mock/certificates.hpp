// Certificates made at test time with OpenSSL (EC P-256 keys), so no key material lives in
// the repository and nothing expires.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace massive::mock {

/// A certificate and its private key, both PEM.
struct pem_pair {
  /// The certificate, PEM.
  std::string certificate;
  /// Its private key, PEM.
  std::string private_key;
};

/// Names a certificate covers (subjectAltName): DNS names and IP addresses.
struct subject_names {
  /// DNS names, e.g. "localhost".
  std::vector<std::string> dns;
  /// IP addresses, e.g. "127.0.0.1".
  std::vector<std::string> ip;
};

/// The usual test identity: DNS localhost, IP 127.0.0.1.
subject_names loopback_names();

/// A self-signed certificate (its own trust anchor) for `names`.
pem_pair make_self_signed(const subject_names& names, std::string_view common_name = "massive test");

/// The name under which OpenSSL looks a certificate up in a CA directory: "<subject hash>.0".
std::string ca_directory_file_name(std::string_view certificate_pem);

/// A CA that issues leaf certificates; a second instance is an untrusted CA.
class certificate_authority {
 public:
  /// A new CA with a fresh key and a self-signed certificate named `common_name`.
  explicit certificate_authority(std::string_view common_name);
  /// The CA's certificate: what a client trusts to accept the leaves it issues.
  const std::string& certificate_pem() const noexcept { return self_.certificate; }
  /// A leaf for `names`, signed by this CA.
  pem_pair issue(const subject_names& names, std::string_view common_name = "massive leaf") const;

 private:
  pem_pair self_;
};

/// A fresh directory under the system temp directory, removed with everything in it.
class temp_directory {
 public:
  temp_directory();
  ~temp_directory();
  temp_directory(const temp_directory&) = delete;
  temp_directory& operator=(const temp_directory&) = delete;

  /// The directory's path.
  const std::filesystem::path& path() const noexcept { return path_; }
  /// Writes `contents` to path()/name and returns the file's path.
  std::string write(std::string_view name, std::string_view contents) const;

 private:
  std::filesystem::path path_;
};

}  // namespace massive::mock
