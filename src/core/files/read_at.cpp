// Positional exact reads (see read_at.hpp).
#include "core/files/read_at.hpp"

#include <unistd.h>

#include <cerrno>

namespace skillrt::core::files {

bool read_exactly_at(int fd, std::uint64_t offset, char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false; // an error, or the end of the file before `size` bytes
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

} // namespace skillrt::core::files
