#include "json.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace massive::codegen {

// Read with simdjson's On Demand API rather than its DOM: the DOM refuses a whole document
// for one integer beyond 64 bits (an example, a maximum), where On Demand hands over a
// number's text as written, which is what the tree keeps.
struct json_builder {
  static json from(simdjson::ondemand::value v, std::string_view where) {
    json out;
    simdjson::ondemand::json_type type;
    check(v.type().get(type), where);
    switch (type) {
      case simdjson::ondemand::json_type::array: {
        out.kind_ = json::kind::array;
        simdjson::ondemand::array array;
        check(v.get_array().get(array), where);
        for (auto item : array) {
          simdjson::ondemand::value value;
          check(item.get(value), where);
          out.items_.push_back(from(value, where));
        }
        break;
      }
      case simdjson::ondemand::json_type::object: {
        out.kind_ = json::kind::object;
        simdjson::ondemand::object object;
        check(v.get_object().get(object), where);
        for (auto field : object) {
          std::string_view key;
          simdjson::ondemand::value value;
          check(field.unescaped_key().get(key), where);
          std::string name(key);
          check(field.value().get(value), where);
          out.members_.emplace_back(std::move(name), from(value, where));
        }
        // Canonical order: the generator's output is a function of the description's content,
        // never of the order in which its publisher wrote the keys (one sorts them, another
        // does not). Arrays keep their order: there it is content (enum values, allOf parts).
        std::stable_sort(out.members_.begin(), out.members_.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        // A key given twice counts once, with its last value, as JavaScript's JSON.parse and
        // Python's json module read it (JSON leaves it open; the official clients' generators
        // read the description with those).
        std::size_t kept = 0;
        for (std::size_t i = 0; i < out.members_.size(); ++i) {
          if (i + 1 < out.members_.size() && out.members_[i + 1].first == out.members_[i].first) continue;
          if (kept != i) out.members_[kept] = std::move(out.members_[i]);
          ++kept;
        }
        out.members_.resize(kept);
        break;
      }
      case simdjson::ondemand::json_type::string: {
        out.kind_ = json::kind::string;
        std::string_view text;
        check(v.get_string().get(text), where);
        out.text_ = std::string(text);
        break;
      }
      case simdjson::ondemand::json_type::number: {
        out.kind_ = json::kind::number;
        std::string_view token = v.raw_json_token();
        while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.remove_suffix(1);
        out.text_ = std::string(token);
        break;
      }
      case simdjson::ondemand::json_type::boolean:
        out.kind_ = json::kind::boolean;
        check(v.get_bool().get(out.boolean_), where);
        break;
      case simdjson::ondemand::json_type::null: {
        bool is_null = false;
        check(v.is_null().get(is_null), where);
        if (!is_null) check(simdjson::INCORRECT_TYPE, where);
        break;
      }
    }
    return out;
  }

  static json document(const simdjson::padded_string& text, std::string_view where) {
    // A UTF-8 byte order mark, which RFC 8259 lets a reader ignore, and an editor may write.
    const std::size_t bom = std::string_view(text).starts_with("\xEF\xBB\xBF") ? 3 : 0;
    const simdjson::padded_string_view view(text.data() + bom, text.size() - bom,
                                            text.size() - bom + simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    check(parser.iterate(view).get(doc), where);
    simdjson::ondemand::value root;
    check(doc.get_value().get(root), where);
    json out = from(root, where);
    // Nothing may follow the value (On Demand reads no further than it is asked).
    if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) check(simdjson::TRAILING_CONTENT, where);
    return out;
  }

  static void check(simdjson::error_code e, std::string_view where) {
    if (e != simdjson::SUCCESS) throw std::runtime_error(std::string(where) + simdjson::error_message(e));
  }
};

json json::load(const std::string& path) {
  simdjson::padded_string text;
  if (auto e = simdjson::padded_string::load(path).get(text)) {
    throw std::runtime_error("cannot read " + path + ": " + simdjson::error_message(e));
  }
  return json_builder::document(text, "cannot read " + path + ": ");
}

json json::parse(std::string_view text) {
  return json_builder::document(simdjson::padded_string(text), "invalid JSON: ");
}

const json* json::find(std::string_view key) const noexcept {
  for (const auto& [name, value] : members_) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::string_view json::text(std::string_view key) const noexcept {
  const json* v = find(key);
  return v != nullptr && v->is_string() ? std::string_view(v->text_) : std::string_view();
}

std::string_view json::schema_type() const noexcept {
  const json* type = find("type");
  if (type == nullptr) {
    if (find("items") != nullptr) return "array";
    if (find("properties") != nullptr) return "object";
    return {};
  }
  if (type->is_string()) return text("type");
  if (!type->is_array()) return {};
  std::string_view only;
  for (const json& t : type->items()) {
    if (!t.is_string()) return {};
    if (t.text_ == "null") continue;
    if (!only.empty()) return {};
    only = t.text_;
  }
  return only;
}

const json* json::sole_alternative() const noexcept {
  const json* one_of = find("oneOf");
  const json* any_of = find("anyOf");
  const json* choice = one_of != nullptr ? one_of : any_of;
  if (choice == nullptr || (one_of != nullptr && any_of != nullptr)) return nullptr;
  const json* only = nullptr;
  for (const json& part : choice->items()) {
    if (part.is_object() && part.members().size() == 1 && part.text("type") == "null") continue;
    if (only != nullptr) return nullptr;
    only = &part;
  }
  return only;
}

json::reference_end json::follow_references(const json& s) const {
  reference_end end;
  const json* at = &s;
  for (int hops = 0; hops < 32; ++hops) {
    const std::string_view ref = at->text("$ref");
    if (ref.empty()) {
      end.at = at;
      return end;
    }
    end.ref = ref;
    if (!ref.starts_with("#")) {
      end.why = "is not within the description";
      return end;
    }
    const json* next = at_reference(ref);
    if (next == nullptr) {
      end.why = "names nothing in the description";
      return end;
    }
    end.name = ref.substr(ref.rfind('/') + 1);
    at = next;
  }
  end.ref = s.text("$ref");
  end.why = "is a cycle of references";
  return end;
}

const json* json::at_reference(std::string_view ref) const {
  if (!ref.starts_with("#")) return nullptr;
  // The fragment's percent-encoding first (RFC 3986), then the pointer's escapes (RFC 6901).
  std::string pointer;
  for (std::size_t i = 1; i < ref.size(); ++i) {
    const auto hex = [&](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (ref[i] == '%' && i + 2 < ref.size() && hex(ref[i + 1]) && hex(ref[i + 2])) {
      pointer += static_cast<char>(std::stoi(std::string(ref.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      pointer += ref[i];
    }
  }
  const json* at = this;
  std::size_t from = 0;
  while (at != nullptr && from < pointer.size()) {
    if (pointer[from] != '/') return nullptr;
    const std::size_t end = std::min(pointer.find('/', from + 1), pointer.size());
    std::string token;
    for (std::size_t i = from + 1; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[++i] == '0' ? '~' : '/';
      } else {
        token += pointer[i];
      }
    }
    if (at->is_array()) {
      const bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
      const std::size_t index = digits && token.size() < 10 ? std::stoul(token) : at->items_.size();
      at = index < at->items_.size() ? &at->items_[index] : nullptr;
    } else {
      at = at->find(token);
    }
    from = end;
  }
  return at;
}

const json* json::example() const noexcept {
  if (const json* one = find("example")) return one;
  const json* many = find("examples");
  if (many == nullptr) return nullptr;
  if (many->is_array()) return many->items().empty() ? nullptr : &many->items().front();
  if (!many->is_object() || many->members().empty()) return nullptr;
  return many->members().front().second.find("value");
}

const json* json::extension(std::string_view name) const {
  if (const json* now = find("x-massive-" + std::string(name))) return now;
  return find("x-polygon-" + std::string(name));
}

bool json::extension_flag(std::string_view name) const {
  const json* v = extension(name);
  return v != nullptr && v->kind_ == kind::boolean && v->boolean_;
}

bool json::flag(std::string_view key) const noexcept {
  const json* v = find(key);
  return v != nullptr && v->kind_ == kind::boolean && v->boolean_;
}

}  // namespace massive::codegen
