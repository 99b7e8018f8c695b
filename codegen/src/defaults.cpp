#include "defaults.hpp"

#include "names.hpp"

#include <algorithm>
#include <cctype>

namespace massive::codegen {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : "_") + w;
  return out;
}

std::vector<std::string> segments_of(std::string_view path) {
  std::vector<std::string> out;
  for (std::size_t from = 0; from < path.size();) {
    const std::size_t slash = std::min(path.find('/', from), path.size());
    if (slash > from) out.emplace_back(path.substr(from, slash - from));
    from = slash + 1;
  }
  return out;
}

bool is_parameter(std::string_view segment) { return !segment.empty() && segment.front() == '{'; }

/// The words that name a group's market in routes and operationIds (stocksTicker, GetStocksAggs).
std::set<std::string> market_words(std::string_view group) {
  std::set<std::string> out;
  for (const std::string& w : words_of(group)) out.insert(w);
  if (group == "stocks") out.insert("stock");
  if (group == "options") out.insert("option");
  if (group == "futures") out.insert("future");
  if (group == "forex") out.insert("fx");
  return out;
}

/// Segments that only locate a market in the legacy routes (/v2/snapshot/locale/us/markets/...).
bool locator(std::string_view word) {
  return word == "locale" || word == "us" || word == "global" || word == "market" || word == "markets";
}

std::string route_name(std::string_view path, std::string_view group) {
  const std::vector<std::string> segments = segments_of(path);
  const std::set<std::string> market = market_words(group);
  std::vector<std::string> words;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& s = segments[i];
    if (is_parameter(s) || !version_tag(s).empty()) continue;
    const std::string name = join(words_of(s));
    if (name.empty() || locator(name) || market.count(name) || name == group) continue;
    std::string word = name;
    // A collection followed by the item's parameter names the item (tickers/{ticker} -> ticker,
    // products/{product_code}/schedules -> product_schedules); trades/{stockTicker} filters the
    // collection and stays plural.
    if (i + 1 < segments.size() && is_parameter(segments[i + 1])) {
      const std::string item = singular(word);
      const std::string parameter = join(words_of(segments[i + 1]));
      const bool more = std::any_of(segments.begin() + static_cast<std::ptrdiff_t>(i) + 2, segments.end(),
                                    [](const std::string& x) { return !is_parameter(x); });
      if (more || parameter.rfind(item, 0) == 0) word = item;
    }
    words.push_back(word);
  }
  return join(words);
}

