# Output is a function of the descriptions' content, not of their key order or whitespace: the
# committed REST description with every object's keys reversed (written here by Python, with a
# UTF-8 byte order mark and CRLF line ends, as an editor on another system may save it), and
# client-python's stream description as published (the same content, keys in another order),
# and the REST description in Swagger 2.0's form (swagger2_form.py) each regenerate exactly
# generated/. Seen failing with the Swagger 2.0 form of a response not read (operations.cpp):
# "generation refused" (no operation had rows to type); with the byte order mark not skipped
# (json.cpp): "cannot read ...: A JSON document made of a scalar ...".
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(
  COMMAND "${PYTHON}" -c [=[
import json, sys
def rev(o):
    if isinstance(o, dict):
        return {k: rev(o[k]) for k in reversed(list(o))}
    return [rev(x) for x in o] if isinstance(o, list) else o
with open(sys.argv[1], encoding="utf-8") as f:
    d = json.load(f)
with open(sys.argv[2], "w", encoding="utf-8-sig", newline="\r\n") as f:
    json.dump(rev(d), f, indent=1)
]=] "${SPEC}" "${WORK}/reversed.json"
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "could not write the reversed description")
endif()
execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/swagger2_form.py" "${SPEC}" "${WORK}/swagger2.json"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "could not write the Swagger 2.0 form of the description")
endif()
foreach(pair "${WORK}/reversed.json|${STREAM_SPEC}" "${SPEC}|${UNSORTED_STREAM_SPEC}"
             "${WORK}/swagger2.json|${STREAM_SPEC}")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 rest)
  list(GET pair 1 stream)
  execute_process(COMMAND "${CODEGEN}" --spec "${rest}" --stream-spec "${stream}" --map "${MAP}"
                          --compare "${GENERATED}" --strict
                  RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${rest} with ${stream} does not give generated/ (exit ${status}):\n${errors}")
  endif()
endforeach()
