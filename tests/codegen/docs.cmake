# The stream description's texts become doc comments by the REST description's rule
# (building::first_sentence): whitespace runs fold to one space, and "e.g. " ends no sentence.
# The stream side had its own copy, which cut "Fair value in USD, e.g. 1.5." at "e.g.".
# regression: build_stream.cpp's own first_sentence restored (newlines replaced, cut at the
# first ". ") -> fails with "missing: /// [fmv] Fair value in USD, e.g.  1.5.\n" (CMake's
# message doubles the space after a period).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(READ "${STREAM_SPEC}" stream)
string(JSON stream SET "${stream}" paths "/business/crypto/FMV" get responses 200 content application/json schema
       properties fmv description [=["Fair value in USD,\te.g. 1.5.  Business plans only."]=])
file(WRITE "${WORK}/stream.json" "${stream}")
execute_process(COMMAND "${CODEGEN}" --spec "${SPEC}" --stream-spec "${WORK}/stream.json" --map "${MAP}"
                        --out "${WORK}/out"
                RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "expected exit 0, got ${status}: ${errors}")
endif()
file(READ "${WORK}/out/include/massive/models/crypto_fmv_event.hpp" header)
string(FIND "${header}" "/// [fmv] Fair value in USD, e.g. 1.5.\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "missing: /// [fmv] Fair value in USD, e.g. 1.5.\\n\ngot:\n${header}")
endif()
