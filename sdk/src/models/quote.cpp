// quote's row decoder, in the model decoder form described in agg.cpp.
#include "massive/models/quote.hpp"

#include "decode/row_decoding.hpp"

namespace massive {
namespace {

namespace od = detail::od;
using detail::key_is;

constexpr std::string_view required_names[] = {"sip_timestamp", "participant_timestamp", "sequence_number"};
enum : std::uint64_t {
  req_sip_timestamp = 1 << 0,
  req_participant_timestamp = 1 << 1,
  req_sequence_number = 1 << 2,
};
constexpr std::uint64_t required = (1 << 3) - 1;

// Inlined into the batch loop: as a call, the object's iterator would live in memory.
[[gnu::always_inline]] inline void decode_quote(detail::row_context& ctx, od::object& object, quote& row) {
  std::uint64_t seen = 0;
  for (auto item : object) {
    od::field field;
    if (auto e = std::move(item).get(field)) detail::fail_field_iteration(ctx, e);
    const char* const key = field.key().raw();
    od::value& value = field.value();
    std::optional<double>* optional_number = nullptr;  // the double field this key names
    std::string_view number_key;
    switch (key[0]) {
      case 'a':
        if (key_is(key, "ask_exchange")) {
          ctx.read_optional(value, "ask_exchange", row.ask_exchange);
        } else if (key_is(key, "ask_price")) {
          optional_number = &row.ask_price, number_key = "ask_price";
        } else if (key_is(key, "ask_size")) {
          optional_number = &row.ask_size, number_key = "ask_size";
        }
        break;
      case 'b':
        if (key_is(key, "bid_exchange")) {
          ctx.read_optional(value, "bid_exchange", row.bid_exchange);
        } else if (key_is(key, "bid_price")) {
          optional_number = &row.bid_price, number_key = "bid_price";
        } else if (key_is(key, "bid_size")) {
          optional_number = &row.bid_size, number_key = "bid_size";
        }
        break;
      case 'c':
        if (key_is(key, "conditions")) ctx.read_int32_array(value, "conditions", row.conditions);
        break;
      case 'i':
        if (key_is(key, "indicators")) ctx.read_int32_array(value, "indicators", row.indicators);
        break;
      case 'p':
        if (key_is(key, "participant_timestamp") &&
            ctx.read_time(value, "participant_timestamp", row.participant_timestamp)) {
          seen |= req_participant_timestamp;
        }
        break;
      case 's':
        if (key_is(key, "sip_timestamp")) {
          if (ctx.read_time(value, "sip_timestamp", row.sip_timestamp)) seen |= req_sip_timestamp;
        } else if (key_is(key, "sequence_number")) {
          if (ctx.read_int64(value, "sequence_number", row.sequence_number)) seen |= req_sequence_number;
        }
        break;
      case 't':
        if (key_is(key, "tape")) {
          ctx.read_optional(value, "tape", row.tape);
        } else if (key_is(key, "trf_timestamp")) {
          ctx.read_optional(value, "trf_timestamp", row.trf_timestamp);
        }
        break;
      default: break;
    }
    if (optional_number != nullptr) {
      double number = 0;
      if (ctx.read_double(value, number_key, number)) {
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
