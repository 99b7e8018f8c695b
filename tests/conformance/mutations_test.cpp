// Bodies the generator did not write: for every operation of the table, the mock's synthesised
// body is rewritten into variants (keys reversed and shuffled, unknown keys of every JSON type
// around and between the known ones, optional fields left out or null, numbers in other forms,
// strings with escapes and non-ASCII text, empty arrays, fractions for the audit's corrected
// fields, the body cut into 7-byte chunks). Each variant goes through a real massive::client
// over HTTPS and is compared both ways with a DOM parse of its bytes (wire_compare.cpp, whose
// from_chars cross-check reads every number again).
#include "wire_compare.hpp"

#include <massive/client.hpp>
#include <massive/mock/api.hpp>
#include <massive/mock/server.hpp>
#include <massive/reflection/operation_table.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace dom = simdjson::dom;

constexpr std::string_view injected = "x_unknown_";

enum class variant {
  reversed,
  shuffled,
  unknown_before,
  unknown_between,
  unknown_after,
  left_out,
  nulls,
  number_forms,
  large_integers,
  escaped_strings,
  empty_arrays,
  corrected_fractions,
  chunked,
};
constexpr variant all_variants[] = {variant::reversed,         variant::shuffled,        variant::unknown_before,
                                    variant::unknown_between,  variant::unknown_after,   variant::left_out,
                                    variant::nulls,            variant::number_forms,    variant::large_integers,
                                    variant::escaped_strings,  variant::empty_arrays,    variant::corrected_fractions,
                                    variant::chunked};

const char* name_of(variant v) {
  static constexpr const char* names[] = {"reversed",      "shuffled",     "unknown_before", "unknown_between",
                                          "unknown_after", "left_out",     "nulls",          "number_forms",
                                          "large_integers", "escaped_strings", "empty_arrays", "corrected_fractions",
                                          "chunked"};
  return names[static_cast<int>(v)];
}

// Unknown values of every JSON type, nested objects and arrays included.
constexpr std::string_view unknown_values[] = {
    "null", "true", "-7", "1.5e+300", R"("\"é\\ \u65e5")", R"([1,{"a":[]},[null]])", R"({"b":{"c":[{}],"d":"x"}})"};

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool looks_like_date_or_number(std::string_view s) {
  if (s.size() == 10 && s[4] == '-' && s[7] == '-') return true;
  return !s.empty() && s.find_first_not_of("0123456789.-+eE") == std::string_view::npos;
}

/// Rewrites one body as a variant. Rows (where the shape puts them) get the row-level changes;
/// the envelope keeps its keys, so that traversal and errors stay what they are.
class rewriter {
 public:
  rewriter(variant v, const std::set<std::string>& required, std::set<std::string> fraction_keys)
      : v_(v), required_(required), fraction_keys_(std::move(fraction_keys)) {}

  std::string body(dom::element root, massive::payload_shape shape) {
    std::string out;
    switch (shape) {
      case massive::payload_shape::document: value(root, out, 0, true); break;
      case massive::payload_shape::top_level_array: rows_array(root, out); break;
      default: envelope(root, shape, out); break;
    }
    return out;
  }

 private:
  void envelope(dom::element root, massive::payload_shape shape, std::string& out) {
    out += '{';
    bool first = true;
    for (auto [key, val] : dom::object(root)) {
      out += first ? "" : ",";
      first = false;
      out += json_string(key) + ":";
      if (key != "results") {
        value(val, out, 0, false);
      } else if (shape == massive::payload_shape::results_array && val.is_array()) {
        rows_array(val, out);
      } else if (shape == massive::payload_shape::results_object && val.is_object()) {
        value(val, out, 0, true);
      } else if (shape == massive::payload_shape::results_values && val.is_object()) {
        out += '{';
        bool inner_first = true;
        for (auto [k, member] : dom::object(val)) {
          out += inner_first ? "" : ",";
          inner_first = false;
          out += json_string(k) + ":";
          if (k == "values" && member.is_array()) {
            rows_array(member, out);
          } else {
            value(member, out, 0, false);
          }
        }
        out += '}';
      } else {
        value(val, out, 0, false);
      }
    }
    out += '}';
  }

  void rows_array(dom::element array, std::string& out) {
    out += '[';
    bool first = true;
    for (auto row : dom::array(array)) {
      out += first ? "" : ",";
      first = false;
      value(row, out, 0, true);
    }
    out += ']';
  }

