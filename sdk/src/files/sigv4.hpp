// AWS Signature Version 4 for S3 requests, sans-I/O: the canonical request, the string to sign,
// the signing key and the Authorization header, with OpenSSL's SHA-256 and HMAC. Checked against
// AWS's published examples (tests/files/sigv4_test.cpp).
#pragma once

#include <array>
#include <chrono>
#include <span>
#include <string>
#include <string_view>

namespace massive::files::detail {

/// One header that is signed: its name in any case, its value as sent.
struct signed_header {
  std::string_view name;
  std::string_view value;
};

/// What a request's signature covers.
struct sigv4_request {
  std::string_view method = "GET";
  /// The path as sent, already encoded with uri_encode(segment, false) (S3 does not encode it
  /// twice).
  std::string_view path = "/";
  /// The query as sent ("list-type=2&prefix=a%2Fb"), each name and value already encoded with
  /// uri_encode(x, true); the canonical form sorts it. A name without '=' signs as "name=".
  std::string_view query;
  /// Every header to sign, host and x-amz-date included (x-amz-content-sha256 for S3).
  std::span<const signed_header> headers;
  /// Hex SHA-256 of the body (empty_payload_sha256 for a GET).
  std::string_view payload_hash;
  /// The request's time, ISO 8601 basic ("20130524T000000Z"): its first eight characters are the
  /// scope's date.
  std::string_view amz_date;
  std::string_view region = "us-east-1";
  std::string_view service = "s3";
};

/// SHA-256 of the empty string, in hex.
inline constexpr std::string_view empty_payload_sha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// RFC 3986 unreserved characters stay, every other byte becomes %XY (upper-case hex); '/' stays
/// when `encode_slash` is false (an S3 key in a path).
std::string uri_encode(std::string_view text, bool encode_slash);
/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);
/// HMAC-SHA256 of `data` under `key`.
std::array<unsigned char, 32> hmac_sha256(std::span<const unsigned char> key,
                                          std::string_view data);
/// Lower-case hex of `bytes`.
std::string to_hex(std::span<const unsigned char> bytes);

/// The canonical request: method, path, sorted query, lower-cased trimmed sorted headers, the
/// signed headers' names, the payload hash, each on its line.
std::string canonical_request(const sigv4_request& request);
/// "host;range;x-amz-content-sha256;x-amz-date": the signed headers' names, lower-cased, sorted.
std::string signed_header_names(std::span<const signed_header> headers);
/// "20130524/us-east-1/s3/aws4_request".
std::string credential_scope(const sigv4_request& request);
/// AWS4-HMAC-SHA256, the time, the scope and the canonical request's hash, each on its line.
std::string string_to_sign(const sigv4_request& request, std::string_view canonical);
/// HMAC chain of "AWS4" + secret over the date, the region, the service and "aws4_request".
std::array<unsigned char, 32> signing_key(std::string_view secret, std::string_view date,
                                          std::string_view region, std::string_view service);
/// The hex signature of the request.
std::string signature(const sigv4_request& request, std::string_view secret);
/// The Authorization header's value: "AWS4-HMAC-SHA256 Credential=<key>/<scope>,
/// SignedHeaders=<names>, Signature=<hex>". Holds the access key id, never the secret.
std::string authorization(const sigv4_request& request, std::string_view access_key,
                          std::string_view secret);

/// `t` as ISO 8601 basic, UTC: "20130524T000000Z".
std::string amz_date(std::chrono::system_clock::time_point t);

}  // namespace massive::files::detail
