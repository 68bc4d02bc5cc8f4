# cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -DNAMESPACE=ns -P EmbedText.cmake
# Writes OUTPUT defining `extern const std::string_view NAMESPACE::SYMBOL`
# with INPUT's bytes, so the binary serves the file without reading the tree.
# The bytes go in as hex escapes in chunks: no delimiter or trigraph in the
# text can break the literal, and no compiler limit on one literal is hit.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
set(body "")
set(offset 0)
while(offset LESS hex_length)
  string(SUBSTRING "${hex}" ${offset} 2048 chunk)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" chunk "${chunk}")
  string(APPEND body "    \"${chunk}\"\n")
  math(EXPR offset "${offset} + 2048")
endwhile()
math(EXPR byte_count "${hex_length} / 2")
set(text "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.
#include <string_view>

namespace ${NAMESPACE} {

extern const std::string_view ${SYMBOL};
namespace {
constexpr char k_bytes[] =
${body}    \"\";
}  // namespace
const std::string_view ${SYMBOL}{k_bytes, ${byte_count}};

}  // namespace ${NAMESPACE}
")
# Rewrite only on a change, so an unrelated configure does not recompile it.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${text}")
