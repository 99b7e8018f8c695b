// Reads the description with the map into the generator's model (ir.hpp). What the map does not
// name gets a default name (defaults.hpp); what the map names but the description lacks is a
// warning; only what a person must decide is refused, every such problem at once, each naming
// its place (the map's file:line or the description's JSON pointer) and the row to write.
#pragma once

#include "ir.hpp"
#include "json.hpp"
#include "map.hpp"

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace massive::codegen {

/// Generation refused: every problem found, one per line.
class generation_error : public std::runtime_error {
 public:
  explicit generation_error(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  std::vector<std::string> problems_;
};

/// What a generation noticed without refusing, for the terminal and the change report.
struct notices {
  std::vector<std::string> defaults;  // names the map does not give, and how to pin them
  std::vector<std::string> warnings;  // stale rows, a description that lies, leniencies
  std::vector<std::string> skipped;   // operations not generated (drafts, no JSON rows), and why
  std::set<std::size_t> stale_map_lines;    // rows of the map naming nothing: --prune removes them
  std::set<std::size_t> stale_audit_lines;  // rows of the evidence audit likewise
  std::string audit_path;                   // the audit the map names ("" when none)
  std::set<std::size_t> stale_names_lines;  // rows of the official clients' names likewise
  std::string names_path;                   // that file ("" when the map names none)
  std::string audit_counts;  // the summary row's counts as the remaining rows give them ("26 fields\t1 payloads")
};

/// `reserved`: names already taken by the stream's event models.
api build(const json& spec, const curated_map& map, const std::set<std::string>& reserved, notices& out);

/// A JSON pointer (RFC 6901) to `path`'s GET operation, for messages: #/paths/~1v3~1trades~1{stockTicker}/get.
std::string operation_pointer(const std::string& path);

/// An operation's success response, as written (a $ref is not followed): `200`, else `2XX`, else
/// `default`; nullptr when it has none.
const json* success_response(const json& operation);
/// The JSON media type of a response's `content`: `application/json`, also with parameters
/// (`application/json; charset=utf-8`) or as a `+json` type; nullptr when there is none.
const json* json_media(const json& content);

namespace building {

// The REST and the stream descriptions' texts become doc comments by the same rules.
/// The description's text on one line (whitespace runs become one space).
std::string one_line(std::string_view text);
/// The first sentence of the description's text, on one line ("e.g. " and "i.e. " end none).
std::string first_sentence(std::string_view text);

}  // namespace building

}  // namespace massive::codegen
