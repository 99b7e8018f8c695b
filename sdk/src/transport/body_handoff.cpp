#include "body_handoff.hpp"

#include <boost/asio/post.hpp>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace massive::transport {

fixed_input_buffer::fixed_input_buffer(std::span<char> block) noexcept
    : begin_(block.data()),
      in_(block.data()),
      out_(block.data()),
      end_(block.data() + block.size()) {}

fixed_input_buffer::mutable_buffers_type fixed_input_buffer::prepare(std::size_t n) {
  if (n > room()) throw std::length_error("fixed_input_buffer: no room");
  prepared_ = n;
  return {out_, n};
}

void fixed_input_buffer::commit(std::size_t n) noexcept {
  out_ += std::min(n, prepared_);
  prepared_ = 0;
}

void fixed_input_buffer::consume(std::size_t n) noexcept { in_ += std::min(n, size()); }

void fixed_input_buffer::reset() noexcept {
  in_ = out_ = begin_;
  prepared_ = 0;
}

void fixed_input_buffer::append(std::span<const char> bytes) {
  if (bytes.empty()) return;
  std::memcpy(prepare(bytes.size()).data(), bytes.data(), bytes.size());
  commit(bytes.size());
}

body_handoff::body_handoff(const boost::asio::any_io_executor& executor)
    : executor_(executor), memory_(new char[slot_bytes * slot_count]), wake_(executor, 1) {
  for (std::size_t i = 0; i < slot_count; ++i) {
    slots_[i].input = fixed_input_buffer({memory_.get() + i * slot_bytes, slot_bytes});
  }
}

void body_handoff::start(body_consumer& consumer, std::span<const char> first) {
  consumer_ = &consumer;
  failure_ = nullptr;
  failed_.store(false, std::memory_order_relaxed);
  slot& s = filling();
  s.input.reset();
  s.count = 0;
  s.input.append(first);
}

void body_handoff::record(std::span<const char> piece) noexcept {
  slot& s = filling();
  if (s.count != 0) {
    std::span<const char>& last = s.pieces[s.count - 1];
    if (last.data() + last.size() == piece.data()) {  // an identity body's next read, or a chunk's
      last = {last.data(), last.size() + piece.size()};
      return;
    }
  }
  if (s.count == max_pieces) {
    // Small chunks: the pieces so far move down over the chunk framing between them, into one.
    // The parser is past all of them (they precede `piece`), so nothing it reads moves.
    char* out = const_cast<char*>(s.pieces[0].data()) + s.pieces[0].size();
    for (std::size_t i = 1; i < s.count; ++i) {
      std::memmove(out, s.pieces[i].data(), s.pieces[i].size());
      out += s.pieces[i].size();
    }
    s.pieces[0] = {s.pieces[0].data(), static_cast<std::size_t>(out - s.pieces[0].data())};
    s.count = 1;
  }
  s.pieces[s.count++] = piece;
}

bool body_handoff::next_free() const noexcept {
  return produced_.load(std::memory_order_relaxed) - consumed_.load(std::memory_order_acquire) <
         slot_count - 1;
}

bool body_handoff::drained() const noexcept {
  return consumed_.load(std::memory_order_acquire) == produced_.load(std::memory_order_relaxed);
}

std::exception_ptr body_handoff::failure() const noexcept {
  return failed_.load(std::memory_order_acquire) ? failure_ : nullptr;
}

void body_handoff::submit() {
  slot& full = filling();
  const std::uint64_t p = produced_.load(std::memory_order_relaxed);
  slot& next = slots_[(p + 1) % slot_count];
  next.input.reset();
  next.count = 0;
  // What the parser has not consumed yet (part of a chunk's size line): a few bytes, copied.
  next.input.append({static_cast<const char*>(full.input.data().data()), full.input.size()});
  full.input.consume(full.input.size());
  produced_.store(p + 1, std::memory_order_seq_cst);
  schedule();
}

void body_handoff::schedule() {
  int expected = idle;
  if (!worker_.compare_exchange_strong(expected, queued, std::memory_order_seq_cst))
    return;  // running: it looks again
  boost::asio::post(executor_, [self = shared_from_this()] { self->run(); });
}

void body_handoff::run() noexcept {
  int expected = queued;
  // Not queued: stop() withdrew this run, or another took its work.
  if (!worker_.compare_exchange_strong(expected, running, std::memory_order_seq_cst)) return;
  for (;;) {
    std::uint64_t taken = consumed_.load(std::memory_order_relaxed);
    while (taken != produced_.load(std::memory_order_seq_cst)) {
      slot& s = slots_[taken % slot_count];
      for (std::size_t i = 0; i < s.count && !stopping_.load(std::memory_order_relaxed); ++i) {
        try {
          consumer_->consume(s.pieces[i]);
        } catch (...) {
          failure_ = std::current_exception();
          failed_.store(true, std::memory_order_release);
          stopping_.store(true, std::memory_order_relaxed);
        }
      }
      consumed_.store(++taken, std::memory_order_release);
      wake_.try_send(boost::system::error_code{});
    }
    worker_.store(idle, std::memory_order_seq_cst);
    // A slot submitted between the last look and `idle` found the worker running and posted
    // nothing: look once more, and take the work back unless a new run was posted for it.
    if (taken == produced_.load(std::memory_order_seq_cst)) return;
    expected = idle;
    if (!worker_.compare_exchange_strong(expected, running, std::memory_order_seq_cst)) return;
  }
}

void body_handoff::stop() noexcept {
  stopping_.store(true, std::memory_order_seq_cst);
  for (;;) {
    int state = worker_.load(std::memory_order_seq_cst);
    if (state == idle) return;
    if (state == queued) {
      if (worker_.compare_exchange_strong(state, idle, std::memory_order_seq_cst)) return;
      continue;
    }
    // Running on another thread (this one is the receiver's): it leaves after its piece.
    std::this_thread::yield();
  }
}

}  // namespace massive::transport
