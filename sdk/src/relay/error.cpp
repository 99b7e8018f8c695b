#include "massive/relay/error.hpp"

#include "massive/detail/enum_names.hpp"

namespace massive::relay {
namespace {

constexpr massive::detail::enum_names relay_errc_names{
    relay_errc::invalid_ticker, relay_errc::closed,
    {"invalid_ticker", "invalid_option", "nats_failed", "lease_lost", "upstream_failed", "closed"}};

}  // namespace

const char* to_string(relay_errc code) noexcept { return relay_errc_names[code]; }

}  // namespace massive::relay
