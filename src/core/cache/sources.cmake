# Cache primitives with no domain knowledge: a file's exact stamp (the key of
# every cache that must never go stale) and a bounded LRU map (lru_cache.hpp).
list(APPEND SKILLRT_CORE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/file_stamp.cpp)
