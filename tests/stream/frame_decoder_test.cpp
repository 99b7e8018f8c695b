// The frame decoder against the stream description's examples and the recorded frames of
// API-NOTES.md: every event decoded, written back by its generated writer and compared with a
// DOM parse of the bytes sent, both ways (every key sent was read, every value written was
// sent); frames split at every byte; mixed frames in wire order; the typed refusals.
#include <doctest/doctest.h>
#include <simdjson.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <massive/json_writer.hpp>
#include <massive/stream/batch.hpp>
#include <massive/stream/error.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "frame_compare.hpp"
#include "sanitizer_report.hpp"

namespace ms = massive::stream;
using massive::test::frame_differences;
using massive::test::written_events;

namespace {

// The Python client's test server (API-NOTES.md, "Recorded frames"): the second frame's second
// trade has no conditions.
constexpr std::string_view recorded_one =
    R"([{"ev":"T","sym":"AAPL","i":"5096","x":10,"p":161.87,"s":300,"c":[14,41],"t":1651684192462,"q":4009402,"z":3}])";
constexpr std::string_view recorded_two =
    R"([{"ev":"T","sym":"AMZN","i":"72815","x":12,"p":161.87,"s":1,"c":[14,37,41],"t":1651684192536,"q":4009408,"z":3},{"ev":"T","sym":"AMZN","i":"799","x":4,"p":161.87,"s":100,"t":1651684192717,"q":4009434,"z":3}])";

ms::batch decode_whole(ms::frame_decoder& d, std::string_view frame) {
  d.feed(frame);
  return d.finish();
}

struct channel_example {
  std::string path;
  ms::market market;
  ms::channel_set channels;
  std::string example;  // one event, as the description gives it
};

std::vector<channel_example> description_examples() {
  std::ifstream in(MASSIVE_STREAM_SPEC);
  std::stringstream text;
  text << in.rdbuf();
  simdjson::dom::parser parser;
  const std::string json = text.str();
  simdjson::dom::element spec;
  REQUIRE(parser.parse(json).get(spec) == simdjson::SUCCESS);
  std::vector<channel_example> out;
  simdjson::dom::object paths;
  REQUIRE(spec["paths"].get(paths) == simdjson::SUCCESS);
  for (auto [path, item] : paths) {
    channel_example c;
    c.path = std::string(path);
    std::string rest = c.path.substr(1);
    c.channels = ms::channel_set::market;
    if (rest.rfind("business/", 0) == 0)
      c.channels = ms::channel_set::business, rest = rest.substr(9);
    if (rest.rfind("launchpad/", 0) == 0)
      c.channels = ms::channel_set::launchpad, rest = rest.substr(10);
    const std::string market = rest.substr(0, rest.find('/'));
    const std::map<std::string, ms::market> markets{{"stocks", ms::market::stocks},
                                                    {"options", ms::market::options},
                                                    {"forex", ms::market::forex},
                                                    {"crypto", ms::market::crypto},
                                                    {"indices", ms::market::indices}};
    // A market the client does not serve, or a channel described without an example: nothing
    // to compare (the description's 33 channels have both).
    simdjson::dom::element example;
    if (!markets.contains(market) ||
        item.at_pointer("/get/responses/200/content/application~1json/example").get(example) != simdjson::SUCCESS) {
      MESSAGE("not compared: " << c.path);
      continue;
    }
    c.market = markets.at(market);
    c.example = simdjson::minify(example);
    out.push_back(std::move(c));
  }
  return out;
}

// Examples that contradict their own schema, with the reason; a listed example that starts
// decoding fails the test, so the list can only shrink.
const std::map<std::string, std::string> contradicting_examples{
    {"/forex/C", "x is \"44\", a string, where the schema says integer"},
};

}  // namespace

