# Runs the generator on a map without the row of GET /v1/summaries and with a row for an
# operation the description does not have, and checks both are refused with the row to add;
# then on a description whose GET /v3/trades/{stockTicker} gains a parameter with a comparator
# set no filter type covers (`size.gt` alone), and checks that it is refused by name; then on
# a map with `wire` rows that name what they may not; then on a description that has come to
# agree with two rows of the evidence audit.
file(MAKE_DIRECTORY "${WORK}")
# The maps written below name the evidence audit beside them.
get_filename_component(map_dir "${MAP}" DIRECTORY)
file(COPY "${map_dir}/audit.tsv" DESTINATION "${WORK}")

# Runs the generator on `spec` and `map`; fails unless it exits 1, names every expected
# message and writes nothing.
function(expect_refusal name spec map)
  execute_process(COMMAND "${CODEGEN}" --spec "${spec}" --map "${map}" --out "${WORK}/${name}-out"
                  RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 1)
    message(FATAL_ERROR "${name}: expected exit 1, got ${status}: ${errors}")
  endif()
  foreach(expected IN LISTS ARGN)
    string(FIND "${errors}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: message missing: ${expected}\ngot:\n${errors}")
    endif()
  endforeach()
  if(EXISTS "${WORK}/${name}-out")
    message(FATAL_ERROR "${name}: a refused generation wrote files")
  endif()
endfunction()

file(STRINGS "${MAP}" lines)
set(trimmed "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^op GET /v1/summaries ")
    string(APPEND trimmed "${line}\n")
  endif()
endforeach()
string(APPEND trimmed "op GET /v9/nowhere reference nowhere\n")
file(WRITE "${WORK}/map.txt" "${trimmed}")
expect_refusal(missing-row "${SPEC}" "${WORK}/map.txt"
    "operation GET /v1/summaries (operationId GetSnapshotSummary) has no map row: add `op GET /v1/summaries <group> <method>`"
    "op GET /v9/nowhere reference nowhere names nothing in the description"
    # The nested objects first named under /v1/summaries now need rows where they remain.
    "unbound nested object at GET /v3/snapshot results[].session: add `model session /v3/snapshot results[].session`")

# An unknown comparator set: a greater-than with neither equality nor the other bounds.
file(READ "${SPEC}" spec)
string(JSON count LENGTH "${spec}" paths "/v3/trades/{stockTicker}" get parameters)
string(JSON spec SET "${spec}" paths "/v3/trades/{stockTicker}" get parameters ${count}
       [=[{"in": "query", "name": "size.gt", "schema": {"type": "integer"}}]=])
file(WRITE "${WORK}/comparator-spec.json" "${spec}")
expect_refusal(comparator "${WORK}/comparator-spec.json" "${MAP}"
    "operation GET /v3/trades/{stockTicker}: parameter size has the unknown comparator set {gt}")

# A wire order naming a field that is not a number, a key twice, and a model that is no
# operation's rows.
file(READ "${MAP}" map)
string(APPEND map "wire trade price id price\nwire nosuchmodel v\n")
file(WRITE "${WORK}/wire-map.txt" "${map}")
expect_refusal(wire "${SPEC}" "${WORK}/wire-map.txt"
    "wire trade: key id is not a number field (double, int64 or timestamp) of the model"
    "wire trade: key price comes twice"
    "wire nosuchmodel names no model that is an operation's rows")

# The evidence audit: a correction the description has come to agree with is reported, never
# kept silently. Here the description types the indices' preMarket as a number and declares
# the ticker events' cik. Seen failing with apply_audit's check of the description's type
# disabled: "audit: message missing: the description now says number for ...".
file(READ "${SPEC}" spec)
string(JSON spec SET "${spec}" paths "/v1/open-close/{indicesTicker}/{date}" get responses 200 content application/json
       schema properties preMarket type [=["number"]=])
string(JSON spec SET "${spec}" paths "/vX/reference/tickers/{id}/events" get responses 200 content application/json
       schema properties results properties cik [=[{"type": "string"}]=])
file(WRITE "${WORK}/audit-spec.json" "${spec}")
expect_refusal(audit "${WORK}/audit-spec.json" "${MAP}"
    "the description now says number for indices_open_close.preMarket, not integer: review the correction to double"
    "the description now declares ticker_events.cik: remove the row")
