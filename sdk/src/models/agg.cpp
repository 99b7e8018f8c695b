// agg's row decoder, in the form every model decoder takes (the generator emits this form):
// one pass over the fields in wire order; a switch on the raw key's first byte, then
// key_is() for each name starting with it; every double through the single read_double()
// call after the switch and every integer through the single read_int64() call (each read
// inlined per key bloats the loop: g++ 12 ran it at half speed); other types read in place;
// required fields tracked in a bit set, in declaration order, named by required_names on
// failure; unknown keys fall through and are skipped.
#include "massive/models/agg.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;
using detail::key_is;

constexpr std::string_view required_names[] = {"o", "h", "l", "c", "v", "t"};
enum : std::uint64_t { req_o = 1 << 0, req_h = 1 << 1, req_l = 1 << 2, req_c = 1 << 3, req_v = 1 << 4, req_t = 1 << 5 };
constexpr std::uint64_t required = (1 << 6) - 1;

// The integer fields, read at the one get_int64 call site after the switch and stored by
// store_integer().
enum class integer_field : std::uint8_t { none, n, t };
constexpr std::string_view integer_names[] = {"", "n", "t"};

[[gnu::always_inline]] inline void store_integer(agg& row, integer_field field, std::int64_t v, std::uint64_t& seen) {
  switch (field) {
    case integer_field::none: break;
    case integer_field::n: row.transactions = v; break;
    case integer_field::t: row.timestamp = timestamp_ms::from_count(v), seen |= req_t; break;
  }
}

// Inlined into the batch loop: as a call, the object's iterator would live in memory.
[[gnu::always_inline]] inline void decode_agg(detail::row_context& ctx, od::object& object, agg& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    double* number = nullptr;  // the double field this key names
    std::string_view number_key;
    std::uint64_t number_bit = 0;
    std::optional<double>* optional_number = nullptr;
    integer_field integer = integer_field::none;  // the integer field this key names
    switch (key[0]) {
      case 'c':
        if (key_is(key, "c")) number = &row.close, number_key = "c", number_bit = req_c;
        break;
      case 'h':
        if (key_is(key, "h")) number = &row.high, number_key = "h", number_bit = req_h;
        break;
      case 'l':
        if (key_is(key, "l")) number = &row.low, number_key = "l", number_bit = req_l;
        break;
      case 'n':
        if (key_is(key, "n")) integer = integer_field::n;
        break;
      case 'o':
        if (key_is(key, "o")) {
          number = &row.open, number_key = "o", number_bit = req_o;
        } else if (key_is(key, "otc")) {
          ctx.read_bool(value, "otc", row.otc);
        }
        break;
      case 't':
        if (key_is(key, "t")) integer = integer_field::t;
        break;
      case 'v':
        if (key_is(key, "v")) {
          number = &row.volume, number_key = "v", number_bit = req_v;
        } else if (key_is(key, "vw")) {
          optional_number = &row.vwap, number = &row.vwap.emplace(), number_key = "vw";
        }
        break;
      default: break;
    }
    if (number != nullptr) {
      if (ctx.read_double(value, number_key, *number)) {
        seen |= number_bit;
      } else if (optional_number != nullptr) {
        optional_number->reset();
      }
    } else if (integer != integer_field::none) {
      std::int64_t v = 0;
      if (ctx.read_int64(value, integer_names[static_cast<std::size_t>(integer)], v)) store_integer(row, integer, v, seen);
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