TEST_CASE("every channel's example in the stream description decodes like its DOM parse") {
  const auto examples = description_examples();
  REQUIRE(!examples.empty());
  for (const channel_example& c : examples) {
    CAPTURE(c.path);
    ms::frame_decoder d(c.market, c.channels);
    const std::string frame = "[" + c.example + "]";
    if (const auto listed = contradicting_examples.find(c.path);
        listed != contradicting_examples.end()) {
      CHECK_THROWS_AS(decode_whole(d, frame), massive::decode_error);
      continue;
    }
    const ms::batch b = decode_whole(d, frame);
    CHECK(b.size() == 1);
    CHECK(b.skipped() == 0);
    const std::vector<std::string> differences = frame_differences(frame, written_events(b));
    CHECK_MESSAGE(differences.empty(), differences.front());
  }
}

TEST_CASE("the recorded frames decode, the second trade without conditions") {
  ms::frame_decoder d(ms::market::stocks);
  {
    const ms::batch b = decode_whole(d, recorded_one);
    const auto trades = b.events<massive::stock_trade_event>();
    REQUIRE(trades.size() == 1);
    CHECK(trades[0].ticker == "AAPL");
    CHECK(trades[0].id == "5096");
    CHECK(trades[0].price == doctest::Approx(161.87));
    CHECK(trades[0].size == 300);
    CHECK(trades[0].conditions.size() == 2);
    CHECK(trades[0].timestamp.count() == 1651684192462);
    CHECK(frame_differences(std::string(recorded_one), written_events(b)).empty());
  }
  const ms::batch b = decode_whole(d, recorded_two);
  const auto trades = b.events<massive::stock_trade_event>();
  REQUIRE(trades.size() == 2);
  CHECK(trades[0].conditions.size() == 3);
  CHECK(trades[1].conditions.empty());
  CHECK(trades[1].id == "799");
  const std::vector<std::string> differences =
      frame_differences(std::string(recorded_two), written_events(b));
  CHECK_MESSAGE(differences.empty(), differences.front());
}

// A frame decodes into the memory of the batch dropped last (parked beside the decoder, not
// returned to the pool): a steady stream takes no region from the pool and returns none. A
// batch still held is never reused, and one batch's memory at most is kept so.
TEST_CASE("the batch dropped last lends its memory to the next frame; held batches keep theirs") {
  const auto pool = massive::make_page_pool();
  ms::frame_decoder d(ms::market::stocks, ms::channel_set::market, {}, pool);
  const ms::batch held = decode_whole(d, recorded_one);
  { const ms::batch dropped = decode_whole(d, recorded_two); }
  // Seen failing with batch_pool::release never parking (the spare slot unused): regions_free
  // was 2, the dropped batch's regions on the pool's free list. Under ASan, seen failing with
  // pool_access::unpark doing nothing: use-after-poison, a WRITE in page_builder::store as the
  // next frame's strings went into the parked arena.
  CHECK(pool->stats().regions_mapped == 4);
  CHECK(pool->stats().regions_free == 0);
  for (int frame = 0; frame < 3; ++frame) {
    const ms::batch next = decode_whole(d, recorded_two);
    CHECK(pool->stats().regions_mapped == 4);
    CHECK(pool->stats().regions_free == 0);
    const auto trades = next.events<massive::stock_trade_event>();
    REQUIRE(trades.size() == 2);
    CHECK(trades[0].ticker == "AMZN");
    CHECK(trades[0].conditions.size() == 3);
    CHECK(trades[1].id == "799");
    CHECK(frame_differences(std::string(recorded_two), written_events(next)).empty());
  }
  const auto trades = held.events<massive::stock_trade_event>();
  REQUIRE(trades.size() == 1);
  CHECK(trades[0].ticker == "AAPL");
  CHECK(trades[0].id == "5096");
  CHECK(trades[0].conditions.size() == 2);
  CHECK(frame_differences(std::string(recorded_one), written_events(held)).empty());
}

