#include "bodies.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace massive::test {
namespace {

// Strings that stress the framer: quotes, backslash runs, brackets and commas inside
// strings, unicode escapes.
const char* const tricky_strings[] = {
    R"(plain)",          R"(a\"b)",         R"(back\\slash)",    R"(\\\"odd\\\\)",
    R"({[,]}:)",         R"(caf\u00e9)",    R"(\ud83d\ude00 ok)", R"(tab\tnew\nline)",
    R"(\/slash\/)",      R"(,,,]]]}}})",    R"(\\)",             R"(x\\\\\\\\\"y)",
};

class writer {
 public:
  explicit writer(bool pretty) : pretty_(pretty) {}
  std::string out;

  void newline(int depth) {
    if (!pretty_) return;
    out += '\n';
    out.append(static_cast<std::size_t>(depth) * 4, ' ');
  }
  void key(const char* k, int depth, bool& first) {
    if (!first) out += ',';
    first = false;
    newline(depth);
    out += '"';
    out += k;
    out += pretty_ ? "\": " : "\":";
  }

 private:
  bool pretty_;
};

std::string volume_text(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int64_t> whole(1, 900'000'000);
  const std::int64_t v = whole(rng);
  switch (rng() % 4) {
    case 0: return std::to_string(v);
    case 1: return std::to_string(v) + ".0";
    case 2: {  // exponent form of an exact value, as the wire sends it
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6e", static_cast<double>(v / 1000 * 1000));
      return buf;
    }
    default: return "1.0e+06";
  }
}

std::string price_text(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> price(0.5, 5000.0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(rng() % 5), price(rng));
  return buf;
}

void unknown_value(writer& w, std::mt19937_64& rng, int depth) {
  switch (rng() % 6) {
    case 0: w.out += "null"; break;
    case 1: w.out += "true"; break;
    case 2: w.out += "-12.5e-3"; break;
    case 3:
      w.out += '"';
      w.out += tricky_strings[rng() % std::size(tricky_strings)];
      w.out += '"';
      break;
    case 4:
      w.out += R"({"a":[1,{"b":"]},"},[]],"c":{"d":"\"{"}})";
      break;
    default:
      if (depth < 3) {
        w.out += '[';
        unknown_value(w, rng, depth + 1);
        w.out += ',';
        unknown_value(w, rng, depth + 1);
        w.out += ']';
      } else {
        w.out += "[]";
      }
  }
}

// The envelope keys of a list response, in the given order.
void envelope(writer& w, const body_options& o, std::mt19937_64& rng, bool& first, bool aggs) {
  w.key("status", 1, first);
  w.out += "\"OK\"";
  w.key("request_id", 1, first);
  w.out += "\"6a7e466379af0a71039d60cc78e72282\"";
  if (aggs) {
    w.key("ticker", 1, first);
    w.out += "\"AAPL\"";
    w.key("queryCount", 1, first);
    w.out += std::to_string(o.rows);
    w.key("resultsCount", 1, first);
    w.out += std::to_string(o.rows);
    w.key("adjusted", 1, first);
    w.out += "true";
  }
  if (o.unknown_keys) {
    w.key("zz_unknown", 1, first);
    unknown_value(w, rng, 0);
  }
  w.key("count", 1, first);
  w.out += std::to_string(o.rows);
  if (o.next_url) {
    w.key("next_url", 1, first);
    w.out += R"("https://api.massive.com/v3/trades/AAPL?cursor=YWN0aXZl\u0026limit=2")";
  }
}

template <class Row>
std::string list_body(const body_options& o, bool aggs, Row&& row) {
  std::mt19937_64 rng(o.seed);
  writer w(o.pretty);
  w.out.reserve(o.rows * 220 + 512);
  w.out += '{';
  bool first = true;
  if (o.envelope_first) envelope(w, o, rng, first, aggs);
  w.key("results", 1, first);
  w.out += '[';
  for (std::size_t i = 0; i < o.rows; ++i) {
    if (i != 0) w.out += ',';
    w.newline(2);
    w.out += '{';
    bool first_field = true;
    row(w, rng, i, first_field);
    w.newline(2);
    w.out += '}';
  }
  w.newline(1);
  w.out += ']';
  if (!o.envelope_first) envelope(w, o, rng, first, aggs);
  w.newline(0);
  w.out += '}';
  return std::move(w.out);
}

}  // namespace

