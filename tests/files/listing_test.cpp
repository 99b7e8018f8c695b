// The ListObjectsV2 reader: the answer's shape as S3's API Reference documents it (ListObjectsV2,
// "Response Syntax"), entities, continuation, and hostile input bounded.
#include <doctest/doctest.h>

#include <string>

#include "files/list_objects_xml.hpp"
#include "massive/files/error.hpp"

namespace massive::files::detail {
namespace {

constexpr std::string_view two_files = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>flatfiles</Name>
  <Prefix>us_stocks_sip/trades_v1/2024/04/</Prefix>
  <KeyCount>2</KeyCount>
  <MaxKeys>2</MaxKeys>
  <IsTruncated>true</IsTruncated>
  <Contents>
    <Key>us_stocks_sip/trades_v1/2024/04/2024-04-01.csv.gz</Key>
    <LastModified>2024-04-02T15:04:05.000Z</LastModified>
    <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag>
    <Size>1354829312</Size>
    <StorageClass>STANDARD</StorageClass>
  </Contents>
  <Contents>
    <Key>us_stocks_sip/trades_v1/2024/04/2024-04-02.csv.gz</Key>
    <LastModified>2024-04-03T15:04:05.000Z</LastModified>
    <ETag>"a7f1&#x2D;2"</ETag>
    <Size>0</Size>
  </Contents>
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
</ListBucketResult>)";

TEST_CASE("listing: keys, sizes, ETags and the continuation token") {
  const listing_page page = parse_list_objects(two_files);
  REQUIRE(page.objects.size() == 2);
  CHECK(page.objects[0].key == "us_stocks_sip/trades_v1/2024/04/2024-04-01.csv.gz");
  CHECK(page.objects[0].size == 1354829312);
  // Seen failing with append_decoded's &quot; case removed: "files: malformed_listing: an unknown
  // entity '&quot;' (documents define none)".
  CHECK(page.objects[0].etag == "\"9b2cf535f27731c974343645a3985328\"");
  CHECK(page.objects[0].last_modified == "2024-04-02T15:04:05.000Z");
  CHECK(page.objects[1].etag == "\"a7f1-2\"");
  CHECK(page.objects[1].size == 0);
  CHECK(page.truncated);
  CHECK(page.next_continuation_token == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
  CHECK(page.common_prefixes.empty());
}

TEST_CASE("listing: a last page, common prefixes, entities and CDATA in keys") {
  const listing_page page = parse_list_objects(
      "<ListBucketResult><IsTruncated>false</IsTruncated>"
      "<Contents><Key>a&amp;b&lt;c&gt;&apos;&#233;</Key><Size>7</Size></Contents>"
      "<Contents><Key><![CDATA[x<&>y]]></Key><Size>1</Size></Contents>"
      "<CommonPrefixes><Prefix>us_stocks_sip/</Prefix></CommonPrefixes>"
      "<CommonPrefixes><Prefix>us_options_opra/</Prefix></CommonPrefixes>"
      "<!-- a comment --><Empty/></ListBucketResult>");
  REQUIRE(page.objects.size() == 2);
  CHECK(page.objects[0].key == "a&b<c>'\xC3\xA9");
  CHECK(page.objects[1].key == "x<&>y");
  CHECK_FALSE(page.truncated);
  REQUIRE(page.common_prefixes.size() == 2);
  CHECK(page.common_prefixes[1] == "us_options_opra/");
}

void expect_malformed(std::string_view xml, std::string_view needle) {
  CAPTURE(xml);
  try {
    (void)parse_list_objects(xml);
    FAIL("accepted");
  } catch (const files_error& e) {
    CHECK(e.code() == files_errc::malformed_listing);
    CHECK_MESSAGE(std::string_view(e.what()).find(needle) != std::string_view::npos,
                  std::string(e.what()));
  }
}

TEST_CASE("listing: what is not a listing is a typed error naming the problem") {
  expect_malformed("", "no element");
  expect_malformed("not xml", "text outside the root");
  expect_malformed("<Error><Code>AccessDenied</Code></Error>", "not <ListBucketResult>");
  expect_malformed(
      "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
      "Size");
  expect_malformed(
      "<ListBucketResult><Contents><Key>k</Key><Size>99999999999999999999</Size></Contents></"
      "ListBucketResult>",
      "Size");
  expect_malformed("<ListBucketResult><Contents><Key>k</Key>", "ends inside <Contents>");
  expect_malformed("<ListBucketResult></Contents></ListBucketResult>", "closes no open element");
  expect_malformed("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
                   "without a NextContinuationToken");
  expect_malformed("<ListBucketResult><Key>&bogus;</Key></ListBucketResult>", "unknown entity");
  expect_malformed("<ListBucketResult><Key>&#0;</Key></ListBucketResult>", "no character");
  expect_malformed("<ListBucketResult><Key>&#x110000;</Key></ListBucketResult>", "beyond Unicode");
  expect_malformed("<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
                   "without a Key");
  expect_malformed("<ListBucketResult></ListBucketResult><ListBucketResult></ListBucketResult>",
                   "second root");
  expect_malformed("<ListBucketResult", "unclosed start tag");
}

TEST_CASE("listing: a DTD is refused, so no entity can be defined or expanded") {
  // The "billion laughs": with a DTD reader, these few hundred bytes expand to gigabytes.
  // Seen failing with the "<!" branch removed: the DOCTYPE was read as a start tag, refused only by
  // accident ("an unclosed start tag"), not as a DTD.
  expect_malformed(
      R"(<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>
<ListBucketResult><Key>&lol2;</Key></ListBucketResult>)",
      "DTD");
}

TEST_CASE("listing: nesting deeper than the limit is refused, not recursed into") {
  std::string deep = "<ListBucketResult>";
  for (std::size_t i = 0; i < 100000; ++i) deep += "<a>";
  expect_malformed(deep, "nested deeper than 16");
}

TEST_CASE(
    "error bodies: Code and Message, bounded and sanitised, from a whole document or its first "
    "bytes") {
  const s3_error_body e = parse_error_body(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code><Message>Access "
      "Denied\x01</Message><RequestId>X</RequestId></Error>");
  CHECK(e.code == "AccessDenied");
  CHECK(e.message == "Access Denied?");
  CHECK(parse_error_body("<html>nope</html>").code.empty());
  CHECK(parse_error_body("garbage <<<").code.empty());
  const s3_error_body long_one =
      parse_error_body("<Error><Message>" + std::string(5000, 'x') + "</Message></Error>");
  CHECK(long_one.message.size() == 200);
  // What the transport keeps of an error body that is not JSON: "body: " and its first 160 bytes.
  const s3_error_body cut = parse_error_body(
      "body: <?xml version=\"1.0\" encoding=\"UTF-8\"?> "
      "<Error><Code>SignatureDoesNotMatch</Code><Message>The "
      "request signature we calculated does not...");
  CHECK(cut.code == "SignatureDoesNotMatch");
  CHECK(cut.message == "The request signature we calculated does not...");
}

}  // namespace
}  // namespace massive::files::detail
