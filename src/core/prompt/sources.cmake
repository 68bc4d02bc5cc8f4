# The skills index for a system prompt (spec §2.16), its caches and invalidation.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/conditions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/frontmatter_prefix.cpp
  ${CMAKE_CURRENT_LIST_DIR}/index_render.cpp
  ${CMAKE_CURRENT_LIST_DIR}/invalidate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skills_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/snapshot.cpp)
