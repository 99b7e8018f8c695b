# Runs the generator with the stream description on a map without the row of /stocks/T,
# without the stream_key row of `sym`, with the fair market value's nanosecond `t` row naming
# a model that does not exist, and with an undescribed event lacking its types; checks that
# each is refused by name with the row to add, and that nothing is written.
file(MAKE_DIRECTORY "${WORK}")
# The map written below names the evidence audit beside it.
get_filename_component(map_dir "${MAP}" DIRECTORY)
file(COPY "${map_dir}/audit.tsv" DESTINATION "${WORK}")
file(STRINGS "${MAP}" lines)
set(trimmed "")
foreach(line IN LISTS lines)
  if(line MATCHES "^stream stock_trade_event " OR line MATCHES "^stream_key sym ")
    continue()
  endif()
  string(REPLACE "stream_field stock_fmv_event t " "stream_field stock_fmv_evnt t " line "${line}")
  string(APPEND trimmed "${line}\n")
endforeach()
string(APPEND trimmed "stream futures_book_event /futures/L2 topic=books\n")
file(WRITE "${WORK}/map.txt" "${trimmed}")
execute_process(COMMAND "${CODEGEN}" --spec "${SPEC}" --stream-spec "${STREAM_SPEC}" --map "${WORK}/map.txt"
                        --out "${WORK}/out"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "expected exit 1, got ${status}: ${errors}")
endif()
foreach(expected
    "stream channel /stocks/T has no map row: add `stream <name>_event /stocks/T topic=<name>`"
    "stream key \"sym\" of stock_quote_event (/stocks/Q) has no readable name: add `stream_key sym <name>`"
    "stream_field stock_fmv_evnt names nothing in the stream description"
    "channel /futures/L2 is not in the stream description; an event it lacks needs ev=<ev> and <key>=<type> words")
  string(FIND "${errors}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "message missing: ${expected}\ngot:\n${errors}")
  endif()
endforeach()
if(EXISTS "${WORK}/out")
  message(FATAL_ERROR "a refused generation wrote files")
endif()
