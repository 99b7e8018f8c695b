#include "massive/mock/api_server.hpp"

#include "wire.hpp"

#include <charconv>
#include <utility>

namespace massive::mock {
namespace {

api_options pointing_at(api_options options, const server& s) {
  options.base_url = s.base_url();
  return options;
}

// A header's value as a non-negative integer; nullopt when absent or not a number.
std::optional<std::size_t> header_number(const recorded_request& request, std::string_view name) {
  const std::string text = request.header(name);
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool accepts_gzip(const recorded_request& request) {
  return request.header("Accept-Encoding").find("gzip") != std::string::npos;
}

}  // namespace

api_server::api_server(api_options api, server_options options)
    : server_(std::move(options)), api_(pointing_at(std::move(api), server_)) {
  server_.respond_with([this](const recorded_request& request) {
    reply r{.headers = {{"Content-Type", "application/json"}}};
    if (const auto status = header_number(request, "X-Mock-Status"); status && *status >= 100 && *status < 600) {
      const auto error = wire::error_response(static_cast<int>(*status), request.target,
                                              "injected by X-Mock-Status");
      r.status = error.status;
      r.body = error.body;
      if (const auto after = header_number(request, "X-Mock-Retry-After")) {
        r.headers.emplace_back("Retry-After", std::to_string(*after));
      }
    } else {
      auto answer = api_.answer(request.target);
      r.status = answer.status;
      r.body = std::move(answer.body);
    }
    if (const auto delay = header_number(request, "X-Mock-Delay-Ms")) r.head_delay = std::chrono::milliseconds(*delay);
    if (const auto reset = header_number(request, "X-Mock-Reset-After")) r.reset_after = *reset;
    r.gzip = accepts_gzip(request);
    return r;
  });
}

}  // namespace massive::mock
