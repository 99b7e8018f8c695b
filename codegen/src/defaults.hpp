// The names the curated map does not give. A description may add operations, nested objects,
// fields and channels at any time; each gets a deterministic default name by the rules the
// curated names follow (the market from the route, the method from the operationId and the
// route, a nested object named for its owner), so that an additive change needs no edit of the
// map. Collisions are resolved here, never reported: a default name is not a decision.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace massive::codegen {

/// The words of a name as the API spells it (camelCase, snake_case, kebab-case, 10-K), lower
/// case, with a version split by the spelling joined again (vX -> vx, vX_0 -> vx0, form-3 ->
/// form3, 10-K -> 10k).
std::vector<std::string> words_of(std::string_view text);

/// The version tag of a route segment (v1, v3, vx, vx0, dev), or "" for another segment.
std::string version_tag(std::string_view segment);

/// The version tag of a route (its first version segment), or "".
std::string route_version(std::string_view path);

/// The singular of an English plural, as the curated names use it (aggregates -> aggregate,
/// histories -> history, statuses -> status; status, analysis stay).
std::string singular(std::string_view word);

/// A snake_case name with its last word (a version tag aside) made singular:
/// aggregates_vx -> aggregate_vx.
std::string singular_name(std::string_view name);

/// The group of a route: its first segment when that names a group (`known`), else the market
/// its path parameters or segments name (stocksTicker, /crypto/), else `reference`; a first
/// segment that is neither a version nor a known group is a new group of that name (with
/// `_api` after it where the name is taken: is_reserved_group).
std::string default_group(std::string_view path, const std::vector<std::string>& known);

/// The method names to try for an operation, best first: from the operationId without its verb,
/// version and market words, then the same with the route's version tag, then from the route's
/// segments, then that with the tag. Never empty.
std::vector<std::string> method_candidates(std::string_view path, std::string_view operation_id,
                                           std::string_view group);

/// `name` if it is not in `taken`, else name_2, name_3, ...: the first free one.
std::string first_free(const std::string& name, const std::set<std::string>& taken);

/// Names a generated type must never take: the SDK's hand-written types in namespace massive,
/// and names of the shapes of the generator's own (`<group>_group`, `<group>_<method>_params`).
bool is_reserved_type(std::string_view name);

/// Names an operation's method must never take in `group`'s class: the names that class uses
/// unqualified (its `client* client_`, `cursor<...>`, `traversal_options`...) and its own.
bool is_reserved_method(std::string_view group, std::string_view name);

/// Names a group must never take: a group `g` is the header <massive/g.hpp>, the sources
/// src/groups/g.cpp and src/operations/g.cpp, the library massive_g and the accessor client.g(),
/// which these name already.
bool is_reserved_group(std::string_view name);

}  // namespace massive::codegen
