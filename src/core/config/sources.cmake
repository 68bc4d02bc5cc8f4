list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/list_literal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/folder_policy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/learning_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config.cpp)
