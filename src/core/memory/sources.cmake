# Per-user memory (the Hermes memory tool) and the state-file plumbing shared
# with core/todo: strict JSON reading, per-user lock, atomic 0600 writes.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/memory_book.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_tool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_state_file.cpp)
