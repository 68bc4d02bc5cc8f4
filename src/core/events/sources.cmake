# Change events: the bus that carries skill created/updated/deleted to subscribers.
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/change_relay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/event_bus.cpp)
