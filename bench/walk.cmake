# Discovery's walker against the one tree walker of core/files (release preset); figures in bench/README.md.
add_executable(walk_bench ${CMAKE_CURRENT_LIST_DIR}/walk_bench.cpp)
target_link_libraries(walk_bench PRIVATE skillrt_core skillrt_warnings skillrt_settings)
