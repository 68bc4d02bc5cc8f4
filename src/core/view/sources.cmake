# skill_view: name checks, the shared resolver, readiness, preprocessing, file serving.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/dotenv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dotenv_write.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_serving.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inline_shell.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linked_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/name_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preprocess.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readiness.cpp
  ${CMAKE_CURRENT_LIST_DIR}/setup_request.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resolver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plugin_skill.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/view_usage.cpp)