// Parking a batch's memory applies the pool's retention cap as returning it would: a large
// frame's rows and strings go back to the kernel but for retained_bytes_per_region a region.
TEST_CASE("a parked batch's memory keeps no more than the pool's retention cap") {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  massive::page_pool::options options;
  options.region_bytes = std::size_t{64} << 20;
  options.retained_bytes_per_region = page;
  const auto pool = massive::make_page_pool(options);
  ms::frame_decoder d(ms::market::stocks, ms::channel_set::market, {}, pool);
  std::string large = "[";
  for (int i = 0; i < 2000; ++i) {
    large += (i == 0 ? "" : ",") + std::string(R"({"ev":"T","sym":"AMZN","i":")") +
             std::to_string(i) +
             R"(","x":12,"p":161.87,"s":1,"c":[14,37,41],"t":1651684192536,"q":4009408,"z":3})";
  }
  large += "]";
  {
    const ms::batch b = decode_whole(d, large);
    CHECK(b.size() == 2000);
    CHECK(pool->stats().bytes_touched > 4 * page);
  }
  // Seen failing with pool_access::park doing nothing: 114688 bytes touched and not released
  // where 8192 were expected.
  const massive::page_pool_stats s = pool->stats();
  CHECK(s.regions_mapped == 2);
  CHECK(s.regions_free == 0);
  CHECK(s.bytes_touched - s.bytes_released == 2 * page);
  const ms::batch next = decode_whole(d, recorded_two);
  CHECK(pool->stats().regions_mapped == 2);
  CHECK(frame_differences(std::string(recorded_two), written_events(next)).empty());
}

// The lifetime rule (batch.hpp): views into a batch are valid while it lives. Its memory, parked
// for the next frame, is poisoned as the pool's free regions are, so AddressSanitizer reports
// a view kept past its batch.
TEST_CASE("under AddressSanitizer, a ticker read after its batch is dropped is reported") {
  if (!massive::test::address_sanitizer) {
    MESSAGE("not an AddressSanitizer build: parked memory is not poisoned");
    return;
  }
  ms::frame_decoder d(ms::market::stocks);
  const auto [report, exit_zero] = massive::test::stderr_of_child([&] {
    std::string_view ticker;
    {
      const ms::batch b = decode_whole(d, recorded_one);
      ticker = b.events<massive::stock_trade_event>()[0].ticker;  // a view into the batch's arena
    }
    massive::test::read_all(ticker);
  });
  // Seen failing with pool_access::park doing nothing: the child exited 0 and reported nothing.
  CHECK_FALSE(exit_zero);
  CHECK(report.find("use-after-poison") != std::string::npos);
}

TEST_CASE("a mixed frame is visited in wire order and each type has its span") {
  const std::string frame =
      R"([{"ev":"status","status":"success","message":"subscribed to: T.AAPL"},)"
      R"({"ev":"Q","sym":"AAPL","bx":4,"bp":150.1,"bs":2,"ax":7,"ap":150.2,"as":3,"t":1651684192463,"q":1},)"
      R"({"ev":"T","sym":"AAPL","p":150.15,"s":10,"t":1651684192464,"q":2},)"
      R"({"ev":"XT","pair":"BTC-USD","p":1,"s":1,"t":1},)"
      R"({"ev":"Q","sym":"MSFT","bp":300.5,"t":1651684192465,"q":3}])";
  ms::frame_decoder d(ms::market::stocks);
  const ms::batch b = decode_whole(d, frame);
  std::vector<std::string> seen;
  b.visit([&](const auto& event) {
    using E = std::decay_t<decltype(event)>;
    seen.emplace_back(ms::event_kind_names[static_cast<std::size_t>(ms::event_traits<E>::kind)]);
  });
  // The crypto trade is not a stocks event: counted and skipped, not decoded.
  CHECK(seen == std::vector<std::string>{"status", "stock_quote", "stock_trade", "stock_quote"});
  CHECK(b.skipped() == 1);
  CHECK(b.size() == 4);
  REQUIRE(b.events<massive::stock_quote_event>().size() == 2);
  CHECK(b.events<massive::stock_quote_event>()[1].ticker == "MSFT");
  CHECK(b.events<massive::status_event>()[0].message == "subscribed to: T.AAPL");
}

