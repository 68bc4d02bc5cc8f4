# Guard detection quality over the corpus (bench/guard_quality.sh builds and
# runs it; figures in docs/security.md). Not part of any test.
add_executable(guard_quality ${CMAKE_CURRENT_LIST_DIR}/guard_quality.cpp)
target_link_libraries(guard_quality PRIVATE skillrt_core skillrt_warnings)
