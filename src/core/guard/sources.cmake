# The skills guard: scanner, structure and Unicode checks, dismissals, policy,
# report. patterns.cpp and file_context.cpp hold the pattern table and its
# per-line context rules.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/dismissals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ignore_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/literal_matcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pattern_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/patterns.cpp
  ${CMAKE_CURRENT_LIST_DIR}/policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scanner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/snippet.cpp
  ${CMAKE_CURRENT_LIST_DIR}/structure.cpp
  ${CMAKE_CURRENT_LIST_DIR}/threat_pattern.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unicode_smuggling.cpp)
