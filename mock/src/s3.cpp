#include "massive/mock/s3.hpp"

#include "massive/mock/gzip.hpp"
#include "massive/mock/market.hpp"
#include "wire.hpp"

// The signature is checked with the SDK's SigV4 (compiled into the mock as a source; the mock
// links no SDK library). An independent client, the AWS CLI, checks both (tests/files).
#include <algorithm>
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <massive/time.hpp>
#include <stdexcept>

#include "files/sigv4.hpp"

namespace massive::mock {
namespace {

using namespace std::chrono;
namespace sig = massive::files::detail;

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

reply xml_error(int status, std::string_view code, std::string_view message) {
  reply r;
  r.status = status;
  r.headers = {{"Content-Type", "application/xml"}};
  r.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + std::string(code) +
           "</Code><Message>" + xml_escape(message) +
           "</Message><RequestId>MOCK</RequestId></Error>";
  return r;
}

std::string day_text(year_month_day d) {
  char out[32];
  std::snprintf(out, sizeof out, "%04d-%02u-%02u", int{d.year()}, unsigned{d.month()},
                unsigned{d.day()});
  return out;
}

std::string key_of(std::string_view dataset, year_month_day d) {
  const std::string day = day_text(d);
  return "us_stocks_sip/" + std::string(dataset) + "_v1/" + day.substr(0, 4) + "/" +
         day.substr(5, 2) + "/" + day + ".csv.gz";
}

constexpr std::string_view trades_header =
    "ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_"
    "timestamp,size,tape,"
    "trf_id,trf_timestamp\n";
constexpr std::string_view aggs_header =
    "ticker,volume,open,close,high,low,window_start,transactions\n";

/// The n-th comma-separated field of a CSV line whose quoted fields hold no quotes.
std::string_view field(std::string_view line, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (at < line.size() && line[at] == '"') at = line.find('"', at + 1) + 1;
    at = line.find(',', at) + 1;
  }
  const std::size_t end = line[at] == '"' ? line.find('"', at + 1) + 1 : line.find(',', at);
  return line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

double number(std::string_view text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

/// The day's bar of each ticker, from its trades' rows (price column 6, size column 9).
std::string day_aggs_from(std::string_view trades_rows, const std::vector<std::string>& tickers,
                          year_month_day d) {
  std::string out(aggs_header);
  const auto start = duration_cast<nanoseconds>(sys_days{d}.time_since_epoch()).count();
  for (const std::string& ticker : tickers) {
    double open = 0, close = 0, high = 0, low = 0, volume = 0;
    std::int64_t count = 0;
    for (std::size_t at = 0; at < trades_rows.size();) {
      const std::size_t nl = trades_rows.find('\n', at);
      const std::string_view line = trades_rows.substr(at, nl - at);
      at = nl + 1;
      if (field(line, 0) != ticker) continue;
      const double price = number(field(line, 6));
      if (count == 0) open = high = low = price;
      high = std::max(high, price);
      low = std::min(low, price);
      close = price;
      volume += number(field(line, 9));
      ++count;
    }
    if (count == 0) continue;
    char row[256];
    std::snprintf(row, sizeof row, "%s,%.17g,%.17g,%.17g,%.17g,%.17g,%lld,%lld\n", ticker.c_str(),
                  volume, open, close, high, low, static_cast<long long>(start),
                  static_cast<long long>(count));
    out += row;
  }
  return out;
}

/// The CSV compressed in members of `rows_per_member` rows (the header in the first).
std::string gzip_members(std::string_view csv, std::size_t rows_per_member) {
  if (rows_per_member == 0) return gzip_compress(csv);
  std::string out;
  std::size_t from = 0, rows = 0;
  for (std::size_t at = 0; at < csv.size();) {
    at = csv.find('\n', at) + 1;
    if (++rows % (rows_per_member + 1) == 0 || at >= csv.size()) {
      out += gzip_compress(csv.substr(from, at - from));
      from = at;
    }
  }
  return out;
}

std::string etag_of(std::string_view bytes, unsigned generation) {
  char out[40];
  std::snprintf(out, sizeof out, "\"%016llx%08x\"",
                static_cast<unsigned long long>(wire::mix(wire::hash_text(bytes))), generation);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// A percent-decoded text (S3 decodes the path and query before it signs them again).
std::string decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      unsigned v = 0;
      std::from_chars(text.data() + i + 1, text.data() + i + 3, v, 16);
      out += static_cast<char>(v);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

/// Why the request's signature does not hold, or empty when it does.
std::string signature_problem(const recorded_request& request, const s3_options& options) {
  const std::string auth = request.header("Authorization");
  constexpr std::string_view scheme = "AWS4-HMAC-SHA256 ";
  if (!auth.starts_with(scheme)) return "no AWS4-HMAC-SHA256 Authorization";
  std::string credential, signed_names, signature;
  for (std::string_view rest = std::string_view(auth).substr(scheme.size()); !rest.empty();) {
    const std::size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.starts_with("Credential=")) credential = part.substr(11);
    if (part.starts_with("SignedHeaders=")) signed_names = part.substr(14);
    if (part.starts_with("Signature=")) signature = part.substr(10);
  }
  const std::string date = request.header("x-amz-date");
  if (date.size() != 16) return "no x-amz-date";
  const std::string scope = date.substr(0, 8) + "/" + options.region + "/s3/aws4_request";
  if (credential.substr(0, credential.find('/')) != options.access_key) return "InvalidAccessKeyId";
  if (credential.substr(credential.find('/') + 1) != scope)
    return "a credential scope other than " + scope;

  std::vector<std::pair<std::string, std::string>> values;
  for (std::size_t at = 0; at <= signed_names.size();) {
    const std::size_t semi = std::min(signed_names.find(';', at), signed_names.size());
    const std::string name = signed_names.substr(at, semi - at);
    at = semi + 1;
    if (!request.has_header(name)) return "signed header " + name + " was not sent";
    for (const auto& [k, v] : request.headers) {
      if (iequals(k, name)) values.emplace_back(name, v);
    }
  }
  if (values.empty() ||
      std::none_of(values.begin(), values.end(), [](const auto& v) { return v.first == "host"; })) {
    return "host is not signed";
  }
  std::vector<sig::signed_header> headers;
  for (const auto& [k, v] : values) headers.push_back({k, v});

  const std::string_view target = request.target;
  const std::size_t q = target.find('?');
  std::string path = sig::uri_encode(decoded(target.substr(0, q)), false);
  std::string query;
  if (q != std::string_view::npos) {
    for (std::string_view rest = target.substr(q + 1); !rest.empty();) {
      const std::size_t amp = rest.find('&');
      const std::string_view param = rest.substr(0, amp);
      rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
      const std::size_t eq = param.find('=');
      if (!query.empty()) query += '&';
      query += sig::uri_encode(decoded(param.substr(0, eq)), true);
      query += '=';
      if (eq != std::string_view::npos)
        query += sig::uri_encode(decoded(param.substr(eq + 1)), true);
    }
  }
  std::string payload = request.header("x-amz-content-sha256");
  if (payload.empty()) payload = sig::empty_payload_sha256;
  sig::sigv4_request r;
  r.method = request.method;
  r.path = path;
  r.query = query;
  r.headers = headers;
  r.payload_hash = payload;
  r.amz_date = date;
  r.region = options.region;
  r.service = "s3";
  // As S3 does, the refusal shows the canonical request the server signed, for whoever debugs a
  // client.
  if (sig::signature(r, options.secret_key) != signature)
    return "SignatureDoesNotMatch:" + sig::canonical_request(r);
  return {};
}

}  // namespace

s3_bucket::s3_bucket(s3_options options) : options_(std::move(options)) {
  const auto first = massive::parse_date(options_.first_day);
  const auto last = massive::parse_date(options_.last_day);
  if (!first || !last)
    throw std::invalid_argument("s3_options: first_day and last_day must be YYYY-MM-DD");
  for (sys_days d = *first; d <= sys_days{*last}; d += days{1}) {
    if (weekday{d} == Saturday || weekday{d} == Sunday) continue;
    files_.emplace(key_of("trades", d), std::nullopt);
    files_.emplace(key_of("day_aggs", d), std::nullopt);
  }
}

s3_bucket::~s3_bucket() = default;

server::responder s3_bucket::responder() {
  return [this](const recorded_request& r) { return answer(r); };
}

std::vector<std::string> s3_bucket::keys() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [k, f] : files_) out.push_back(k);
  return out;
}

