#include "json.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace massive::codegen {

struct json_builder {
  static json from(simdjson::dom::element e) {
    json out;
    switch (e.type()) {
      case simdjson::dom::element_type::ARRAY: {
        out.kind_ = json::kind::array;
        const simdjson::dom::array array = e.get_array().value_unsafe();
        for (auto item : array) out.items_.push_back(from(item));
        break;
      }
      case simdjson::dom::element_type::OBJECT: {
        out.kind_ = json::kind::object;
        const simdjson::dom::object object = e.get_object().value_unsafe();
        for (auto field : object) {
          out.members_.emplace_back(std::string(field.key), from(field.value));
        }
        // Canonical order: the generator's output is a function of the description's content,
        // never of the order in which its publisher wrote the keys (one sorts them, another
        // does not). Arrays keep their order: there it is content (enum values, allOf parts).
        std::stable_sort(out.members_.begin(), out.members_.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        break;
      }
      case simdjson::dom::element_type::STRING:
        out.kind_ = json::kind::string;
        out.text_ = std::string(e.get_string().value_unsafe());
        break;
      case simdjson::dom::element_type::INT64:
      case simdjson::dom::element_type::UINT64:
      case simdjson::dom::element_type::DOUBLE:
        out.kind_ = json::kind::number;
        out.text_ = simdjson::minify(e);
        break;
      case simdjson::dom::element_type::BOOL:
        out.kind_ = json::kind::boolean;
        out.boolean_ = e.get_bool().value_unsafe();
        break;
      case simdjson::dom::element_type::NULL_VALUE: break;
    }
    return out;
  }
};

json json::load(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto e = parser.load(path).get(root)) {
    throw std::runtime_error("cannot read " + path + ": " + simdjson::error_message(e));
  }
  return json_builder::from(root);
}

json json::parse(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto e = parser.parse(simdjson::padded_string(text)).get(root)) {
    throw std::runtime_error(std::string("invalid JSON: ") + simdjson::error_message(e));
  }
  return json_builder::from(root);
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

bool json::flag(std::string_view key) const noexcept {
  const json* v = find(key);
  return v != nullptr && v->kind_ == kind::boolean && v->boolean_;
}

}  // namespace massive::codegen
