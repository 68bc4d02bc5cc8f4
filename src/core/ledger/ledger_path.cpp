// Relative paths from ledger entries (ledger_path.hpp).
#include "core/ledger/ledger_path.hpp"

#include <string>

namespace skillrt::core::ledger_detail {

Result<void> check_relative_path(std::string_view path) {
  const auto refuse = [&](const char* why) {
    return fail(ErrorCode::invalid_argument, "the ledger path \"" + std::string(path) + "\" " + why);
  };
  if (path.empty()) {
    return refuse("is empty");
  }
  if (path.front() == '/') {
    return refuse("is absolute");
  }
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return refuse("holds a control character");
    }
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t stop = slash == std::string_view::npos ? path.size() : slash;
    const std::string_view segment = path.substr(start, stop - start);
    if (segment.empty() || segment == "." || segment == "..") {
      return refuse("has an empty, \".\" or \"..\" segment");
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return {};
}

} // namespace skillrt::core::ledger_detail
