# Relevant-skill search over 50k skills in a real SQLite store (release
# preset); figures in bench/README.md "Search".
add_executable(search_bench ${CMAKE_CURRENT_LIST_DIR}/search_bench.cpp)
target_link_libraries(search_bench PRIVATE skillrt_store skillrt_core skillrt_warnings skillrt_settings)
