#include "massive/proxy_error.hpp"

namespace massive {
namespace {

class proxy_error_category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "massive.proxy"; }
  std::string message(int value) const override {
    switch (static_cast<proxy_errc>(value)) {
      case proxy_errc::auth_required: return "the proxy requires authentication";
      case proxy_errc::auth_failed: return "the proxy rejected the credentials";
      case proxy_errc::refused: return "the proxy refused the tunnel";
      case proxy_errc::failed: return "the proxy failed before the tunnel was established";
    }
    return "unknown proxy error";
  }
};

}  // namespace

const boost::system::error_category& proxy_category() noexcept {
  static const proxy_error_category instance;
  return instance;
}

proxy_error::proxy_error(proxy_errc code, int status, std::string proxy, const std::string& what)
    : transport_error(code, what), status_(status), proxy_(std::move(proxy)) {}

}  // namespace massive
