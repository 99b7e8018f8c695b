#include "massive/stream/error.hpp"

#include "massive/detail/enum_names.hpp"

namespace massive::stream {
namespace {

constexpr massive::detail::enum_names stream_errc_names{
    stream_errc::auth_failed, stream_errc::protocol_violation,
    {"auth_failed", "no_stream_access", "auth_timeout", "frame_too_large", "max_connections",
     "force_disconnect", "slow_consumer", "connection_lost", "reconnects_exhausted",
     "protocol_violation"}};

}  // namespace

const char* to_string(stream_errc code) noexcept { return stream_errc_names[code]; }

}  // namespace massive::stream
