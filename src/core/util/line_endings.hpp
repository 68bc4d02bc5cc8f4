// CRLF handling shared by the frontmatter parser and the validator.
#pragma once

#include <string>
#include <string_view>

namespace skillrt::core {

// `text` with every "\r\n" turned into "\n" (a lone "\r" is kept): YAML line
// numbers then match the file's for CRLF files.
std::string normalise_crlf(std::string_view text);

}  // namespace skillrt::core
