// A traversal of a paginated endpoint: follows next_url verbatim, one page at a time.
#pragma once

#include "massive/async.hpp"
#include "massive/decoder.hpp"
#include "massive/decoder_cache.hpp"
#include "massive/error.hpp"
#include "massive/http_client.hpp"
#include "massive/page.hpp"

#include <boost/asio/append.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace massive {

struct traversal_options {
  /// Stop after this many pages even when the server offers more; reached_page_cap() then
  /// says so. A guard against a server whose next_url never ends.
  std::optional<std::size_t> max_pages;
};

/// One traversal. Lazy: nothing is sent before the first next(), and stopping (not calling
/// next() again, or destroying the cursor) sends nothing further. Each page is independent of
/// the cursor: keep it as long as you like; a page you drop returns its memory to the client's
/// pool, so a loop that drops each page before asking for the next holds one page at a time.
///
/// Rules, checked before anything is sent: a next_url of another scheme, host or port than the
/// base URL fails with errc::foreign_next_url (the key never leaves for another host); a
/// next_url equal to the URL of the page that carried it fails with errc::repeated_cursor.
/// An empty page in the middle does not end the traversal; a missing or empty next_url does.
///
/// One caller at a time: a cursor must not be moved or destroyed while a next() is pending.
template <class T>
class cursor {
 public:
  /// Made by client::traverse; the client must outlive its cursors.
  cursor(http_client& http, detail::decoder_cache& decoders,
         const std::shared_ptr<page_pool>& pool, std::string first_target, payload_shape shape,
         traversal_options opts)
      : http_(&http),
        decoders_(&decoders),
        shape_(shape),
        decoder_(decoders.take<T>(pool, shape)),
        target_(std::move(first_target)),
        opts_(opts) {}
  cursor(cursor&&) noexcept = default;
  cursor& operator=(cursor&&) = delete;
  ~cursor() { decoders_->give_back(std::move(decoder_), shape_); }

  /// The next page, or std::nullopt when the traversal is over.
  /// Completion: void(std::exception_ptr, std::optional<page<T>>). After a failure the cursor
  /// stays on the same URL: calling next() again retries that page (a refused next_url fails
  /// again). Cancellation: as http_client::async_get (terminal); the cursor then stays on the
  /// same URL too.
  template <class Token = default_token>
  auto next(Token&& token = {}) {
    return boost::asio::async_initiate<Token, void(std::exception_ptr, std::optional<page<T>>)>(
        [this](auto handler) { this->start_next(std::move(handler)); }, token);
  }

  /// True once the last page was delivered (or the page cap was reached).
  bool done() const noexcept { return done_; }
  /// Pages delivered so far.
  std::size_t pages() const noexcept { return pages_; }
  /// True when max_pages stopped the traversal while the server still offered a next page.
  bool reached_page_cap() const noexcept { return capped_; }

 private:
  template <class Handler>
  void start_next(Handler handler) {
    if (!done_ && opts_.max_pages && pages_ >= *opts_.max_pages) {
      done_ = true;
      capped_ = true;
    }
    if (done_) return complete_later(std::move(handler), nullptr);
    if (pages_ > 0 && target_ == previous_) {
      return complete_later(std::move(handler),
                            std::make_exception_ptr(transport_error(
                                errc::repeated_cursor, "next_url repeats the page it came with")));
    }
    const auto associations = detail::associations_of(handler, http_->get_executor());
    http_->async_get(target_, *decoder_,
                     detail::continuation(associations, [this, handler = std::move(handler)](
                                                            std::exception_ptr failure,
                                                            response_info) mutable {
                       finish_next(std::move(handler), failure);
                     }));
  }

  template <class Handler>
  void finish_next(Handler handler, std::exception_ptr failure) {
    if (failure) {
      decoder_->reset();
      std::move(handler)(failure, std::optional<page<T>>{});
      return;
    }
    page<T> next_page = decoder_->take();
    previous_.swap(target_);
    target_.assign(next_page.next_url());
    ++pages_;
    done_ = target_.empty();
    std::move(handler)(nullptr, std::optional<page<T>>(std::move(next_page)));
  }

  // Asio forbids completing from inside the initiating function, so immediate answers post.
  template <class Handler>
  void complete_later(Handler handler, std::exception_ptr failure) {
    auto executor = boost::asio::get_associated_executor(handler, http_->get_executor());
    boost::asio::post(executor, boost::asio::append(std::move(handler), failure,
                                                    std::optional<page<T>>{}));
  }

  http_client* http_;
  detail::decoder_cache* decoders_;
  payload_shape shape_;
  // Reused page after page, and by later calls once the cursor is gone.
  std::unique_ptr<page_decoder<T>> decoder_;
  std::string target_;                        // the URL the next page comes from
  std::string previous_;                      // the URL the last page came from
  traversal_options opts_;
  std::size_t pages_ = 0;
  bool done_ = false;
  bool capped_ = false;
};

}  // namespace massive
