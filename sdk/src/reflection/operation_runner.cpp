// operation_entry::run, compiled once for every row type: a call or a traversal through the
// untyped pieces that client::fetch<T> and cursor<T> are typed facades over (the decoder's
// engine, cursor_core). A row type costs one decoder factory and its row functions, not one
// instantiation of the transport's and the cursor's asynchronous machinery per operation.
#include "massive/reflection/operation_table.hpp"

#include "massive/detail/cursor_core.hpp"
#include "massive/error.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <exception>
#include <optional>
#include <string>
#include <tuple>

namespace massive::reflection::detail {

// The runner is written over the REST engine's untyped pieces.
using namespace massive::detail;

struct client_access {
  static decoder_cache& decoders(client& c) noexcept { return *c.decoders_; }
  static const std::shared_ptr<const call_options>& call(const client& c) noexcept { return c.call_; }
};

namespace {

namespace asio = boost::asio;

// Completions arrive as a tuple rather than thrown: the decoder is given back or reset first.
constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
using as_tuple_awaitable_t = decltype(as_tuple_awaitable);

void hand_over(const row_handling& rows, const page_parts& parts, const row_page_handler& on_page) {
  on_page(row_page(parts.rows, parts.size, parts.envelope, rows.functions));
}

// As client::fetch<T>: one page, the decoder back to the cache before the page is handed over.
asio::awaitable<void> fetch_one(client& c, const row_handling& rows, std::string target, payload_shape shape,
                                const row_page_handler& on_page) {
  decoder_cache& decoders = client_access::decoders(c);
  untyped_decoder decoder = rows.take_decoder(decoders, c.pool(), shape);
  const call_options* call = client_access::call(c).get();
  auto [failure, response] = co_await asio::async_initiate<as_tuple_awaitable_t, void(std::exception_ptr, response_info)>(
      [&](auto handler) { c.transport().initiate_get(target, *decoder.owner, call, std::move(handler)); },
      as_tuple_awaitable);
  std::optional<page_parts> parts;
  if (!failure) parts.emplace(decoder.engine->take());
  decoders.give_back(std::move(decoder), shape);
  if (failure) std::rethrow_exception(failure);
  hand_over(rows, *parts, on_page);
}

// As a loop over cursor<T>::next().
asio::awaitable<void> traverse(client& c, const row_handling& rows, std::string target, payload_shape shape,
                               const run_options& options, const row_page_handler& on_page) {
  const traversal_options& opts = options.traversal;
  decoder_cache& decoders = client_access::decoders(c);
  cursor_core core(c.transport(), decoders, shape, rows.take_decoder(decoders, c.pool(), shape), std::move(target),
                   opts.max_pages, opts.prefetch, client_access::call(c), opts.max_empty_pages);
  const auto refuse_at_cap = [&] {
    if (options.page_cap_is_error && core.rules().reached_page_cap()) {
      throw transport_error(errc::page_limit_reached, "stopped after " + std::to_string(core.rules().pages()) +
                                                          " pages (the page cap) while the server offered more");
    }
  };
  for (;;) {
    std::optional<untyped_page> page;
    if (core.prefetching()) {
      auto [failure, ahead] =
          co_await asio::async_initiate<as_tuple_awaitable_t, void(std::exception_ptr, std::optional<untyped_page>)>(
              [&core](auto handler) {
                const asio::any_io_executor executor = asio::get_associated_executor(handler, core.executor());
                const asio::cancellation_slot slot = asio::get_associated_cancellation_slot(handler);
                // Handed over without its slot, which the type-erased handler's own forwarding
                // would otherwise take from the core (as cursor<T>::start_next_prefetching).
                core.next_prefetching(page_handler([handler = std::move(handler)](
                                                       std::exception_ptr e, std::optional<untyped_page> p) mutable {
                                        std::move(handler)(e, std::move(p));
                                      }),
                                      executor, slot);
              },
              as_tuple_awaitable);
      if (failure) std::rethrow_exception(failure);
      page = std::move(ahead);
    } else {
      if (std::optional<std::exception_ptr> answer = core.answer_without_fetch()) {
        if (*answer) std::rethrow_exception(*answer);
        refuse_at_cap();
        co_return;
      }
      auto [failure, response] = co_await asio::async_initiate<as_tuple_awaitable_t, void(std::exception_ptr, response_info)>(
          [&core](auto handler) { core.fetch(std::move(handler)); }, as_tuple_awaitable);
      page = core.take_fetched(failure, std::move(response));
      if (failure) std::rethrow_exception(failure);
    }
    if (!page) {
      refuse_at_cap();
      co_return;
    }
    hand_over(rows, page->parts, on_page);
  }
}

}  // namespace

asio::awaitable<void> run_rows(client& c, const row_handling& rows, std::string target, payload_shape shape,
                               bool paginated, run_options options, row_page_handler on_page) {
  if (paginated && options.all_pages) {
    co_await traverse(c, rows, std::move(target), shape, options, on_page);
  } else {
    co_await fetch_one(c, rows, std::move(target), shape, on_page);
  }
}

}  // namespace massive::reflection::detail
