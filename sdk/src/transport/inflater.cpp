#include "inflater.hpp"

#include <zlib.h>
#if MASSIVE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <new>
#include <vector>

namespace massive::transport {

// Both engines run the same loop (next() below) over the same four facts of a step: input
// taken, output made, member ended, stream corrupt. Only step() and the restarts differ.
struct inflater::state {
  engine kind = engine::zlib;
  std::vector<char> out;
  z_stream z{};
#if MASSIVE_HAVE_ISAL
  // About 90 KiB (its history and Huffman tables): allocated once per inflater, that is once
  // per pooled connection.
  std::unique_ptr<inflate_state> isal;
#endif

  const char* next_in() const noexcept {
#if MASSIVE_HAVE_ISAL
    if (isal) return reinterpret_cast<const char*>(isal->next_in);
#endif
    return reinterpret_cast<const char*>(z.next_in);
  }
  std::size_t avail_in() const noexcept {
#if MASSIVE_HAVE_ISAL
    if (isal) return isal->avail_in;
#endif
    return z.avail_in;
  }
  void set_input(std::span<const char> in) noexcept {
    auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(in.data()));
#if MASSIVE_HAVE_ISAL
    if (isal) {
      isal->next_in = p;
      isal->avail_in = static_cast<std::uint32_t>(in.size());
      return;
    }
#endif
    z.next_in = p;
    z.avail_in = static_cast<uInt>(in.size());
  }
  // Forgets the member just ended (or everything, for a new stream), keeping the input.
  void restart() noexcept {
#if MASSIVE_HAVE_ISAL
    if (isal) {
      auto* in = isal->next_in;
      const auto avail = isal->avail_in;
      isal_inflate_reset(isal.get());
      isal->crc_flag = ISAL_GZIP;  // parse the gzip header, check the CRC-32 and length
      isal->next_in = in;
      isal->avail_in = avail;
      return;
    }
#endif
    inflateReset(&z);
  }

  struct step_result {
    std::size_t produced;
    bool member_end;
    bool corrupt;
  };
  step_result step() noexcept {
#if MASSIVE_HAVE_ISAL
    if (isal) {
      isal->next_out = reinterpret_cast<std::uint8_t*>(out.data());
      isal->avail_out = static_cast<std::uint32_t>(out.size());
      const int rc = isal_inflate(isal.get());
      const std::size_t produced = out.size() - isal->avail_out;
      // At a member's end ISA-L has consumed its trailer exactly: what follows is still input.
      return {produced, isal->block_state == ISAL_BLOCK_FINISH, rc < 0};
    }
#endif
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    return {out.size() - z.avail_out, rc == Z_STREAM_END, rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR};
  }
};

bool inflater::available(engine e) noexcept {
#if MASSIVE_HAVE_ISAL
  (void)e;
  return true;
#else
  return e == engine::zlib;
#endif
}

inflater::engine inflater::fastest() noexcept { return available(engine::isal) ? engine::isal : engine::zlib; }

std::string_view inflater::name(engine e) noexcept { return e == engine::isal ? "isa-l" : "zlib"; }

inflater::inflater(std::size_t output_buffer_size, engine e) : state_(std::make_unique<state>()) {
  state_->out.resize(output_buffer_size);
#if MASSIVE_HAVE_ISAL
  if (e == engine::isal) {
    state_->kind = engine::isal;
    state_->isal = std::make_unique<inflate_state>();
    isal_inflate_init(state_->isal.get());
    state_->isal->crc_flag = ISAL_GZIP;
    return;
  }
#endif
  (void)e;
  // 15 + 16: the largest window, gzip wrapper only (a zlib or raw stream is corrupt here).
  if (inflateInit2(&state_->z, 15 + 16) != Z_OK) throw std::bad_alloc();
}

inflater::~inflater() {
  if (state_->kind == engine::zlib) inflateEnd(&state_->z);
}

inflater::engine inflater::which() const noexcept { return state_->kind; }

void inflater::reset() noexcept {
  state_->set_input({});
  state_->restart();
  at_member_end_ = false;
  output_full_ = false;
}

void inflater::begin(std::span<const char> in) noexcept { state_->set_input(in); }

inflater::status inflater::next(std::span<const char>& piece) noexcept {
  state& s = *state_;
  piece = {};
  bool restarted = false;
  // An engine may hold output back when the last step filled the buffer: ask again until it
  // gives nothing and the input is used up.
  while (s.avail_in() > 0 || output_full_) {
    if (at_member_end_) {
      if (s.avail_in() == 0) {
        output_full_ = false;
        break;
      }
      // Another member follows; anything but the gzip magic number is garbage.
      if (static_cast<unsigned char>(s.next_in()[0]) != 0x1f) return status::trailing_garbage;
      s.restart();
      at_member_end_ = false;
      restarted = true;
    }
    const std::size_t in_before = s.avail_in();
    const auto r = s.step();
    if (r.corrupt) return status::corrupt;
    // A new member that takes no byte and ends at once would have this loop spin forever.
    if (restarted && r.member_end && r.produced == 0 && s.avail_in() == in_before) return status::corrupt;
    restarted = false;
    output_full_ = r.produced == s.out.size();
    if (r.member_end) at_member_end_ = true;
    if (r.produced > 0) {
      piece = std::span<const char>(s.out.data(), r.produced);
      return status::ok;
    }
    if (s.avail_in() == in_before && !r.member_end) {
      // No progress with input left: the engine wants nothing more (or is stuck); stop asking.
      output_full_ = false;
      if (s.avail_in() > 0) return status::corrupt;
    }
  }
  return status::ok;
}

}  // namespace massive::transport
