list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/approval_gate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proposal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/proposal_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/decide.cpp)
