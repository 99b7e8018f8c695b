#include "massive/mock/certificates.hpp"

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <unistd.h>

namespace massive::mock {
namespace {

template <class T, void (*Free)(T*)>
struct deleter {
  void operator()(T* p) const noexcept { Free(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, deleter<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, deleter<X509, X509_free>>;
using bio_ptr = std::unique_ptr<BIO, deleter<BIO, BIO_free_all>>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("certificate generation failed: ") + what);
}

pkey_ptr make_key() {
  pkey_ptr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "EVP_EC_gen");
  return key;
}

std::string to_pem(X509* cert) {
  bio_ptr bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_X509(bio.get(), cert) == 1, "PEM_write_bio_X509");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

std::string to_pem(EVP_PKEY* key) {
  bio_ptr bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
        "PEM_write_bio_PrivateKey");
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(n));
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  check(ext != nullptr, "X509V3_EXT_conf_nid");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

std::string san_value(const subject_names& names) {
  std::string v;
  const auto add = [&v](std::string_view kind, const std::string& name) {
    if (!v.empty()) v += ',';
    v.append(kind).append(name);
  };
  for (const auto& d : names.dns) add("DNS:", d);
  for (const auto& i : names.ip) add("IP:", i);
  return v;
}

// issuer == nullptr: self-signed with `key`.
x509_ptr make_certificate(EVP_PKEY* key, std::string_view common_name, const subject_names* names,
                          bool is_ca, X509* issuer, EVP_PKEY* issuer_key) {
  static std::atomic<long> serial{static_cast<long>(std::random_device{}() & 0xFFFFFF)};
  x509_ptr cert(X509_new());
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), ++serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 7 * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(std::string(common_name).c_str()),
                             -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  add_extension(cert.get(), signer, NID_basic_constraints, is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  add_extension(cert.get(), signer, NID_key_usage,
                is_ca ? "critical,keyCertSign,cRLSign,digitalSignature" : "critical,digitalSignature");
  add_extension(cert.get(), signer, NID_subject_key_identifier, "hash");
  if (issuer != nullptr) add_extension(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
  if (names != nullptr) {
    add_extension(cert.get(), signer, NID_subject_alt_name, san_value(*names));
    add_extension(cert.get(), signer, NID_ext_key_usage, "serverAuth");
  }
  check(X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256()) > 0, "X509_sign");
  return cert;
}

}  // namespace

std::string ca_directory_file_name(std::string_view certificate_pem) {
  bio_ptr bio(BIO_new_mem_buf(certificate_pem.data(), static_cast<int>(certificate_pem.size())));
  x509_ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  check(cert != nullptr, "reading the certificate");
  char name[32];
  std::snprintf(name, sizeof name, "%08lx.0", X509_subject_name_hash(cert.get()));
  return name;
}

subject_names loopback_names() { return {{"localhost"}, {"127.0.0.1"}}; }

pem_pair make_self_signed(const subject_names& names, std::string_view common_name) {
  auto key = make_key();
  // CA:TRUE so that OpenSSL accepts the certificate as its own trust anchor.
  auto cert = make_certificate(key.get(), common_name, &names, true, nullptr, nullptr);
  return {to_pem(cert.get()), to_pem(key.get())};
}

certificate_authority::certificate_authority(std::string_view common_name) {
  auto key = make_key();
  auto cert = make_certificate(key.get(), common_name, nullptr, true, nullptr, nullptr);
  self_ = {to_pem(cert.get()), to_pem(key.get())};
}

pem_pair certificate_authority::issue(const subject_names& names, std::string_view common_name) const {
  bio_ptr cert_bio(BIO_new_mem_buf(self_.certificate.data(), static_cast<int>(self_.certificate.size())));
  x509_ptr ca_cert(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  bio_ptr key_bio(BIO_new_mem_buf(self_.private_key.data(), static_cast<int>(self_.private_key.size())));
  pkey_ptr ca_key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  check(ca_cert && ca_key, "reading the CA");
  auto key = make_key();
  auto cert = make_certificate(key.get(), common_name, &names, false, ca_cert.get(), ca_key.get());
  return {to_pem(cert.get()), to_pem(key.get())};
}

temp_directory::temp_directory() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("massive-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(path_);
}

temp_directory::~temp_directory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string temp_directory::write(std::string_view name, std::string_view contents) const {
  const auto file = path_ / name;
  std::ofstream out(file, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (!out) throw std::runtime_error("cannot write " + file.string());
  return file.string();
}

}  // namespace massive::mock
