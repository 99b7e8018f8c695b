#include "massive/proxy_error.hpp"

#include "vocabulary/errc_category.hpp"

namespace massive {
namespace {

const char* message_of(proxy_errc code) noexcept {
  switch (code) {
    case proxy_errc::auth_required: return "the proxy requires authentication";
    case proxy_errc::auth_failed: return "the proxy rejected the credentials";
    case proxy_errc::refused: return "the proxy refused the tunnel";
    case proxy_errc::failed: return "the proxy failed before the tunnel was established";
  }
  return "unknown proxy error";
}

}  // namespace

const boost::system::error_category& proxy_category() noexcept {
  static const detail::errc_category<proxy_errc> instance("massive.proxy", message_of);
  return instance;
}

proxy_error::proxy_error(proxy_errc code, int status, std::string proxy, const std::string& what)
    : transport_error(code, what), status_(status), proxy_(std::move(proxy)) {}

}  // namespace massive