TEST_CASE(
    "keep_event_text keeps each event's bytes exactly as the frame carried them, at every split") {
  // White space between events, an escaped string and an unknown key: the texts are the bytes
  // between each event's braces, nothing re-written.
  const std::string first =
      R"({"ev":"T","sym":"AAPL","i":"a\"b","p":150.150,"s":10,"t":1651684192464,"new":[1,{"x":2}]})";
  const std::string skipped = R"({"ev":"XT","pair":"BTC-USD","p":1,"s":1,"t":1})";
  const std::string second = R"({ "ev" : "Q", "sym":"BRK.A", "bp":300.5,"t":1651684192465,"q":3 })";
  const std::string frame = "[ " + first + " ,\n" + skipped + ",\t" + second + " \n]";
  ms::frame_limits limits;
  limits.keep_event_text = true;
  ms::frame_decoder d(ms::market::stocks, ms::channel_set::market, limits);
  for (std::size_t cut = 0; cut <= frame.size(); ++cut) {
    CAPTURE(cut);
    d.feed(std::string_view(frame).substr(0, cut));
    d.feed(std::string_view(frame).substr(cut));
    const ms::batch b = d.finish();
    std::vector<std::string> texts;
    std::vector<std::string> tickers;
    b.visit_with_text([&](const auto& event, std::string_view text) {
      texts.emplace_back(text);
      if constexpr (requires { event.ticker; }) tickers.emplace_back(event.ticker);
    });
    // Seen failing with the trailing white-space trim removed: the second text ended in " ".
    CHECK(texts == std::vector<std::string>{first, second});
    CHECK(tickers == std::vector<std::string>{"AAPL", "BRK.A"});
  }
  // Without the option the events decode the same and carry no text.
  ms::frame_decoder plain(ms::market::stocks);
  const ms::batch b = decode_whole(plain, frame);
  std::size_t empty_texts = 0;
  b.visit_with_text(
      [&](const auto&, std::string_view text) { empty_texts += text.empty() ? 1 : 0; });
  CHECK(empty_texts == 2);
  CHECK(b.events<massive::stock_quote_event>().size() == 1);
}

TEST_CASE("a frame split at every byte decodes like the whole frame") {
  const std::string frame = std::string(recorded_two.substr(0, recorded_two.size() - 1)) + "," +
                            std::string(recorded_one.substr(1));
  ms::frame_decoder d(ms::market::stocks);
  const std::string whole = written_events(decode_whole(d, frame));
  for (std::size_t cut = 0; cut <= frame.size(); ++cut) {
    CAPTURE(cut);
    d.feed(std::string_view(frame).substr(0, cut));
    d.feed(std::string_view(frame).substr(cut));
    CHECK(written_events(d.finish()) == whole);
  }
  for (const char c : frame) d.feed(std::string_view(&c, 1));
  CHECK(written_events(d.finish()) == whole);
}

TEST_CASE("channel sets choose what an ev means") {
  const std::string frame =
      R"([{"ev":"AM","sym":"AAPL","v":1,"av":2,"op":3,"vw":4,"o":5,"c":6,"h":7,"l":8,"a":9,"z":10,"s":1,"e":2},)"
      R"({"ev":"FMV","fmv":189.22,"sym":"AAPL","t":1678220098130000000}])";
  ms::frame_decoder market(ms::market::stocks);
  ms::batch m = decode_whole(market, frame);
  CHECK(m.events<massive::stock_minute_agg_event>().size() == 1);
  CHECK(m.skipped() == 1);  // fair market value is a business channel
  // The business and launchpad channels are in the newer stream descriptions only.
#if __has_include(<massive/models/stock_fmv_event.hpp>)
  ms::frame_decoder business(ms::market::stocks, ms::channel_set::business);
  ms::batch b = decode_whole(business, frame);
  REQUIRE(b.events<massive::stock_fmv_event>().size() == 1);
  CHECK(b.events<massive::stock_fmv_event>()[0].timestamp.count() ==
        1678220098130000000);  // nanoseconds
#endif
#if __has_include(<massive/models/stock_launchpad_agg_event.hpp>)
  ms::frame_decoder launchpad(ms::market::stocks, ms::channel_set::launchpad);
  ms::batch l = decode_whole(launchpad, frame);
  CHECK(l.events<massive::stock_launchpad_agg_event>().size() == 1);
  CHECK(l.events<massive::stock_minute_agg_event>().empty());
#endif
}

