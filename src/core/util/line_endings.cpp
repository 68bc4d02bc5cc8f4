#include "core/util/line_endings.hpp"

namespace skillrt::core {

std::string normalise_crlf(std::string_view text) {
  if (text.find('\r') == std::string_view::npos) {
    return std::string(text);  // the common case: nothing to do
  }
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace skillrt::core
