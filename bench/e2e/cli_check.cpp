// Reads what `massive stocks trades` printed (CSV with ISO 8601 times, or JSON Lines) and prints
// the digest line of digest.hpp over the trades it holds, so that scripts/bench-cli.sh can hold
// the command-line tool's output to the digest the fixture writer computed from the text it
// wrote: the check is independent of the tool's decoder and of its printers.
//
//   massive_e2e_cli_check <csv|jsonl> <file>
#include "csv_cells.hpp"
#include "digest.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace e2e = massive::bench::e2e;
using massive::test::csv_cells;

template <class T>
T number(std::string_view text, std::string_view what) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    throw std::runtime_error("not a number in " + std::string(what) + ": '" + std::string(text) + "'");
  }
  return v;
}

/// "2022-04-28T21:37:02.461979400Z" back to Unix nanoseconds.
std::int64_t iso_nanoseconds(std::string_view text) {
  if (text.size() != 30 || text[4] != '-' || text[10] != 'T' || text[19] != '.' || text[29] != 'Z') {
    throw std::runtime_error("not an ISO 8601 nanosecond time: '" + std::string(text) + "'");
  }
  using namespace std::chrono;
  const year_month_day date{year{number<int>(text.substr(0, 4), "year")},
                            month{number<unsigned>(text.substr(5, 2), "month")},
                            day{number<unsigned>(text.substr(8, 2), "day")}};
  const std::int64_t seconds = sys_days{date}.time_since_epoch().count() * 86'400 +
                               number<std::int64_t>(text.substr(11, 2), "hour") * 3600 +
                               number<std::int64_t>(text.substr(14, 2), "minute") * 60 +
                               number<std::int64_t>(text.substr(17, 2), "second");
  return seconds * 1'000'000'000 + number<std::int64_t>(text.substr(20, 9), "fraction");
}

e2e::digest read_csv(std::ifstream& in) {
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("no header");
  const std::vector<std::string> header = csv_cells(line);
  const auto column = [&](std::string_view name) {
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    throw std::runtime_error("no column " + std::string(name));
  };
  const std::size_t exchange = column("exchange"), id = column("id"), participant = column("participant_timestamp"),
                    price = column("price"), sequence = column("sequence_number"), sip = column("sip_timestamp"),
                    size = column("size"), tape = column("tape"), conditions = column("conditions");
  e2e::digest d;
  std::vector<std::int32_t> codes;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = csv_cells(line);
    if (cells.size() != header.size()) throw std::runtime_error("a line of " + std::to_string(cells.size()) + " cells");
    auto h = e2e::trade_row(number<std::int64_t>(cells[exchange], "exchange"), cells[id],
                            iso_nanoseconds(cells[participant]), number<double>(cells[price], "price"),
                            number<std::int64_t>(cells[sequence], "sequence_number"), iso_nanoseconds(cells[sip]),
                            number<double>(cells[size], "size"), number<std::int64_t>(cells[tape], "tape"));
    codes.clear();
    for (std::string_view rest = cells[conditions]; !rest.empty();) {
      const std::string_view one = rest.substr(0, rest.find(", "));
      codes.push_back(number<std::int32_t>(one, "conditions"));
      rest.remove_prefix(std::min(rest.size(), one.size() + 2));
    }
    e2e::add_conditions(h, codes);
    d.add(h);
  }
  return d;
}

e2e::digest read_jsonl(std::ifstream& in) {
  e2e::digest d;
  simdjson::dom::parser parser;
  std::vector<std::int32_t> codes;
  for (std::string line; std::getline(in, line);) {
    const simdjson::dom::object row = parser.parse(line).get_object();
    auto h = e2e::trade_row(std::int64_t(row["exchange"]), std::string_view(row["id"]),
                            std::int64_t(row["participant_timestamp"]), double(row["price"]),
                            std::int64_t(row["sequence_number"]), std::int64_t(row["sip_timestamp"]),
                            double(row["size"]), std::int64_t(row["tape"]));
    codes.clear();
    simdjson::dom::array conditions;
    if (row["conditions"].get(conditions) == simdjson::SUCCESS) {
      for (const auto c : conditions) codes.push_back(static_cast<std::int32_t>(std::int64_t(c)));
    }
    e2e::add_conditions(h, codes);
    d.add(h);
  }
  return d;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3 || (std::string_view(argv[1]) != "csv" && std::string_view(argv[1]) != "jsonl")) {
    std::fprintf(stderr, "usage: %s <csv|jsonl> <file>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read ") + argv[2]);
  const e2e::digest d = std::string_view(argv[1]) == "csv" ? read_csv(in) : read_jsonl(in);
  std::printf("rows=%llu hash=%016llx\n", static_cast<unsigned long long>(d.rows), static_cast<unsigned long long>(d.hash));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_e2e_cli_check: %s\n", e.what());
  return 1;
}
