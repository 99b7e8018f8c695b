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

// The integer fields, read at the one get_int64 call site after the switch and stored by
// store_integer().
enum class integer_field : std::uint8_t {
  none,
  ask_exchange,
  bid_exchange,
  participant_timestamp,
  sequence_number,
  sip_timestamp,
  tape,
  trf_timestamp,
};
constexpr std::string_view integer_names[] = {"",         "ask_exchange",    "bid_exchange",
                                              "participant_timestamp", "sequence_number", "sip_timestamp",
                                              "tape",     "trf_timestamp"};

[[gnu::always_inline]] inline void store_integer(detail::row_context& ctx, quote& row, integer_field field,
                                                 std::int64_t v, std::uint64_t& seen) {
  switch (field) {
    case integer_field::none: break;
    case integer_field::ask_exchange: row.ask_exchange = v; break;
    case integer_field::bid_exchange: row.bid_exchange = v; break;
    case integer_field::participant_timestamp:
      row.participant_timestamp = timestamp_ns::from_count(v), seen |= req_participant_timestamp;
      break;
    case integer_field::sequence_number: row.sequence_number = v, seen |= req_sequence_number; break;
    case integer_field::sip_timestamp: row.sip_timestamp = timestamp_ns::from_count(v), seen |= req_sip_timestamp; break;
    case integer_field::tape: row.tape = ctx.narrow(v, "tape"); break;
    case integer_field::trf_timestamp: row.trf_timestamp = timestamp_ns::from_count(v); break;
  }
}

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
    integer_field integer = integer_field::none;  // the integer field this key names
    switch (key[0]) {
      case 'a':
        if (key_is(key, "ask_exchange")) {
          integer = integer_field::ask_exchange;
        } else if (key_is(key, "ask_price")) {
          optional_number = &row.ask_price, number_key = "ask_price";
        } else if (key_is(key, "ask_size")) {
          optional_number = &row.ask_size, number_key = "ask_size";
        }
        break;
      case 'b':
        if (key_is(key, "bid_exchange")) {
          integer = integer_field::bid_exchange;
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
        if (key_is(key, "participant_timestamp")) integer = integer_field::participant_timestamp;
        break;
      case 's':
        if (key_is(key, "sip_timestamp")) {
          integer = integer_field::sip_timestamp;
        } else if (key_is(key, "sequence_number")) {
          integer = integer_field::sequence_number;
        }
        break;
      case 't':
        if (key_is(key, "tape")) {
          integer = integer_field::tape;
        } else if (key_is(key, "trf_timestamp")) {
          integer = integer_field::trf_timestamp;
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

const detail::row_codec& row_codec_for(std::type_identity<quote>) noexcept {
  static constexpr detail::row_codec codec = detail::make_row_codec<quote, decode_quote>();
  return codec;
}

}  // namespace massive
