// Reads the stream description with the map's stream rows into event models. The channels'
// schemas are flat objects (scalars, arrays of scalars, the level-2 book's arrays of pairs), so
// this is a small reader of its own rather than the REST builder's shape deduplication: every
// channel is its own event type, because the same shape on two channels (a second and a minute
// aggregate) is two things the user must be able to tell apart.
#include "build.hpp"
#include "defaults.hpp"
#include "names.hpp"
#include "stream.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace massive::codegen {

namespace {

const char* const market_names[] = {"stocks", "options", "forex", "crypto", "indices", "futures"};

bool known_market(std::string_view m) {
  return std::find(std::begin(market_names), std::end(market_names), m) != std::end(market_names);
}

/// A map type name as a field type: the scalars of `field` rows plus arrays of integers and numbers.
bool parse_type(std::string_view name, field_type& out) {
  static const std::pair<const char*, scalar> scalars[] = {
      {"int64", scalar::int64},   {"int32", scalar::int32},   {"double", scalar::number},
      {"bool", scalar::boolean},  {"string", scalar::string}, {"timestamp_ns", scalar::timestamp_ns},
      {"timestamp_us", scalar::timestamp_us}, {"timestamp_ms", scalar::timestamp_ms}, {"json", scalar::json}};
  for (const auto& [n, s] : scalars) {
    if (name == n) return out = field_type{field_type::form::scalar, s, nullptr}, true;
  }
  if (name == "int64_array") return out = field_type{field_type::form::array, scalar::int64, nullptr}, true;
  if (name == "double_array") return out = field_type{field_type::form::array, scalar::number, nullptr}, true;
  return false;
}

class stream_builder {
 public:
  stream_builder(const json& spec, const curated_map& map, notices& out) : spec_(spec), map_(map), notices_(out) {}

  stream_api run() {
    const json* paths = spec_.find("paths");
    if (paths == nullptr || !paths->is_object() || paths->members().empty()) {
      throw generation_error({"the stream description has no channels (#/paths)"});
    }
    // Channels by their path as the map names them: OpenAPI's paths begin with '/', and a
    // trailing '/' names the same channel; keys starting x- extend the paths object.
    std::vector<std::pair<std::string, const json*>> channels;
    std::map<std::string, const json*> described;
    for (const auto& [key, item] : paths->members()) {
      if (key.rfind("x-", 0) == 0) continue;
      std::string path = key.empty() || key.front() != '/' ? "/" + key : key;
      while (path.size() > 1 && path.back() == '/') path.pop_back();
      if (path != key) notices_.warnings.push_back("stream channel " + key + ": read as " + path);
      if (!described.emplace(path, &item).second) {
        notices_.warnings.push_back("stream channel " + key + " is " + path + " again: the first one is generated");
        continue;
      }
      channels.emplace_back(path, &item);
    }
    for (const map_row* row : map_.find("stream")) {
      row->used = true;
      if (row->words.size() < 2) {
        problem(map_.where(*row) + ": stream rows are `stream <model> <channel> ...`");
        continue;
      }
      const std::string& location = row->words[1];
      if (location.rfind("schema=", 0) == 0) {
        add_schema_event(*row);
      } else if (described.count(location)) {
        add_channel(*row, location, resolve(*described.at(location)).find("get"));
      } else if (row->option("ev")) {
        add_undescribed(*row);
      } else {
        stale(*row, "names a channel the stream description lacks; an event it lacks needs ev=<ev> and <key>=<type> words");
      }
    }
    // Channels the map does not name: default names, after every curated one is taken.
    for (const auto& [path, item] : channels) {
      if (channel_row(path) == nullptr) add_default_channel(path, resolve(*item).find("get"));
    }
    for (const map_row& row : map_.rows()) {
      if ((row.kind == "stream_key" || row.kind == "stream_field") && !row.used) {
        stale(row, "names nothing in the stream description");
      }
    }
    if (!problems_.empty()) throw generation_error(problems_);
    std::sort(out_.models.begin(), out_.models.end(), [](const auto& a, const auto& b) { return a->name < b->name; });
    return std::move(out_);
  }

