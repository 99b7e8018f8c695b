// Clients (c) and (d) of the end-to-end benchmark: what a careful user writes without the
// SDK. One libcurl easy handle for the whole chain (so the connection is kept alive) with a
// 64 KiB receive buffer (the SDK reads 64 KiB at a time), each body appended to one reused
// std::string, then parsed into a std::vector of the SDK's row structs: (c) with simdjson On
// Demand, its parser given room for twice the first body at once so that it does not grow
// again page after page, keys compared raw as sent; (d) with nlohmann::json. One page is held
// at a time, as the SDK does; next_url is followed verbatim.
//
//   massive_e2e_libcurl <simdjson|nlohmann> <aggs|trades> <base_url> <ca_file> <first_target> <0|1>
//
// Prints the digest line of digest.hpp.
#include "model_digest.hpp"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace e2e = massive::bench::e2e;
namespace od = simdjson::ondemand;

class transfer {
 public:
  transfer(const char* ca_file, bool gzip) : handle_(curl_easy_init()) {
    if (handle_ == nullptr) throw std::runtime_error("curl_easy_init failed");
    headers_ = curl_slist_append(nullptr, "Authorization: Bearer bench");
    check(curl_easy_setopt(handle_, CURLOPT_HTTPHEADER, headers_));
    check(curl_easy_setopt(handle_, CURLOPT_CAINFO, ca_file));
    check(curl_easy_setopt(handle_, CURLOPT_NOSIGNAL, 1L));
    check(curl_easy_setopt(handle_, CURLOPT_BUFFERSIZE, 64L * 1024));
    // libcurl inflates as the bytes arrive; the write callback sees JSON either way.
    if (gzip) check(curl_easy_setopt(handle_, CURLOPT_ACCEPT_ENCODING, "gzip"));
    check(curl_easy_setopt(handle_, CURLOPT_WRITEFUNCTION, &transfer::append));
    check(curl_easy_setopt(handle_, CURLOPT_WRITEDATA, &body_));
  }
  transfer(const transfer&) = delete;
  transfer& operator=(const transfer&) = delete;
  ~transfer() {
    curl_easy_cleanup(handle_);
    curl_slist_free_all(headers_);
  }

  /// The body of `url`; the string is reused (and keeps its capacity) from call to call.
  std::string& get(const std::string& url) {
    body_.clear();
    check(curl_easy_setopt(handle_, CURLOPT_URL, url.c_str()));
    check(curl_easy_perform(handle_));
    long status = 0;
    check(curl_easy_getinfo(handle_, CURLINFO_RESPONSE_CODE, &status));
    if (status != 200) throw std::runtime_error("HTTP " + std::to_string(status) + " from " + url);
    return body_;
  }

 private:
  static std::size_t append(char* data, std::size_t, std::size_t n, void* body) {
    static_cast<std::string*>(body)->append(data, n);
    return n;
  }
  static void check(CURLcode rc) {
    if (rc != CURLE_OK) throw std::runtime_error(std::string("libcurl: ") + curl_easy_strerror(rc));
  }

  CURL* handle_;
  curl_slist* headers_ = nullptr;
  std::string body_;
};

// Conditions of a page's trades live in one vector; the rows' spans are set once the page is
// complete, because the vector moves while it grows.
struct condition_store {
  std::vector<std::int32_t> codes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;  // per row: first, count

  void clear() {
    codes.clear();
    ranges.clear();
  }
  void attach(std::vector<massive::trade>& rows) const {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows[i].conditions = {codes.data() + ranges[i].first, ranges[i].second};
    }
  }
};

// `raw` is a key as sent, just past its opening quote (simdjson's padding makes reading past
// a short key safe); matching the closing quote too rejects longer keys. The API's keys have
// no escapes, so comparing them raw is exact.
template <std::size_t N>
bool is(const char* raw, const char (&key)[N]) {
  return std::memcmp(raw, key, N - 1) == 0 && raw[N - 1] == '"';
}

