list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/float_syntax.cpp
  ${CMAKE_CURRENT_LIST_DIR}/yaml_node.cpp
  ${CMAKE_CURRENT_LIST_DIR}/yaml_parser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/yaml_emitter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/frontmatter.cpp)
