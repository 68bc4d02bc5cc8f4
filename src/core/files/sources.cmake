list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/atomic_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/containment.cpp
  ${CMAKE_CURRENT_LIST_DIR}/content_manifest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/folder_swap.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fsync_dir.cpp
  ${CMAKE_CURRENT_LIST_DIR}/path_within.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pristine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/private_temp_dir.cpp
  ${CMAKE_CURRENT_LIST_DIR}/read_at.cpp
  ${CMAKE_CURRENT_LIST_DIR}/read_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rename.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tree_walk.cpp)
