# The PostgreSQL adapter of the SkillStore port (libpq; `--db postgres://…`).
list(APPEND SKILLRT_STORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/pg_connection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pg_change_signal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pg_migrations.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pg_search_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/postgres_change_log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/postgres_session_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/postgres_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/postgres_token_store.cpp)
