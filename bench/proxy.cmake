# What the OpenAI-compatible proxy of `skillrt serve --upstream` adds to a
# request; bench/proxy.sh drives it. Figures in bench/README.md "OpenAI-compatible proxy".
add_executable(proxy_bench ${CMAKE_CURRENT_LIST_DIR}/proxy_bench.cpp)
target_link_libraries(proxy_bench PRIVATE Threads::Threads skillrt_warnings skillrt_settings)
