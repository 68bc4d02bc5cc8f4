list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/nudge_counter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_files.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_prompt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_scheduler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_session.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_snapshot.cpp)
