// Decode beside the receive (client_config::decode_beside_receive): a body's bytes are received
// and decrypted on the call's strand while the bytes before them are inflated and decoded by a
// worker on another thread of the client's executor. The hand-off is bounded (a ring of fixed
// slots per connection, allocated once) and copies no body byte: Beast's parser reads into a
// slot that never moves what it holds, the pieces of body it finds there are recorded in place,
// and the slot goes to the worker whole.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>

#include "forwarding_body.hpp"

namespace massive::transport {

/// A dynamic buffer (Asio's DynamicBuffer v1, what Beast's reads take) over one fixed block that
/// never moves the bytes it holds: after consume(), the bytes stay where they were until
/// reset(), so pieces found in them may be used after the parser has moved on. Its capacity()
/// is the room left, which is what Beast's read_size() asks for, so a read never asks for more;
/// prepare() beyond the room throws std::length_error as a full dynamic buffer does.
class fixed_input_buffer {
 public:
  using const_buffers_type = boost::asio::const_buffer;
  using mutable_buffers_type = boost::asio::mutable_buffer;

  fixed_input_buffer() = default;
  explicit fixed_input_buffer(std::span<char> block) noexcept;

  std::size_t size() const noexcept { return static_cast<std::size_t>(out_ - in_); }
  std::size_t max_size() const noexcept { return static_cast<std::size_t>(end_ - in_); }
  std::size_t capacity() const noexcept { return max_size(); }
  const_buffers_type data() const noexcept { return {in_, size()}; }
  mutable_buffers_type prepare(std::size_t n);
  void commit(std::size_t n) noexcept;
  void consume(std::size_t n) noexcept;

  /// Bytes that can still be read into the block.
  std::size_t room() const noexcept { return static_cast<std::size_t>(end_ - out_); }
  /// Empties the block; every byte it held may be overwritten.
  void reset() noexcept;
  /// Appends `bytes` (another buffer's unparsed rest); throws std::length_error without room.
  void append(std::span<const char> bytes);
  /// The block's first byte: pieces before data() lie in [begin(), data()).
  char* begin() const noexcept { return begin_; }

 private:
  char* begin_ = nullptr;
  char* in_ = nullptr;
  char* out_ = nullptr;
  char* end_ = nullptr;
  std::size_t prepared_ = 0;
};

/// The ring of slots of one connection and the protocol between the receiver (the call's
/// strand) and the worker (a handler posted to the client's executor). The receiver fills the
/// slot at `produced`, submits it and moves on to the next; the worker takes the slots in order
/// and hands each recorded piece to the call's consumer (inflate, limits, the sink). At most
/// one worker runs at a time. Not copyable; shared with the posted worker, so that a worker
/// posted for a call that ended early finds its state alive.
class body_handoff : public std::enable_shared_from_this<body_handoff> {
 public:
  static constexpr std::size_t slot_bytes = 256 * 1024;
  static constexpr std::size_t slot_count = 4;
  /// Pieces recorded per slot before they are compacted into one (small chunks only: the
  /// pieces of an identity body, and of large chunks, are contiguous and extend each other).
  static constexpr std::size_t max_pieces = 64;
  /// A slot is submitted when less than this is left in it: Beast reads at most 64 KiB at once.
  static constexpr std::size_t min_room = 64 * 1024;

  explicit body_handoff(const boost::asio::any_io_executor& executor);
  body_handoff(const body_handoff&) = delete;
  body_handoff& operator=(const body_handoff&) = delete;

  /// Receiver: begins a body whose pieces go to `consumer` on the worker. `first` is what the
  /// connection's input held after the response head (copied into the first slot).
  void start(body_consumer& consumer, std::span<const char> first);
  /// Receiver: the slot being filled, which the parser reads into.
  fixed_input_buffer& input() noexcept { return filling().input; }
  /// Receiver: records a body piece found in input() (in order, called by the parser).
  void record(std::span<const char> piece) noexcept;
  /// Receiver: whether the slot being filled is worth submitting (it has pieces).
  bool has_pieces() const noexcept { return filling().count != 0; }
  /// Receiver: whether the slot being filled can take another full read.
  bool needs_submit() const noexcept { return filling().input.room() < min_room; }
  /// Receiver: whether a slot is free to fill after the one being filled.
  bool next_free() const noexcept;
  /// Receiver: hands the slot being filled to the worker and starts filling the next (which
  /// must be free: next_free()), carrying over what the parser has not consumed yet.
  void submit();
  /// Receiver: every submitted slot was taken by the worker.
  bool drained() const noexcept;
  /// Receiver: the worker's failure (its consumer threw); non-null once it stopped.
  std::exception_ptr failure() const noexcept;
  /// Receiver: stops the worker after the piece it is in, and waits for it to leave (a
  /// bounded wait: one piece's decode). Afterwards nothing touches the consumer.
  void stop() noexcept;
  /// Receiver: signalled (one value, coalesced) whenever the worker has taken a slot or stopped.
  using wake_channel =
      boost::asio::experimental::concurrent_channel<void(boost::system::error_code)>;
  wake_channel& wake() noexcept { return wake_; }

 private:
  struct slot {
    fixed_input_buffer input;
    std::array<std::span<const char>, max_pieces> pieces{};
    std::size_t count = 0;
  };
  enum worker_state : int { idle, queued, running };

  slot& filling() noexcept {
    return slots_[produced_.load(std::memory_order_relaxed) % slot_count];
  }
  const slot& filling() const noexcept {
    return slots_[produced_.load(std::memory_order_relaxed) % slot_count];
  }
  void schedule();
  void run() noexcept;

  boost::asio::any_io_executor executor_;
  std::unique_ptr<char[]> memory_;
  std::array<slot, slot_count> slots_;
  body_consumer* consumer_ = nullptr;
  std::atomic<std::uint64_t> produced_{0};  // slots submitted (the receiver's)
  std::atomic<std::uint64_t> consumed_{0};  // slots taken (the worker's)
  std::atomic<int> worker_{idle};
  std::atomic<bool> stopping_{false};
  std::exception_ptr failure_;  // written by the worker before consumed_ moves past it
  std::atomic<bool> failed_{false};
  wake_channel wake_;
};

}  // namespace massive::transport
