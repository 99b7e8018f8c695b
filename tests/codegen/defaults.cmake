# A newer description, simulated from the committed one, regenerates with the committed map and
# no edit: GET /v1/summaries removed; GET /v9/related/{ticker} added (a copy of
# /v1/related-companies/{ticker}, whose method name it would take), and copies under /time/,
# /table/ and /self/ and named GetClient (names the SDK or the generator take); a draft added; GET
# /v3/trades/{stockTicker} given `size.gt` alone (no filter type covers it); the indices'
# preMarket typed a number and the ticker events' cik declared (two audit rows now moot). The
# stream map loses the rows of /stocks/T and of the key `sym`, and gains two rows naming nothing.
# Then --prune removes exactly the stale rows, rewrites the audit's counts, and a second run has
# no stale row left. Seen failing with name_operations() taking the first candidate even when it
# is taken ("missing: default: GET /v9/related/{ticker} ... related_companies_v9()").
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(map_dir "${MAP}" DIRECTORY)
file(COPY "${MAP}" "${map_dir}/audit.tsv" "${map_dir}/official-names.tsv" DESTINATION "${WORK}")

file(READ "${SPEC}" spec)
string(JSON copy GET "${spec}" paths "/v1/related-companies/{ticker}")
string(JSON spec REMOVE "${spec}" paths "/v1/summaries")
string(JSON spec SET "${spec}" paths "/v9/related/{ticker}" "${copy}")
# Routes whose default group or method would take a name the SDK or the generator gives already
# (<massive/time.hpp>, operations/table.cpp, client_groups::self(); a group class's client_).
foreach(taken time table self)
  string(JSON spec SET "${spec}" paths "/${taken}/v1/related/{ticker}" "${copy}")
endforeach()
string(JSON client SET "${copy}" get operationId [=["GetClient"]=])
string(JSON spec SET "${spec}" paths "/v9/client/{ticker}" "${client}")
string(JSON draft SET "${copy}" get x-polygon-draft true)
string(JSON spec SET "${spec}" paths "/v9/draft/{ticker}" "${draft}")
string(JSON count LENGTH "${spec}" paths "/v3/trades/{stockTicker}" get parameters)
string(JSON spec SET "${spec}" paths "/v3/trades/{stockTicker}" get parameters ${count}
       [=[{"in": "query", "name": "size.gt", "schema": {"type": "integer"}}]=])
string(JSON spec SET "${spec}" paths "/v1/open-close/{indicesTicker}/{date}" get responses 200 content application/json
       schema properties preMarket type [=["number"]=])
string(JSON spec SET "${spec}" paths "/vX/reference/tickers/{id}/events" get responses 200 content application/json
       schema properties results properties cik [=[{"type": "string"}]=])
file(WRITE "${WORK}/spec.json" "${spec}")

file(STRINGS "${WORK}/map.txt" lines)
set(map "")
foreach(line IN LISTS lines)
  if(line MATCHES "^stream stock_trade_event " OR line MATCHES "^stream_key sym ")
    continue()
  endif()
  string(REPLACE "stream_field stock_fmv_event t " "stream_field stock_fmv_evnt t " line "${line}")
  string(APPEND map "${line}\n")
endforeach()
string(APPEND map "stream futures_book_event /futures/L2 topic=books\n")
file(WRITE "${WORK}/map.txt" "${map}")

# Into a copy of generated/, as a user's regeneration writes over the committed files.
function(generate out)
  file(REMOVE_RECURSE "${WORK}/${out}")
  file(COPY "${GENERATED}/" DESTINATION "${WORK}/${out}")
  execute_process(COMMAND "${CODEGEN}" --spec "${WORK}/spec.json" --stream-spec "${STREAM_SPEC}" --map "${WORK}/map.txt"
                          --out "${WORK}/${out}" ${ARGN}
                  RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "expected exit 0, got ${status}: ${errors}")
  endif()
  set(errors "${errors}" PARENT_SCOPE)
endfunction()
function(expect text haystack)
  string(FIND "${haystack}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing: ${text}\ngot:\n${haystack}")
  endif()
endfunction()

