list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/finding.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_units.cpp
  ${CMAKE_CURRENT_LIST_DIR}/name_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_name.cpp
  ${CMAKE_CURRENT_LIST_DIR}/js_value.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/render_text.cpp)
