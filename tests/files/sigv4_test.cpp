// SigV4 against AWS's published examples: the S3 API Reference's "Signature Calculations for the
// Authorization Header" (sig-v4-header-based-auth: GET Object with a Range, GET Bucket
// lifecycle, GET Bucket (ListObjects)), with the example credentials AKIAIOSFODNN7EXAMPLE, and
// the general reference's signing-key example. The values below are AWS's, not ours.
#include "files/sigv4.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>

namespace massive::files::detail {
namespace {

constexpr std::string_view access_key = "AKIAIOSFODNN7EXAMPLE";
constexpr std::string_view secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
constexpr std::string_view example_date = "20130524T000000Z";

TEST_CASE("sigv4: AWS's GET Object example (Range bytes=0-9), step by step") {
  const signed_header headers[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                                   {"Range", "bytes=0-9"},
                                   {"x-amz-content-sha256", empty_payload_sha256},
                                   {"x-amz-date", example_date}};
  sigv4_request r;
  r.path = "/test.txt";
  r.headers = headers;
  r.payload_hash = empty_payload_sha256;
  r.amz_date = example_date;

  const std::string canonical = canonical_request(r);
  // Seen failing with the header names left in their case: every check of this case, the signature
  // e11600b4... instead of f0e8bdb8..., SignedHeaders=Host;Range;....
  CHECK(canonical ==
        "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
        "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
        "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(string_to_sign(r, canonical) ==
        "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
        "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  CHECK(signature(r, secret) == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  CHECK(authorization(r, access_key, secret) ==
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST_CASE("sigv4: AWS's GET Bucket (List Objects) example: the query is signed sorted") {
  const signed_header headers[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                                   {"x-amz-content-sha256", empty_payload_sha256},
                                   {"x-amz-date", example_date}};
  sigv4_request r;
  r.path = "/";
  r.headers = headers;
  r.payload_hash = empty_payload_sha256;
  r.amz_date = example_date;
  // Sent in either order, the canonical query is "max-keys=2&prefix=J".
  // Seen failing with the sort in canonical_query removed: the second order's canonical request
  // hashed to d2c37406... instead of df57d21d....
  for (const std::string_view query : {"max-keys=2&prefix=J", "prefix=J&max-keys=2"}) {
    CAPTURE(query);
    r.query = query;
    const std::string canonical = canonical_request(r);
    CHECK(sha256_hex(canonical) ==
          "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7");
    CHECK(signature(r, secret) ==
          "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  }
}

TEST_CASE("sigv4: AWS's GET Bucket lifecycle example: a parameter without a value signs as name=") {
  const signed_header headers[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                                   {"x-amz-content-sha256", empty_payload_sha256},
                                   {"x-amz-date", example_date}};
  sigv4_request r;
  r.path = "/";
  r.query = "lifecycle";
  r.headers = headers;
  r.payload_hash = empty_payload_sha256;
  r.amz_date = example_date;
  CHECK(canonical_request(r).starts_with("GET\n/\nlifecycle=\n"));
  CHECK(signature(r, secret) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST_CASE("sigv4: the signing key of AWS's general reference example") {
  // "Examples of how to derive a signing key for Signature Version 4": secret
  // wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 20120215, us-east-1, iam.
  CHECK(to_hex(signing_key("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215", "us-east-1",
                           "iam")) ==
        "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

TEST_CASE("sigv4: header values are trimmed and their inner runs of spaces collapsed") {
  const signed_header headers[] = {
      {"X-Amz-Date", example_date}, {"My-Header", "  a   b  "}, {"Host", "h"}};
  sigv4_request r;
  r.headers = headers;
  r.payload_hash = empty_payload_sha256;
  r.amz_date = example_date;
  CHECK(canonical_request(r) ==
        "GET\n/\n\nhost:h\nmy-header:a b\nx-amz-date:20130524T000000Z\n\n"
        "host;my-header;x-amz-date\n" +
            std::string(empty_payload_sha256));
}

TEST_CASE("sigv4: URI encoding of keys and query values") {
  CHECK(uri_encode("us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz", false) ==
        "us_stocks_sip/trades_v1/2024/04/2024-04-05.csv.gz");
  CHECK(uri_encode("us_stocks_sip/trades_v1/", true) == "us_stocks_sip%2Ftrades_v1%2F");
  CHECK(uri_encode("a b+c~d=é", true) == "a%20b%2Bc~d%3D%C3%A9");
}

TEST_CASE("sigv4: the Authorization header names the access key, never the secret") {
  const signed_header headers[] = {{"Host", "files.massive.com"}, {"x-amz-date", example_date}};
  sigv4_request r;
  r.headers = headers;
  r.payload_hash = empty_payload_sha256;
  r.amz_date = example_date;
  const std::string value = authorization(r, access_key, secret);
  CHECK(value.find(access_key) != std::string::npos);
  CHECK(value.find(secret) == std::string::npos);
  CHECK(value.find("wJalr") == std::string::npos);
}

TEST_CASE("sigv4: x-amz-date is the UTC time in ISO 8601 basic form") {
  using namespace std::chrono;
  CHECK(amz_date(sys_days{2013y / May / 24}) == "20130524T000000Z");
  CHECK(amz_date(sys_days{2024y / April / 5} + 13h + 7min + 9s) == "20240405T130709Z");
}

}  // namespace
}  // namespace massive::files::detail
