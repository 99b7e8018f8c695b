# What the baseline descriptions generate with the committed map, once for the generator tests
# that compare with it (codegen_key_order, _sync_spec, _history_*, _jvm_form, _unusual_constructs,
# _dialects): OUT, a copy of generated/ regenerated from SPEC and STREAM_SPEC, and OUT's sibling
# warnings.txt, what the
# generator printed on stderr.
file(REMOVE_RECURSE "${OUT}")
file(COPY "${GENERATED}/" DESTINATION "${OUT}")
execute_process(COMMAND "${CODEGEN}" --spec "${SPEC}" --stream-spec "${STREAM_SPEC}" --map "${MAP}" --out "${OUT}"
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE warnings)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the baseline descriptions do not generate (exit ${status}):\n${warnings}")
endif()
get_filename_component(dir "${OUT}" DIRECTORY)
file(WRITE "${dir}/warnings.txt" "${warnings}")