// simdjson: the envelope walked key by key (the rows first, then status and next_url), each
// aggregate row's fields looked up in the order the server sends them, each trade's fields
// walked with a raw comparison of each key, as the optional ones come and go.
class simdjson_reader {
 public:
  void read(std::string& body, std::vector<massive::agg>& rows, std::string& next_url) {
    walk(body, next_url, [&](od::value results) {
      for (od::object row : results.get_array()) {
        massive::agg a;
        a.volume = double(row["v"]);
        a.vwap = double(row["vw"]);
        a.open = double(row["o"]);
        a.close = double(row["c"]);
        a.high = double(row["h"]);
        a.low = double(row["l"]);
        a.timestamp = massive::timestamp_ms::from_count(std::int64_t(row["t"]));
        a.transactions = std::int64_t(row["n"]);
        rows.push_back(a);
      }
    });
  }

  // Trade ids are views into the parser's string buffer, valid until the next body: the page's
  // lifetime here.
  void read(std::string& body, std::vector<massive::trade>& rows, std::string& next_url) {
    conditions_.clear();
    walk(body, next_url, [&](od::value results) {
      for (od::object row : results.get_array()) {
        massive::trade t;
        const auto first = static_cast<std::uint32_t>(conditions_.codes.size());
        for (auto field : row) {
          const char* key = field.key().raw();
          od::value value = field.value();
          if (is(key, "conditions")) {
            for (std::int64_t c : value.get_array()) {
              conditions_.codes.push_back(static_cast<std::int32_t>(c));
            }
          } else if (is(key, "exchange")) {
            t.exchange = std::int64_t(value);
          } else if (is(key, "id")) {
            t.id = std::string_view(value);
          } else if (is(key, "participant_timestamp")) {
            t.participant_timestamp = massive::timestamp_ns::from_count(std::int64_t(value));
          } else if (is(key, "price")) {
            t.price = double(value);
          } else if (is(key, "sequence_number")) {
            t.sequence_number = std::int64_t(value);
          } else if (is(key, "sip_timestamp")) {
            t.sip_timestamp = massive::timestamp_ns::from_count(std::int64_t(value));
          } else if (is(key, "size")) {
            t.size = double(value);
          } else if (is(key, "tape")) {
            t.tape = static_cast<std::int32_t>(std::int64_t(value));
          }
        }
        conditions_.ranges.emplace_back(
            first, static_cast<std::uint32_t>(conditions_.codes.size()) - first);
        rows.push_back(t);
      }
    });
    conditions_.attach(rows);
  }

 private:
  template <class ReadResults>
  void walk(std::string& body, std::string& next_url, ReadResults read_results) {
    body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
    // Room for twice the first body, once: the parser would otherwise allocate its index
    // again for every body larger than all before it.
    if (body.size() > parser_.capacity()) {
      if (parser_.allocate(2 * body.size()) != simdjson::SUCCESS) throw std::bad_alloc();
    }
    od::document doc = parser_.iterate(simdjson::padded_string_view(body));
    next_url.clear();
    bool ok = false;
    for (auto field : doc.get_object()) {
      const char* key = field.key().raw();
      if (is(key, "results")) {
        read_results(field.value());
      } else if (is(key, "status")) {
        ok = std::string_view(field.value()) == "OK";
      } else if (is(key, "next_url")) {
        next_url.assign(std::string_view(field.value()));
      }
    }
    if (!ok) throw std::runtime_error("simdjson: status is not OK");
  }

  od::parser parser_;
  condition_store conditions_;
};

// nlohmann::json: the body parsed into a tree, then the fields copied into the structs.
class nlohmann_reader {
 public:
  void read(std::string& body, std::vector<massive::agg>& rows, std::string& next_url) {
    const nlohmann::json& doc = parse(body, next_url);
    for (const auto& row : doc.at("results")) {
      massive::agg a;
      a.volume = row.at("v").get<double>();
      a.vwap = row.at("vw").get<double>();
      a.open = row.at("o").get<double>();
      a.close = row.at("c").get<double>();
      a.high = row.at("h").get<double>();
      a.low = row.at("l").get<double>();
      a.timestamp = massive::timestamp_ms::from_count(row.at("t").get<std::int64_t>());
      a.transactions = row.at("n").get<std::int64_t>();
      rows.push_back(a);
    }
  }

