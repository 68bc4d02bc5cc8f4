# Tenancy: layers, user/org ids, per-user homes and the one permission matrix.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/layer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/permissions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_home.cpp
  ${CMAKE_CURRENT_LIST_DIR}/user_id.cpp)