  void unknowns(std::string& out, bool& first) {
    for (std::size_t i = 0; i < std::size(unknown_values); ++i) {
      out += first ? "" : ",";
      first = false;
      out += json_string(std::string(injected) + std::to_string(counter_++)) + ":" + std::string(unknown_values[i]);
    }
  }

  // depth counts objects within a row (0: the row itself); in_row is false in the envelope.
  void value(dom::element e, std::string& out, int depth, bool in_row) {
    using T = dom::element_type;
    switch (e.type()) {
      case T::OBJECT: object(e, out, depth, in_row); return;
      case T::ARRAY: {
        if (in_row && v_ == variant::empty_arrays) {
          out += "[]";
          return;
        }
        out += '[';
        bool first = true;
        for (auto x : dom::array(e)) {
          out += first ? "" : ",";
          first = false;
          value(x, out, depth + 1, in_row);
        }
        out += ']';
        return;
      }
      case T::STRING: {
        const std::string_view s(e);
        if (in_row && v_ == variant::escaped_strings && !looks_like_date_or_number(s)) {
          out += json_string(std::string(s) + "\"\\/\n\t é 日本 \xF0\x9F\x93\x88");
        } else {
          out += json_string(s);
        }
        return;
      }
      case T::INT64: integer(std::int64_t(e), out, in_row); return;
      case T::UINT64: out += std::to_string(std::uint64_t(e)); return;
      case T::DOUBLE: {
        char buf[40];
        std::snprintf(buf, sizeof buf, in_row && v_ == variant::number_forms ? "%.17e" : "%.17g", double(e));
        out += buf;
        return;
      }
      case T::BOOL: out += bool(e) ? "true" : "false"; return;
      case T::NULL_VALUE: out += "null"; return;
    }
  }

  void integer(std::int64_t n, std::string& out, bool in_row) {
    constexpr std::int64_t exact = std::int64_t{1} << 53;
    if (in_row && v_ == variant::number_forms && n > -exact && n < exact) {
      // An integer in float forms: 5.0 and 5E0 (the latter for even n), -0 for zero.
      out += n == 0 ? "-0" : std::to_string(n) + (n % 2 == 0 ? "E0" : ".0");
    } else if (in_row && v_ == variant::large_integers && n > (std::int64_t{1} << 31)) {
      out += std::to_string(n + (std::int64_t{1} << 61));
    } else {
      out += std::to_string(n);
    }
  }

  void object(dom::element e, std::string& out, int depth, bool in_row) {
    std::vector<std::pair<std::string_view, dom::element>> members;
    for (auto [k, x] : dom::object(e)) members.emplace_back(k, x);
    if (in_row && v_ == variant::reversed) std::reverse(members.begin(), members.end());
    if (in_row && v_ == variant::shuffled) std::shuffle(members.begin(), members.end(), rng_);
    out += '{';
    bool first = true;
    if (in_row && v_ == variant::unknown_before) unknowns(out, first);
    for (const auto& [k, x] : members) {
      const bool keep = depth != 0 || required_.count(std::string(k)) != 0;
      if (in_row && v_ == variant::left_out && !keep) continue;
      out += first ? "" : ",";
      first = false;
      out += json_string(k) + ":";
      if (in_row && v_ == variant::nulls && !keep) {
        out += "null";
      } else if (in_row && v_ == variant::corrected_fractions && depth == 0 && fraction_keys_.count(std::string(k))) {
        out += "123.45";
      } else {
        value(x, out, depth + 1, in_row);
      }
      if (in_row && v_ == variant::unknown_between) unknowns(out, first);
    }
    if (in_row && v_ == variant::unknown_after) unknowns(out, first);
    out += '}';
  }

  variant v_;
  const std::set<std::string>& required_;
  std::set<std::string> fraction_keys_;
  std::mt19937_64 rng_{16};
  std::size_t counter_ = 0;
};

struct decoded {
  std::string rows_json;
  std::size_t rows = 0;
  std::size_t dropped_rows = 0;  // page_leniency::dropped_rows
  std::string first;             // page_leniency::first
};