const s3_bucket::file& s3_bucket::file_of(const std::string& key) {
  auto it = files_.find(key);
  if (it == files_.end()) throw std::out_of_range("no such file: " + key);
  if (!it->second) {
    const bool trades = key.find("/trades_v1/") != std::string::npos;
    const std::string day = key.substr(key.rfind('/') + 1, 10);
    const market m({.base_url = "", .ticks_per_day = options_.ticks_per_day, .default_day = day});
    std::string rows;
    for (const std::string& t : options_.tickers) m.write_trades_csv(rows, t, day);
    const std::string csv = trades
                                ? std::string(trades_header) + rows
                                : day_aggs_from(rows, options_.tickers, *massive::parse_date(day));
    std::string bytes = gzip_members(csv, options_.rows_per_member);
    it->second = file{bytes, etag_of(bytes, generation_)};
  }
  return *it->second;
}

std::string s3_bucket::object(const std::string& key) {
  std::lock_guard lock(mutex_);
  return file_of(key).bytes;
}

std::string s3_bucket::etag(const std::string& key) {
  std::lock_guard lock(mutex_);
  return file_of(key).etag;
}

void s3_bucket::put(const std::string& key, std::string bytes) {
  std::lock_guard lock(mutex_);
  std::string tag = etag_of(bytes, generation_);
  files_[key] = file{std::move(bytes), std::move(tag)};
}

