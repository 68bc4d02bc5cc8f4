list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/content_manifest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fsync_dir.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pristine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rename.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree_walk.cpp)
