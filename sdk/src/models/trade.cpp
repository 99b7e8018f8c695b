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
    switch (key[0]) {
      case 'c':
        if (key_is(key, "conditions")) {
          ctx.read_int32_array(value, "conditions", row.conditions);
        } else if (key_is(key, "correction")) {
          ctx.read_optional(value, "correction", row.correction);
        }
        break;
      case 'd':
        if (key_is(key, "decimal_size")) ctx.read_optional(value, "decimal_size", row.decimal_size);
        break;
      case 'e':
        if (key_is(key, "exchange") && ctx.read_int64(value, "exchange", row.exchange)) seen |= req_exchange;
        break;
      case 'i':
        if (key_is(key, "id") && ctx.read_string(value, "id", row.id)) seen |= req_id;
        break;
      case 'p':
        if (key_is(key, "price")) {
          number = &row.price, number_key = "price", number_bit = req_price;
        } else if (key_is(key, "participant_timestamp") &&
                   ctx.read_time(value, "participant_timestamp", row.participant_timestamp)) {
          seen |= req_participant_timestamp;
        }
        break;
      case 's':
        if (key_is(key, "size")) {
          number = &row.size, number_key = "size", number_bit = req_size;
        } else if (key_is(key, "sip_timestamp")) {
          if (ctx.read_time(value, "sip_timestamp", row.sip_timestamp)) seen |= req_sip_timestamp;
        } else if (key_is(key, "sequence_number")) {
          if (ctx.read_int64(value, "sequence_number", row.sequence_number)) seen |= req_sequence_number;
        }
        break;
      case 't':
        if (key_is(key, "tape")) {
          ctx.read_optional(value, "tape", row.tape);
        } else if (key_is(key, "trf_id")) {
          ctx.read_optional(value, "trf_id", row.trf_id);
        } else if (key_is(key, "trf_timestamp")) {
          ctx.read_optional(value, "trf_timestamp", row.trf_timestamp);
        }
        break;
      default: break;
    }
    if (number != nullptr && ctx.read_double(value, number_key, *number)) seen |= number_bit;
  }
  if (seen != required) ctx.missing(seen, required, required_names);
}

}  // namespace

const detail::row_codec& row_codec_for(std::type_identity<trade>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<trade, decode_trade>();
  return codec;
}

}  // namespace massive
