# Load generator for `skillrt serve` (MCP Streamable HTTP); bench/mcp_http.sh
# drives it. Figures in bench/README.md "MCP over HTTP".
add_executable(mcp_http_bench ${CMAKE_CURRENT_LIST_DIR}/mcp_http_bench.cpp)
target_link_libraries(mcp_http_bench PRIVATE Threads::Threads skillrt_warnings skillrt_settings)