 private:
  void problem(std::string text) { problems_.push_back(std::move(text)); }
  void stale(const map_row& row, const std::string& why) {
    row.used = true;  // reported once
    std::string text = map_.where(row) + ": " + row.kind;
    for (const std::string& w : row.words) text += " " + w;
    notices_.warnings.push_back(text + " " + why + " (--prune removes the row)");
    notices_.stale_map_lines.insert(row.line);
  }

  const map_row* channel_row(const std::string& path) const {
    for (const map_row* row : map_.find("stream")) {
      if (row->words.size() > 1 && row->words[1] == path) return row;
    }
    return nullptr;
  }

  /// Where `s`'s $refs lead, and past a choice of one schema (or of one and null), which is that
  /// schema. As the REST builder's resolve(), a reference that cannot be followed stands for a
  /// schema that says nothing (a key of it is kept as JSON text), with one warning per reference.
  const json& resolve(const json& s) const {
    static const json says_nothing;
    const json* at = &s;
    for (int hops = 0; hops < 32; ++hops) {  // a choice of itself ends here
      const json::reference_end end = spec_.follow_references(*at);
      if (end.at == nullptr) {
        if (unfollowed_refs_.insert(std::string(end.ref)).second) {
          notices_.warnings.push_back("stream description: $ref " + std::string(end.ref) + " " + end.why +
                                      ": what it stands for is kept as JSON text (json_value)");
        }
        return says_nothing;
      }
      const json* only = end.at->sole_alternative();
      if (only == nullptr) return *end.at;
      at = only;
    }
    return says_nothing;
  }
  /// The object's properties with allOf parts merged (a later part refines an earlier one's key).
  void properties(const json& raw, std::vector<std::pair<std::string, const json*>>& out) const {
    const json& s = resolve(raw);
    if (const json* parts = s.find("allOf")) {
      for (const json& part : parts->items()) properties(part, out);
    }
    if (const json* props = s.find("properties")) {
      for (const auto& [key, value] : props->members()) {
        const auto seen = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == key; });
        if (seen == out.end()) {
          out.emplace_back(key, &value);
        } else if (!resolve(value).schema_type().empty() || resolve(*seen->second).schema_type().empty()) {
          seen->second = &value;
        }
      }
    }
  }
  /// The single `ev` value the schema's enum (in any allOf part) allows, or "".
  std::string ev_of(const json& raw) const {
    static const std::vector<json> no_values;
    const json& s = resolve(raw);
    std::string found;
    if (const json* parts = s.find("allOf")) {
      for (const json& part : parts->items()) {
        if (std::string inner = ev_of(part); !inner.empty()) found = inner;
      }
    }
    if (const json* props = s.find("properties")) {
      if (const json* ev = props->find("ev")) {
        // One string among the enum's values; a null beside it is no value (OpenAPI 3.0
        // lists null in a nullable enum).
        const json* values = resolve(*ev).find("enum");
        const json* only = nullptr;
        std::size_t non_null = 0;
        for (const json& v : values != nullptr ? values->items() : no_values) {
          if (v.type() == json::kind::null) continue;
          ++non_null;
          only = &v;
        }
        if (non_null == 1 && only->is_string()) {
          found = only->string();
        } else if (const std::string_view only = resolve(*ev).text("const"); !only.empty()) {
          found = std::string(only);  // OpenAPI 3.1 (JSON Schema) writes an enum of one as const
        }
      }
    }
    return found;
  }

  /// The description's type of a property: "" when it declares none.
  bool described_type(const json& raw, field_type& out) const {
    const json& s = resolve(raw);
    const std::string_view type = s.schema_type();
    if (type == "integer") return out = {field_type::form::scalar, s.text("format") == "int32" ? scalar::int32 : scalar::int64, nullptr}, true;
    if (type == "number") return out = {field_type::form::scalar, scalar::number, nullptr}, true;
    if (type == "string") return out = {field_type::form::scalar, scalar::string, nullptr}, true;
    if (type == "boolean") return out = {field_type::form::scalar, scalar::boolean, nullptr}, true;
    if (type == "array" && s.find("items") != nullptr) {
      const json& items = resolve(*s.find("items"));
      const std::string_view element = items.schema_type();
      if (element == "integer") return out = {field_type::form::array, scalar::int64, nullptr}, true;
      if (element == "number") return out = {field_type::form::array, scalar::number, nullptr}, true;
    }
    return false;
  }

  model& new_model(const map_row& row, std::string doc) {
    const std::string& name = row.words[0];
    if (name.size() <= 6 || name.compare(name.size() - 6, 6, "_event") != 0) {
      problem(map_.where(row) + ": stream model " + name + " must end in _event (its kind is the name without it)");
    }
    for (const auto& m : out_.models) {
      if (m->name == name) problem(map_.where(row) + ": two stream rows name the model " + name);
    }
    return add_model(name, row.words[1], std::move(doc));
  }

  model& add_model(const std::string& name, const std::string& location, std::string doc) {
    auto m = std::make_unique<model>();
    m->name = name;
    m->location = location;
    if (const map_row* d = map_.lookup("doc", name)) {
      doc = d->text;
    }
    m->doc = building::first_sentence(doc);
    out_.models.push_back(std::move(m));
    return *out_.models.back();
  }

  /// One field from its key and its type: the map's stream_field row, else the type an
  /// undescribed event's row gives, else the stream_key row's, else the description's.
  void add_field(model& m, const std::string& key, const json* schema, std::optional<field_type> given) {
    field f;
    f.key = key;
    bool typed = false;
    if (schema != nullptr) {
      typed = described_type(*schema, f.type);
      f.doc = building::first_sentence(resolve(*schema).text("description"));
    }
    const map_row* k = map_.lookup("stream_key", key);
    const map_row* own = map_.lookup("stream_field", m.name, key);
    const auto apply_type = [&](const map_row* r) {
      if (r == nullptr) return;
      if (auto type = r->option("type")) {
        if (!parse_type(*type, f.type)) problem(map_.where(*r) + ": type=" + *type + " is not a stream field type");
        typed = true;
      }
    };
    apply_type(k);
    if (given) f.type = *given, typed = true;
    apply_type(own);
    if (k != nullptr) {
      if (k->words.size() > 1 && k->words[1].find('=') == std::string::npos) f.name = k->words[1];
      f.required = k->has("required");
    }
    if (own != nullptr) {
      if (auto name = own->option("name")) f.name = *name;
      if (own->has("required")) f.required = true;
      if (own->has("optional")) f.required = false;
    }
    if (const map_row* d = map_.lookup("doc", m.name + "." + key)) f.doc = d->text;
    if (f.name.empty()) {
      f.name = identifier(key);
      notices_.defaults.push_back("stream key \"" + key + "\" of " + m.name + " (" + m.location +
                                  ") has no map row: generated as " + f.name + " (`stream_key " + key +
                                  " <name>` or `stream_field " + m.name + " " + key + " name=<name>` in " +
                                  map_.path() + ")");
    }
    if (!typed) {
      // Kept as its JSON text: nothing is lost, and the type is a person's to give.
      f.type = {field_type::form::scalar, scalar::json, nullptr};
      notices_.warnings.push_back("stream key \"" + key + "\" of " + m.name + " (" + m.location +
                                  ") has no type in the description: kept as its JSON text (`stream_field " +
                                  m.name + " " + key + " type=<type>` in " + map_.path() + ")");
    }
    std::set<std::string> names;
    for (const field& other : m.fields) names.insert(other.name);
    if (names.count(f.name)) {
      if (own != nullptr && own->option("name")) {
        problem(map_.where(*own) + ": two fields of " + m.name + " are both named " + f.name + ": rename one");
      } else {
        const std::string renamed = first_free(f.name, names);
        notices_.warnings.push_back("stream key \"" + key + "\" of " + m.name + " would be a second member named " +
                                    f.name + ": generated as " + renamed);
        f.name = renamed;
      }
    }
    m.fields.push_back(std::move(f));
  }

  /// A channel's 200 response: its JSON schema and example, and its description.
  struct response {
    const json* schema = nullptr;
    const json* example = nullptr;
    std::string doc;
  };
  response response_of(const json* get) const {
    response r;
    const json* ok = nullptr;
    if (get != nullptr) {
      ok = success_response(*get);
    }
    if (ok == nullptr) return r;
    ok = &resolve(*ok);  // a response may be a $ref to components/responses
    r.doc = std::string(ok->text("description"));
    if (const json* c = ok->find("content")) {
      if (const json* media = json_media(*c)) {
        r.schema = media->find("schema");
        r.example = media->example();
      }
    } else if (const json* schema = ok->find("schema")) {
      // Swagger 2.0: the schema on the response itself, its examples by media type.
      r.schema = schema;
      if (const json* examples = ok->find("examples")) r.example = json_media(*examples);
    }
    // A channel may describe its message as the frame it comes in: an array of events.
    if (r.schema != nullptr) {
      const json& s = resolve(*r.schema);
      if (const json* items = s.find("items"); items != nullptr && s.schema_type() == "array") r.schema = items;
    }
    return r;
  }
  /// The `ev` of a channel's events: its schema's, else the channel's prefix, which is what the
  /// protocol sends (T for /stocks/T, FMV for /business/stocks/FMV). The example is not taken
  /// for it: the descriptions' examples are copied between channels (/options/A's says AM,
  /// /options/AM's ev, where its schema says A), and two channels of one market and ev would
  /// decode each other's events. Where the schema says nothing, a warning says so, and what the
  /// example says when it differs.
  std::string ev_for(const response& r, const stream_event& e) const {
    const std::string from_schema = ev_of(*r.schema);
    const std::string ev = from_schema.empty() ? e.prefix : from_schema;
    const std::string_view example = r.example != nullptr ? r.example->text("ev") : std::string_view();
    if (from_schema.empty() && example.empty()) {
      notices_.warnings.push_back("stream channel " + e.path + " names no single ev value (neither an enum nor an example): "
                                  "its events are taken to carry ev=" + ev + ", the channel's prefix");
    } else if (from_schema.empty() && example != ev) {
      notices_.warnings.push_back("stream channel " + e.path + " names no single ev value in its schema, and its example's (" +
                                  std::string(example) + ") is not the channel's prefix: its events are taken to carry ev=" +
                                  ev + ", the prefix, as the protocol sends");
    }
    return ev;
  }

  /// A message described as a choice of events, as a frame may hold a status event or the
  /// channel's: the choice whose ev is the channel's prefix, else the one choice whose ev is not
  /// `status`; the schema as it is when neither picks one.
  const json* channel_choice(const json* schema, const stream_event& e) const {
    const json& s = resolve(*schema);
    const json* parts = s.find("oneOf");
    if (parts == nullptr) parts = s.find("anyOf");
    if (parts == nullptr || parts->items().size() < 2) return schema;
    std::vector<const json*> by_prefix, not_status;
    for (const json& part : parts->items()) {
      const std::string ev = ev_of(part);
      if (ev == e.prefix) by_prefix.push_back(&part);
      if (ev != "status" && resolve(part).schema_type() != "null") not_status.push_back(&part);
    }
    if (by_prefix.size() == 1) return by_prefix.front();
    return not_status.size() == 1 ? not_status.front() : schema;
  }

  void add_channel(const map_row& row, const std::string& path, const json* get) {
    response r = response_of(get);
    if (r.schema == nullptr) {
      notices_.skipped.push_back("stream channel " + path + ": no response schema, so no event to type");
      return;
    }
    stream_event e = channel_of(&row, path, row.option("topic"));
    if (e.prefix.empty()) return;  // channel_of said why
    r.schema = channel_choice(r.schema, e);
    e.ev = ev_for(r, e);
    add_described(new_model(row, r.doc), *r.schema, std::move(e));
  }

  /// A channel no row names: <market>[_<feed>]_<prefix>_event, its topic the prefix (business_
  /// and launchpad_ ones prefixed), each made unique.
  void add_default_channel(const std::string& path, const json* get) {
    response r = response_of(get);
    stream_event e = channel_of(nullptr, path, std::nullopt);
    if (r.schema == nullptr || e.market.empty()) {
      notices_.skipped.push_back("stream channel " + path + ": " +
                                 (r.schema == nullptr ? "no response schema" : "not /<market>/<prefix> with a known market"));
      return;
    }
    r.schema = channel_choice(r.schema, e);
    e.ev = ev_for(r, e);
    // A frame's event is found by its market, feed and ev: a second channel with all three
    // could never be told from the first, and its type would never be decoded into.
    for (const stream_event& x : out_.events) {
      if (x.market == e.market && x.feed == e.feed && x.ev == e.ev) {
        notices_.skipped.push_back("stream channel " + path + ": its events carry ev " + e.ev + ", as " + x.path +
                                   "'s do, so a frame could not tell them apart (" + x.path + "'s is generated)");
        return;
      }
    }
    static const std::pair<const char*, const char*> singular_market[] = {
        {"stocks", "stock"}, {"options", "option"}, {"indices", "index"}};
    std::string stem = e.market;
    for (const auto& [market, one] : singular_market) {
      if (e.market == market) stem = one;
    }
    const std::string feed = e.feed == "market" ? "" : e.feed + "_";
    // A topic helper is `inline topic <name>(...) { return {market::..., ...}; }` in its market's
    // namespace: one named topic or market would change what the next one's words mean.
    std::set<std::string> models, topics{"market", "topic"};
    for (const auto& m : out_.models) models.insert(m->name);
    for (const stream_event& x : out_.events) {
      if (x.market == e.market) topics.insert(x.topic);
    }
    const std::string prefix = bounded_name(identifier(e.prefix));
    std::string name = stem + "_" + feed + prefix;
    for (int n = 2; models.count(name + "_event"); ++n) name = stem + "_" + feed + prefix + "_" + std::to_string(n);
    e.topic = first_free(feed + prefix, topics);
    model& m = add_model(name + "_event", path, r.doc);
    notices_.defaults.push_back("stream channel " + path + " has no map row: generated as " + m.name + ", topic " +
                                e.topic + " (`stream " + m.name + " " + path + " topic=" + e.topic + "` in " +
                                map_.path() + " pins or renames it)");
    add_described(m, *r.schema, std::move(e));
  }

  /// The schema's fields (but `ev`, which the event's type says) into m, and the event.
  void add_described(model& m, const json& schema, stream_event e) {
    std::vector<std::pair<std::string, const json*>> props;
    properties(schema, props);
    for (const auto& [key, value] : props) {
      if (key != "ev") add_field(m, key, value, std::nullopt);
    }
    e.event = &m;
    out_.events.push_back(std::move(e));
  }

  void add_undescribed(const map_row& row) {
    stream_event e = channel_of(&row, row.words[1], row.option("topic"));
    e.ev = *row.option("ev");
    add_from_row(row, std::move(e));
  }

  /// The event `e` with the model its map row's <key>=<type> words make.
  void add_from_row(const map_row& row, stream_event e) {
    model& m = new_model(row, "");
    add_row_fields(m, row);
    e.event = &m;
    out_.events.push_back(std::move(e));
  }

  /// The row's <key>=<type> words as m's fields, for an event the description lacks.
  void add_row_fields(model& m, const map_row& row) {
    for (std::size_t w = 2; w < row.words.size(); ++w) {
      const std::string& word = row.words[w];
      const auto eq = word.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = word.substr(0, eq);
      if (key == "ev" || key == "topic" || key == "schema") continue;
      field_type t;
      if (!parse_type(word.substr(eq + 1), t)) {
        problem(map_.where(row) + ": " + word + " is not <key>=<type> with a stream field type");
        continue;
      }
      add_field(m, key, nullptr, t);
    }
    if (m.fields.empty()) problem(map_.where(row) + ": an event the description lacks needs its <key>=<type> words");
  }

  /// Status events (connected, auth, subscriptions, disconnects): one schema, every market. A
  /// description without that schema still has status events (the client cannot work without
  /// them): the row's ev= and <key>=<type> words then say what they hold, with a warning.
  void add_schema_event(const map_row& row) {
    const std::string name = row.words[1].substr(std::string_view("schema=").size());
    const std::string ref = "#/components/schemas/" + name;
    const json* schema = spec_.at_reference(ref);
    if (schema == nullptr) schema = spec_.at_reference("#/definitions/" + name);  // Swagger 2.0's place
    std::vector<std::pair<std::string, const json*>> props;
    if (schema != nullptr) properties(*schema, props);
    const bool keyed = std::any_of(props.begin(), props.end(), [](const auto& p) { return p.first != "ev"; });
    if (!keyed) {
      const auto ev = row.option("ev");
      if (!ev) {
        problem(map_.where(row) + ": " + row.words[1] + " names no keyed schema of the stream description, and the row " +
                "has no ev=<ev> <key>=<type>... words to make the event from");
        return;
      }
      notices_.warnings.push_back("stream description: " +
                                  (schema == nullptr ? "no schema " + name : "schema " + name + " gives no key") + ": " +
                                  row.words[0] + " is made from its map row's words (" + map_.where(row) + ")");
      stream_event e;
      e.path = ref;
      e.ev = *ev;
      add_from_row(row, std::move(e));
      return;
    }
    model& m = new_model(row, std::string(resolve(*schema).text("description")));
    stream_event e;
    e.path = ref;
    e.ev = ev_of(*schema);
    if (e.ev.empty()) e.ev = row.option("ev").value_or("");
    if (e.ev.empty()) problem(map_.where(row) + ": " + row.words[1] + " names no ev value, and the row has no ev=<ev>");
    add_described(m, *schema, std::move(e));
  }

  /// Market, feed, prefix and topic of a channel path: /<market>/<prefix>, or
  /// /business/<market>/<prefix> and /launchpad/<market>/<prefix>.
  stream_event channel_of(const map_row* row, const std::string& path, std::optional<std::string> topic) {
    stream_event e;
    e.path = path;
    std::vector<std::string> parts;
    for (std::size_t from = 1; from <= path.size();) {
      const std::size_t slash = std::min(path.find('/', from), path.size());
      parts.push_back(path.substr(from, slash - from));
      from = slash + 1;
    }
    if (parts.size() == 3 && (parts[0] == "business" || parts[0] == "launchpad")) {
      e.feed = parts[0];
      parts.erase(parts.begin());
    } else {
      e.feed = "market";
    }
    if (parts.size() != 2 || !known_market(parts[0])) {
      if (row != nullptr) problem(map_.where(*row) + ": channel " + path + " is not /<market>/<prefix> with a known market");
      return e;
    }
    e.market = parts[0];
    e.prefix = parts[1];
    if (topic) {
      e.topic = *topic;
    } else if (row != nullptr) {
      problem(map_.where(*row) + ": channel " + path + " needs topic=<name> (the topic helper, e.g. trades)");
    }
    return e;
  }

  const json& spec_;
  const curated_map& map_;
  notices& notices_;
  mutable std::set<std::string> unfollowed_refs_;  // $refs resolve() could not follow, warned once each
  stream_api out_;
  std::vector<std::string> problems_;
};

}  // namespace

stream_api build_stream(const json& spec, const curated_map& map, notices& out) {
  return stream_builder(spec, map, out).run();
}

}  // namespace massive::codegen
