// Routes the map knows under another path. A map row names a route by its path, parameters
// included (`op GET /v2/aggs/ticker/{stocksTicker}/range/...`), and a later description may
// write the same route otherwise: the descriptions name one parameter several ways
// (stocksTicker, stockTicker, fxTicker, forexTicker, options_ticker), and a route moves to
// another version when Massive promotes it (/futures/vX/trades/{ticker} became
// /futures/v1/trades/{ticker}; /benzinga/v1/news became /benzinga/v2/news). Such a route is still
// the map's, and its group, method, models and parameter names are the map's.
#include "builder.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace massive::codegen::building {

namespace {

/// A path segment naming a version: v, then digits or X (v3, vX); or dev, a route before its
/// first version.
bool is_version(std::string_view word) {
  if (word == "dev" || word == "vX") return true;
  return word.size() > 1 && word[0] == 'v' &&
         std::all_of(word.begin() + 1, word.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

/// The path with every parameter's name and every version left out: /{}/trades/{} for
/// /v3/trades/{stockTicker}, /futures/{}/trades/{} for /futures/vX/trades/{ticker}.
std::string route_shape(const std::string& path) {
  std::string out;
  for (std::size_t start = 0; start < path.size();) {
    const std::size_t end = std::min(path.find('/', start + 1), path.size());
    const std::string_view segment = std::string_view(path).substr(start, end - start);  // "/v3", "/{x}"
    if (is_version(segment.substr(1))) {
      out += "/{}";
    } else {
      bool in_name = false;
      for (char c : segment) {
        if (c == '}') in_name = false;
        if (!in_name) out += c;
        if (c == '{') in_name = true;
      }
    }
    start = end;
  }
  return out;
}

/// A parameter name's words, as a comparison sees them: split at '_', '-' and case changes,
/// lower case, a market's word in one spelling (stocksTicker, stockTicker and stock_ticker are
/// {stock, ticker}; fxTicker and forexTicker {forex, ticker}), a plural's s dropped.
std::set<std::string> words_of(std::string_view name) {
  static const std::pair<const char*, const char*> markets[] = {
      {"stocks", "stock"}, {"options", "option"}, {"fx", "forex"}, {"indices", "index"}, {"cryptos", "crypto"}};
  std::set<std::string> words;
  std::string word;
  const auto end_word = [&] {
    for (const auto& [spelling, market] : markets) {
      if (word == spelling) word = market;
    }
    if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's') word.pop_back();
    if (!word.empty()) words.insert(word);
    word.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      end_word();
      continue;
    }
    if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]))) end_word();
    word += static_cast<char>(std::tolower(c));
  }
  end_word();
  return words;
}

/// How many of two routes' parameters, position by position, have the same words.
std::size_t alike(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) n += words_of(a[i]) == words_of(b[i]) ? 1 : 0;
  return n;
}

/// The market (a group) a ticker example names by the API's prefixes (O:, C:, X:, I:; none for a
/// stock), "" for what is no ticker.
std::string ticker_market(std::string_view example) {
  static const std::pair<const char*, const char*> prefixes[] = {
      {"O:", "options"}, {"C:", "forex"}, {"X:", "crypto"}, {"I:", "indices"}};
  for (const auto& [prefix, market] : prefixes) {
    if (example.starts_with(prefix) && example.size() > 2) return market;
  }
  // A stock's symbol: capitals, with a class after a dot (BRK.A).
  const bool symbol = !example.empty() && example.size() <= 10 && std::isupper(static_cast<unsigned char>(example[0])) &&
                      std::all_of(example.begin(), example.end(), [](char c) {
                        return std::isupper(static_cast<unsigned char>(c)) || c == '.';
                      });
  return symbol ? "stocks" : "";
}

}  // namespace

std::vector<std::string> path_parameter_names(const std::string& path) {
  std::vector<std::string> names;
  for (std::size_t at = path.find('{'); at != std::string::npos; at = path.find('{', at + 1)) {
    names.push_back(path.substr(at + 1, path.find('}', at) - at - 1));
  }
  return names;
}

