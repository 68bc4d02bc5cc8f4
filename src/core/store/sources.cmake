# The SkillStore port (skill_store.hpp) and how a SKILL.md becomes a search document.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/search_doc.cpp)
