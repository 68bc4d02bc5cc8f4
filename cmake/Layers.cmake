# The layering of ARCHITECTURE.md, checked by the build.
#
# skillrt_check_includes(TARGET LAYER ROOT RECURSE ALLOWED... ): before
# TARGET compiles, every #include "..." in ROOT (RECURSE: and below) must name
# LAYER itself, a layer in ALLOWED ("core/util", "protocol", "core/*" for
# every core module) or no layer (skillrt/ public headers, the same folder).
# Linking alone would not catch it: a header-only part of a layer the target
# does not link compiles fine, and an unlinked .cpp still resolves when the
# final binary links everything. The check re-runs only when a file of ROOT
# changes, appears or disappears (one `cmake -P` of a few milliseconds).
function(skillrt_check_includes target layer root recurse hint)
  set(allowed ${ARGN})
  if(recurse)
    file(GLOB_RECURSE files CONFIGURE_DEPENDS LIST_DIRECTORIES false ${root}/*.hpp ${root}/*.cpp ${root}/*.h)
  else()
    file(GLOB files CONFIGURE_DEPENDS LIST_DIRECTORIES false ${root}/*.hpp ${root}/*.cpp ${root}/*.h)
  endif()
  string(REPLACE "/" "_" stamp_name "${layer}")
  set(stamp ${CMAKE_BINARY_DIR}/layers/${stamp_name}.ok)
  string(REPLACE ";" "," allowed_arg "${allowed}")
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${layer} -DROOT=${root} -DRECURSE=${recurse}
            "-DALLOWED=${allowed_arg}" "-DHINT=${hint}" -DSTAMP=${stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/CheckIncludes.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/CheckIncludes.cmake
    COMMENT "Checking the includes of ${layer}"
    VERBATIM)
  add_custom_target(${target}_includes DEPENDS ${stamp})
  add_dependencies(${target} ${target}_includes)
endfunction()

# skillrt_layer_uses(TARGET LAYER [CORE module...] [LAYERS layer...]): TARGET
# (the library of src/LAYER) links PUBLIC exactly these core modules
# (skillrt_core_<module>) and layers (skillrt_<layer>), and its files may
# include only their headers (skillrt_check_includes).
function(skillrt_layer_uses target layer)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "CORE;LAYERS")
  set(links "")
  set(allowed "")
  foreach(module ${arg_CORE})
    list(APPEND links skillrt_core_${module})
    list(APPEND allowed core/${module})
  endforeach()
  foreach(used ${arg_LAYERS})
    list(APPEND links skillrt_${used})
    list(APPEND allowed ${used})
  endforeach()
  target_link_libraries(${target} PUBLIC ${links})
  skillrt_check_includes(${target} ${layer} ${CMAKE_CURRENT_SOURCE_DIR} ON
    "add it to skillrt_layer_uses in src/${layer}/CMakeLists.txt" ${allowed})
endfunction()
