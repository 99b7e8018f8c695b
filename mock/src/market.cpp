#include "massive/mock/market.hpp"

#include "wire.hpp"

#include <massive/time.hpp>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <vector>

namespace massive::mock {
namespace {

using namespace std::chrono;
using std::int64_t;
using std::uint64_t;
using wire::bad_request;
using wire::error_response;
using wire::hash_text;
using wire::json_writer;
using wire::mix;
using wire::parse_int;
using wire::query;
using wire::read_query;
using wire::request_id;
using wire::unit;

double cents(double price) { return std::round(price * 100.0) / 100.0; }

// ---- parameters ---------------------------------------------------------------------------

std::optional<sys_days> parse_date(std::string_view text) {
  const std::optional<year_month_day> date = massive::parse_date(text);
  if (!date) return std::nullopt;
  return sys_days{*date};
}

/// A path segment naming an API version: v, then digits or X (v2, v3, vX).
bool is_version(std::string_view segment) {
  return segment.size() > 1 && segment[0] == 'v' &&
         (segment == "vX" || segment.find_first_not_of("0123456789", 1) == std::string_view::npos);
}

bool is_weekday(sys_days day) {
  const unsigned wd = weekday{day}.c_encoding();
  return wd != 0 && wd != 6;
}

// A date (YYYY-MM-DD) or an integer count in `Unit`.
template <class Unit>
Unit parse_instant(std::string_view name, std::string_view text) {
  if (auto day = parse_date(text)) return duration_cast<Unit>(day->time_since_epoch());
  if (auto count = parse_int(text)) return Unit{*count};
  throw bad_request("'" + std::string(name) + "' must be a date (YYYY-MM-DD) or an integer");
}

// ---- prices -------------------------------------------------------------------------------

// The ticker's price level at a moment: a slow swing around a per-ticker base.
double price_at(uint64_t ticker_hash, int64_t ms) {
  const double base = 20.0 + unit(ticker_hash) * 480.0;
  const double days = static_cast<double>(ms) / 86'400'000.0;
  return base * (1.0 + 0.15 * std::sin(days / 45.0) + 0.03 * std::sin(days / 3.7));
}

// ---- aggregates ---------------------------------------------------------------------------

milliseconds span_length(std::string_view timespan, int64_t multiplier) {
  const auto m = multiplier;
  if (timespan == "second") return seconds{m};
  if (timespan == "minute") return minutes{m};
  if (timespan == "hour") return hours{m};
  if (timespan == "day") return days{m};
  if (timespan == "week") return weeks{m};
  if (timespan == "month") return days{30 * m};
  if (timespan == "quarter") return days{91 * m};
  if (timespan == "year") return days{365 * m};
  throw bad_request("timespan must be second, minute, hour, day, week, month, quarter or year");
}

// Bars exist on weekdays; intraday bars during 14:30-21:00 UTC (the regular session).
bool bar_exists(milliseconds start, std::string_view timespan) {
  const auto day = floor<days>(sys_time<milliseconds>{start});
  if (!is_weekday(day)) return false;
  if (timespan == "second" || timespan == "minute" || timespan == "hour") {
    const auto in_day = start - day.time_since_epoch();
    return in_day >= hours{14} + minutes{30} && in_day < hours{21};
  }
  return true;
}

response aggregates(const market_options& options, std::string_view target,
                    const boost::urls::url_view& url, const std::vector<std::string>& segs) {
  // segs: v2 aggs ticker {T} range {multiplier} {timespan} {from} {to}
  const std::string& ticker = segs[3];
  const auto multiplier = parse_int(segs[5]);
  if (!multiplier || *multiplier < 1) throw bad_request("multiplier must be a positive integer");
  const std::string& timespan = segs[6];
  const auto step = span_length(timespan, *multiplier);
  const auto from = parse_instant<milliseconds>("from", segs[7]);
  auto to = parse_instant<milliseconds>("to", segs[8]);
  if (parse_date(segs[8])) to += days{1} - milliseconds{1};  // a date includes its whole day
  const query q = read_query(url);
  const int64_t limit = q.limit(5'000);
  const bool descending = q.descending(false);

  // Bars are counted in query order from `from`; a page is `limit` of them.
  const uint64_t th = hash_text(ticker);
  std::vector<milliseconds> starts;
  for (auto t = from; t <= to; t += step) {
    if (bar_exists(t, timespan)) starts.push_back(t);
    if (starts.size() > 1'000'000) throw bad_request("range too large for the mock");
  }
  if (descending) std::reverse(starts.begin(), starts.end());
  const auto first = std::min<std::size_t>(static_cast<std::size_t>(q.offset), starts.size());
  const auto last = std::min<std::size_t>(first + static_cast<std::size_t>(limit), starts.size());

  std::string body;
  body.reserve((last - first) * 110 + 512);
  json_writer w{body};
  w.raw("{");
  w.key("adjusted");
  w.raw(q.get("adjusted").value_or("true") == "false" ? "false" : "true");
  if (last < starts.size()) {
    // As on the wire: the range's near end moves to the next bar's millisecond value ({from}
    // when ascending), so the cursor itself starts again at offset 0.
    const std::string next_bar = std::to_string(starts[last].count());
    std::string next = options.base_url + "/" + segs[0] + "/aggs/ticker/" + ticker + "/range/" + segs[5] +
                       "/" + timespan + "/" + (descending ? segs[7] : next_bar) + "/" +
                       (descending ? next_bar : segs[8]) + "?cursor=" + q.cursor(0);
    w.raw(",");
    w.key("next_url");
    w.string(next);
  }
  w.raw(",");
  w.key("queryCount");
  w.number(static_cast<int64_t>(last - first));
  w.raw(",");
  w.key("request_id");
  w.string(request_id(target));
  w.raw(",");
  w.key("results");
  w.raw("[");
  // An index is computed, not traded: its bars have no volume, VWAP or transactions.
  const bool traded = ticker.rfind("I:", 0) != 0;
  for (std::size_t i = first; i < last; ++i) {
    const int64_t t = starts[i].count();
    const uint64_t h = mix(th ^ static_cast<uint64_t>(t));
    const double level = price_at(th, t);
    const double open = cents(level * (1.0 + 0.01 * (unit(h) - 0.5)));
    const double close = cents(level * (1.0 + 0.01 * (unit(mix(h + 1)) - 0.5)));
    const double high = cents(std::max(open, close) * (1.0 + 0.006 * unit(mix(h + 2))));
    const double low = cents(std::min(open, close) * (1.0 - 0.006 * unit(mix(h + 3))));
    const int64_t volume = 100'000 + static_cast<int64_t>(mix(h + 4) % 90'000'000);
    if (i != first) w.raw(",");
    w.raw("{");
    if (traded) {
      w.key("v");
      w.number(volume);
      w.raw(",");
      w.key("vw");
      w.number(std::round((low + (high - low) * unit(mix(h + 5))) * 10'000.0) / 10'000.0);
      w.raw(",");
    }
    w.key("o");
    w.number(open);
    w.raw(",");
    w.key("c");
    w.number(close);
    w.raw(",");
    w.key("h");
    w.number(high);
    w.raw(",");
    w.key("l");
    w.number(low);
    w.raw(",");
    w.key("t");
    w.number(t);
    if (traded) {
      w.raw(",");
      w.key("n");
      w.number(static_cast<int64_t>(1 + volume / 180));
    }
    w.raw("}");
  }
  w.raw("],");
  w.key("resultsCount");
  w.number(static_cast<int64_t>(last - first));
  w.raw(",");
  w.key("status");
  w.string("OK");
  w.raw(",");
  w.key("ticker");
  w.string(ticker);
  w.raw("}");
  return {200, std::move(body)};
}

// ---- trades and quotes --------------------------------------------------------------------

// The span of sip timestamps (ns) a request asks for, from `timestamp` and its comparators.
struct ns_range {
  int64_t begin = 0;  // inclusive
  int64_t end = 0;    // exclusive
};

ns_range requested_range(const query& q, const market_options& options) {
  constexpr int64_t ns_per_day = 86'400'000'000'000;
  auto day_range = [](int64_t ns) {
    const int64_t start = ns - ((ns % ns_per_day) + ns_per_day) % ns_per_day;
    return ns_range{start, start + ns_per_day};
  };
  auto bound = [&](std::string_view name) -> std::optional<int64_t> {
    const auto text = q.get(name);
    if (!text) return std::nullopt;
    return parse_instant<nanoseconds>(name, *text).count();
  };
  ns_range r;
  if (auto eq = q.get("timestamp")) {
    const auto ns = parse_instant<nanoseconds>("timestamp", *eq).count();
    r = parse_date(*eq) ? day_range(ns) : ns_range{ns, ns + 1};
  } else if (!bound("timestamp.gte") && !bound("timestamp.gt") && !bound("timestamp.lt") &&
             !bound("timestamp.lte")) {
    r = day_range(duration_cast<nanoseconds>(parse_date(options.default_day)->time_since_epoch())
                      .count());
  } else {
    r = {bound("timestamp.gte").value_or(0), std::numeric_limits<int64_t>::max()};
    if (auto gt = bound("timestamp.gt")) r.begin = std::max(r.begin, *gt + 1);
    if (auto lt = bound("timestamp.lt")) r.end = std::min(r.end, *lt);
    if (auto lte = bound("timestamp.lte")) r.end = std::min(r.end, *lte + 1);
  }
  if (r.end <= r.begin) return {r.begin, r.begin};
  if (r.end - r.begin > 31 * ns_per_day) throw bad_request("timestamp range longer than 31 days");
  return r;
}

// Tick k of a trading day sits at a fixed slot in 14:30-21:00 UTC, so the ticks inside any
// range are found by arithmetic, in either order.
struct tick_clock {
  int64_t per_day;
  static constexpr int64_t session_open = (14 * 3600 + 30 * 60) * 1'000'000'000LL;
  static constexpr int64_t session_length = 6 * 3600 + 30 * 60;  // seconds
  int64_t spacing() const { return session_length * 1'000'000'000LL / per_day; }
  int64_t at(int64_t day_start, int64_t k) const {
    return day_start + session_open + k * spacing();
  }
};

struct tick {
  int64_t index;  // within its day
  int64_t sip;
};

// The ticks inside a range, addressed by position without materialising them: a range covers
// whole spans of slots on each weekday it touches.
class tick_range {
 public:
  tick_range(const ns_range& r, const tick_clock& clock) : clock_(clock) {
    constexpr int64_t ns_per_day = 86'400'000'000'000;
    if (r.begin >= r.end) return;
    int64_t day_start = r.begin - ((r.begin % ns_per_day) + ns_per_day) % ns_per_day;
    for (; day_start < r.end; day_start += ns_per_day) {
      if (!is_weekday(sys_days{days{day_start / ns_per_day}})) continue;
      // Slots k with begin <= at(k) < end.
      const int64_t open = day_start + tick_clock::session_open;
      const int64_t step = clock.spacing();
      const int64_t first = r.begin <= open ? 0 : (r.begin - open + step - 1) / step;
      const int64_t past = r.end <= open ? 0 : (r.end - open + step - 1) / step;
      const int64_t from = std::min(first, clock.per_day), to = std::min(past, clock.per_day);
      if (to > from) {
        spans_.push_back({day_start, from, to - from});
        size_ += to - from;
      }
    }
  }
  int64_t size() const { return size_; }
  // The i-th tick in ascending time.
  tick at(int64_t i) const {
    for (const auto& span : spans_) {
      if (i < span.count) return {span.first + i, clock_.at(span.day_start, span.first + i)};
      i -= span.count;
    }
    throw std::out_of_range("tick index");
  }

 private:
  struct span {
    int64_t day_start, first, count;
  };
  tick_clock clock_;
  std::vector<span> spans_;
  int64_t size_ = 0;
};

// One trade of the market, as REST's /v3/trades and the flat files both show it.
struct trade_values {
  std::string_view conditions;  // "", "37" or "12,37"
  int64_t exchange, id, participant;
  double price;
  int64_t sequence, sip, size, tape;
};

trade_values trade_at(uint64_t th, const tick& t) {
  const uint64_t h = mix(th ^ static_cast<uint64_t>(t.sip));
  const double level = price_at(th, t.sip / 1'000'000);
  trade_values v{};
  if (mix(h + 6) % 4 == 0) v.conditions = mix(h + 7) % 2 ? "12,37" : "37";
  v.exchange = 1 + static_cast<int64_t>(mix(h + 3) % 20);
  v.id = t.index + 1;
  v.participant = t.sip - 1'000 - static_cast<int64_t>(mix(h + 1) % 400'000);
  v.price = cents(level * (1.0 + 0.002 * (unit(h) - 0.5)));
  v.sequence = 1'000 + t.index * 3 + static_cast<int64_t>(mix(h + 2) % 3);
  v.sip = t.sip;
  v.size = 1 + static_cast<int64_t>(mix(h + 5) % 500);
  v.tape = 1 + static_cast<int64_t>(mix(h + 4) % 3);
  return v;
}

response ticks(const market_options& options, std::string_view target,
               const boost::urls::url_view& url, const std::string& ticker, bool trades) {
  const query q = read_query(url);
  const int64_t limit = q.limit(1'000);
  const bool descending = q.descending(true);
  const tick_clock clock{options.ticks_per_day};
  const tick_range all(requested_range(q, options), clock);
  const auto total = static_cast<std::size_t>(all.size());
  const auto first = std::min<std::size_t>(static_cast<std::size_t>(q.offset), total);
  const auto last = std::min<std::size_t>(first + static_cast<std::size_t>(limit), total);
  const uint64_t th = hash_text(ticker);
  const std::string path = std::string(url.encoded_path());

  std::string body;
  body.reserve((last - first) * 260 + 512);
  json_writer w{body};
  w.raw("{");
  if (last < total) {
    w.key("next_url");
    w.string(options.base_url + path + "?cursor=" + q.cursor(static_cast<int64_t>(last)));
    w.raw(",");
  }
  w.key("request_id");
  w.string(request_id(target));
  w.raw(",");
  w.key("results");
  w.raw("[");
  for (std::size_t i = first; i < last; ++i) {
    const tick t = all.at(static_cast<int64_t>(descending ? total - 1 - i : i));
    const uint64_t h = mix(th ^ static_cast<uint64_t>(t.sip));
    const double level = price_at(th, t.sip / 1'000'000);
    const int64_t participant = t.sip - 1'000 - static_cast<int64_t>(mix(h + 1) % 400'000);
    const int64_t sequence = 1'000 + t.index * 3 + static_cast<int64_t>(mix(h + 2) % 3);
    const int64_t exchange = 1 + static_cast<int64_t>(mix(h + 3) % 20);
    const int64_t tape = 1 + static_cast<int64_t>(mix(h + 4) % 3);
    if (i != first) w.raw(",");
    w.raw("{");
    if (trades) {
      const trade_values v = trade_at(th, t);
      if (!v.conditions.empty()) {
        w.key("conditions");
        w.raw(v.conditions == "12,37" ? "[12,37]" : "[37]");
        w.raw(",");
      }
      w.key("exchange");
      w.number(v.exchange);
      w.raw(",");
      w.key("id");
      w.string(std::to_string(v.id));
      w.raw(",");
      w.key("participant_timestamp");
      w.number(v.participant);
      w.raw(",");
      w.key("price");
      w.number(v.price);
      w.raw(",");
      w.key("sequence_number");
      w.number(v.sequence);
      w.raw(",");
      w.key("sip_timestamp");
      w.number(v.sip);
      w.raw(",");
      w.key("size");
      w.number(v.size);
      w.raw(",");
      w.key("tape");
      w.number(v.tape);
    } else {
      const double mid = level * (1.0 + 0.002 * (unit(h) - 0.5));
      w.key("ask_exchange");
      w.number(exchange);
      w.raw(",");
      w.key("ask_price");
      w.number(cents(mid + 0.01));
      w.raw(",");
      w.key("ask_size");
      w.number(static_cast<int64_t>(1 + mix(h + 5) % 40));
      w.raw(",");
      w.key("bid_exchange");
      w.number(1 + static_cast<int64_t>(mix(h + 8) % 20));
      w.raw(",");
      w.key("bid_price");
      w.number(cents(mid - 0.01));
      w.raw(",");
      w.key("bid_size");
      w.number(static_cast<int64_t>(1 + mix(h + 6) % 40));
      w.raw(",");
      w.key("participant_timestamp");
      w.number(participant);
      w.raw(",");
      w.key("sequence_number");
      w.number(sequence);
      w.raw(",");
      w.key("sip_timestamp");
      w.number(t.sip);
      w.raw(",");
      w.key("tape");
      w.number(tape);
    }
    w.raw("}");
  }
  w.raw("],");
  w.key("status");
  w.string("OK");
  w.raw("}");
  return {200, std::move(body)};
}

}  // namespace

market::market(market_options options) : options_(std::move(options)) {
  if (!parse_date(options_.default_day)) {
    throw std::invalid_argument("market_options::default_day must be YYYY-MM-DD");
  }
  if (options_.ticks_per_day < 1 || options_.ticks_per_day > 1'000'000) {
    throw std::invalid_argument("market_options::ticks_per_day must be 1..1000000");
  }
}

response market::answer(std::string_view target) const {
  const auto parsed = boost::urls::parse_origin_form(target);
  if (!parsed) return error_response(400, target, "malformed request target");
  const boost::urls::url_view url = *parsed;
  std::vector<std::string> segs;
  for (auto seg : url.segments()) segs.push_back(seg);
  try {
    // Any version of these routes (v2 and v3 today): a description that moves one to another
    // version (as Massive promotes routes) still finds the market's data.
    if (segs.size() == 9 && is_version(segs[0]) && segs[1] == "aggs" && segs[2] == "ticker" &&
        segs[4] == "range") {
      return aggregates(options_, target, url, segs);
    }
    if (segs.size() == 3 && is_version(segs[0]) && (segs[1] == "trades" || segs[1] == "quotes")) {
      return ticks(options_, target, url, segs[2], segs[1] == "trades");
    }
  } catch (const bad_request& e) {
    return error_response(400, target, e.what());
  }
  return error_response(404, target, "Not Found: no such route in the mock");
}

void market::write_trades_csv(std::string& out, std::string_view ticker, std::string_view day) const {
  const auto date = parse_date(day);
  if (!date) throw std::invalid_argument("market::write_trades_csv: day must be YYYY-MM-DD");
  constexpr int64_t ns_per_day = 86'400'000'000'000;
  const int64_t start = duration_cast<nanoseconds>(date->time_since_epoch()).count();
  const tick_range all({start, start + ns_per_day}, tick_clock{options_.ticks_per_day});
  const uint64_t th = hash_text(ticker);
  char number[32];
  auto put = [&](auto value) { out.append(number, std::to_chars(number, number + sizeof number, value).ptr); };
  for (int64_t i = 0; i < all.size(); ++i) {
    const trade_values v = trade_at(th, all.at(i));
    // ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,
    // sip_timestamp,size,tape,trf_id,trf_timestamp (API-NOTES, "Flat files")
    out += ticker;
    out += ',';
    if (v.conditions.size() > 2) {
      out.append("\"").append(v.conditions).append("\"");
    } else {
      out += v.conditions;
    }
    out += ",,";
    put(v.exchange);
    out += ',';
    put(v.id);
    out += ',';
    put(v.participant);
    out += ',';
    put(v.price);
    out += ',';
    put(v.sequence);
    out += ',';
    put(v.sip);
    out += ',';
    put(v.size);
    out += ',';
    put(v.tape);
    out += ",,\n";
  }
}

}  // namespace massive::mock
