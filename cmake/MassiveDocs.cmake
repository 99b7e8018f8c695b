# The Doxygen API reference: the `docs` target and the api_docs test (label docs), which fails
# listing every public entity left undocumented. Both exist only when doxygen is found
# (scripts/install-deps.sh installs Debian's).
option(MASSIVE_BUILD_DOCS "Configure the Doxygen API reference and its check" ${PROJECT_IS_TOP_LEVEL})
if(NOT MASSIVE_BUILD_DOCS)
  return()
endif()
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "doxygen not found: no docs target and no api_docs test")
  return()
endif()

set(MASSIVE_DOCS_OUTPUT "${PROJECT_BINARY_DIR}/docs")
configure_file("${PROJECT_SOURCE_DIR}/docs/Doxyfile.in" "${MASSIVE_DOCS_OUTPUT}/Doxyfile" @ONLY)
add_custom_target(docs
  COMMAND Doxygen::doxygen "${MASSIVE_DOCS_OUTPUT}/Doxyfile"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "API reference in ${MASSIVE_DOCS_OUTPUT}/html"
  VERBATIM)

if(MASSIVE_BUILD_TESTS)
  add_test(NAME api_docs
           COMMAND "${PROJECT_SOURCE_DIR}/scripts/check-api-docs.sh" "${DOXYGEN_EXECUTABLE}"
                   "${MASSIVE_DOCS_OUTPUT}/Doxyfile" "${MASSIVE_DOCS_OUTPUT}/warnings.log"
                   "${PROJECT_SOURCE_DIR}/docs/api-docs-pending.txt"
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties(api_docs PROPERTIES LABELS docs)
endif()
