# Benchmark tools (release preset): the tree generator and the floor probe.
# bench/run.sh builds and drives them; they are not part of any test.
add_executable(gen_tree ${CMAKE_CURRENT_LIST_DIR}/gen_tree.cpp)
target_link_libraries(gen_tree PRIVATE skillrt_warnings)

# Plain C on purpose: the floor is what a bare opendir/readdir/read walk costs.
add_executable(floor_probe ${CMAKE_CURRENT_LIST_DIR}/floor_probe.c)
set_target_properties(floor_probe PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON)
target_compile_options(floor_probe PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
  $<$<BOOL:${SKILLRT_WERROR}>:-Werror>)
