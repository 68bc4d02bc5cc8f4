# Where each skill came from (bundled, hub, agent, user, external, project) and the folder policy over it.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/provenance.cpp)