generate(out)
set(first_errors "${errors}")
foreach(expected
    "default: GET /v9/related/{ticker} has no map row: generated as reference().related_companies_v9() (`op GET /v9/related/{ticker} reference related_companies_v9` in map.txt pins or renames it)"
    # Seen failing without is_reserved_group ("missing: ... generated as time_api()...") and
    # without is_reserved_method ("missing: ... generated as reference().client_v9()").
    "default: GET /time/v1/related/{ticker} has no map row: generated as time_api()."
    "default: GET /table/v1/related/{ticker} has no map row: generated as table_api()."
    "default: GET /self/v1/related/{ticker} has no map row: generated as self_api()."
    "default: GET /v9/client/{ticker} has no map row: generated as reference().client_v9()"
    "skipped: GET /v9/draft/{ticker} (#/paths/~1v9~1draft~1{ticker}/get): a draft (x-polygon-draft)"
    "op GET /v1/summaries reference summaries names nothing in the description (--prune removes the row)"
    "model summary /v1/summaries results[] names nothing in the description"
    "parameter size has the comparator set {gt}, which no filter type covers"
    "type indices_open_close.preMarket is moot: the description now says number (--prune removes the row)"
    "add ticker_events.cik is moot: the description now declares the field"
    "the summary says 27 fields, 1 payloads; the rows give 25 fields, 1 payloads (--prune rewrites it)"
    "default: stream channel /stocks/T has no map row: generated as stock_t_event, topic t"
    "default: stream key \"sym\" of stock_quote_event (/stocks/Q) has no map row: generated as sym"
    "stream_field stock_fmv_evnt t type=timestamp_ns names nothing in the stream description"
    "stream futures_book_event /futures/L2 topic=books names a channel the stream description lacks"
    "official-names.tsv:98: /v1/summaries names no operation of the description (--prune removes the row)")
  expect("${expected}" "${errors}")
endforeach()
file(READ "${WORK}/out/include/massive/reference.hpp" reference)
expect("related_companies_v9(" "${reference}")
string(FIND "${reference}" "summaries(" removed)
if(NOT removed EQUAL -1 OR EXISTS "${WORK}/out/include/massive/models/summary.hpp")
  message(FATAL_ERROR "reference().summaries() or its model is still generated")
endif()
file(READ "${WORK}/out/include/massive/stocks.hpp" stocks)
expect("std::optional<std::int64_t> size_gt" "${stocks}")
file(READ "${WORK}/out/CHANGES.md" report)
expect("- removed `client.reference().summaries()` (`GET /v1/summaries`)" "${report}")
expect("- `client.reference().related_companies_v9()` (`GET /v9/related/{ticker}`) returning `page<massive::related_company>`" "${report}")
expect("- parameter `.size_gt` of `client.stocks().trades()` (`size.gt`, `std::optional<std::int64_t>`)" "${report}")
expect("- stream event `massive::stock_t_event` (stocks market T, ev=T topic=t)" "${report}")

# --prune: the stale rows go, the audit's counts are rewritten, and nothing stale is left.
file(READ "${WORK}/map.txt" map_before)
generate(pruned --prune)
file(READ "${WORK}/map.txt" map_after)
file(READ "${WORK}/audit.tsv" audit_after)
foreach(gone "op GET /v1/summaries" "model summary /v1/summaries" "stream_field stock_fmv_evnt" "stream futures_book_event")
  string(FIND "${map_after}" "${gone}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "--prune left: ${gone}")
  endif()
endforeach()
# Exactly the rows reported stale: as many lines fewer, and a curated row in use kept.
# (every warning naming a map line is a stale row's)
string(REGEX MATCHALL "warning: map.txt:[0-9]+: " stale "${first_errors}")
list(LENGTH stale stale_count)
string(REGEX MATCHALL "\n" before_lines "${map_before}")
string(REGEX MATCHALL "\n" after_lines "${map_after}")
list(LENGTH before_lines before_count)
list(LENGTH after_lines after_count)
math(EXPR removed "${before_count} - ${after_count}")
if(NOT removed EQUAL stale_count OR stale_count LESS 10)
  message(FATAL_ERROR "--prune removed ${removed} map rows; ${stale_count} were reported stale")
endif()
expect("op GET /v1/related-companies/{ticker} reference related_companies\n" "${map_after}")
expect("summary\tcorrections\t25 fields\t1 payloads\t" "${audit_after}")
file(READ "${WORK}/official-names.tsv" names_after)
string(FIND "${names_after}" "/v1/summaries\t" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "--prune left the official names' row of /v1/summaries")
endif()
foreach(gone "type\tindices_open_close.preMarket" "add\tticker_events.cik")
  string(FIND "${audit_after}" "${gone}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "--prune left the audit row ${gone}")
  endif()
endforeach()
generate(again)
string(FIND "${errors}" "--prune" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "stale rows left after --prune:\n${errors}")
endif()