void s3_bucket::inject(s3_fault_script fault) {
  std::lock_guard lock(mutex_);
  faults_.push_back(std::move(fault));
}

std::size_t s3_bucket::signature_failures() const {
  std::lock_guard lock(mutex_);
  return signature_failures_;
}

reply s3_bucket::answer(const recorded_request& request) {
  if (const std::string problem = signature_problem(request, options_); !problem.empty()) {
    std::lock_guard lock(mutex_);
    ++signature_failures_;
    if (problem == "InvalidAccessKeyId") {
      return xml_error(403, "InvalidAccessKeyId",
                       "The AWS Access Key Id you provided does not exist in our records.");
    }
    if (problem.starts_with("SignatureDoesNotMatch:")) {
      reply r = xml_error(
          403, "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided.");
      r.body.insert(r.body.find("<RequestId>"),
                    "<CanonicalRequest>" + xml_escape(problem.substr(22)) + "</CanonicalRequest>");
      return r;
    }
    return xml_error(403, "AccessDenied", "The request's authentication does not hold: " + problem);
  }
  if (request.method != "GET" && request.method != "HEAD")
    return xml_error(405, "MethodNotAllowed", request.method);
  const auto parsed = boost::urls::parse_origin_form(request.target);
  if (!parsed) return xml_error(400, "InvalidURI", "malformed target");
  const boost::urls::url_view url = *parsed;
  const std::string path = decoded(url.encoded_path());
  const std::string bucket_path = "/" + options_.bucket;
  if (path != bucket_path && path != bucket_path + "/" && !path.starts_with(bucket_path + "/")) {
    return xml_error(404, "NoSuchBucket", "The specified bucket does not exist");
  }
  const std::string key =
      path.size() > bucket_path.size() + 1 ? path.substr(bucket_path.size() + 1) : std::string();
  if (!key.empty()) return get(request, key, request.method == "HEAD");

  // ListObjectsV2.
  std::string prefix, delimiter, token, start_after;
  std::size_t max_keys = options_.max_keys;
  for (const auto& p : url.params()) {
    if (p.key == "prefix") prefix = p.value;
    if (p.key == "delimiter") delimiter = p.value;
    if (p.key == "continuation-token") token = p.value;
    if (p.key == "start-after") start_after = p.value;
    if (p.key == "max-keys") {
      std::size_t asked = max_keys;
      std::from_chars(p.value.data(), p.value.data() + p.value.size(), asked);
      max_keys = std::min(max_keys, asked);
    }
  }
  if (!token.empty()) {
    if (!token.starts_with("after:"))
      return xml_error(400, "InvalidArgument", "The continuation token provided is incorrect");
    start_after = token.substr(6);
  }
  std::lock_guard lock(mutex_);
  if (!faults_.empty() && faults_.front().kind == s3_fault::forbidden &&
      faults_.front().key.empty()) {
    faults_.erase(faults_.begin());
    return xml_error(403, "AccessDenied", "Access Denied");
  }
  std::string contents, prefixes;
  std::string last_prefix, last_key;
  std::size_t count = 0;
  bool truncated = false;
  for (auto it = files_.upper_bound(start_after); it != files_.end(); ++it) {
    const std::string& k = it->first;
    if (!k.starts_with(prefix)) continue;
    std::string common;
    if (!delimiter.empty()) {
      const std::size_t d = k.find(delimiter, prefix.size());
      if (d != std::string::npos) common = k.substr(0, d + delimiter.size());
    }
    if (!common.empty() && common == last_prefix) continue;
    if (count == max_keys) {
      truncated = true;
      break;
    }
    ++count;
    if (!common.empty()) {
      prefixes += "<CommonPrefixes><Prefix>" + xml_escape(common) + "</Prefix></CommonPrefixes>";
      last_prefix = common;
      // The token skips the whole "folder": every key under it sorts before common + '\xff'.
      last_key = common + "\xff";
      continue;
    }
    const file& f = file_of(k);
    const std::string day = k.substr(k.rfind('/') + 1, 10);
    contents += "<Contents><Key>" + xml_escape(k) + "</Key><LastModified>" + day +
                "T16:00:00.000Z</LastModified><ETag>" + xml_escape(f.etag) + "</ETag><Size>" +
                std::to_string(f.bytes.size()) +
                "</Size><StorageClass>STANDARD</StorageClass></Contents>";
    last_key = k;
  }
  reply r;
  r.headers = {{"Content-Type", "application/xml"}};
  r.body =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult "
      "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      "<Name>" +
      options_.bucket + "</Name><Prefix>" + xml_escape(prefix) + "</Prefix><KeyCount>" +
      std::to_string(count) + "</KeyCount><MaxKeys>" + std::to_string(max_keys) + "</MaxKeys>" +
      (delimiter.empty() ? "" : "<Delimiter>" + xml_escape(delimiter) + "</Delimiter>") +
      "<IsTruncated>" + (truncated ? "true" : "false") + "</IsTruncated>" + contents + prefixes +
      (truncated ? "<NextContinuationToken>" + xml_escape("after:" + last_key) +
                       "</NextContinuationToken>"
                 : "") +
      "</ListBucketResult>";
  return r;
}