std::string aggs_body(const body_options& o) {
  return list_body(o, true, [&](writer& w, std::mt19937_64& rng, std::size_t i, bool& first) {
    if (o.unknown_keys && rng() % 8 == 0) {
      w.key("T", 3, first);
      w.out += "\"AAPL\"";
    }
    w.key("v", 3, first);
    w.out += volume_text(rng);
    if (rng() % 5 != 0) {
      w.key("vw", 3, first);
      w.out += price_text(rng);
    }
    w.key("o", 3, first);
    w.out += price_text(rng);
    w.key("c", 3, first);
    w.out += price_text(rng);
    w.key("h", 3, first);
    w.out += price_text(rng);
    w.key("l", 3, first);
    w.out += price_text(rng);
    w.key("t", 3, first);
    w.out += std::to_string(1'600'000'000'000LL + static_cast<long long>(i) * 60'000);
    switch (rng() % 6) {
      case 0: break;  // absent
      case 1:
        w.key("n", 3, first);
        w.out += "1.0e+03";
        break;
      default:
        w.key("n", 3, first);
        w.out += std::to_string(rng() % 1'000'000);
    }
    if (rng() % 7 == 0) {
      w.key("otc", 3, first);
      w.out += "true";
    }
    if (o.unknown_keys && rng() % 9 == 0) {
      w.key("zz_extra", 3, first);
      unknown_value(w, rng, 0);
    }
  });
}

std::string trades_body(const body_options& o) {
  return list_body(o, false, [&](writer& w, std::mt19937_64& rng, std::size_t i, bool& first) {
    if (rng() % 4 != 0) {
      w.key("conditions", 3, first);
      w.out += '[';
      const std::size_t n = rng() % 4;
      for (std::size_t k = 0; k < n; ++k) {
        if (k != 0) w.out += ',';
        w.out += std::to_string(rng() % 60);
      }
      w.out += ']';
    }
    if (rng() % 10 == 0) {
      w.key("correction", 3, first);
      w.out += std::to_string(rng() % 13);
    }
    if (rng() % 3 != 0) {
      w.key("decimal_size", 3, first);
      w.out += '"' + std::to_string(rng() % 10'000) + "." + std::to_string(rng() % 1000) + '"';
    }
    w.key("exchange", 3, first);
    w.out += std::to_string(rng() % 21 + 1);
    w.key("id", 3, first);
    w.out += '"';
    if (rng() % 10 == 0) {
      w.out += tricky_strings[rng() % std::size(tricky_strings)];
    } else {
      w.out += std::to_string(rng() % 100'000'000'000'000ULL);
    }
    w.out += '"';
    // Nanoseconds beyond 2^53: a double would lose the last digits.
    const long long sip = 1'651'181'822'461'636'581LL + static_cast<long long>(i) * 977;
    w.key("participant_timestamp", 3, first);
    w.out += std::to_string(sip - 343);
    w.key("price", 3, first);
    w.out += price_text(rng);
    w.key("sequence_number", 3, first);
    w.out += std::to_string(7'179'341 + i);
    w.key("sip_timestamp", 3, first);
    w.out += std::to_string(sip);
    w.key("size", 3, first);
    w.out += rng() % 5 == 0 ? "0.5" : std::to_string(rng() % 1000 + 1);
    w.key("tape", 3, first);
    w.out += std::to_string(rng() % 3 + 1);
    if (rng() % 3 == 0) {
      w.key("trf_id", 3, first);
      w.out += std::to_string(rng() % 5);
      w.key("trf_timestamp", 3, first);
      w.out += std::to_string(sip - 264'000'000);
    }
    if (o.unknown_keys && rng() % 9 == 0) {
      w.key("zz_extra", 3, first);
      unknown_value(w, rng, 0);
    }
  });
}

std::string quotes_body(const body_options& o) {
  return list_body(o, false, [&](writer& w, std::mt19937_64& rng, std::size_t i, bool& first) {
    const auto side = [&](const char* exchange, const char* price, const char* size) {
      if (rng() % 10 == 0) return;  // one-sided book
      w.key(exchange, 3, first);
      w.out += std::to_string(rng() % 21 + 1);
      w.key(price, 3, first);
      w.out += price_text(rng);
      w.key(size, 3, first);
      w.out += std::to_string(rng() % 50 + 1);
    };
    side("ask_exchange", "ask_price", "ask_size");
    side("bid_exchange", "bid_price", "bid_size");
    if (rng() % 5 == 0) {
      w.key("conditions", 3, first);
      w.out += "[1]";
    }
    if (rng() % 7 == 0) {
      w.key("indicators", 3, first);
      w.out += "[604, 607]";
    }
    const long long sip = 1'652'191'872'800'638'701LL - static_cast<long long>(i) * 1313;
    w.key("participant_timestamp", 3, first);
    w.out += std::to_string(sip - 236'500);
    w.key("sequence_number", 3, first);
    w.out += std::to_string(19'288'684 - i);
    w.key("sip_timestamp", 3, first);
    w.out += std::to_string(sip);
    w.key("tape", 3, first);
    w.out += "3";
    if (rng() % 11 == 0) {
      w.key("trf_timestamp", 3, first);
      w.out += std::to_string(sip - 1000);
    }
  });
}

std::string wire_sample(const std::string& file) {
  const std::string path = std::string(MASSIVE_WIRE_SAMPLES) + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open wire sample " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void feed_split(massive::detail::body_sink& sink, std::string_view body, std::span<const std::size_t> cuts) {
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    sink.feed(std::span<const char>(body.data() + at, cut - at));
    at = cut;
  }
  sink.feed(std::span<const char>(body.data() + at, body.size() - at));
  sink.finish();
}

void feed_chunks(massive::detail::body_sink& sink, std::string_view body, std::size_t chunk) {
  for (std::size_t at = 0; at < body.size(); at += chunk) {
    sink.feed(std::span<const char>(body.data() + at, std::min(chunk, body.size() - at)));
  }
  sink.finish();
}

void feed_random(massive::detail::body_sink& sink, std::string_view body, std::mt19937_64& rng, std::size_t max_chunk) {
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t n = std::min<std::size_t>(rng() % max_chunk + 1, body.size() - at);
    sink.feed(std::span<const char>(body.data() + at, n));
    at += n;
  }
  sink.finish();
}

}  // namespace massive::test
