// Completion-token defaults shared by every endpoint.
#pragma once

#include <boost/asio/use_awaitable.hpp>

namespace massive {

/// The token an endpoint uses when none is given: `co_await client.stocks().aggregates(...)`
/// inside a boost::asio::awaitable coroutine. Any other Asio completion token may be passed
/// (a callback, use_future, deferred, ...). Boost 1.81 cannot co_await a `deferred`
/// operation whose signature starts with std::exception_ptr, so deferred is not the default.
using default_token = boost::asio::use_awaitable_t<>;

}  // namespace massive
