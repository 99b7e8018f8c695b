// A Beast Body that hands each piece of a response body to a consumer where the parser finds
// it, in the connection's input buffer: no body buffer between the parser and the decoder, so
// a body's bytes are copied once fewer (Beast's buffer_body copied them into one first).
#pragma once

#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/optional/optional.hpp>
#include <boost/system/error_code.hpp>
#include <boost/system/errc.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>

namespace massive::transport {

/// Takes the pieces of one body, in order; may throw (a decode error, a body too large).
class body_consumer {
 public:
  virtual void consume(std::span<const char> piece) = 0;

 protected:
  ~body_consumer() = default;
};

/// body_consumer calling `f(piece)`.
template <class F>
class consumer_of final : public body_consumer {
 public:
  explicit consumer_of(F f) : f_(std::move(f)) {}
  void consume(std::span<const char> piece) override { f_(piece); }

 private:
  F f_;
};

struct forwarding_body {
  struct value_type {
    body_consumer* consumer = nullptr;  ///< set after the head is read, before the body
    /// What the consumer threw. The parser's read then fails (Beast's reads must not throw
    /// through it); the caller rethrows this instead of reporting the read's error.
    std::exception_ptr failure;
  };

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(boost::beast::http::header<isRequest, Fields>&, value_type& body) : body_(body) {}

    void init(const boost::optional<std::uint64_t>&, boost::system::error_code& ec) { ec = {}; }

    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, boost::system::error_code& ec) {
      std::size_t taken = 0;
      for (const auto& b : boost::beast::buffers_range_ref(buffers)) {
        try {
          body_.consumer->consume({static_cast<const char*>(b.data()), b.size()});
        } catch (...) {
          body_.failure = std::current_exception();
          ec = make_error_code(boost::system::errc::operation_canceled);
          return taken;
        }
        taken += b.size();
      }
      ec = {};
      return taken;
    }

    void finish(boost::system::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

}  // namespace massive::transport
