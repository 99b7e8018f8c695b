# A newer description, simulated: GET /v1/summaries removed and an operation added (a copy of
# GET /v1/related-companies/{ticker} at /v9/related/{ticker}). With the current map the
# generator must refuse, naming the row to add and the rows that now name nothing; with the
# map updated as the messages say, it must generate the new method and drop the old one.
file(MAKE_DIRECTORY "${WORK}")
# The map written below names the evidence audit beside it.
get_filename_component(map_dir "${MAP}" DIRECTORY)
file(COPY "${map_dir}/audit.tsv" DESTINATION "${WORK}")
file(READ "${SPEC}" spec)
string(JSON copy GET "${spec}" paths "/v1/related-companies/{ticker}")
string(JSON spec REMOVE "${spec}" paths "/v1/summaries")
string(JSON spec SET "${spec}" paths "/v9/related/{ticker}" "${copy}")
file(WRITE "${WORK}/spec.json" "${spec}")

execute_process(COMMAND "${CODEGEN}" --spec "${WORK}/spec.json" --map "${MAP}" --out "${WORK}/refused"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "expected exit 1 with the old map, got ${status}: ${errors}")
endif()
foreach(expected
    "operation GET /v9/related/{ticker} (operationId GetRelatedCompanies) has no map row: add `op GET /v9/related/{ticker} <group> <method>`"
    "op GET /v1/summaries reference summaries names nothing in the description"
    "model summary /v1/summaries results[] names nothing in the description"
    # Shapes first named under /v1/summaries that other operations still use.
    "unbound nested object at GET /v3/snapshot results[].session: add `model session /v3/snapshot results[].session`")
  string(FIND "${errors}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "message missing: ${expected}\ngot:\n${errors}")
  endif()
endforeach()

# The map updated as the messages say: the new row added, the rows naming nothing removed.
file(STRINGS "${MAP}" lines)
set(map "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "/v1/summaries")
    string(APPEND map "${line}\n")
  endif()
endforeach()
string(APPEND map "op GET /v9/related/{ticker} reference related_v9\n")
string(APPEND map "model summary_session /v3/snapshot results[].session\n")
string(APPEND map "model summary_branding /v3/reference/tickers/{ticker} results.branding\n")
file(WRITE "${WORK}/map.txt" "${map}")
execute_process(COMMAND "${CODEGEN}" --spec "${WORK}/spec.json" --map "${WORK}/map.txt" --out "${WORK}/out"
                RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "expected success with the updated map, got ${status}: ${errors}")
endif()
file(READ "${WORK}/out/include/massive/reference.hpp" reference)
string(FIND "${reference}" "struct reference_related_v9_params" added)
string(FIND "${reference}" "summaries(" removed)
if(added EQUAL -1 OR NOT removed EQUAL -1)
  message(FATAL_ERROR "reference.hpp should declare related_v9 and no summaries (added ${added}, removed ${removed})")
endif()
if(EXISTS "${WORK}/out/include/massive/models/summary.hpp")
  message(FATAL_ERROR "the model of the removed operation is still generated")
endif()
