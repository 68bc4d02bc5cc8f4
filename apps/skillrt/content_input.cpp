#include "content_input.hpp"

#include <iostream>

#include "core/limits.hpp"
#include "core/files/read_file.hpp"

namespace skillrt::app {

Result<std::string> read_content_input(const std::string& source, std::string_view flag) {
  if (source == "-") {
    std::string data;
    char buffer[65536];
    while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
      data.append(buffer, static_cast<std::size_t>(std::cin.gcount()));
      // Stop reading as soon as the cap is passed: a runaway pipe must not fill memory.
      if (data.size() > limits::k_max_skill_file_bytes) {
        return fail(ErrorCode::limit_exceeded, std::string(flag) + " -: standard input is larger than " +
                                                   std::to_string(limits::k_max_skill_file_bytes) + " bytes");
      }
    }
    return data;
  }
  auto bytes = core::read_regular_file(source, limits::k_max_skill_file_bytes);
  if (!bytes) {
    return fail(bytes.error().code, std::string(flag) + " " + source + ": " + bytes.error().message);
  }
  return std::move(*bytes);
}

} // namespace skillrt::app
