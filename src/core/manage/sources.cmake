# skill_manage: create / edit / patch / delete / write_file / remove_file with
# per-skill locks, atomic writes, rollback and the optional guard hook.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/content_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/create.cpp
  ${CMAKE_CURRENT_LIST_DIR}/delete.cpp
  ${CMAKE_CURRENT_LIST_DIR}/edit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_path_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/guard_hook.cpp
  ${CMAKE_CURRENT_LIST_DIR}/folder_owners.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_hook.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_rollback.cpp
  ${CMAKE_CURRENT_LIST_DIR}/manage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/patch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remove_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_locator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skill_lock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stray_temp_cleanup.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transaction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/write_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/write_session.cpp)
