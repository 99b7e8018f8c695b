// The proxy's refusals (client_config::proxy): a transport_error of its own type and error
// category, apart from the API's answers (api_error) and from failures reaching the API.
#pragma once

#include "massive/error.hpp"

#include <boost/system/error_code.hpp>

#include <string>
#include <type_traits>

namespace massive {

/// Why the proxy did not open the tunnel to the API.
enum class proxy_errc {
  auth_required = 1,  ///< it answered CONNECT 407 and no credentials were given
  auth_failed,        ///< it answered CONNECT 407 (tinyproxy: 401) to the credentials given
  refused,            ///< it answered CONNECT with another non-2xx status (403, 502, ...)
  failed,             ///< it closed, stalled or answered malformed before the tunnel was up
};

/// The category of massive::proxy_errc; its name is "massive.proxy".
const boost::system::error_category& proxy_category() noexcept;

/// Makes `e` an error_code in the massive.proxy category (found by argument-dependent lookup).
inline boost::system::error_code make_error_code(proxy_errc e) noexcept {
  return {static_cast<int>(e), proxy_category()};
}

/// The proxy did not open the tunnel to the API: nothing reached the API. code() is a
/// proxy_errc. The message names the proxy by host and port, never by its credentials.
class proxy_error : public transport_error {
 public:
  /// `status` is the proxy's answer to CONNECT, 0 when it gave none; `proxy` is "host:port".
  proxy_error(proxy_errc code, int status, std::string proxy, const std::string& what);
  /// The proxy's status (407, 403, 502, ...); 0 when it closed, stalled or answered malformed.
  int status() const noexcept { return status_; }
  /// The proxy as "host:port".
  const std::string& proxy() const noexcept { return proxy_; }

 private:
  int status_;
  std::string proxy_;
};

}  // namespace massive

/// @cond
template <>
struct boost::system::is_error_code_enum<massive::proxy_errc> : std::true_type {};
/// @endcond
