list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/curate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/merge_candidates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_move.cpp)
