// The call's driver: one coroutine per call that performs what call_fsm decides.
#pragma once

#include "call_state.hpp"

namespace massive::transport {

/// Starts one GET on `state`'s pool (detail::start_get's contract, massive/detail/http_client.hpp).
void start_call(const std::shared_ptr<client_state>& state, std::string_view target, detail::target_kind kind,
                detail::body_sink& sink, const call_options* call, detail::get_handler handler,
                boost::asio::any_io_executor work);

}  // namespace massive::transport
