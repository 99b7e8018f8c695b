// Completion-token defaults and the glue every composed operation of the client uses.
#pragma once

#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/recycling_allocator.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <utility>

namespace massive::detail {

/// Where the completion of an inner operation started on behalf of `outer` must go: outer's
/// executor (else `fallback`) and cancellation slot. Taken before `outer` is moved into the
/// completion.
template <class Handler, class Executor>
auto associations_of(const Handler& outer, const Executor& fallback) {
  return std::pair(boost::asio::get_associated_cancellation_slot(outer),
                   boost::asio::get_associated_executor(outer, fallback));
}

/// The completion `f` of an inner operation, bound to those associations. Its type-erased
/// state comes from Asio's per-thread recycling allocator, so a warm call makes no operator
/// new call for it.
template <class Slot, class Executor, class F>
auto continuation(const std::pair<Slot, Executor>& associations, F&& f) {
  namespace asio = boost::asio;
  return asio::bind_allocator(
      asio::recycling_allocator<void>(),
      asio::bind_cancellation_slot(
          associations.first, asio::bind_executor(associations.second, std::forward<F>(f))));
}

}  // namespace massive::detail
