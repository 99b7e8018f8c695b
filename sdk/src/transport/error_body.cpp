#include "error_body.hpp"

#include <simdjson.h>

namespace massive::transport {

std::string redact(std::string_view input, std::string_view key) {
  std::string text(input);
  if (key.empty()) return text;
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
    text.replace(at, key.size(), "REDACTED");
    at += 8;
  }
  return text;
}

namespace {

struct json_fields {
  std::string error;
  std::string message;
  std::string request_id;
  bool is_object = false;
};

json_fields read_fields(std::string_view body) {
  json_fields f;
  // The DOM parser validates the whole document, so trailing garbage is not JSON.
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(simdjson::padded_string(body)).get_object().get(object) != simdjson::SUCCESS) {
    return f;
  }
  f.is_object = true;
  for (auto [key, value] : object) {
    std::string* target = key == "error"        ? &f.error
                          : key == "message"    ? &f.message
                          : key == "request_id" ? &f.request_id
                                                : nullptr;
    std::string_view text;
    if (target != nullptr && value.get_string().get(text) == simdjson::SUCCESS) target->assign(text);
  }
  return f;
}

}  // namespace

std::string sanitize(std::string_view text, std::size_t cap) {
  std::string out;
  out.reserve(std::min(text.size(), cap) + 3);
  bool pending_space = false;
  for (unsigned char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      pending_space = !out.empty();
      continue;
    }
    if (out.size() + (pending_space ? 1 : 0) >= cap) {
      out += "...";
      return out;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

void add_reason(api_error& e, std::string_view reason) {
  // api_error's constructor makes what() of the server's parts alone. The reason goes into the
  // std::runtime_error that holds what(), so that server_message() keeps the server's text and
  // a copy of the error (one caught by value) keeps the reason.
  static_cast<std::runtime_error&>(e) = std::runtime_error(std::string(e.what()) + "; " + std::string(reason));
}

api_error make_api_error(int status, std::string_view body, std::string_view x_request_id,
                         std::optional<std::chrono::seconds> retry_after,
                         std::string_view api_key) {
  json_fields f = read_fields(body);
  std::string message;
  if (f.is_object && !f.error.empty()) {
    message = f.error;
  } else if (f.is_object && !f.message.empty()) {
    message = f.message;
  } else if (!body.empty()) {
    message = "body: " + sanitize(redact(body, api_key), raw_body_quote_cap);
  }
  message = sanitize(redact(std::move(message), api_key), message_cap);
  std::string request_id = f.request_id.empty() ? std::string(x_request_id) : f.request_id;
  request_id = sanitize(redact(std::move(request_id), api_key), 128);
  return api_error(status, std::move(request_id), std::move(message), retry_after);
}

}  // namespace massive::transport
