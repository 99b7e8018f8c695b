# Output is a function of the descriptions' content, not of their key order or whitespace. The
# baseline descriptions (MASSIVE_SPEC_BASELINE and its stream description; spec/ moves with every
# sync) are the reference; each of these generates exactly what they generate, with the same
# warnings: the REST description with every object's keys reversed (written here by Python, with
# a UTF-8 byte order mark and CRLF line ends, as an editor on another system may save it),
# client-python's stream description as published (the same content, keys in another order),
# both descriptions in Swagger 2.0's form (swagger2_form.py; seen failing with the stream
# builder reading responses' content only: "differs: include/massive/stream/events.hpp"; with
# the status schema looked for under components only: "differs: .../status_event.hpp"), both
# descriptions in OpenAPI
# 3.1's forms of nullable members (openapi31_form.py), the REST description with its
# x-polygon- extensions named x-massive- as the stream description's are now (x_massive_form.py;
# seen failing with only x-polygon-go-type read: "differs:
# include/massive/models/conversion_last_quote.hpp"), the REST description with every key
# given twice, first with null (duplicate_keys_form.py; seen failing with the first value kept
# (json.cpp): "generation refused"), and the stream description with each
# message described as its frame and no ev given (stream_frame_form.py). Seen failing with the
# 3.1 forms' type lists not read (json::schema_type): "differs: include/massive/benzinga.hpp";
# with their anyOf or oneOf of a schema and null not read, by the models (schema.cpp):
# "differs: docs/operations.md", by the stream builder (build_stream.cpp's resolve):
# "differs: include/massive/models/crypto_book_event.hpp", by a parameter (make_param):
# "differs: include/massive/consumer_spending.hpp"; with their `examples` not read
# (json::example): "differs: src/operations/crypto.cpp" (help's example lines); with a stream
# event's ev as const not read (ev_of): "differs: mock/stream_channels.cpp". Seen failing
# with the Swagger 2.0 form of a response not read (operations.cpp): "generation refused" (no
# operation had rows to type); with a channel's ev not taken from its
# prefix ("differs: mock/stream_channels.cpp ..."); with the byte order mark not skipped
# (json.cpp): "cannot read ...: A JSON document made of a scalar ...".
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(baseline_dir "${BASELINE_GENERATED}" DIRECTORY)
file(READ "${baseline_dir}/warnings.txt" baseline_warnings)
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
foreach(form "swagger2_form.py|${SPEC}|${WORK}/swagger2.json"
             "swagger2_form.py|${STREAM_SPEC}|${WORK}/stream-swagger2.json"
             "openapi31_form.py|${SPEC}|${WORK}/openapi31.json"
             "openapi31_form.py|${STREAM_SPEC}|${WORK}/stream31.json"
             "x_massive_form.py|${SPEC}|${WORK}/x-massive.json"
             "duplicate_keys_form.py|${SPEC}|${WORK}/duplicate-keys.json"
             "stream_frame_form.py|${STREAM_SPEC}|${WORK}/stream-frames.json")
  string(REPLACE "|" ";" form "${form}")
  list(GET form 0 script)
  list(GET form 1 from)
  list(GET form 2 to)
  execute_process(COMMAND "${PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/${script}" "${from}" "${to}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${script} could not write ${to}")
  endif()
endforeach()
# The baseline's warnings, no more and no fewer, but for the frames' form, whose every channel
# warns that its ev is its prefix.
foreach(pair "${WORK}/reversed.json|${STREAM_SPEC}|same" "${SPEC}|${UNSORTED_STREAM_SPEC}|same"
             "${WORK}/swagger2.json|${WORK}/stream-swagger2.json|same" "${WORK}/openapi31.json|${WORK}/stream31.json|same"
             "${WORK}/x-massive.json|${STREAM_SPEC}|same" "${WORK}/duplicate-keys.json|${STREAM_SPEC}|same"
             "${SPEC}|${WORK}/stream-frames.json|warns")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 rest)
  list(GET pair 1 stream)
  list(GET pair 2 notices)
  execute_process(COMMAND "${CODEGEN}" --spec "${rest}" --stream-spec "${stream}" --map "${MAP}"
                          --compare "${BASELINE_GENERATED}"
                  RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${rest} with ${stream} does not give the baseline's output (exit ${status}):\n${errors}")
  endif()
  if(notices STREQUAL "same" AND NOT errors STREQUAL baseline_warnings)
    message(FATAL_ERROR "${rest} with ${stream} warns otherwise than the baseline:\n${errors}\n--- baseline ---\n${baseline_warnings}")
  endif()
endforeach()
