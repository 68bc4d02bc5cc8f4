# cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -DNAMESPACE=ns -P EmbedText.cmake
# Writes OUTPUT defining `extern const std::string_view NAMESPACE::SYMBOL`
# with INPUT's bytes, so the binary serves the file without reading the tree.
# The bytes go in as hex escapes (EmbedHelpers.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/EmbedHelpers.cmake)
skillrt_hex_literal("${INPUT}" body byte_count)
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
skillrt_write_if_changed("${OUTPUT}" "${text}")
