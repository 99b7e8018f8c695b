// The evidence audit (codegen/audit.tsv, named by the map's `audit` row): every place where the
// description disagrees with other evidence of the wire (recorded responses, the official
// clients' hand-written models, the description's own examples, API-NOTES.md), one reviewed
// row each with its source. The generator applies the `type` and `add` rows (a field's type
// corrected, a field the description omits added) and refuses a row the description has come
// to agree with, so that a correction is never kept silently; the tests read the others.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "row_file.hpp"

namespace massive::codegen {

/// One row: `kind <TAB> subject <TAB> description says <TAB> evidence says <TAB> source`.
struct audit_row {
  std::size_t line = 0;
  std::string kind;         // type, add, payload, undeclared, exempt, summary
  std::string subject;      // <model>.<wire key>, an operation and a key, or a route
  std::string description;  // what the description says
  std::string evidence;     // what the evidence says (for type and add: the map's type word)
  std::string source;       // where the evidence comes from, and why
  mutable bool used = false;

  /// For type and add rows: the model and the wire key of the subject.
  std::string_view model() const;
  std::string_view key() const;
};

class evidence_audit : public row_file<audit_row> {
 public:
  /// Reads the audit from `file`, named `name` in messages; throws std::runtime_error naming
  /// the line of a malformed row.
  static evidence_audit load(const std::string& file, const std::string& name);

  /// The `kind` row about model.key, or nullptr; marks it used.
  const audit_row* find(std::string_view kind, std::string_view model, std::string_view key) const;
  /// The `kind` rows about fields of `model`.
  std::vector<const audit_row*> of(std::string_view kind, std::string_view model) const;
};

}  // namespace massive::codegen
