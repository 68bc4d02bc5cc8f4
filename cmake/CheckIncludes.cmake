# cmake -P CheckIncludes.cmake: fails when a file of one layer includes a
# header of a layer it may not use (ARCHITECTURE.md, "How the layering is
# enforced"). Run at build time by skillrt_check_includes (cmake/Layers.cmake)
# whenever a file of the layer changes; it only reads the files.
#
#   -DLAYER=core/sync            who is checked (named as in the messages)
#   -DROOT=<source dir>          the folder whose files are read
#   -DRECURSE=ON|OFF             also its subfolders
#   -DALLOWED=core/util;...      layers it may include besides itself;
#                                "core/*" stands for every core module
#   -DHINT=<text>                where the allowed list is declared
#   -DSTAMP=<file>               touched on success
cmake_minimum_required(VERSION 3.25)

if(RECURSE)
  file(GLOB_RECURSE _files LIST_DIRECTORIES false ${ROOT}/*.hpp ${ROOT}/*.cpp ${ROOT}/*.h)
else()
  file(GLOB _files LIST_DIRECTORIES false ${ROOT}/*.hpp ${ROOT}/*.cpp ${ROOT}/*.h)
endif()
list(SORT _files)
string(REPLACE "," ";" ALLOWED "${ALLOWED}")

set(_errors "")
foreach(_file ${_files})
  file(STRINGS ${_file} _lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(_line ${_lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*$" "\\1" _header "${_line}")
    # The layer that owns the header: core/<module>/x.hpp → core/<module>,
    # core/x.hpp (context, limits, progress) → core/base, protocol/x.hpp →
    # protocol. Headers of the same folder and the public skillrt/ headers
    # belong to no layer.
    set(_owner "")
    if(_header MATCHES "^core/([a-z0-9_]+)/")
      set(_owner "core/${CMAKE_MATCH_1}")
    elseif(_header MATCHES "^core/[^/]+$")
      set(_owner "core/base")
    elseif(_header MATCHES "^(protocol|store|sources|mcp|net)/")
      set(_owner "${CMAKE_MATCH_1}")
    elseif(_header MATCHES "\\.\\./")
      set(_owner "../ (a relative path out of the folder)")
    endif()
    if(_owner STREQUAL "" OR _owner STREQUAL LAYER)
      continue()
    endif()
    if(_owner IN_LIST ALLOWED)
      continue()
    endif()
    if(_owner MATCHES "^core/" AND "core/*" IN_LIST ALLOWED)
      continue()
    endif()
    file(RELATIVE_PATH _shown ${ROOT}/.. ${_file})
    string(APPEND _errors "  ${_shown}: #include \"${_header}\" (${_owner})\n")
  endforeach()
endforeach()

if(NOT _errors STREQUAL "")
  string(REPLACE ";" " " _allowed_text "${ALLOWED}")
  if(_allowed_text STREQUAL "")
    set(_allowed_text "its own headers (it uses no other layer)")
  endif()
  message(FATAL_ERROR
    "${LAYER} includes a layer it may not use:\n${_errors}"
    "${LAYER} may include only: ${_allowed_text}\n"
    "The order is ARCHITECTURE.md's (a folder uses only folders listed after it). "
    "If the dependency is right, ${HINT}; if it points up, move the shared type down or invert it.")
endif()
file(TOUCH ${STAMP})
