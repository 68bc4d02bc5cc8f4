list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/line_endings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/percent_encoding.cpp
  ${CMAKE_CURRENT_LIST_DIR}/random_hex.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sha256.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strict_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/terminal_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/utc_time.cpp
  ${CMAKE_CURRENT_LIST_DIR}/utf8.cpp
  ${CMAKE_CURRENT_LIST_DIR}/utf8_prefix.cpp)
