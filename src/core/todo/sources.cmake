# Per-user todo list (the Hermes todo tool); file plumbing from core/memory.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/todo_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/todo_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/todo_tool.cpp)
