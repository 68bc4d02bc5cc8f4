list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/usage_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/usage_book.cpp
  ${CMAKE_CURRENT_LIST_DIR}/usage_tally.cpp)
