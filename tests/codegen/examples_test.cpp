// Every example body of the description decodes through its operation's generated model with
// values equal to a DOM parse of the example, both ways, except those the evidence audit
// exempts (`exempt` rows of codegen/audit.tsv, each with its reason). An envelope whose
// request_id is a number (29 examples) is no exemption: the decoder coerces it (counted in the
// page's leniency) and the rows are compared.
#include "wire_compare.hpp"

#include <massive/error.hpp>
#include <massive/operation_table.hpp>

#include <doctest/doctest.h>
#include <simdjson.h>

#include <map>
#include <string>
#include <vector>

TEST_CASE("wire truth: every example body of the description decodes like a DOM parse") {
  simdjson::dom::parser parser;
  simdjson::dom::element spec;
  REQUIRE(parser.load(MASSIVE_SPEC).get(spec) == simdjson::SUCCESS);
  std::size_t examples = 0;
  std::size_t numeric_request_ids = 0;
  std::vector<std::string> failures;
  std::vector<std::string> listed_but_passing;
  std::map<std::string, std::string, std::less<>> exempt;
  for (auto& [route, reason] : massive::test::audit_rows("exempt")) exempt.emplace(route, reason);
  const simdjson::dom::object paths = spec["paths"].get_object().value_unsafe();
  for (auto [path_key, item] : paths) {
    simdjson::dom::element example;
    if (item["get"]["responses"]["200"]["content"]["application/json"]["example"].get(example) != simdjson::SUCCESS) {
      continue;
    }
    ++examples;
    const std::string path(path_key);
    const massive::operation_entry* entry = nullptr;
    for (const massive::operation_entry& e : massive::operation_table()) {
      if (e.path == path) entry = &e;
    }
    REQUIRE(entry != nullptr);
    std::string problem;
    try {
      const auto differences = massive::test::decode_differences(*entry, massive::test::sample_target(*entry),
                                                                 std::string(simdjson::minify(example)));
      for (const std::string& d : differences) problem += (problem.empty() ? "" : "; ") + d;
    } catch (const std::exception& e) {
      problem = e.what();
    }
    const bool listed = exempt.count(path) != 0;
    if (simdjson::dom::element id; example["request_id"].get(id) == simdjson::SUCCESS && id.is_number()) {
      ++numeric_request_ids;
      if (listed) failures.push_back("GET " + path + ": exempt, yet its request_id is only a number (coerced)");
    }
    if (!problem.empty() && !listed) failures.push_back("GET " + path + ": " + problem);
    if (problem.empty() && listed) listed_but_passing.push_back("GET " + path);
  }
  std::string list;
  for (const std::string& f : failures) list += f + "\n";
  INFO("examples that do not decode like their DOM parse:\n" << list);
  CHECK(failures.empty());
  std::string stale;
  for (const std::string& f : listed_but_passing) stale += f + "\n";
  INFO("exempted by codegen/audit.tsv, yet they decode like their DOM parse:\n" << stale);
  CHECK(listed_but_passing.empty());
  CHECK(examples == 135);
  // Seen failing with envelope_string refusing a number again (no coercion): the 29 examples
  // whose request_id is the number 1 were all reported as not decoding.
  CHECK(numeric_request_ids == 29);
}
