list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/walker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/git_identity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/roots.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/activation_fields.cpp
  ${CMAKE_CURRENT_LIST_DIR}/string_arena.cpp
  ${CMAKE_CURRENT_LIST_DIR}/description_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/catalog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/listing_cache.cpp)
