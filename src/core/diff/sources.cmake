# Unified diffs between two skill folders (used by hub update and bundled sync;
# below both, so neither depends on the other for it).
list(APPEND SKILLRT_CORE_SOURCES ${CMAKE_CURRENT_LIST_DIR}/unified_diff.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_entry_diff.cpp)
