// Incremental gzip inflation. Sans-I/O: bytes in, bytes out. Two engines behind one
// interface: Intel's ISA-L (isal_inflate, Debian's libisal-dev), the fastest the platform
// has where it is built in, and zlib, the portable fallback every build has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace massive::transport {

/// client_config::max_inflate_ratio is applied once a body has inflated past this many bytes.
inline constexpr std::uint64_t inflate_ratio_floor = 1 << 20;

/// Inflates a gzip stream given in arbitrary pieces, handing out inflated pieces of at most
/// the output buffer's size. Concatenated gzip members are accepted; each member's CRC-32 and
/// length are checked by either engine.
class inflater {
 public:
  enum class status { ok, corrupt, trailing_garbage };
  enum class engine { isal, zlib };

  /// The engine a default inflater uses: ISA-L when the build has it, else zlib.
  static engine fastest() noexcept;
  /// Whether this build can use `e` (zlib always).
  static bool available(engine e) noexcept;
  static std::string_view name(engine e) noexcept;

  /// An engine that is not available() falls back to zlib.
  explicit inflater(std::size_t output_buffer_size = 32 * 1024, engine e = fastest());
  ~inflater();
  inflater(const inflater&) = delete;
  inflater& operator=(const inflater&) = delete;

  /// Feeds compressed bytes; out(std::span<const char>) receives each inflated piece.
  template <class Out>
  status feed(std::span<const char> in, Out&& out) {
    begin(in);
    for (;;) {
      std::span<const char> piece;
      const status s = next(piece);
      if (s != status::ok) return s;
      if (piece.empty()) return status::ok;
      out(piece);
    }
  }

  /// Sets the input for next().
  void begin(std::span<const char> in) noexcept;
  /// The next inflated piece; empty once the input is used up and nothing is held back.
  status next(std::span<const char>& piece) noexcept;
  /// True when the input so far ends exactly at the end of a gzip member.
  bool complete() const noexcept { return at_member_end_; }
  /// Starts over for a new stream (keeps the buffers).
  void reset() noexcept;
  engine which() const noexcept;

 private:
  struct state;
  std::unique_ptr<state> state_;
  bool at_member_end_ = false;
  bool output_full_ = false;
};

}  // namespace massive::transport