namespace {

/// What refusing `frame` said: its code, the field's path and what().
struct refusal {
  massive::decode_errc code{};
  std::string path;
  std::string what;
};

refusal refusal_of(ms::frame_decoder& d, std::string_view frame) {
  try {
    d.feed(frame);
    d.finish();
  } catch (const massive::decode_error& e) {
    return {e.code(), e.field_path(), e.what()};
  }
  FAIL("decoded");
  return {};
}

}  // namespace

TEST_CASE("bad frames are refused with a typed error naming the event and field") {
  // Frames go in as string_views: a char array would bring its terminating NUL along.
  ms::frame_decoder d(ms::market::stocks);
  SUBCASE("an event without ev") {
    const refusal r = refusal_of(d, R"([{"ev":"T","sym":"A","t":1},{"sym":"B","t":2}])");
    CHECK(r.code == massive::decode_errc::missing_field);
    CHECK(r.path == "[1].ev");
  }
  SUBCASE("a wrong type") {
    const refusal r = refusal_of(d, R"([{"ev":"T","sym":"A","t":1,"p":"high"}])");
    CHECK(r.code == massive::decode_errc::wrong_type);
    CHECK(r.path == "[0].p");
  }
  // Seen failing with the generator's keys_met check left out: the trade decoded with p 999.
  SUBCASE("a key given twice") {
    const refusal r = refusal_of(d, R"([{"ev":"T","sym":"A","t":1,"p":1,"p":999}])");
    CHECK(r.path == "[0].p");
    CHECK(r.what.find("a key given twice") != std::string::npos);
  }
  SUBCASE("a number beyond a double's range") {
    const refusal r = refusal_of(d, R"([{"ev":"T","sym":"A","t":1,"p":1e400}])");
    CHECK(r.path == "[0].p");
    CHECK(r.what.find("out of range") != std::string::npos);
  }
  // Seen failing without refuse_second_ev: the first decoded as a trade, the second skipped.
  SUBCASE("ev given twice, whichever of its values the build knows") {
    for (const std::string_view frame : {R"([{"ev":"T","sym":"A","t":1,"ev":"Q"}])",
                                         R"([{"ev":"ZZ","sym":"A","t":1,"ev":"T"}])"}) {
      CAPTURE(frame);
      const refusal r = refusal_of(d, frame);
      CHECK(r.path == "[0].ev");
      CHECK(r.what.find("a key given twice") != std::string::npos);
      d.reset();
    }
    // Another key the event does not declare is no second ev: the event is decoded.
    const ms::batch b = decode_whole(d, R"([{"ev":"T","sym":"A","t":1,"zz":{"ev":"Q"}}])");
    CHECK(b.events<massive::stock_trade_event>().size() == 1);
  }
  SUBCASE("a required key missing") {
    const refusal r = refusal_of(d, R"([{"ev":"T","p":1,"t":1}])");
    CHECK(r.code == massive::decode_errc::missing_field);
    CHECK(r.what.find("sym") != std::string::npos);
  }
  SUBCASE("not an array") {
    CHECK_THROWS_AS((d.feed(R"({"ev":"T"})"), d.finish()), massive::decode_error);
  }
  // After a refusal the decoder takes the next frame once reset.
  d.reset();
  CHECK(decode_whole(d, recorded_one).size() == 1);
}

TEST_CASE("a frame over the cap is refused with frame_too_large, however it arrives") {
  ms::frame_limits limits;
  limits.max_frame_bytes = recorded_two.size() - 1;
  ms::frame_decoder d(ms::market::stocks, ms::channel_set::market, limits);
  CHECK(decode_whole(d, recorded_one).size() == 1);
  try {
    d.feed(recorded_two.substr(0, 50));
    d.feed(recorded_two.substr(50));
    FAIL("accepted");
  } catch (const ms::stream_error& e) {
    CHECK(e.code() == ms::stream_errc::frame_too_large);
  }
  CHECK_THROWS_AS(d.finish(), ms::stream_error);
  d.reset();
  CHECK(decode_whole(d, recorded_one).size() == 1);
}
