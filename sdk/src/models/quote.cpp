// quote's row decoder, in the model decoder form described in agg.cpp.
#include "massive/models/quote.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;

constexpr std::string_view required_names[] = {"sip_timestamp", "participant_timestamp", "sequence_number"};
enum : std::uint64_t {
  req_sip_timestamp = 1 << 0,
  req_participant_timestamp = 1 << 1,
  req_sequence_number = 1 << 2,
};
constexpr std::uint64_t required = (1 << 3) - 1;

void decode_quote(detail::row_context& ctx, od::object& object, quote& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const std::string_view key = detail::raw_key(field);
    od::value& value = field.value();
    std::optional<double>* optional_number = nullptr;
    switch (key.size()) {
      case 4:
        if (key == "tape") ctx.read_optional(value, key, row.tape);
        break;
      case 8:
        if (key == "ask_size") {
          optional_number = &row.ask_size;
        } else if (key == "bid_size") {
          optional_number = &row.bid_size;
        }
        break;
      case 9:
        if (key == "ask_price") {
          optional_number = &row.ask_price;
        } else if (key == "bid_price") {
          optional_number = &row.bid_price;
        }
        break;
      case 10:
        if (key == "conditions") {
          ctx.read_int32_array(value, key, row.conditions);
        } else if (key == "indicators") {
          ctx.read_int32_array(value, key, row.indicators);
        }
        break;
      case 12:
        if (key == "ask_exchange") {
          ctx.read_optional(value, key, row.ask_exchange);
        } else if (key == "bid_exchange") {
          ctx.read_optional(value, key, row.bid_exchange);
        }
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
    if (optional_number != nullptr) {
      double number = 0;
      if (ctx.read_double(value, key, number)) {
        *optional_number = number;
      } else {
        optional_number->reset();
      }
    }
  }
  if (seen != required) ctx.missing(seen, required, required_names);
}

}  // namespace

const detail::row_codec& row_codec_for(std::type_identity<quote>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<quote, decode_quote>();
  return codec;
}

}  // namespace massive
