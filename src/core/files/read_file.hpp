// Reading a small regular file whole, with a size limit.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "skillrt/result.hpp"

namespace skillrt::core {

// The bytes of `path`. Errors: not_found (missing), invalid_argument (a
// directory, FIFO, device...: never opened in a way that could block),
// limit_exceeded (larger than max_bytes), io_error (anything else).
Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace skillrt::core
