# Skills as slash commands (spec §2.15): slugs, the command map, invocation messages.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/arguments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/builtin_commands.cpp
  ${CMAKE_CURRENT_LIST_DIR}/invocation_message.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_commands.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slug.cpp)