// A path no op row names takes the path of a row that no path of the description has and that
// differs from it in parameter names and versions alone. In rounds, each path and row taken
// once: where every name has the same words (the markets' variants of one route,
// {stocksTicker}, {cryptoTicker}, ..., find their own); then where one row has more names alike
// than any other (a route's {date} renamed {day} beside its ticker); then the one row of the
// market its ticker's example names (X:BTC-USD crypto, AAPL stocks: a bare {ticker} where the
// official clients' form keeps one market's variant of a route); then a path with one such row
// left that no other path left could take. A path with several left takes none: its names are
// the generator's defaults, as for a new route.
void builder::find_renamed_routes(const json& paths) {
  // The routes, and the market each one's path ticker names by its example.
  std::vector<std::string> described;
  std::map<std::string, std::string> markets;
  for (const auto& [key, written] : paths.members()) {
    const json& item = resolve(written);
    const json* get = item.find("get");
    if (key.rfind("x-", 0) == 0 || get == nullptr) continue;
    const std::string& path = described.emplace_back(key.empty() || key.front() != '/' ? "/" + key : key);
    for (const json* list : {item.find("parameters"), get->find("parameters")}) {
      if (list == nullptr) continue;
      for (const json& declared : list->items()) {
        const json& p = resolve(declared);
        const json* example = p.example();
        if (p.text("in") != "path" || example == nullptr || !example->is_string()) continue;
        if (std::string market = ticker_market(example->string()); !market.empty()) markets[path] = market;
      }
    }
  }
  // The op rows by path, read without marking them used: a row no route takes stays stale.
  std::map<std::string, const map_row*> op_rows;
  for (const map_row* row : map_.find("op")) {
    if (row->words.size() > 2) op_rows.emplace(row->words[1], row);
  }
  const std::set<std::string> here(described.begin(), described.end());
  std::vector<std::string> unnamed, unclaimed;
  for (const std::string& path : described) {
    if (!op_rows.count(path)) unnamed.push_back(path);
  }
  for (const auto& [path, row] : op_rows) {
    if (!here.count(path)) unclaimed.push_back(path);
  }
  std::set<std::string> taken;  // map paths a described path was paired with
  const auto pair = [&](const std::string& path, const std::string& mapped) {
    map_paths_[path] = mapped;
    taken.insert(mapped);
    notices_.warnings.push_back("GET " + path + " is read as the map's GET " + mapped +
                                " (the same route, its version or path parameters renamed): its names are the map's; "
                                "the map's rows may name it by its new path");
  };
  const auto free_rows = [&](const std::string& path) {
    std::vector<std::string> rows;
    for (const std::string& mapped : unclaimed) {
      if (!taken.count(mapped) && route_shape(mapped) == route_shape(path)) rows.push_back(mapped);
    }
    return rows;
  };
  for (const bool every_name : {true, false}) {
    for (const std::string& path : unnamed) {
      if (map_paths_.count(path)) continue;
      const std::vector<std::string> names = path_parameter_names(path);
      std::size_t best = 0, with_best = 0;
      std::string chosen;
      for (const std::string& mapped : free_rows(path)) {
        const std::size_t n = alike(names, path_parameter_names(mapped));
        if (n > best) best = n, with_best = 0, chosen = mapped;
        if (n == best) ++with_best;
      }
      if (best > 0 && with_best == 1 && (!every_name || best == names.size())) pair(path, chosen);
    }
  }
  const auto market_of = [&](const std::string& path) {
    const auto it = markets.find(path);
    return it != markets.end() ? it->second : std::string();
  };
  // Another path still unpaired that could take the same rows (of the same market, if asked).
  const auto contested = [&](const std::string& path, bool same_market) {
    return std::any_of(unnamed.begin(), unnamed.end(), [&](const std::string& other) {
      return other != path && !map_paths_.count(other) && route_shape(other) == route_shape(path) &&
             (!same_market || market_of(other) == market_of(path));
    });
  };
  for (const std::string& path : unnamed) {
    if (map_paths_.count(path) || market_of(path).empty()) continue;
    std::vector<std::string> of_market;
    for (const std::string& mapped : free_rows(path)) {
      if (op_rows.at(mapped)->words[2] == market_of(path)) of_market.push_back(mapped);
    }
    if (of_market.size() == 1 && !contested(path, true)) pair(path, of_market.front());
  }
  for (bool paired = true; paired;) {
    paired = false;
    for (const std::string& path : unnamed) {
      if (map_paths_.count(path)) continue;
      const std::vector<std::string> rows = free_rows(path);
      if (rows.size() != 1 || contested(path, false)) continue;
      pair(path, rows.front());
      paired = true;
    }
  }
}

const std::string& builder::map_path(const std::string& described) const {
  const auto it = map_paths_.find(described);
  return it != map_paths_.end() ? it->second : described;
}

const std::string& builder::described_path(const std::string& mapped) const {
  for (const auto& [described, to] : map_paths_) {
    if (to == mapped) return described;
  }
  return mapped;
}

}  // namespace massive::codegen::building
