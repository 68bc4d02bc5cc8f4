# Database skills (the hermes_skills rows of one user) as a core service.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/db_skills.cpp)
