# Fails naming every golden file that the generated one does not reproduce byte for byte.
set(pairs
  "agg.hpp=include/massive/models/agg.hpp" "agg_decode.hpp=src/models/agg_decode.hpp" "agg.cpp=src/models/agg.cpp"
  "trade.hpp=include/massive/models/trade.hpp" "trade_decode.hpp=src/models/trade_decode.hpp"
  "trade.cpp=src/models/trade.cpp"
  "quote.hpp=include/massive/models/quote.hpp" "quote_decode.hpp=src/models/quote_decode.hpp"
  "quote.cpp=src/models/quote.cpp")
set(failed "")
foreach(pair IN LISTS pairs)
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 golden)
  list(GET parts 1 generated)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${GOLDEN}/${golden}" "${GENERATED}/${generated}"
                  RESULT_VARIABLE different)
  if(different)
    list(APPEND failed "${golden}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "generated output differs from the golden files: ${failed}")
endif()
