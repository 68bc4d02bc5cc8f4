# Relevant-skill search: keeps the store's index of file skills current and
# merges the store's ranked hits across the three layers.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/index_sync.cpp
  ${CMAKE_CURRENT_LIST_DIR}/search_skills.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stop_words.cpp)
