# The SQLite adapter of the SkillStore port (embedded default: HOME/skillrt.db).
list(APPEND SKILLRT_STORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/fts_query.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_connection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scoped_ranking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/search_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_schema.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sqlite_token_store.cpp)
