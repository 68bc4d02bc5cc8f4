# File watching: inotify (glibc only) with a debounce, for the MCP servers.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/skill_watcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree_fingerprint.cpp)
