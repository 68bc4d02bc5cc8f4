list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/plugin_manifest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plugin_set.cpp)
