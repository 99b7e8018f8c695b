// trade's row decoder, in the model decoder form described in agg.cpp.
#include "massive/models/trade.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;
using detail::key_is;

constexpr std::string_view required_names[] = {"id",       "sip_timestamp",   "participant_timestamp",
                                               "price",    "size",            "exchange",
                                               "sequence_number"};
enum : std::uint64_t {
  req_id = 1 << 0,
  req_sip_timestamp = 1 << 1,
  req_participant_timestamp = 1 << 2,
  req_price = 1 << 3,
  req_size = 1 << 4,
  req_exchange = 1 << 5,
  req_sequence_number = 1 << 6,
};
constexpr std::uint64_t required = (1 << 7) - 1;

// The integer fields. All of them are read at one get_int64 call site, after the switch on
// the key, and stored by store_integer(): as with doubles, an inlined read per key bloats
// the loop (g++ 12 ran it at half speed).
enum class integer_field : std::uint8_t {
  none,
  correction,
  exchange,
  participant_timestamp,
  sequence_number,
  sip_timestamp,
  tape,
  trf_id,
  trf_timestamp,
};
constexpr std::string_view integer_names[] = {"",          "correction",      "exchange",
                                              "participant_timestamp", "sequence_number", "sip_timestamp",
                                              "tape",      "trf_id",          "trf_timestamp"};

[[gnu::always_inline]] inline void store_integer(detail::row_context& ctx, trade& row, integer_field field,
                                                 std::int64_t v, std::uint64_t& seen) {
  switch (field) {
    case integer_field::none: break;
    case integer_field::correction: row.correction = v; break;
    case integer_field::exchange: row.exchange = v, seen |= req_exchange; break;
    case integer_field::participant_timestamp:
      row.participant_timestamp = timestamp_ns::from_count(v), seen |= req_participant_timestamp;
      break;
    case integer_field::sequence_number: row.sequence_number = v, seen |= req_sequence_number; break;
    case integer_field::sip_timestamp: row.sip_timestamp = timestamp_ns::from_count(v), seen |= req_sip_timestamp; break;
    case integer_field::tape: row.tape = ctx.narrow(v, "tape"); break;
    case integer_field::trf_id: row.trf_id = v; break;
    case integer_field::trf_timestamp: row.trf_timestamp = timestamp_ns::from_count(v); break;
  }
}

// Inlined into the batch loop: as a call, the object's iterator would live in memory.
[[gnu::always_inline]] inline void decode_trade(detail::row_context& ctx, od::object& object, trade& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    double* number = nullptr;  // the double field this key names
    std::string_view number_key;
    std::uint64_t number_bit = 0;
    integer_field integer = integer_field::none;  // the integer field this key names
    switch (key[0]) {
      case 'c':
        if (key_is(key, "conditions")) {
          ctx.read_int32_array(value, "conditions", row.conditions);
        } else if (key_is(key, "correction")) {
          integer = integer_field::correction;
        }
        break;
      case 'd':
        if (key_is(key, "decimal_size")) ctx.read_decimal(value, "decimal_size", row.decimal_size);
        break;
      case 'e':
        if (key_is(key, "exchange")) integer = integer_field::exchange;
        break;
      case 'i':
        if (key_is(key, "id") && ctx.read_string(value, "id", row.id)) seen |= req_id;
        break;
      case 'p':
        if (key_is(key, "price")) {
          number = &row.price, number_key = "price", number_bit = req_price;
        } else if (key_is(key, "participant_timestamp")) {
          integer = integer_field::participant_timestamp;
        }
        break;
      case 's':
        if (key_is(key, "size")) {
          number = &row.size, number_key = "size", number_bit = req_size;
        } else if (key_is(key, "sip_timestamp")) {
          integer = integer_field::sip_timestamp;
        } else if (key_is(key, "sequence_number")) {
          integer = integer_field::sequence_number;
        }
        break;
      case 't':
        if (key_is(key, "tape")) {
          integer = integer_field::tape;
        } else if (key_is(key, "trf_id")) {
          integer = integer_field::trf_id;
        } else if (key_is(key, "trf_timestamp")) {
          integer = integer_field::trf_timestamp;
        }
        break;
      default: break;
    }
    if (number != nullptr) {
      if (ctx.read_double(value, number_key, *number)) seen |= number_bit;
    } else if (integer != integer_field::none) {
      std::int64_t v = 0;
      if (ctx.read_int64(value, integer_names[static_cast<std::size_t>(integer)], v)) {
        store_integer(ctx, row, integer, v, seen);
      }
    }
  }
  if (seen != required) ctx.missing(seen, required, required_names);
}

}  // namespace

const detail::row_codec& row_codec_for(std::type_identity<trade>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<trade, decode_trade>();
  return codec;
}

}  // namespace massive
