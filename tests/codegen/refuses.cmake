# What only a person can decide is refused, every such problem in one run, each with its place
# and the row to write, and nothing is written. One map holds them all:
# - two curated operations named alike (crypto's trades renamed stocks().trades());
# - one model name for two different shapes (crypto trades named `trade`, the stock trade's name);
# - two fields of a model that the map names alike (ask_price and bid_price of `quote`);
# - flat-file rows of a market or dataset that has none, and a file row type named twice.
# Wire orders naming what they may not are warnings in the same run (the field loop reads the
# rows instead).
# Seen failing with the curated-name check of name_operations() disabled ("message missing: GET
# /v3/trades/{stockTicker} and GET /v3/trades/{cryptoTicker}"), and with bind_file_rows()'s
# duplicate check removed ("message missing: file: the row type stock_trade is named twice").
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(map_dir "${MAP}" DIRECTORY)
file(COPY "${map_dir}/audit.tsv" "${map_dir}/official-names.tsv" DESTINATION "${WORK}")

file(STRINGS "${MAP}" lines)
set(map "")
foreach(line IN LISTS lines)
  string(REPLACE "op GET /v3/trades/{cryptoTicker} crypto trades" "op GET /v3/trades/{cryptoTicker} stocks trades" line "${line}")
  string(REPLACE "model crypto_trade /v3/trades/{cryptoTicker} results[]" "model trade /v3/trades/{cryptoTicker} results[]" line "${line}")
  string(APPEND map "${line}\n")
endforeach()
string(APPEND map "field quote ask_price name=side_price\nfield quote bid_price name=side_price\n")
string(APPEND map "wire trade price id price\nwire agg nosuchkey\n")
string(APPEND map "file futures trades trade futures_trade\nfile stocks day_aggs agg stock_bar\n")
string(APPEND map "file crypto quotes quote stock_trade\nfile stocks trades nosuchmodel lost_trade\n")
file(WRITE "${WORK}/map.txt" "${map}")

execute_process(COMMAND "${CODEGEN}" --spec "${SPEC}" --stream-spec "${STREAM_SPEC}" --map "${WORK}/map.txt"
                        --out "${WORK}/out"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "expected exit 1, got ${status}: ${errors}")
endif()
foreach(expected
    "GET /v3/trades/{stockTicker} and GET /v3/trades/{cryptoTicker}"
    "are both stocks().trades(): rename one"
    "trade names two different shapes, at /v3/trades/{stockTicker} results[] and at /v3/trades/{cryptoTicker} results[]: give one another name"
    "two fields of quote are both named side_price: rename one with `field quote <key> name=<name>`"
    "wire trade: key id is not a number field (double, int64 or timestamp) of the model; the wire order is not used"
    "wire trade: key price comes twice"
    "wire agg: key nosuchkey is not a number field"
    "file: futures is not a market with flat files"
    "file: day_aggs is not a dataset of REST rows (trades, quotes)"
    "file: the row type stock_trade is named twice"
    "file stocks trades nosuchmodel lost_trade names no model that is an operation's rows: files::lost_trade is not declared")
  string(FIND "${errors}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "message missing: ${expected}\ngot:\n${errors}")
  endif()
endforeach()
# The wire orders are warnings, each naming its line; each problem names its place too.
if(NOT errors MATCHES "warning: map.txt:[0-9]+: wire trade: key id" OR NOT errors MATCHES "warning: map.txt:[0-9]+: wire agg:")
  message(FATAL_ERROR "the wire orders are not warnings naming their lines:\n${errors}")
endif()
string(REGEX MATCHALL "map.txt:[0-9]+: " places "${errors}")
list(LENGTH places count)
if(count LESS 3)
  message(FATAL_ERROR "expected every problem to name its map line, found ${count}:\n${errors}")
endif()
if(EXISTS "${WORK}/out")
  message(FATAL_ERROR "a refused generation wrote files")
endif()

# An empty or missing description is an error that writes and deletes nothing (it used to mean
# "no stream events": 117 generated files deleted). Seen failing with load_description()'s size
# check removed: exit 2 still, but from simdjson ("EMPTY"), without the message below.
file(WRITE "${WORK}/empty.json" "")
foreach(args "--spec;${WORK}/empty.json;--stream-spec;${STREAM_SPEC}" "--spec;${SPEC};--stream-spec;${WORK}/empty.json"
             "--spec;${SPEC};--stream-spec;${WORK}/nowhere.json")
  execute_process(COMMAND "${CODEGEN}" ${args} --map "${MAP}" --out "${WORK}/out-empty"
                  RESULT_VARIABLE status ERROR_VARIABLE errors)
  string(FIND "${errors}" "is missing or empty: nothing generated or deleted" at)
  if(NOT status EQUAL 2 OR at EQUAL -1 OR EXISTS "${WORK}/out-empty")
    message(FATAL_ERROR "an empty or missing description: expected exit 2 naming it and nothing written, got ${status}: ${errors}")
  endif()
endforeach()

# A file that cannot be written is an error naming it, not a silent gap in generated/ (an
# ofstream that fails writes nothing and says nothing: a model named from 80-byte keys five deep
# was once missing so). Here a directory stands where surface.txt goes. Seen failing with
# write_file()'s check removed: exit 0.
file(MAKE_DIRECTORY "${WORK}/out-blocked/surface.txt")
execute_process(COMMAND "${CODEGEN}" --spec "${SPEC}" --stream-spec "${STREAM_SPEC}" --map "${MAP}" --out "${WORK}/out-blocked"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
string(FIND "${errors}" "cannot write ${WORK}/out-blocked/surface.txt" at)
if(NOT status EQUAL 2 OR at EQUAL -1)
  message(FATAL_ERROR "an output file that cannot be written: expected exit 2 naming it, got ${status}: ${errors}")
endif()
