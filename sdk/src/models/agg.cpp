// agg's row decoder, in the form every model decoder takes (the generator emits this form):
// one pass over the fields in wire order; a switch on the raw key's length, then its bytes;
// every double through the single read_double() call after the switch; required fields
// tracked in a bit set, in declaration order, named by required_names on failure.
#include "massive/models/agg.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;

constexpr std::string_view required_names[] = {"o", "h", "l", "c", "v", "t"};
enum : std::uint64_t { req_o = 1 << 0, req_h = 1 << 1, req_l = 1 << 2, req_c = 1 << 3, req_v = 1 << 4, req_t = 1 << 5 };
constexpr std::uint64_t required = (1 << 6) - 1;

void decode_agg(detail::row_context& ctx, od::object& object, agg& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const std::string_view key = detail::raw_key(field);
    od::value& value = field.value();
    double* number = nullptr;
    std::uint64_t number_bit = 0;
    std::optional<double>* optional_number = nullptr;
    switch (key.size()) {
      case 1:
        switch (key[0]) {
          case 'o': number = &row.open; number_bit = req_o; break;
          case 'h': number = &row.high; number_bit = req_h; break;
          case 'l': number = &row.low; number_bit = req_l; break;
          case 'c': number = &row.close; number_bit = req_c; break;
          case 'v': number = &row.volume; number_bit = req_v; break;
          case 't': if (ctx.read_time(value, key, row.timestamp)) seen |= req_t; break;
          case 'n': ctx.read_optional(value, key, row.transactions); break;
          default: break;
        }
        break;
      case 2:
        if (key == "vw") {
          optional_number = &row.vwap;
          number = &row.vwap.emplace();
        }
        break;
      case 3:
        if (key == "otc") ctx.read_bool(value, key, row.otc);
        break;
      default: break;
    }
    if (number != nullptr) {
      if (ctx.read_double(value, key, *number)) {
        seen |= number_bit;
      } else if (optional_number != nullptr) {
        optional_number->reset();
      }
    }
  }
  if (seen != required) ctx.missing(seen, required, required_names);
}

}  // namespace

const detail::row_codec& row_codec_for(std::type_identity<agg>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<agg, decode_agg>();
  return codec;
}

}  // namespace massive
