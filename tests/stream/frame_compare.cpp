#include "frame_compare.hpp"

#include <massive/json_writer.hpp>

#include <simdjson.h>

#include <string_view>

namespace massive::test {

std::string written_events(const stream::batch& b) {
  std::string out = "[";
  b.visit([&](const auto& event) {
    if (out.size() > 1) out += ',';
    json_writer w(out);
    write_json(w, event);
  });
  return out + "]";
}

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

void compare(element sent, element written, const std::string& path, std::vector<std::string>& out) {
  const element_type a = sent.type(), b = written.type();
  const auto number = [](element_type t) {
    return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
  };
  if (number(a) && number(b)) {
    if (a != element_type::DOUBLE && b != element_type::DOUBLE) {
      if (sent.get_int64().value_unsafe() != written.get_int64().value_unsafe()) out.push_back(path + ": integers differ");
    } else if (double(sent) != double(written)) {
      out.push_back(path + ": numbers differ");
    }
    return;
  }
  if (a != b) {
    out.push_back(path + ": types differ");
    return;
  }
  switch (a) {
    case element_type::STRING:
      if (std::string_view(sent) != std::string_view(written)) out.push_back(path + ": strings differ");
      break;
    case element_type::BOOL:
      if (bool(sent) != bool(written)) out.push_back(path + ": booleans differ");
      break;
    case element_type::ARRAY: {
      const simdjson::dom::array x = sent, y = written;
      if (x.size() != y.size()) {
        out.push_back(path + ": array sizes differ");
        break;
      }
      for (std::size_t i = 0; i < x.size(); ++i) compare(x.at(i), y.at(i), path + "[" + std::to_string(i) + "]", out);
      break;
    }
    case element_type::OBJECT: {
      const simdjson::dom::object x = sent, y = written;
      for (auto [key, value] : x) {
        if (key == "ev" && path.find('.') == std::string::npos) continue;
        element other;
        if (y.at_key(key).get(other) != simdjson::SUCCESS) {
          if (!value.is_null()) out.push_back(path + "." + std::string(key) + ": sent, not decoded");
          continue;
        }
        compare(value, other, path + "." + std::string(key), out);
      }
      for (auto [key, value] : y) {
        element other;
        // An absent span is written as [] (the writers' convention).
        const bool empty_span = value.is_array() && simdjson::dom::array(value).size() == 0;
        if (x.at_key(key).get(other) != simdjson::SUCCESS && !empty_span) {
          out.push_back(path + "." + std::string(key) + ": written, not sent");
        }
      }
      break;
    }
    default: break;
  }
}

}  // namespace

std::vector<std::string> frame_differences(const std::string& frame, const std::string& written) {
  simdjson::dom::parser sent_parser, written_parser;
  std::vector<std::string> out;
  const simdjson::dom::array sent = sent_parser.parse(frame).get_array();
  const simdjson::dom::array back = written_parser.parse(written).get_array();
  if (sent.size() != back.size()) {
    out.push_back("events: " + std::to_string(sent.size()) + " sent, " + std::to_string(back.size()) + " written");
    return out;
  }
  for (std::size_t i = 0; i < sent.size(); ++i) compare(sent.at(i), back.at(i), "[" + std::to_string(i) + "]", out);
  return out;
}

}  // namespace massive::test
