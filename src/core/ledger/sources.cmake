# The ledger: hash-chained audit log of every skill change, blobs, verify, rollback.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ledger.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_blobs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_entry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_path.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_record.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_rollback.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ledger_verify.cpp)