reply s3_bucket::get(const recorded_request& request, const std::string& key, bool head) {
  std::lock_guard lock(mutex_);
  if (files_.find(key) == files_.end())
    return xml_error(404, "NoSuchKey", "The specified key does not exist.");
  std::optional<s3_fault_script> fault;
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (it->key.empty() || it->key == key) {
      fault = *it;
      faults_.erase(it);
      break;
    }
  }
  if (fault && fault->kind == s3_fault::forbidden)
    return xml_error(403, "AccessDenied", "Access Denied");
  if (fault && fault->kind == s3_fault::changed) {
    ++generation_;
    auto& f = files_[key];
    const file& current = file_of(key);
    f = file{current.bytes, etag_of(current.bytes, generation_)};
  }
  const file& f = file_of(key);
  const std::string if_match = request.header("If-Match");
  if (!if_match.empty() && if_match != f.etag) {
    return xml_error(412, "PreconditionFailed",
                     "At least one of the pre-conditions you specified did not hold");
  }
  // Only the bytes asked for are copied: a range of a large file (the benchmark's day is 235 MB,
  // read in 8 MiB ranges) copied the whole file for every range, under the bucket's lock.
  std::string_view bytes = f.bytes;
  std::string corrupted;
  if (fault && fault->kind == s3_fault::corrupt_member) {
    // A byte in the middle of the last member's compressed data (its header is 10 bytes, its
    // trailer 8): the member's CRC no longer holds, or its blocks no longer parse.
    corrupted = f.bytes;
    const std::size_t last_member = corrupted.rfind("\x1f\x8b\x08", std::string::npos);
    const std::size_t at = last_member + 10 + (corrupted.size() - 8 - last_member - 10) / 2;
    corrupted[at] = static_cast<char>(corrupted[at] ^ 0x5a);
    bytes = corrupted;
  }
  reply r;
  r.headers = {{"Content-Type", "application/x-gzip"},
               {"ETag", f.etag},
               {"Accept-Ranges", "bytes"},
               {"Last-Modified", "Fri, 12 Jan 2024 16:00:00 GMT"}};
  const std::string range = request.header("Range");
  if (!range.empty()) {
    std::uint64_t from = 0, to = bytes.size() - 1;
    const std::string_view spec = std::string_view(range).substr(range.find('=') + 1);
    const std::size_t dash = spec.find('-');
    std::from_chars(spec.data(), spec.data() + dash, from);
    if (dash + 1 < spec.size())
      std::from_chars(spec.data() + dash + 1, spec.data() + spec.size(), to);
    if (!range.starts_with("bytes=") || dash == std::string_view::npos || from >= bytes.size() ||
        to < from) {
      return xml_error(416, "InvalidRange", "The requested range is not satisfiable");
    }
    to = std::min<std::uint64_t>(to, bytes.size() - 1);
    if (fault && fault->kind == s3_fault::shifted_range && to + 1 < bytes.size()) {
      ++from;
      ++to;
    }
    if (fault && fault->kind == s3_fault::short_range) {
      to = std::min<std::uint64_t>(to, from + std::max<std::size_t>(fault->after_bytes, 1) - 1);
    }
    r.status = 206;
    r.headers.push_back({"Content-Range", "bytes " + std::to_string(from) + "-" +
                                              std::to_string(to) + "/" +
                                              std::to_string(bytes.size())});
    bytes = bytes.substr(from, to - from + 1);
  }
  r.body.assign(bytes);
  r.head_only = head;
  if (fault && fault->kind == s3_fault::reset) r.reset_after = fault->after_bytes;
  if (fault && fault->kind == s3_fault::slow_body) {
    r.write_size = 4096;
    r.write_delay = fault->delay;
  }
  return r;
}

}  // namespace massive::mock
