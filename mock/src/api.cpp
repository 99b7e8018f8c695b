#include "massive/mock/api.hpp"

#include "catalog.hpp"
#include "wire.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <array>
#include <chrono>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace massive::mock {
namespace {

using namespace wire;
using std::int64_t;
using std::uint64_t;

std::vector<std::string_view> template_segments(std::string_view path) {
  std::vector<std::string_view> out;
  for (std::size_t at = 1; at <= path.size();) {
    const std::size_t slash = std::min(path.find('/', at), path.size());
    out.push_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  return out;
}

bool is_parameter(std::string_view segment) { return segment.size() > 2 && segment.front() == '{'; }

// A route segment that is a ticker parameter ({stocksTicker}, {ticker}; not the literal "ticker").
bool is_ticker(std::string_view segment) {
  return is_parameter(segment) && segment.find("icker") != std::string_view::npos;
}

// The ticker prefix the API gives a market's symbols, for a ticker parameter of a market's
// operation; nullopt for other parameters. The market is the operation's group, not the
// parameter's spelling, which the descriptions vary ({stocksTicker}, {stockTicker}, {ticker}).
std::optional<std::string_view> market_prefix(std::string_view parameter, std::string_view group) {
  if (!is_ticker(parameter)) return std::nullopt;
  if (group == "crypto") return "X:";
  if (group == "forex") return "C:";
  if (group == "indices") return "I:";
  if (group == "options") return "O:";
  if (group == "stocks") return "";
  return std::nullopt;
}

// How well a route's ticker parameters fit the values: 2 all fit their operation's market, 1
// none names a market, 0 some value has another market's prefix.
int market_fit(const catalog::operation& op, const std::vector<std::string_view>& route,
               const std::vector<std::string>& segments) {
  int fit = 1;
  for (std::size_t i = 0; i < route.size(); ++i) {
    const auto prefix = market_prefix(route[i], op.group);
    if (!prefix) continue;
    const std::string& value = segments[i];
    const auto colon = value.find(':');
    const std::string_view actual =
        colon == std::string::npos ? std::string_view{} : std::string_view(value).substr(0, colon + 1);
    if (actual != *prefix) return 0;
    fit = 2;
  }
  return fit;
}

struct matched {
  const catalog::operation* op = nullptr;
  std::string ticker;  // the value of a ticker-like path parameter, if any
};

matched match(const std::vector<std::string>& segments) {
  matched best;
  std::tuple<int, uint64_t, int, int> best_rank{-1, 0, 0, 0};
  for (const catalog::operation& op : catalog::operations()) {
    const auto route = template_segments(op.path);
    if (route.size() != segments.size()) continue;
    int literals = 0;
    uint64_t leftmost = 0;  // a bit per literal segment, the leftmost highest
    bool fits = true;
    for (std::size_t i = 0; i < route.size() && fits; ++i) {
      if (is_parameter(route[i])) {
        fits = !segments[i].empty();
      } else {
        fits = route[i] == segments[i];
        ++literals;
        leftmost |= uint64_t{1} << (63 - std::min<std::size_t>(i, 63));
      }
    }
    if (!fits) continue;
    // Strictly better only: among equals the catalog's first stays.
    const std::tuple<int, uint64_t, int, int> rank{literals, leftmost, market_fit(op, route, segments), op.ignored ? 0 : 1};
    if (rank <= best_rank) continue;
    best_rank = rank;
    best.op = &op;
    best.ticker.clear();
    for (std::size_t i = 0; i < route.size(); ++i) {
      if (is_ticker(route[i])) best.ticker = segments[i];
    }
  }
  return best;
}

// ---- values -----------------------------------------------------------------------------

constexpr std::array<std::string_view, 16> tickers = {"AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META",
                                                      "TSLA", "JPM",  "V",    "XOM",  "JNJ",   "WMT",
                                                      "PG",   "KO",   "DIS",  "NFLX"};
constexpr std::array<std::string_view, 8> names = {"Apple Inc.",      "Microsoft Corporation", "NVIDIA Corporation",
                                                   "Amazon.com, Inc.", "Alphabet Inc.",         "Meta Platforms, Inc.",
                                                   "Tesla, Inc.",      "JPMorgan Chase & Co."};
constexpr std::array<std::string_view, 8> words = {"alpha", "summit", "harbor", "meridian",
                                                   "granite", "cedar", "beacon", "atlas"};
constexpr std::array<std::string_view, 4> exchanges = {"XNAS", "XNYS", "ARCX", "BATS"};
constexpr std::array<std::string_view, 4> types = {"CS", "ETF", "ADRC", "PFD"};
constexpr std::array<std::string_view, 4> currencies = {"USD", "EUR", "GBP", "JPY"};

// 2024-01-12 14:30 UTC: the regular session's open on the served trading day.
constexpr int64_t session_open_s = 1705069800;
constexpr int64_t session_ns = 23'400'000'000'000;  // 6.5 hours

template <std::size_t N>
std::string_view pick(const std::array<std::string_view, N>& list, uint64_t h) {
  return list[static_cast<std::size_t>(h % N)];
}

bool has(std::string_view key, std::string_view part) { return key.find(part) != std::string_view::npos; }

std::string lowercase(std::string_view key) {
  std::string out(key);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

std::string iso_date(uint64_t h) {
  using namespace std::chrono;
  const year_month_day day{sys_days{year{2024} / January / 12} - days{static_cast<int>(h % 365)}};
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", static_cast<int>(day.year()),
                static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
  return buffer;
}

class synthesis {
 public:
  synthesis(const api_options& options, std::string_view path_ticker, std::string& out)
      : options_(options), path_ticker_(path_ticker), w_(out) {}

  void object(int model, uint64_t h, int depth) {
    if (depth > 8 || model < 0) {  // no description nests this deep: a guard against cycles
      w_.raw("{}");
      return;
    }
    w_.raw("{");
    bool first = true;
    for (const catalog::field& f : catalog::fields_of(catalog::models()[static_cast<std::size_t>(model)])) {
      if (!first) w_.raw(",");
      first = false;
      w_.key(f.key);
      value(f, mix(h ^ hash_text(f.key)), depth);
    }
    w_.raw("}");
  }

 private:
  void element(const catalog::field& f, uint64_t h, int depth) {
    if (f.model >= 0) {
      object(f.model, h, depth + 1);
    } else {
      scalar(f.element, f.key, h);
    }
  }

  void value(const catalog::field& f, uint64_t h, int depth) {
    switch (f.shape) {
      case catalog::form::scalar: scalar(f.element, f.key, h); break;
      case catalog::form::object: object(f.model, h, depth + 1); break;
      case catalog::form::array: {
        const uint64_t count = depth > 4 ? 0 : 1 + h % 3;
        w_.raw("[");
        for (uint64_t i = 0; i < count; ++i) {
          if (i != 0) w_.raw(",");
          element(f, mix(h + i + 1), depth);
        }
        w_.raw("]");
        break;
      }
      case catalog::form::map: {
        const uint64_t count = depth > 4 ? 0 : 1 + h % 3;
        w_.raw("{");
        for (uint64_t i = 0; i < count; ++i) {
          if (i != 0) w_.raw(",");
          w_.key(tickers[static_cast<std::size_t>((h + i) % tickers.size())]);
          element(f, mix(h + i + 1), depth);
        }
        w_.raw("}");
        break;
      }
    }
  }

  void scalar(catalog::scalar kind, std::string_view wire_key, uint64_t h) {
    const std::string key = lowercase(wire_key);
    switch (kind) {
      case catalog::scalar::int64: integer(key, wire_key, h); break;
      case catalog::scalar::int32: w_.number(static_cast<int64_t>(1 + h % 1000)); break;
      case catalog::scalar::number:
        if (has(key, "percent") || has(key, "change") || has(key, "ratio") || has(key, "yield") ||
            has(key, "rate") || has(key, "return") || has(key, "delta") || has(key, "gamma") ||
            has(key, "theta") || has(key, "vega") || has(key, "weight")) {
          w_.number(static_cast<double>(static_cast<int64_t>(h % 2001) - 1000) / 100.0);
        } else if (wire_key == "v" || has(key, "volume") || has(key, "size") || has(key, "shares") ||
                   has(key, "interest")) {
          w_.number(static_cast<double>(100 + h % 5'000'000));  // fractional-capable, sent whole
        } else {
          w_.number(static_cast<double>(500 + h % 49'500) / 100.0);  // a price with cents
        }
        break;
      case catalog::scalar::boolean: w_.raw((h >> 7) & 1 ? "true" : "false"); break;
      case catalog::scalar::string: string(key, wire_key, h); break;
      case catalog::scalar::date: w_.string(iso_date(h)); break;
      case catalog::scalar::timestamp_ns: w_.number(instant_ns(h)); break;
      case catalog::scalar::timestamp_us: w_.number(instant_ns(h) / 1'000); break;
      case catalog::scalar::timestamp_ms: w_.number(instant_ns(h) / 1'000'000); break;
      case catalog::scalar::decimal: {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%llu.%02llu", static_cast<unsigned long long>(1 + h % 1000),
                      static_cast<unsigned long long>((h >> 20) % 100));
        w_.string(buffer);
        break;
      }
      case catalog::scalar::json:
        w_.raw("{\"source\":\"mock\",\"value\":");
        w_.number(static_cast<int64_t>(h % 1000));
        w_.raw("}");
        break;
    }
  }

  static int64_t instant_ns(uint64_t h) {
    return session_open_s * 1'000'000'000 + static_cast<int64_t>(h % static_cast<uint64_t>(session_ns));
  }

  void integer(const std::string& key, std::string_view wire_key, uint64_t h) {
    if (has(key, "sip_") || has(key, "participant") || has(key, "trf_") || has(key, "updated")) {
      w_.number(instant_ns(h));  // the API's tick and snapshot times are nanoseconds
    } else if (wire_key == "t" || has(key, "timestamp") || has(key, "time")) {
      w_.number(instant_ns(h) / 1'000'000);  // other unit-less integer times: milliseconds
    } else if (wire_key == "v" || has(key, "volume") || has(key, "size") || has(key, "shares") ||
               has(key, "interest")) {
      w_.number(static_cast<int64_t>(100 + h % 5'000'000));
    } else if (has(key, "exchange") || has(key, "tape")) {
      w_.number(static_cast<int64_t>(1 + h % 20));
    } else if (has(key, "year")) {
      w_.number(static_cast<int64_t>(2015 + h % 10));
    } else {
      w_.number(static_cast<int64_t>(1 + h % 10'000));
    }
  }

  void string(const std::string& key, std::string_view wire_key, uint64_t h) {
    if (wire_key == "T" || has(key, "ticker") || key == "symbol" || key == "sym") {
      w_.string(!path_ticker_.empty() && (wire_key == "T" || key == "ticker") ? path_ticker_ : pick(tickers, h));
    } else if (has(key, "url")) {
      w_.string(options_.base_url + "/mock/" + key + "/" + std::to_string(h % 100'000));
    } else if (key == "timeframe") {
      w_.string(h % 2 ? "REAL-TIME" : "DELAYED");
    } else if (has(key, "_utc") || has(key, "datetime") || has(key, "time") || key.ends_with("_at")) {
      w_.string(iso_date(h) + "T15:" + std::to_string(10 + h % 50) + ":00Z");
    } else if (has(key, "date")) {
      w_.string(iso_date(h));
    } else if (has(key, "volume") || has(key, "size") || has(key, "price") || has(key, "amount")) {
      w_.string(std::to_string(1 + h % 100'000) + "." + std::to_string(h / 7 % 10));  // a number as text
    } else if (has(key, "currency")) {
      w_.string(pick(currencies, h));
    } else if (has(key, "exchange") || key == "mic") {
      w_.string(pick(exchanges, h));
    } else if (key == "name" || has(key, "company") || has(key, "issuer")) {
      w_.string(pick(names, h));
    } else if (key == "status") {
      w_.string("OK");
    } else if (key == "market") {
      w_.string("stocks");
    } else if (key == "locale") {
      w_.string("us");
    } else if (has(key, "year")) {
      w_.string(std::to_string(2015 + h % 10));
    } else if (has(key, "type")) {
      w_.string(pick(types, h));
    } else if (key == "request_id") {
      w_.string(request_id(std::to_string(h)));
    } else if (key == "cik" || key == "sic") {
      w_.string(std::to_string(1'000'000'000 + h % 1'000'000'000).substr(key == "sic" ? 6 : 0));
    } else if (has(key, "figi")) {
      w_.string("BBG00" + std::to_string(1'000'000 + h % 9'000'000));
    } else if (key == "id" || key.ends_with("_id")) {
      w_.string(request_id(std::to_string(h)).substr(0, 12));
    } else {
      w_.string(std::string(pick(words, h)) + "-" + std::to_string(h % 100));
    }
  }

  const api_options& options_;
  std::string_view path_ticker_;
  json_writer w_;
};

response synthesise(const api_options& options, const catalog::operation& op, const matched& m,
                    std::string_view target, const boost::urls::url_view& url) {
  const query q = read_query(url);
  const bool many = op.payload == catalog::shape::results_array || op.payload == catalog::shape::top_level_array ||
                    op.payload == catalog::shape::results_values;
  const int64_t count = many ? q.limit(options.rows_per_page) : 1;
  const int64_t page = q.offset / count + 1;  // 1-based
  if (page > (op.paginated ? options.pages : 1)) throw bad_request("cursor past the last page");
  const std::string path(url.encoded_path());
  const uint64_t page_hash = mix(options.seed ^ hash_text(op.path) ^ mix(hash_text(path) + static_cast<uint64_t>(page)));

  std::string body;
  json_writer w{body};
  synthesis s{options, m.ticker, body};
  const auto rows = [&] {
    w.raw("[");
    for (int64_t i = 0; i < count; ++i) {
      if (i != 0) w.raw(",");
      s.object(op.row, mix(page_hash + static_cast<uint64_t>(i)), 0);
    }
    w.raw("]");
  };
  if (op.payload == catalog::shape::document) {
    s.object(op.row, page_hash, 0);
    return {200, std::move(body)};
  }
  if (op.payload == catalog::shape::top_level_array) {
    rows();
    return {200, std::move(body)};
  }
  w.raw("{");
  if (many) {
    w.key("count");
    w.number(count);
    w.raw(",");
  }
  if (op.paginated && page < options.pages) {
    w.key("next_url");
    w.string(options.base_url + path + "?cursor=" + q.cursor(page * count));
    w.raw(",");
  }
  w.key("request_id");
  w.string(request_id(target));
  w.raw(",");
  w.key("results");
  if (op.payload == catalog::shape::results_object) {
    s.object(op.row, page_hash, 0);
  } else if (op.payload == catalog::shape::results_values) {
    w.raw("{");
    w.key("underlying");
    w.raw("{");
    w.key("url");
    w.string(options.base_url + "/v2/aggs/ticker/" + (m.ticker.empty() ? std::string("AAPL") : m.ticker) +
             "/range/1/day/2024-01-02/2024-01-12");
    w.raw("},");
    w.key("values");
    rows();
    w.raw("}");
  } else {
    rows();
  }
  w.raw(",");
  w.key("status");
  w.string("OK");
  w.raw("}");
  return {200, std::move(body)};
}

market_options market_for(const api_options& options) {
  market_options m = options.market;
  m.base_url = options.base_url;
  return m;
}

}  // namespace

api::api(api_options options) : options_(std::move(options)), market_(market_for(options_)) {
  if (options_.pages < 1) throw std::invalid_argument("api_options::pages must be at least 1");
  if (options_.rows_per_page < 1) throw std::invalid_argument("api_options::rows_per_page must be at least 1");
}

std::size_t api::operation_count() { return catalog::operations().size(); }

namespace {

std::optional<std::pair<boost::urls::url_view, matched>> locate(std::string_view target) {
  const auto parsed = boost::urls::parse_origin_form(target);
  if (!parsed) return std::nullopt;
  std::vector<std::string> segments;
  for (auto seg : parsed->segments()) segments.push_back(seg);
  matched m = match(segments);
  if (m.op == nullptr) return std::nullopt;
  return std::pair{*parsed, std::move(m)};
}

}  // namespace

std::optional<route_match> api::route(std::string_view target) const {
  const auto found = locate(target);
  if (!found) return std::nullopt;
  const catalog::operation& op = *found->second.op;
  return route_match{op.group, op.name, op.path};
}

response api::answer(std::string_view target) const {
  if (!boost::urls::parse_origin_form(target)) return error_response(400, target, "malformed request target");
  const auto found = locate(target);
  if (!found) return error_response(404, target, "Not Found: no such route in the mock");
  const auto& [url, m] = *found;
  // The market's routes keep the market's coherent data; every market's custom bars come
  // from it too, so that their number follows the range and the timespan.
  if (!m.op->ignored && (m.op->group == "stocks" || m.op->name == "aggregates")) {
    response from_market = market_.answer(target);
    if (from_market.status != 404) return from_market;
  }
  try {
    return synthesise(options_, *m.op, m, target, url);
  } catch (const bad_request& e) {
    return error_response(400, target, e.what());
  }
}

}  // namespace massive::mock
