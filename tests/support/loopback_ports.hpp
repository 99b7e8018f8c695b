// Ports on 127.0.0.1 for the services a test starts as processes of their own (tinyproxy,
// nats-server), which cannot report the port they were given.
#pragma once

#include <cstdint>

namespace massive::test {

/// A port that was free a moment ago.
std::uint16_t free_port();

/// Whether something accepts TCP connections on the port now.
bool accepts_connections(std::uint16_t port);

}  // namespace massive::test
