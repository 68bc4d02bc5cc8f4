# Guard scan speed over the real corpus (release preset); figures in bench/README.md.
add_executable(scan_bench ${CMAKE_CURRENT_LIST_DIR}/scan_bench.cpp)
target_link_libraries(scan_bench PRIVATE skillrt_core skillrt_warnings skillrt_settings)
target_compile_definitions(scan_bench PRIVATE SKILLRT_CORPUS_DIR="${PROJECT_SOURCE_DIR}/../shared/corpus")
