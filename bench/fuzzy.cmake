# Fuzzy patch speed (spec §2.11) on a generated 100 KB Markdown file
# (Google Benchmark, release preset); figures in bench/README.md "Fuzzy patch".
add_executable(fuzzy_bench ${CMAKE_CURRENT_LIST_DIR}/fuzzy_bench.cpp)
target_link_libraries(fuzzy_bench PRIVATE skillrt_core benchmark::benchmark skillrt_warnings skillrt_settings)
