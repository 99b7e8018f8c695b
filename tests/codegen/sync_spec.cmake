# scripts/sync-spec.sh as a scheduled job runs it, on a copy of the repository's generation
# inputs (scripts/, spec/, codegen/'s map and audit, generated/) with the generator already
# built, the copy's spec/ and generated/ those of the baseline descriptions (the repository's
# own move with every sync; what is checked below was written for these): the 2026-04-27
# description, given as a file, replaces spec/massive-openapi.json (normalised), its
# provenance row in spec/README.md gets the source, the date and the file's sha256, generated/
# is regenerated, the change report printed and its breaking and added lines put in
# CHANGELOG.md. Seen failing with the README update's row match misspelt: "spec/README.md has no row for massive-openapi.json", and
# with the description read as utf-8 rather than utf-8-sig ("Unexpected UTF-8 BOM").
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/codegen")
file(COPY "${ROOT}/scripts" "${ROOT}/spec" "${ROOT}/CHANGELOG.md" DESTINATION "${WORK}")
file(COPY "${BASELINE_GENERATED}/" DESTINATION "${WORK}/generated")
file(COPY "${ROOT}/codegen/map.txt" "${ROOT}/codegen/audit.tsv" "${ROOT}/codegen/official-names.tsv" DESTINATION "${WORK}/codegen")
file(COPY_FILE "${BASELINE}" "${WORK}/spec/massive-openapi.json")
file(COPY_FILE "${STREAM_BASELINE}" "${WORK}/spec/massive-websocket.json")

# The copy's sync-spec.sh on `file`, as a scheduled job runs it (no build); its output in `output`.
function(sync file)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MASSIVE_CODEGEN=${CODEGEN}
                          "${WORK}/scripts/sync-spec.sh" "${file}" --no-build
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "sync-spec.sh exited ${status} for ${file}:\n${out}\n${errors}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# Given as an editor may save it: with a UTF-8 byte order mark.
execute_process(COMMAND "${PYTHON}" -c "import sys; open(sys.argv[2], 'wb').write(b'\\xef\\xbb\\xbf' + open(sys.argv[1], 'rb').read())"
                        "${HISTORY}/massive-openapi-2026-04-27.json" "${WORK}/massive-openapi-2026-04-27.json")
sync("${WORK}/massive-openapi-2026-04-27.json")
file(SHA256 "${WORK}/spec/massive-openapi.json" sha)
file(READ "${WORK}/spec/README.md" readme)
file(READ "${WORK}/spec/massive-openapi.json" stored)
file(READ "${WORK}/generated/CHANGES.md" report)
file(READ "${WORK}/CHANGELOG.md" changelog)
foreach(check
    "readme|| `massive-openapi.json` | REST (OpenAPI 3.0.3): 145 GET operations, 21 of them `x-polygon-ignore` path variants |"
    "readme|${WORK}/massive-openapi-2026-04-27.json, normalised (keys sorted, 2-space indent) by scripts/sync-spec.sh"
    "readme|`${sha}` |"
    "stored|\"/futures/vX/aggs/{ticker}\": {"
    "report|- `client.futures().aggregates_vx()` (`GET /futures/vX/aggs/{ticker}`)"
    "output|- `client.futures().aggregates_vx()` (`GET /futures/vX/aggs/{ticker}`)"
    "output|sync-spec: the change report is generated/CHANGES.md"
    "changelog|### massive-openapi.json of "
    "changelog|- breaking: removed `client.stocks().trades_dev()` (`GET /stocks/dev/trades/{ticker}`)"
    "changelog|- `client.futures().aggregates_vx()` (`GET /futures/vX/aggs/{ticker}`)")
  string(FIND "${check}" "|" bar)
  string(SUBSTRING "${check}" 0 ${bar} where)
  math(EXPR from "${bar} + 1")
  string(SUBSTRING "${check}" ${from} -1 text)
  string(FIND "${${where}}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${where} lacks: ${text}\n--- ${where} ---\n${${where}}")
  endif()
endforeach()

# The same description published as YAML (status codes as integer keys, as YAML reads them) is
# stored as the same JSON. Seen failing with the YAML branch removed: "sync-spec.sh exited 1 for
# .../massive-openapi-2026-04-27.yaml".
execute_process(COMMAND "${PYTHON}" -c [=[
import json, sys, yaml
d = json.load(open(sys.argv[1], encoding="utf-8"))
def codes(o):
    if isinstance(o, dict):
        return {(int(k) if k.isdigit() else k): codes(v) for k, v in o.items()}
    return [codes(x) for x in o] if isinstance(o, list) else o
open(sys.argv[2], "w", encoding="utf-8").write(
    yaml.dump(codes(d), Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True))
]=] "${HISTORY}/massive-openapi-2026-04-27.json" "${WORK}/massive-openapi-2026-04-27.yaml"
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "could not write the YAML form")
endif()
file(COPY_FILE "${WORK}/spec/massive-openapi.json" "${WORK}/from-json.json")
sync("${WORK}/massive-openapi-2026-04-27.yaml")
file(READ "${WORK}/from-json.json" from_json)
file(READ "${WORK}/spec/massive-openapi.json" from_yaml)
if(NOT from_json STREQUAL from_yaml)
  message(FATAL_ERROR "the YAML form was stored otherwise than the JSON form")
endif()
