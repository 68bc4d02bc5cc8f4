list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/chat_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chat_stream.cpp
  ${CMAKE_CURRENT_LIST_DIR}/chat_wire.cpp)
