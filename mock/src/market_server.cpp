#include "massive/mock/market_server.hpp"

#include <utility>

namespace massive::mock {
namespace {

market_options pointing_at(market_options options, const server& s) {
  options.base_url = s.base_url();
  return options;
}

}  // namespace

market_server::market_server(market_options market, server_options options)
    : server_(std::move(options)), market_(pointing_at(std::move(market), server_)) {
  server_.respond_with([this](const recorded_request& request) {
    auto answer = market_.answer(request.target);
    return reply{.status = answer.status,
                 .headers = {{"Content-Type", "application/json"}},
                 .body = std::move(answer.body)};
  });
}

market_server::~market_server() { server_.stop(); }

}  // namespace massive::mock
