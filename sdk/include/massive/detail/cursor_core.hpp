// What a cursor<T> does that does not depend on T, compiled once in massive::core: it drives the
// traversal's machine (cursor_fsm: the rules' verdicts, prefetching, the page hand-off) and does
// what the machine asks (requests, their cancellation, the decoder's custody, completions).
// cursor<T> only types the pages the core hands over, as page_decoder<T> types what
// decoder_core decodes.
#pragma once

#include "massive/detail/decoder_cache.hpp"
#include "massive/detail/cursor_fsm.hpp"
#include "massive/detail/http_client.hpp"
#include "massive/page.hpp"
#include "massive/response_info.hpp"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace massive::detail {

/// A page as the core hands it over: what the decoder took and the response it came in.
struct untyped_page {
  page_parts parts;
  response_info response;
};

/// The completion of a next() handed to the core: a failure, or the page (none: the traversal
/// is over).
using page_handler = boost::asio::any_completion_handler<void(std::exception_ptr, std::optional<untyped_page>)>;

/// Who wrote the traversal's target(): the caller for the first page, the server (a next_url)
/// for every page after it.
inline target_kind kind_of_target(const traversal& rules) noexcept {
  return rules.pages() > 0 ? target_kind::next_url : target_kind::api_path;
}

/// One traversal without its row type. Its threading and lifetime rules are cursor<T>'s.
class cursor_core {
 public:
  /// Decodes into `decoder` (given back to `decoders` at the end); prefetches when `prefetch`.
  cursor_core(http_client& http, decoder_cache& decoders, payload_shape shape, untyped_decoder decoder,
              std::string first_target, std::optional<std::size_t> max_pages, bool prefetch,
              std::shared_ptr<const call_options> call, std::optional<std::size_t> max_empty_pages = {});
  /// Takes over the traversal; `other` is left finished.
  cursor_core(cursor_core&& other) noexcept;
  cursor_core& operator=(cursor_core&&) = delete;
  /// Gives the decoder back, or, with a request in flight, cancels it (its completion frees
  /// the decoder).
  ~cursor_core();

  /// Whether next() goes through next_prefetching() rather than the calls below.
  bool prefetching() const noexcept { return ahead_ != nullptr; }
  /// The client's executor: where a completion without one of its own runs.
  boost::asio::any_io_executor executor() const { return http_->get_executor(); }

  /// Without prefetch, a next() starts here: the answer due without a request (a null
  /// exception_ptr: the traversal is over; else the refusal of a repeated next_url, a cycle or
  /// too many empty pages), or
  /// nullopt: fetch().
  std::optional<std::exception_ptr> answer_without_fetch();
  /// Requests the current page into the decoder; `handler` then calls take_fetched().
  template <class Handler>
  void fetch(Handler&& handler) {
    http_->initiate_get(kind_of_target(fsm_->rules()), fsm_->rules().target(), *decoder_.owner, call_.get(),
                        std::forward<Handler>(handler));
  }
  /// The fetched page, the traversal moved past it; nullopt after a failure (the cursor stays
  /// on the same URL).
  std::optional<untyped_page> take_fetched(std::exception_ptr failure, response_info response);

  /// With prefetch, a whole next(): `handler` runs on `executor`, with the page ahead or
  /// once it arrives (then `slot`, when connected, cancels its request).
  void next_prefetching(page_handler handler, const boost::asio::any_io_executor& executor,
                        boost::asio::cancellation_slot slot);
  /// As cursor<T>::cancel().
  void cancel();
  /// As cursor<T>::prefetched().
  bool prefetched() const;

  /// The traversal's position: pages delivered, done, page cap reached.
  const traversal& rules() const noexcept;

 private:
  struct prefetch_state;
  struct asked_next;
  struct deferred;

  cursor_action drive(cursor_event event, response_info* response, std::optional<untyped_page>& page);
  static void drive_ahead(const std::shared_ptr<prefetch_state>& state, cursor_event event,
                          std::optional<asked_next>& asked, deferred& after);
  static void carry_out(const std::shared_ptr<prefetch_state>& state, deferred& after);
  static void on_fetched(const std::shared_ptr<prefetch_state>& state, std::exception_ptr failure,
                         response_info response);
  static void cancel_in_flight(const std::shared_ptr<prefetch_state>& state);

  http_client* http_;
  decoder_cache* decoders_;
  std::shared_ptr<const call_options> call_;  // every page's; null: the client's options
  payload_shape shape_;
  // Without prefetch, the machine and the decoder (reused page after page, and by later calls
  // once the cursor is gone) are the cursor's own. With it, they live in ahead_, which the
  // request in flight shares and which may outlive the cursor.
  untyped_decoder decoder_;
  std::optional<cursor_fsm> fsm_;
  std::shared_ptr<prefetch_state> ahead_;
};

}  // namespace massive::detail
