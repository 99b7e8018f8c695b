// trade's row decoder, in the model decoder form described in agg.cpp.
#include "massive/models/trade.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;

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

void decode_trade(detail::row_context& ctx, od::object& object, trade& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const std::string_view key = detail::raw_key(field);
    od::value& value = field.value();
    double* number = nullptr;
    std::uint64_t number_bit = 0;
    switch (key.size()) {
      case 2:
        if (key == "id" && ctx.read_string(value, key, row.id)) seen |= req_id;
        break;
      case 4:
        if (key == "size") {
          number = &row.size;
          number_bit = req_size;
        } else if (key == "tape") {
          ctx.read_optional(value, key, row.tape);
        }
        break;
      case 5:
        if (key == "price") {
          number = &row.price;
          number_bit = req_price;
        }
        break;
      case 6:
        if (key == "trf_id") ctx.read_optional(value, key, row.trf_id);
        break;
      case 8:
        if (key == "exchange" && ctx.read_int64(value, key, row.exchange)) seen |= req_exchange;
        break;
      case 10:
        if (key == "conditions") {
          ctx.read_int32_array(value, key, row.conditions);
        } else if (key == "correction") {
          ctx.read_optional(value, key, row.correction);
        }
        break;
      case 12:
        if (key == "decimal_size") ctx.read_optional(value, key, row.decimal_size);
        break;
      case 13:
        if (key == "sip_timestamp") {
          if (ctx.read_time(value, key, row.sip_timestamp)) seen |= req_sip_timestamp;
        } else if (key == "trf_timestamp") {
          ctx.read_optional(value, key, row.trf_timestamp);
        }
        break;
      case 15:
        if (key == "sequence_number" && ctx.read_int64(value, key, row.sequence_number)) {
          seen |= req_sequence_number;
        }
        break;
      case 21:
        if (key == "participant_timestamp" && ctx.read_time(value, key, row.participant_timestamp)) {
          seen |= req_participant_timestamp;
        }
        break;
      default: break;
    }
    if (number != nullptr && ctx.read_double(value, key, *number)) seen |= number_bit;
  }
  if (seen != required) ctx.missing(seen, required, required_names);
}

}  // namespace

const detail::row_codec& row_codec_for(std::type_identity<trade>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<trade, decode_trade>();
  return codec;
}

}  // namespace massive
