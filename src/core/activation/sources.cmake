list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/message_words.cpp
  ${CMAKE_CURRENT_LIST_DIR}/path_glob.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trigger_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/activation_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/match_skills.cpp)