  // Trade ids are views into the tree, which lives until the next body.
  void read(std::string& body, std::vector<massive::trade>& rows, std::string& next_url) {
    const nlohmann::json& doc = parse(body, next_url);
    conditions_.clear();
    for (const auto& row : doc.at("results")) {
      massive::trade t;
      const auto first = static_cast<std::uint32_t>(conditions_.codes.size());
      if (auto c = row.find("conditions"); c != row.end()) {
        for (const auto& code : *c) conditions_.codes.push_back(code.get<std::int32_t>());
      }
      conditions_.ranges.emplace_back(first,
                                      static_cast<std::uint32_t>(conditions_.codes.size()) - first);
      t.exchange = row.at("exchange").get<std::int64_t>();
      t.id = row.at("id").get_ref<const std::string&>();
      t.participant_timestamp =
          massive::timestamp_ns::from_count(row.at("participant_timestamp").get<std::int64_t>());
      t.price = row.at("price").get<double>();
      t.sequence_number = row.at("sequence_number").get<std::int64_t>();
      t.sip_timestamp = massive::timestamp_ns::from_count(row.at("sip_timestamp").get<std::int64_t>());
      t.size = row.at("size").get<double>();
      t.tape = row.at("tape").get<std::int32_t>();
      rows.push_back(t);
    }
    conditions_.attach(rows);
  }

 private:
  const nlohmann::json& parse(const std::string& body, std::string& next_url) {
    doc_ = nullptr;  // one tree at a time: the previous page's goes before the next is built
    doc_ = nlohmann::json::parse(body);
    if (doc_.at("status").get_ref<const std::string&>() != "OK") {
      throw std::runtime_error("nlohmann: status is not OK");
    }
    auto next = doc_.find("next_url");
    next_url = next == doc_.end() ? std::string() : next->get<std::string>();
    return doc_;
  }

  nlohmann::json doc_;
  condition_store conditions_;
};

template <class Row, class Reader>
void run(Reader& reader, const char* ca_file, bool gzip, std::string url, e2e::report& out) {
  out.row_bytes = sizeof(Row);
  transfer http(ca_file, gzip);
  std::vector<Row> rows;
  std::string next_url;
  out.requesting();
  while (!url.empty()) {
    rows.clear();
    reader.read(http.get(url), rows, next_url);
    e2e::add_rows(out.rows, rows);
    out.page_done();
    url.swap(next_url);
  }
}

template <class Reader>
void run(Reader& reader, std::string_view workload, const char* ca_file, bool gzip,
         std::string url, e2e::report& out) {
  if (workload == "aggs") {
    run<massive::agg>(reader, ca_file, gzip, std::move(url), out);
  } else {
    run<massive::trade>(reader, ca_file, gzip, std::move(url), out);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  e2e::report out;
  if (argc != 7) {
    std::fprintf(stderr,
                 "usage: %s <simdjson|nlohmann> <aggs|trades> <base_url> <ca_file> <first_target> "
                 "<0|1>\n",
                 argv[0]);
    return 2;
  }
  const std::string_view parser = argv[1];
  const std::string_view workload = argv[2];
  if ((parser != "simdjson" && parser != "nlohmann") ||
      (workload != "aggs" && workload != "trades")) {
    std::fprintf(stderr, "unknown parser or workload: %s %s\n", argv[1], argv[2]);
    return 2;
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    throw std::runtime_error("curl_global_init failed");
  }
  const bool gzip = std::string_view(argv[6]) == "1";
  std::string url = std::string(argv[3]) + argv[5];
  if (parser == "simdjson") {
    simdjson_reader reader;
    run(reader, workload, argv[4], gzip, std::move(url), out);
  } else {
    nlohmann_reader reader;
    run(reader, workload, argv[4], gzip, std::move(url), out);
  }
  curl_global_cleanup();
  e2e::print_report(out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_e2e_libcurl: %s\n", e.what());
  return 1;
}