/// The row-level keys the audit corrects to double for rows of `model` (a `type` row's subject
/// is <model>.<key>): they get a fraction in the corrected_fractions variant.
std::set<std::string> corrected_keys(std::string_view model) {
  std::set<std::string> out;
  for (const auto& [subject, rest] : massive::test::audit_rows("type")) {
    if (subject.compare(0, model.size() + 1, std::string(model) + ".") == 0 && rest.find("\tdouble\t") != std::string::npos) {
      out.insert(subject.substr(model.size() + 1));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every operation decodes every variant of its body like a DOM parse, both ways") {
  massive::mock::server server;
  std::string body;
  std::vector<std::size_t> chunks;
  server.respond_with([&](const auto&) { return massive::mock::reply{.body = body, .chunks = chunks}; });
  const massive::mock::api api({.base_url = server.base_url()});
  asio::io_context io;
  massive::client client{io.get_executor(), massive::client_config{.api_key = "k", .base_url = server.base_url(),
                                                             .tls = {.ca_pem = server.certificate_pem()}}};
  const auto run = [&](const massive::reflection::operation_entry& entry, const std::string& target) {
    decoded out;
    auto done = asio::co_spawn(io, entry.run(client, target, entry.shape, entry.paginated, {},
                                            [&](const massive::reflection::row_page& p) {
                                              out.rows_json = std::string(p.rows_json());
                                              out.rows = p.rows;
                                              out.dropped_rows = p.envelope.leniency.dropped_rows;
                                              out.first = std::string(p.envelope.leniency.first);
                                            }),
                               asio::use_future);
    io.restart();
    io.run();
    done.get();
    return out;
  };

  std::vector<std::string> failures;
  std::size_t pairs = 0;
  for (const massive::reflection::operation_entry& entry : massive::reflection::operation_table()) {
    const std::string target = massive::test::sample_target(entry, "4");
    const std::string original = api.answer(target).body;
    dom::parser parser;
    const dom::element root = parser.parse(original).value();
    // The row keys a row keeps when everything else is left out: those its model requires, and
    // those the writer shows for rows sent without the others (optional fields are written only
    // when present; empty spans and false booleans count as absent). A row lacking a required
    // field is left out of the page (issue 30), so the required ones are found first, one a
    // probe: the first missing field the page's leniency names.
    std::set<std::string> required;
    for (;;) {
      rewriter probe(variant::left_out, required, {});
      body = probe.body(root, entry.shape);
      chunks.clear();
      const decoded d = run(entry, target);
      if (d.dropped_rows == 0) break;
      const std::string key = d.first.substr(d.first.find_last_of('.') + 1);
      if (!required.insert(key).second) break;  // no progress: the variants will report it
    }
    {
      rewriter probe(variant::left_out, required, {});
      body = probe.body(root, entry.shape);
      chunks.clear();
      const decoded empty_rows = run(entry, target);
      dom::parser written_parser;
      for (auto row : dom::array(written_parser.parse(empty_rows.rows_json).value())) {
        for (auto [k, x] : dom::object(row)) {
          const bool absent = (x.is_array() && dom::array(x).size() == 0) || (x.is_bool() && !bool(x));
          if (!absent) required.insert(std::string(k));
        }
      }
    }
    massive::test::undeclared_keys allowed = massive::test::audited_undeclared(entry);
    allowed.injected_prefix = std::string(injected);
    for (const variant v : all_variants) {
      rewriter rewrite(v, required, corrected_keys(entry.model));
      body = v == variant::chunked ? original : rewrite.body(root, entry.shape);
      chunks = v == variant::chunked ? std::vector<std::size_t>{7} : std::vector<std::size_t>{};
      ++pairs;
      std::string problem;
      try {
        const decoded d = run(entry, target);
        for (const std::string& diff : massive::test::row_differences(entry.shape, d.rows_json, d.rows, body, allowed)) {
          problem += (problem.empty() ? "" : "; ") + diff;
        }
      } catch (const std::exception& e) {
        problem = e.what();
      }
      if (!problem.empty()) {
        failures.push_back(std::string(entry.group) + "." + std::string(entry.name) + " [" + name_of(v) + "]: " +
                           problem.substr(0, 300));
      }
    }
  }
  std::string list;
  for (const std::string& f : failures) list += f + "\n";
  INFO("(operation, variant) pairs that do not decode like their DOM parse (" << failures.size() << "):\n" << list);
  MESSAGE("mutations: " << pairs << " (operation, variant) pairs over " << massive::reflection::operation_table().size()
                        << " operations");
  CHECK(failures.empty());
  CHECK(pairs == massive::reflection::operation_table().size() * std::size(all_variants));
}
