# Trigger activation over 50k skills (release preset); figures in bench/README.md "Trigger activation".
add_executable(match_bench ${CMAKE_CURRENT_LIST_DIR}/match_bench.cpp)
target_link_libraries(match_bench PRIVATE skillrt_store skillrt_core skillrt_warnings skillrt_settings)