std::string operation_id_name(std::string_view operation_id, std::string_view group) {
  const std::set<std::string> market = market_words(group);
  std::vector<std::string> words;
  for (const std::string& w : words_of(operation_id)) {
    if (w == "get" || w == "list" || w == "deprecated" || !version_tag(w).empty() || market.count(w)) continue;
    words.push_back(w);
  }
  return join(words);
}

}  // namespace

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> raw;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) raw.push_back(word), word.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (std::isupper(c) && !word.empty()) {
      const unsigned char prev = static_cast<unsigned char>(text[i - 1]);
      const bool next_lower = i + 1 < text.size() && std::islower(static_cast<unsigned char>(text[i + 1]));
      // fooBar and HTTPServer split before B and S; HTTP stays one word.
      if (std::islower(prev) || std::isdigit(prev) || (std::isupper(prev) && next_lower)) flush();
    }
    word += static_cast<char>(std::tolower(c));
  }
  flush();
  std::vector<std::string> out;
  for (std::string& w : raw) {
    if (!out.empty()) {
      std::string& last = out.back();
      // vX -> vx; vX_0 -> vx0; form-3 -> form3; 10-K -> 10k.
      const bool version = last == "v" && (w == "x" || all_digits(w));
      if (version || all_digits(w) || (all_digits(last) && w.size() == 1) || (last == "vx" && all_digits(w))) {
        last += w;
        continue;
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::string version_tag(std::string_view segment) {
  std::string s;
  for (char c : segment) {
    if (c != '_') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (s == "dev") return s;
  if (s.size() >= 2 && s[0] == 'v' && (all_digits(s.substr(1)) || (s[1] == 'x' && (s.size() == 2 || all_digits(s.substr(2)))))) {
    return s;
  }
  return "";
}

std::string route_version(std::string_view path) {
  for (const std::string& s : segments_of(path)) {
    if (std::string tag = version_tag(s); !tag.empty()) return tag;
  }
  return "";
}

std::string singular(std::string_view word) {
  const std::string w(word);
  const auto ends = [&](std::string_view suffix) {
    return w.size() >= suffix.size() && w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (w.size() <= 2) return w;
  if (ends("ies") && w.size() > 4) return w.substr(0, w.size() - 3) + "y";
  if (ends("sses") || ends("shes") || ends("ches") || ends("xes") || ends("uses")) return w.substr(0, w.size() - 2);
  if (ends("ss") || ends("us") || ends("is") || ends("news")) return w;
  if (ends("s")) return w.substr(0, w.size() - 1);
  return w;
}

std::string singular_name(std::string_view name) {
  std::vector<std::string> words;
  for (std::size_t from = 0; from <= name.size();) {
    const std::size_t underscore = std::min(name.find('_', from), name.size());
    words.emplace_back(name.substr(from, underscore - from));
    from = underscore + 1;
  }
  for (auto w = words.rbegin(); w != words.rend(); ++w) {
    if (!w->empty() && version_tag(*w).empty()) {
      *w = singular(*w);
      break;
    }
  }
  return join(words);
}

std::string default_group(std::string_view path, const std::vector<std::string>& known) {
  const std::vector<std::string> segments = segments_of(path);
  if (segments.empty()) return "reference";
  const std::string first = join(words_of(segments.front()));
  if (std::find(known.begin(), known.end(), first) != known.end()) return first;
  if (version_tag(segments.front()).empty() && !first.empty()) {
    const std::string group = identifier(first);
    return is_reserved_group(group) ? group + "_api" : group;
  }
  // A legacy route (/v3/trades/{stockTicker}): the market its parameter or a segment names.
  static const std::pair<const char*, const char*> by_parameter[] = {
      {"stock", "stocks"}, {"option", "options"}, {"underlying", "options"}, {"crypto", "crypto"},
      {"fx", "forex"},     {"forex", "forex"},    {"indices", "indices"},   {"future", "futures"}};
  for (const std::string& s : segments) {
    if (!is_parameter(s)) continue;
    const std::string name = join(words_of(s));
    for (const auto& [word, group] : by_parameter) {
      if (name.find(word) != std::string::npos) return group;
    }
  }
  static const std::pair<const char*, const char*> by_segment[] = {
      {"stocks", "stocks"}, {"options", "options"}, {"crypto", "crypto"},   {"fx", "forex"},
      {"forex", "forex"},   {"indices", "indices"}, {"futures", "futures"}};
  for (const std::string& s : segments) {
    for (const auto& [word, group] : by_segment) {
      if (s == word) return group;
    }
  }
  return "reference";
}

std::vector<std::string> method_candidates(std::string_view path, std::string_view operation_id,
                                           std::string_view group) {
  const std::string tag = route_version(path);
  std::vector<std::string> out;
  const auto add = [&](const std::string& name) {
    if (name.empty()) return;
    const std::string id = identifier(name);
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  const std::string from_id = operation_id_name(operation_id, group);
  const std::string from_route = route_name(path, group);
  add(from_id);
  if (!tag.empty() && !from_id.empty()) add(from_id + "_" + tag);
  add(from_route);
  if (!tag.empty() && !from_route.empty()) add(from_route + "_" + tag);
  if (out.empty()) add(tag.empty() ? std::string("get") : "get_" + tag);
  return out;
}

std::string first_free(const std::string& name, const std::set<std::string>& taken) {
  if (!taken.count(name) && !is_reserved_type(name)) return name;
  for (int n = 2;; ++n) {
    std::string candidate = name + "_" + std::to_string(n);
    if (!taken.count(candidate) && !is_reserved_type(candidate)) return candidate;
  }
}

bool is_reserved_type(std::string_view name) {
  // The hand-written vocabulary of namespace massive (sdk/include/massive); a generated model or
  // enumeration of one of these names would not compile beside it.
  static constexpr std::string_view reserved[] = {
      "api_error", "array_filter", "owned", "batch", "body_sink", "client", "client_config", "column_info", "cursor",
      "cursor_core", "date_or_ms", "date_or_ns", "date_or_time", "date_or_us", "decimal", "decode_errc",
      "decode_error", "decode_limits", "decode_policy", "decoder_cache", "decoder_core", "errc", "error",
      "experimental_t", "field_value", "field_visitor", "filter", "frame_decoder", "http_client", "json_value", "json_writer",
      "model_entry", "operation_entry", "options", "origin", "page", "page_decoder", "page_envelope",
      "page_leniency", "page_memory", "page_parts", "page_pool", "parameter_filter", "parameter_info",
      "parameter_type", "payload_shape", "proxy_errc", "proxy_error", "range_filter", "rate_limit_policy",
      "reconnect_policy", "required", "response_info", "retry_decision", "retry_policy", "row_codec", "row_functions", "row_page", "session",
      "set_filter", "stream_config", "stream_errc", "stream_error", "timestamp_ms", "timestamp_ns", "timestamp_us",
      "token_bucket", "topic", "trace_event", "transport_error", "traversal", "traversal_options",
      "underlying_json", "underlying_part", "underlying_rows_of", "unix_time", "unsupported_cpu",
      "value_list", "wire_entry",
      // Functions the generated code declares in namespace massive beside the types: a type of
      // one of these names would be hidden by them.
      "from_wire", "to_owned", "to_wire", "visit_fields", "write_json"};
  // And the shapes of the generator's own types: a group's class (reference_group) and an
  // operation's parameters (reference_tickers_params).
  return std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved) ||
         name.ends_with("_group") || name.ends_with("_params");
}

bool is_reserved_method(std::string_view group, std::string_view name) {
  // A member function of one of these names would change what the name means in the class.
  static constexpr std::string_view reserved[] = {"client",        "cursor",        "traversal_options",
                                                  "payload_shape", "default_token", "experimental_t"};
  return std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved) ||
         name == std::string(group) + "_group";
}

bool is_reserved_group(std::string_view name) {
  static constexpr std::string_view reserved[] = {
      // The SDK's headers (sdk/include/massive) and folders of include/massive.
      "client", "client_config", "cpu_support", "cursor", "decimal", "decode_policy", "decoder", "detail",
      "error", "experimental", "files", "filter", "json_value", "json_writer", "models", "owned", "page",
      "proxy_error", "rate_limiter", "reflection", "relay", "required", "response_info", "retry", "stream",
      "time", "trace", "underlying", "version",
      // What the generator writes besides the groups (all.hpp, enums.hpp, groups.hpp, the
      // operations' table.cpp, the libraries of libraries.cmake).
      "all", "enums", "groups", "table", "shared_models", "mock",
      // The project's other libraries and programs (massive_<name>).
      "core", "sdk", "cli", "codegen", "regenerate", "mock_market", "mock_files", "soak", "test_support",
      "decode_test_support", "stream_test_support", "wire_compare", "proxy_fixture",
      // Members of massive::client and its groups' base: a group's accessor of one of these names
      // would clash with it or be hidden by it.
      "self", "with", "get_executor", "transport", "pool", "fetch", "traverse"};
  return std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved);
}

}  // namespace massive::codegen
