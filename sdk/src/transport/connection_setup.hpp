// Connection set-up: resolve, TCP connect, the CONNECT tunnel through a proxy, the TLS
// handshake; bounded by the client's connect timeout within the call's deadline.
#pragma once

#include "call_state.hpp"

#include <memory>

namespace massive::transport {

// A new connection ready for requests. Arms `ctl`'s timer for the connect timeout (when it
// falls before `deadline`) and back to `deadline` once connected.
call_awaitable<std::unique_ptr<connection>> open_connection(client_state& st, call_control& ctl,
                                                             clock_type::time_point deadline);

}  // namespace massive::transport
