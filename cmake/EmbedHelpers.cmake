# Helpers of the embedding scripts (EmbedText.cmake, EmbedAssets.cmake; cmake -P).
#
# skillrt_hex_literal(FILE BODY_VAR COUNT_VAR): FILE's bytes as the lines of a
# C++ string literal (hex escapes in chunks of 1,024 bytes: no delimiter or
# trigraph in the text can break it, and no compiler limit on one literal is
# hit) and their count.
function(skillrt_hex_literal file body_var count_var)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  set(body "")
  set(offset 0)
  while(offset LESS hex_length)
    string(SUBSTRING "${hex}" ${offset} 2048 chunk)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" chunk "${chunk}")
    string(APPEND body "    \"${chunk}\"\n")
    math(EXPR offset "${offset} + 2048")
  endwhile()
  math(EXPR count "${hex_length} / 2")
  set(${body_var} "${body}" PARENT_SCOPE)
  set(${count_var} ${count} PARENT_SCOPE)
endfunction()

# skillrt_write_if_changed(FILE TEXT): writes TEXT to FILE only when it
# differs, so an unrelated configure or build does not recompile it.
function(skillrt_write_if_changed file text)
  if(EXISTS "${file}")
    file(READ "${file}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${text}")
endfunction()
