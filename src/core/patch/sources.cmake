# Fuzzy find-and-replace for skill patches (spec §2.11).
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/did_you_mean.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fuzzy_replace.cpp
  ${CMAKE_CURRENT_LIST_DIR}/match_strategies.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reindent.cpp
  ${CMAKE_CURRENT_LIST_DIR}/similarity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unicode_fold.cpp
  ${CMAKE_CURRENT_LIST_DIR}/utf8_text.cpp)
