#include "inflater.hpp"

#include <zlib.h>

#include <new>
#include <vector>

namespace massive::transport {

struct inflater::state {
  z_stream z{};
  std::vector<char> out;
};

inflater::inflater(std::size_t output_buffer_size) : state_(std::make_unique<state>()) {
  state_->out.resize(output_buffer_size);
  // 15 + 16: the largest window, gzip wrapper only (a zlib or raw stream is corrupt here).
  if (inflateInit2(&state_->z, 15 + 16) != Z_OK) throw std::bad_alloc();
}

inflater::~inflater() { inflateEnd(&state_->z); }

void inflater::reset() noexcept {
  inflateReset(&state_->z);
  at_member_end_ = false;
  output_full_ = false;
}

void inflater::begin(std::span<const char> in) noexcept {
  state_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  state_->z.avail_in = static_cast<uInt>(in.size());
}

inflater::status inflater::next(std::span<const char>& piece) noexcept {
  z_stream& z = state_->z;
  piece = {};
  // zlib may hold output back when the last call filled the buffer: ask again until it
  // gives nothing and the input is used up.
  while (z.avail_in > 0 || output_full_) {
    if (at_member_end_) {
      if (z.avail_in == 0) {
        output_full_ = false;
        break;
      }
      // Another member follows; anything but the gzip magic number is garbage.
      if (static_cast<unsigned char>(z.next_in[0]) != 0x1f) return status::trailing_garbage;
      inflateReset(&z);
      at_member_end_ = false;
    }
    const uInt in_before = z.avail_in;
    z.next_out = reinterpret_cast<Bytef*>(state_->out.data());
    z.avail_out = static_cast<uInt>(state_->out.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) return status::corrupt;
    const std::size_t produced = state_->out.size() - z.avail_out;
    output_full_ = z.avail_out == 0;
    if (rc == Z_STREAM_END) at_member_end_ = true;
    if (produced > 0) {
      piece = std::span<const char>(state_->out.data(), produced);
      return status::ok;
    }
    if (z.avail_in == in_before && rc != Z_STREAM_END) {
      // No progress with input left: zlib wants nothing more (or is stuck); stop asking.
      output_full_ = false;
      if (z.avail_in > 0) return status::corrupt;
    }
  }
  return status::ok;
}

}  // namespace massive::transport
